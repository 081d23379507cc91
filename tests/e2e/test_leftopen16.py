"""The cases the last sessions left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen16.jsonl: sessions written before the rules they exercise
were read (first run recorded below), each of a kind an earlier session left open.

(lo16a-) A visit named bare, then when, with no lookup before it ("cleaning thursday
10am", "haircut friday 5pm", "dental cleaning - thu 10:00", "my haircut saturday 11am",
"cleaning the 22nd 9am"): of a visit the customer has, the move is asked first, and "no,
book another" / "no i want a new one" books one more at the time said; of one she has not
("massage tues 3pm", "facial friday 2pm") it is booked. With them: "when is my
acupuncture?" and "do i have a chiropractor appointment coming up?" with none of either;
"move both a week later" after the visits were read out; a bare yes after a question in
between ("cancel my haircut" → "what's my balance?" → "yes").

FIRST RUN of lo16a (on 1b4d606): 2/12 sessions (8/22 turns). FOUR WRONG WRITES, each a
second visit booked beside the one there is: "cleaning thursday 10am", "haircut friday
5pm", "dental cleaning - thu 10:00" and "cleaning the 22nd 9am" (so its yes, "yes please",
found nothing held). Besides, no write wrong: "no, book another" asked the time again;
"no i want a new one" met "I can't help with that"; "my haircut saturday 11am" was read as a
question of Saturday and its "yeah move it" met "nothing waiting for a yes"; the
acupuncture met "I can't help with that", the chiropractor every visit read out; "move both
a week later" read out the to-dos before the moves; the bare yes after the balance was
asked about asked the cancel again.

Fixed (models/embedded/visit_then_when.py): said cold, the visits are looked up first
(`looked_up_first`) and the message read against that listing: of one held, its move is
asked first; the yes reads the message again with that turn's own lookup
(`followup.understand(looked_up=)`). "my haircut saturday 11am" / "the dental cleaning
friday 9am please", read as a question of the day, become the same move asked of the one
held (`of_one_moved`; with none held they stay the question). "no, book another", "no i
want a new one", "no, a second one" to the move asked book one more at the day and hour
said (`another_of_the_asked`). "when is my acupuncture?", "…acupuncture appointment?", "do
i have a chiropractor appointment coming up?": none booked, said so
(questions._unknown_visit). "move both a week later" just after the visits were read out
does not look up the to-dos too (references.of_the_visits_in_view). After: 11/12.

(lo16b-) Seven more, written after those fixes (the same kinds: "haircut sat at 12pm" →
"yes", "the dental cleaning friday 9am please" → "ok do it", "consultation thursday 4pm"
with none held, "haircut sunday 10am" → "no, a second one", "cleaning thursday 10am" → "no,
leave it", "when's my osteopathy appointment?", "push them both back a week"). FIRST RUN:
6/7 (13/14 turns), no wrong write: "the dental cleaning friday 9am please" was read as a
question of Friday (fixed by `of_one_moved` above). The set: 18/19.

KNOWN_OPEN, writing nothing wrong: the bare yes after a question in between ("cancel my
haircut" → "what's my balance?" → "yes") asks the cancel again ("Just to be sure, as you
asked something else in between…"), as the README's thread rules say it should; nothing is
cancelled on that yes, and the next yes cancels it. Kept so (a rule of the house, not a
reading), and pinned here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

LEFT_OPEN: Path = DATA / "conversations_leftopen16.jsonl"
KNOWN_OPEN: list[str] = ["lo16a-cancel-haircut-balance-between-yes"]


async def test_the_sixteenth_cases_left_open_are_answered_as_asked(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 19
    _, failed = await score(make_assistant, crm_admin, LEFT_OPEN, capsys)
    assert failed == KNOWN_OPEN
