"""The cases the ninth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen.jsonl: a service named that is neither the one on file
nor offered ("reschedule my dental surgery…", "book a knee surgery…"), a task's time
("…at quarter to nine on thursday"), "a bit later, like 11", "and the phone?" after the
email, "celebrate that day" with no day in view, and "next tuesday" said on a Monday.

First run, on the code as it was: 0/11 sessions (6/19 turns), with 4 WRONG WRITES: "reschedule
my dental surgery to friday at 10am" moved the dental cleaning; "book a dental surgery…"
booked a dental cleaning; "book a knee surgery…" booked one, though no such service is
offered; "add a task to celebrate that day" added "Celebrate that day". Misses: the time of
"…call the bank at quarter to nine on thursday" dropped unsaid; "cancel my dental surgery"
asked to cancel the cleaning without saying it is not a surgery; "a bit later, like 11" and
"and the phone?" (after the email was read or changed) refused; "next tuesday" (said on a
Monday) written tomorrow and said only as "tomorrow", not its date.
After the fixes (see CHANGELOG): 11/11.

Fifteen sessions (ids lo2-, 21 turns) were then written after those fixes and not tuned on,
two or three per case. First run: 14/15 sessions (20/21 turns), no wrong write; reading
the answers found nothing more. Failing: "I need to cancel the dental x-ray" asked to
cancel the dental cleaning without saying there is no x-ray (an offered service's name,
"x-ray", after "dental", was read as the cleaning). Fixed by the same rule, widened: a
name of another offered service after "dental" is apart too ("dental checkup" is now a
name of the cleaning in the lexicon, as a dentist's checkup is). Now 26/26.
Two sessions were added last, from reading answers by hand: "no, a haircut" after "did you
mean a dental cleaning?" listed the appointments instead of booking the haircut asked for
(now booked); "ok an eye exam please" after a service not offered. 28/28.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen.jsonl"


async def test_the_cases_left_open_are_answered_as_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each left-open case: nothing near is picked silently, nothing said is dropped."""
    assert len(read_cases(LEFT_OPEN)) == 28
    _, failed = await score(make_assistant, crm_admin, LEFT_OPEN, capsys)
    assert failed == []
