"""Fixtures for browser tests: Debian's Chromium driven by Playwright, and a live stack.

Playwright's own browser download cannot work here, so the tests drive
/usr/bin/chromium (`make test` installs the Debian package when it is missing).
When it is missing anyway the tests fail, saying why: a skipped browser test
would hide a broken widget.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.browser.live import LiveStack

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module's tests."""
    if not CHROMIUM.exists():
        elsewhere = shutil.which("chromium")
        pytest.fail(
            f"the browser tests need Chromium at {CHROMIUM}: install the Debian package "
            "`chromium` (`make test` does so with apt-get when it can)"
            + (f"; one was found at {elsewhere}, not at that path" if elsewhere else "")
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def live() -> Iterator[LiveStack]:
    """The CRM stub (seeded, in memory) and the assistant in demo mode, on free ports."""
    stack = LiveStack().start()
    try:
        yield stack
    finally:
        stack.close()


@pytest.fixture
def embedded() -> Iterator[LiveStack]:
    """The stack outside demo mode, with a customer's site on another origin embedding
    the widget (`site_url`)."""
    with LiveStack(demo=False) as stack:
        yield stack


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page (own storage) for the chat widget; a JavaScript error fails the test."""
    # The test's stack starts before the page and stops after it: a page still open
    # would hold the server's shutdown for its websocket.
    for stack in ("live", "embedded"):
        if stack in request.fixturenames:
            request.getfixturevalue(stack)
    context = browser.new_context(viewport={"width": 960, "height": 820})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def artifacts() -> Path:
    """The gitignored folder where a test run leaves screenshots for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under `make test` (a pytest process per core) every browser test runs in the same
    process, one at a time: two Chromiums rendering at once on a small machine starve
    each other's frames, and a layout or timing check then fails for the machine's sake."""
    browser_dir = Path(__file__).parent
    for item in items:
        if browser_dir in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.xdist_group("browser"))
