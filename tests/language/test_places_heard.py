"""A place in a list ("the second one") is counted in a list the customer heard, of the
kind they name: never in one this conversation did not read out, or of another kind."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Dialogue
from assistant.models.embedded.references import read_intents
from assistant.schema import UserTurn

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))
TASKS = (
    {"id": "task_1", "title": "Buy groceries", "status": "pending"},
    {"id": "task_2", "title": "Renew car insurance", "status": "pending"},
)


def _read(text: str, state: Dialogue) -> list[object]:
    return list(read_intents((UserTurn(text=text),), text, NOW, TZ, state))


def test_the_second_one_with_nothing_read_out_is_asked_about() -> None:
    """ "push the second one to the ninth" where nothing was listed (a platform's history
    held a task list another instance read out): no place counted (was: the second visit
    on the calendar MOVED); with the tasks read out here, the second of them."""
    unheard = _read("push the second one to the ninth", Dialogue())
    assert [i.target.position for i in unheard if i.target] == [None]  # type: ignore[attr-defined]
    listed = Dialogue(listed_kind="task", listed=TASKS)
    heard = _read("push the second one to the ninth", listed)
    assert any(i.target and i.target.item_id == "task_2" for i in heard)  # type: ignore[attr-defined]


def test_the_first_appointment_is_not_counted_among_the_tasks() -> None:
    """ "move the first appointment you told me about to thursday at 11am" with only the
    tasks read out is not the first task (was: its due day MOVED)."""
    listed = Dialogue(listed_kind="task", listed=TASKS)
    read = _read("move the first appointment you told me about to thursday at 11am", listed)
    assert all(i.kind != "update_task" for i in read), read  # type: ignore[attr-defined]
