"""The catalog as the one source of a tool's facts: a new REST tool is a yaml entry."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from aiohttp import web

from assistant.app import create_app
from assistant.errors import ConfigError
from assistant.fakes import EchoNarrator, ScriptedPlanner, calls
from assistant.models.embedded import EmbeddedNarrator
from assistant.models.embedded.narrator import DESCRIBERS
from assistant.models.embedded.scene import ACTION_OF, SYSTEM_OF, Scene
from assistant.schema import FinalDecision, ToolResult
from assistant.settings import PROJECT_ROOT, load_settings
from assistant.tools.catalog import load_catalog
from tests.fixtures.app import MakeAssistant

PAST_APPOINTMENTS = {
    "name": "crm.listPastAppointments",
    "description": "The customer's past appointments, oldest first.",
    "effect": "read",
    "system": "scheduling",
    "http": {
        "method": "GET",
        "path": "appointments",
        "query": {"status": "past"},
        "expect": "appointments",
    },
    "waiting_hint": "looking up your past appointments",
    "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
}


def _catalog_with(tmp_path: Path, extra: dict[str, object]) -> Path:
    """config/tools.yaml with one more tool."""
    document = yaml.safe_load((PROJECT_ROOT / "config" / "tools.yaml").read_text())
    document["tools"].append(extra)
    path = tmp_path / "tools.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


async def test_a_read_tool_the_crm_serves_works_from_its_yaml_entry_alone(
    make_assistant: MakeAssistant, tmp_path: Path
) -> None:
    """A past-appointments tool added only to the catalog is called through the real
    CRM stub, and its answer (Maria's two past visits) reaches the narrator."""
    catalog = load_catalog(_catalog_with(tmp_path, PAST_APPOINTMENTS))
    narrator = EchoNarrator()
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listPastAppointments"), FinalDecision(text="")),
        narrator=narrator,
        catalog=catalog,
    )
    chat = await assistant.connect("cust_001")
    events = await chat.say("what appointments did I have before?")

    done = events[-1]
    assert done["status"] == "ok"
    assert [c["tool"] for c in done["tool_calls"]] == ["crm.listPastAppointments"]
    ack = next(e for e in events if e["type"] == "ack.done")
    assert ack["text"] == "Sure, I'll look up your past appointments."
    (result,) = narrator.inputs[0].tool_results
    services = sorted(a["service"] for a in result.result["appointments"])
    assert services == ["Annual checkup", "Haircut"]
    assert all(a["status"] == "past" for a in result.result["appointments"])


async def test_a_tool_without_a_binding_stops_the_service_from_starting(
    crm_url: str, crm_token: str, tmp_path: Path
) -> None:
    """Start-up refuses a catalog tool the CRM backend cannot perform, naming it."""
    unbound = {key: value for key, value in PAST_APPOINTMENTS.items() if key != "http"}
    catalog = load_catalog(_catalog_with(tmp_path, unbound))
    settings = load_settings(demo=True, secret="x" * 32, crm_url=crm_url, crm_token=crm_token)
    runner = web.AppRunner(create_app(settings, catalog=catalog))
    try:
        with pytest.raises(ConfigError, match=r"no implementation for crm\.listPastAppointments"):
            await runner.setup()
    finally:
        await runner.cleanup()


def test_a_binding_naming_an_unknown_argument_is_refused(tmp_path: Path) -> None:
    """A path part that is not one of the tool's parameters is caught when loading."""
    broken = {**PAST_APPOINTMENTS, "http": {"method": "GET", "path": "appointments/{visit_id}"}}
    with pytest.raises(ConfigError, match=r"crm\.listPastAppointments\.http names visit_id"):
        load_catalog(_catalog_with(tmp_path, broken))


async def test_the_embedded_models_refuse_a_tool_they_cannot_speak_of(
    crm_url: str, crm_token: str, tmp_path: Path
) -> None:
    """With the embedded models, start-up names the describer and the failure phrasing
    a new tool lacks, instead of narrating its results as "All done."."""
    catalog = load_catalog(_catalog_with(tmp_path, PAST_APPOINTMENTS))
    settings = load_settings(demo=True, secret="x" * 32, crm_url=crm_url, crm_token=crm_token)
    runner = web.AppRunner(create_app(settings, catalog=catalog))
    try:
        with pytest.raises(ConfigError) as refused:
            await runner.setup()
    finally:
        await runner.cleanup()
    assert "crm.listPastAppointments: no describer" in str(refused.value)
    assert "crm.listPastAppointments: no failure phrasing" in str(refused.value)


async def test_with_a_describer_the_embedded_narrator_speaks_the_new_tool(
    make_assistant: MakeAssistant, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A yaml entry plus a describer and a failure phrasing is all the embedded narrator
    needs: the customer hears the past appointments the CRM holds."""

    def past(result: ToolResult, scene: Scene) -> list[str]:
        services = sorted(a["service"] for a in result.result["appointments"])
        return [f"Your past appointments were: {' and '.join(services)}."]

    monkeypatch.setitem(DESCRIBERS, "crm.listPastAppointments", past)
    monkeypatch.setitem(ACTION_OF, "crm.listPastAppointments", "look up your past visits")
    monkeypatch.setitem(SYSTEM_OF, "crm.listPastAppointments", "the scheduling system")
    catalog = load_catalog(_catalog_with(tmp_path, PAST_APPOINTMENTS))
    assistant = await make_assistant(
        planner=ScriptedPlanner(calls("crm.listPastAppointments"), FinalDecision(text="")),
        narrator=EmbeddedNarrator(),
        catalog=catalog,
    )
    chat = await assistant.connect("cust_001")
    events = await chat.say("what appointments did I have before?")

    answer = next(e for e in events if e["type"] == "answer.done")
    assert answer["text"] == "Your past appointments were: Annual checkup and Haircut."


def test_the_embedded_narrator_can_speak_of_every_catalog_tool() -> None:
    """Every tool of config/tools.yaml has a describer and a failure phrasing."""
    catalog = load_catalog(PROJECT_ROOT / "config" / "tools.yaml")
    assert EmbeddedNarrator().missing(tool.name for tool in catalog.tools) == []


async def test_past_appointments_by_status_are_spoken(make_assistant: MakeAssistant) -> None:
    """Maria's past visits, asked for by status, are said with their count and services."""
    assistant = await make_assistant(
        planner=ScriptedPlanner(
            calls(("crm.listAppointments", {"status": "past"})), FinalDecision(text="")
        ),
        narrator=EmbeddedNarrator(),
    )
    chat = await assistant.connect("cust_001")
    events = await chat.say("which appointments did I have?")

    answer = next(e for e in events if e["type"] == "answer.done")["text"]
    assert answer.startswith("You have two past appointments: a haircut on "), answer
    assert "and an annual checkup on " in answer
