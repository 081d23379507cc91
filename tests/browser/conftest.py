"""Fixtures for browser tests: Debian's Chromium driven by Playwright, and a live stack.

Playwright's own browser download cannot work here, so the tests drive
/usr/bin/chromium (`make test` installs the Debian package when it is missing).
When it is missing anyway the tests fail, saying why: a skipped browser test
would hide a broken widget.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import ExitStack
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


class _Chromium:
    """One headless Chromium for the tests using it that a process runs one after
    another, whatever their module (`make test` runs the browser tests on one worker, in
    a row): started by the first, closed after the last (`pytest_runtest_teardown`), so
    a test of another kind (an asyncio one: Playwright's loop is the thread's while it
    runs) never runs beside it. Each test still has a context of its own (`page`): its
    own storage, cookies and cache."""

    def __init__(self) -> None:
        self._running = ExitStack()
        self._browser: Browser | None = None

    def get(self) -> Browser:
        if self._browser is None:
            if not CHROMIUM.exists():
                elsewhere = shutil.which("chromium")
                pytest.fail(
                    f"the browser tests need Chromium at {CHROMIUM}: install the Debian "
                    "package `chromium` (`make test` does so with apt-get when it can)"
                    + (f"; one was found at {elsewhere}, not at that path" if elsewhere else "")
                )
            try:
                playwright = self._running.enter_context(sync_playwright())
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
                )
            except BaseException:
                self.close()
                raise
            self._running.callback(browser.close)
            self._browser = browser
        return self._browser

    def close(self) -> None:
        self._browser = None
        self._running.close()  # the browser, then Playwright


_CHROMIUM = _Chromium()


@pytest.fixture
def browser() -> Browser:
    """The headless Chromium the browser tests share (`_Chromium`)."""
    return _CHROMIUM.get()


def _is_browser_test(item: pytest.Item) -> bool:
    return Path(__file__).parent in Path(str(item.fspath)).parents


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's own teardown (its page closed), Chromium is closed unless the next
    test uses it too."""
    try:
        return (yield)
    finally:
        if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
            _CHROMIUM.close()


def pytest_sessionfinish() -> None:
    _CHROMIUM.close()  # a run stopped part-way (-x, Ctrl-C)


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


def pytest_itemcollected(item: pytest.Item) -> None:
    """Under `make test` (a pytest process per core) every browser test runs in the same
    process, one at a time: two Chromiums rendering at once on a small machine starve
    each other's frames, and a layout or timing check then fails for the machine's sake.
    (Given as each is collected: tests/conftest.py's grouping, before xdist's, sees it.)"""
    if _is_browser_test(item):
        item.add_marker(pytest.mark.xdist_group("browser"))
