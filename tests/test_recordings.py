"""Every recorded conversation under tests/recordings/ is a test case (by file name).

A recording replays through today's engine with the recorded decisions, narrations
and CRM results; any difference in what the customer would be sent fails the test
with a diff naming the turn and the event. After a deliberate change:
`.venv/bin/assistant replay tests/recordings --update`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import time_machine

from assistant.recording.format import read_recording
from assistant.recording.runner import replay, replay_file
from assistant.settings import Settings, load_settings
from assistant.tools.catalog import Catalog, load_catalog

RECORDINGS = sorted((Path(__file__).parent / "recordings").glob("*.jsonl"))
YEARS_LATER = dt.datetime(2031, 6, 1, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
def settings() -> Settings:
    return load_settings()


@pytest.fixture(scope="module")
def catalog(settings: Settings) -> Catalog:
    return load_catalog(settings.resolve(settings.tools_path))


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda path: path.name)
async def test_recording_replays_the_same(path: Path, settings: Settings, catalog: Catalog) -> None:
    """The engine sends what was recorded: acks, tools, statuses, confirmations, answers."""
    report = await replay_file(path, catalog=catalog, settings=settings)
    assert report.ok, report.render()


def test_at_least_twelve_conversations_are_shipped() -> None:
    """The suite pins at least twelve real conversations."""
    assert len(RECORDINGS) >= 12, [path.name for path in RECORDINGS]


async def test_recordings_replay_the_same_years_later(settings: Settings, catalog: Catalog) -> None:
    """With the machine's clock in 2031, every recording still replays without a difference."""
    with time_machine.travel(YEARS_LATER, tick=True):
        assert dt.date.today().year == 2031
        for path in RECORDINGS:
            report = await replay_file(path, catalog=catalog, settings=settings)
            assert report.ok, report.render()


@pytest.mark.parametrize(
    "name",
    [
        "book_appointment.jsonl",
        "reschedule_next_appointment.jsonl",
        "cancel_next_appointment_confirmed.jsonl",
    ],
)
async def test_live_models_years_later_ask_for_the_recorded_calls(
    name: str, settings: Settings, catalog: Catalog
) -> None:
    """The embedded planner, given the recorded `now` in 2031, asks for the same calls."""
    recording = read_recording(Path(__file__).parent / "recordings" / name)
    with time_machine.travel(YEARS_LATER, tick=True):
        report = await replay(
            recording,
            catalog=catalog,
            settings=settings.model_copy(update={"backend": "embedded"}),
            models="live",
        )

    def calls(events: list[dict[str, object]]) -> list[tuple[object, object]]:
        return sorted(
            (str(e["tool"]), str(e["arguments"])) for e in events if e["type"] == "tool.started"
        )

    for recorded, replayed in zip(recording.turns(), report.replayed.turns(), strict=True):
        assert calls(replayed.events) == calls(recorded.events), report.render()
