"""A task's due day or title changed in the words used for visits ("push", "postpone",
"bring forward", "reschedule", "the first one" after the tasks were read out). Through the
websocket and the real CRM stub.

tests/data/conversations_task_dates.jsonl, written before the rules were read. First run:
9/12. One was a wrong write: after "what are my tasks", "push the first one to next
wednesday" called a move of the dental cleaning (the first visit, on a Wednesday), since
any "next" in the message stopped the count in the list read out. Two were misses that
wrote nothing: "postpone buy groceries by two days" asked when to move "it", and "bring
the car insurance task forward to thursday" read the tasks out. One expectation of the
set was corrected to the house's documented reading of "next wednesday" (the next one
after today, assistant/language/dates.py).

Now "next" stops the count only as "the next one", not before a day; a task's due day is
moved with "bring … forward to", "put off", "delay", and "postpone … by two days" counts
from the verb. 11/12; the one open wrote nothing.

The last open, "postpone buy groceries by two days", was a shift not read past a verb's
object of more than one word ("postpone my dental cleaning by two days" asked when too):
the object may now take a few words, none a preposition. 12/12.

Then sixteen deadlines said in other words were tried on new tasks before the rules were
read: "no later than wednesday", "by close of business friday" and the like left their
words in the title ("Send the forms no later than"), as did "…by friday at the latest"
(the last 4 sessions, td3-, hold the kind: 1/4 before the fix, 4/4 after). They are now
read as "by" and "end of day" ("cob" only after "by": "the cob loan" stays a title).
Left alone: "two days before my haircut" and "on the 20th or the 21st" keep their words
in the title (a day counted from a visit, two days offered).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

TASK_DATES: Path = DATA / "conversations_task_dates.jsonl"

KNOWN_OPEN: list[str] = []


async def test_a_tasks_due_day_is_moved_in_the_words_used_for_visits(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: a task's due day moves, and no visit is moved for a task."""
    assert len(read_cases(TASK_DATES)) == 16
    _, failed = await score(make_assistant, crm_admin, TASK_DATES, capsys)
    assert failed == KNOWN_OPEN
