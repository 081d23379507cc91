"""Catalog tool names to API function names and back."""

from __future__ import annotations

from assistant.models.openai_compat.names import WIRE_NAME, ToolNames, sanitize_name
from tests.models_openai.helpers import CATALOG


def test_every_catalog_name_round_trips_through_a_valid_wire_name() -> None:
    """Each catalog tool gets an API-valid name that maps back to exactly that tool."""
    names = ToolNames(tool.name for tool in CATALOG.tools)
    for tool in CATALOG.tools:
        wire = names.to_wire(tool.name)
        assert WIRE_NAME.match(wire)
        assert names.to_catalog(wire) == tool.name
    assert names.to_wire("crm.getOpenInvoices") == "crm_getOpenInvoices"


def test_made_up_and_dotted_names_pass_back_unchanged() -> None:
    """A name the model invented reaches the engine as is, to be answered as unknown."""
    names = ToolNames(["crm.listTasks"])
    assert names.to_catalog("crm_getWeather") == "crm_getWeather"
    assert names.to_catalog("crm.listTasks") == "crm.listTasks"


def test_colliding_names_stay_distinct() -> None:
    """Two catalog names that sanitise alike get distinct, reversible wire names."""
    names = ToolNames(["crm.a", "crm_a"])
    assert names.to_wire("crm.a") != names.to_wire("crm_a")
    assert names.to_catalog(names.to_wire("crm.a")) == "crm.a"
    assert names.to_catalog(names.to_wire("crm_a")) == "crm_a"


def test_any_name_in_history_is_made_valid() -> None:
    """Spaces, unicode, empty and overlong names become something the API accepts."""
    for raw in ["get invoices", "café.menu", "", "x" * 100]:
        assert WIRE_NAME.match(sanitize_name(raw))
