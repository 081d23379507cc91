"""To-dos whose titles read as orders of another kind (tests/data/conversations_command_
titles.jsonl): "cancel my haircut", "delete old emails", "move my haircut to friday",
"book a massage friday at 3pm", "change my email", "pay my invoice", "delete all my
tasks". Added, then named by the customer to complete, delete or keep: the to-do is what
changes, never the visit, the profile or the other to-dos its words name, and a
completion is never asked about as a delete.

FIRST RUN (written before the rules were read): 8/14 sessions (19/25 turns), with one
WRONG WRITE: "add a task to move my haircut to friday" added "Move my haircut to", due
Friday (the day the verb moves to, cut out as a due date). Wrong questions: "mark the
cancel my haircut task as done", "I finished the delete old emails task" and "the cancel
the newspaper task is done" asked to DELETE the to-do (a yes would have deleted it);
"complete the cancel the gym membership one" asked which appointment to cancel; "mark the
change my email task done" asked for the new email address.
Fixed as rules: a to-do named "the <order …> task/one/to-do/reminder" has its title masked
as quoted words are when the write is chosen (language/quoted.py `_titles_masked`); a day
after "move/push/reschedule … to" is the title's, not a due date (language/slots.py
`_MOVED_TO_A_DAY`). `bench.decisions --dump`: no decision changed.
Six written after the fixes (ct-b-), first run 1/6 sessions (9/14 turns), no write made
wrong but two questions whose yes would have cancelled the haircut: "mark the reminder to
cancel my haircut as done" and, after a listing, "cancel my haircut is done" asked to
cancel the visit; "complete the task called delete old emails" asked to delete it;
"delete the reminder to cancel the gym membership" asked which visit to cancel; "make the
reminder to change my email high priority" asked for an email. Fixed (quoted.py): a title
told after its noun ("the task called …", "the reminder to <order> …") and an order said
as what "is done" are masked as quoted words. `bench.decisions --dump`: no decision
changed.
Six more (ct-c-) written after those fixes, first run 5/6 sessions: "delete the pay my bill
one" (a to-do) offered a support case about the invoice, and the yes OPENED ONE. Fixed
(models/embedded/limits.py): what no tool does is read with to-do titles masked too. (That
probe's invoice check first left out the seed's third invoice: the probe's mistake,
corrected.) `bench.decisions --dump`: no decision changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

COMMAND_TITLES: Path = DATA / "conversations_command_titles.jsonl"


async def test_a_todo_that_reads_as_an_order_is_changed_as_a_todo(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session changes the to-do as said (or asks), and nothing its words name."""
    assert len(read_cases(COMMAND_TITLES)) == 26
    share, failed = await score(make_assistant, crm_admin, COMMAND_TITLES, capsys)
    assert share == 1.0, failed
