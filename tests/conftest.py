"""Shared fixtures live in tests/fixtures/, one module per concern, loaded here."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator

import pytest

pytest_plugins = [
    "tests.fixtures.crm",
    "tests.fixtures.openai_server",
    "tests.fixtures.app",
    "tests.fixtures.redis",
    "tests.fixtures.schedule",
    "tests.fixtures.collector",
]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`make test` runs with `--dist loadgroup` so that the browser tests share one worker
    (tests/browser/conftest.py). Every other test is then a unit of work of its own, and
    handing some 3,000 of them out one by one cost the run about 40 s on two cores (against
    `--dist load`); a module of many tests is handed out whole instead, while a module of a
    few (the slow replays, split in groups to run side by side) still goes test by test.

    First of this hook's implementations: xdist's own names each item's unit from its
    groups before the later ones run, so a group given here after it would be ignored
    (and a group given in another conftest must be given when the item is collected,
    `pytest_itemcollected`, as the browser tests' is)."""
    per_module = Counter(item.nodeid.split("::")[0] for item in items)
    for item in items:
        module = item.nodeid.split("::")[0]
        if item.get_closest_marker("xdist_group") is None and per_module[module] >= _WHOLE:
            item.add_marker(pytest.mark.xdist_group(module))


# A module with this many tests or more is one unit of work.
_WHOLE = 8


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """A test of a module that plays the shared written conversations (tests/e2e/
    conversations.py `shared_cases`) fails if it changed one of them in place."""
    yield
    conversations = sys.modules.get("tests.e2e.conversations")
    module = getattr(item, "module", None)
    if conversations is None or getattr(module, "shared_cases", None) is None:
        return
    if changed := conversations.shared_cases_changed():
        raise AssertionError(f"the test changed the shared cases of {', '.join(changed)}")
