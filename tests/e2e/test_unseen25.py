"""Conversations nobody tuned for: a twenty-fifth set, a caller as speech recognition writes it.

Through the websocket and the real CRM stub.

tests/data/conversations_unseen25.jsonl (27 sessions, 71 turns, 2-4 turns each), written
before the rules were read: a caller on the phone as the telephony clients pass the
transcript on, with no stops and no capitals, run on ("yeah hi um so i wanted to move my
cleaning uh to friday if thats possible at like two"), fillers and self-repairs ("cancel
the the haircut no wait the cleaning", "book an eye exam for thursday at three no four",
"the uh the second one"), numbers and times as a recogniser writes them ("two thirty",
"half past four", "quarter to five", "at 3 30", "4 p m", "fourteen hundred", "the twenty
second", "january twenty first", "four one five five five five oh one four three"), words
heard for others ("at for pm", "at to thirty", "hair cut", "dental clean in", "tax" for
"task", "the groceries won", "by groceries"), the answer half heard ("sorry what?
thursday?", "no not that one the other one", "yeah yeah do it", "uh huh", "mm-hmm", "yep
thats right", "no no no", as answers and when nothing was asked) and what was said to
someone in the room ("hold on honey im on the phone yes cancel it"; a TV's "stay tuned
tonight at eleven for the weather" before the ask). Every turn checks every service's
visits ahead and cancelled, every task, the tasks added, the cases opened, every invoice,
the phone and the email; a day of the month is checked as one ("dom:22", "md:01-21"), so
that the set holds on another Monday.

FIRST RUN, on the code as it was: 21/27 sessions (60/71 turns). No wrong write. Misses:
"the groceries won can you make it due friday" asked which task; "mark the tax by
groceries as done" found no task by that name; "hold on honey im on the phone yes cancel
it" asked the held cancel again; "book physical therapy for the twenty second at fourteen
hundred" asked the hour; "sorry what? thursday?" after a move and "whats its priority
now" after a priority was set met "I can't help with that".

Fixed with general rules (see CHANGELOG): 27/27 (71/71 turns). Replayed on another Monday
(tests/e2e/test_another_day.py), "sorry what? the twenty first?" just after the due day
was set to January 21 MOVED THE DUE DAY to another 21st (a day said back as a question was
read as the day put right): a half-heard question now says the answer again and writes
nothing.

Written after the fixes (u25b, 7 sessions, 18 turns), FIRST RUN 7/7 (18/18 turns), no
wrong write: "move the the dental cleaning to saturday at eleven no twelve", an aside and
a question while a cancel is held then "no no no dont cancel anything", "the insurance
won to the twenty fifth", "four one five double five five oh one nine nine", "the twenty
third at oh nine hundred" and "sorry what? the twenty third?", "delete the groceries tax"
then a question then "yes delete the groceries", "my hair cut 4 p m instead same day".
The set: 34/34 (89/89 turns).

bench.said_around on this set (every way, and --answers): no variant writes more; "yes
call it off" to a held cancel was asked again (a name for the thing, "call it …", was read
in it; fixed), and "so yeah yeah" to a held cancel is still asked again ("yeah yeah" is
read as one yeah, and "so yeah" alone answers nothing): it writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

UNSEEN25: Path = DATA / "conversations_unseen25.jsonl"

# None is left open: every session passes.
KNOWN_OPEN: list[str] = []


async def test_conversations_nobody_tuned_for(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session of the twenty-fifth unseen set passes: each change is made once, to
    the right visit, to-do or detail, and nothing is written that was not asked."""
    assert len(read_cases(UNSEEN25)) == 34
    _, failed = await score(make_assistant, crm_admin, UNSEEN25, capsys)
    assert failed == KNOWN_OPEN
