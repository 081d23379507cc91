"""The embedded planner's list of writes is the catalog's: a write tool added to
config/tools.yaml but not here would be narrated as a lookup and not kept in view."""

from __future__ import annotations

from pathlib import Path

from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.tools.catalog import load_catalog

CATALOG = Path(__file__).resolve().parents[2] / "config" / "tools.yaml"


def test_the_embedded_writes_are_the_catalogs_writes() -> None:
    """Every tool the catalog marks as writing, and no other, is a write here."""
    catalog = load_catalog(CATALOG)
    assert {tool.name for tool in catalog.tools if tool.writes} == WRITE_TOOLS
