"""A change said and put right in the same message ("book a facial on Thursday at 10am?
Actually, make it 11."), through the websocket and the real CRM stub: what is written is
what the customer settled on, once, and nothing of the correction lands in a title.

tests/data/conversations_one_breath.jsonl, written before the rules it exercises were
read: a time, a day, a day and a time, a date, a title word, a priority put right after a
full stop ("…. Sorry, 5 not 4", "…. Wrong day, I meant Thursday.", "…. Oops, low
priority"), with or without an opener ("…. Make it 2:30"), as a shift ("…. Can you make
it half an hour later?", "…. Actually the next day, same time"), taken back ("…. Actually,
undo that"), with another ask before or after it; and two controls where words that open
a correction open something else ("sorry to be a pain!", "actually I have another
question").

FIRST RUN, on the code as it was: 9/22 sessions, 12 of the 13 failing with a WRONG WRITE.
The ask was carried out as first said and the correction dropped without a word: a facial
booked at 10 ("…? Actually, make it 11."), a massage at 2pm ("…. make it 2:30"), a haircut
at 1pm ("…. can you make it half an hour later?"), an eye exam on Tuesday ("…. actually
the next day, same time"), a facial at noon ("…. Actually make that 1pm."), the cleaning
moved to Tuesday ("…. Wrong day, I meant Thursday.") or Thursday at 9 ("…. sorry, friday
at 10"); the haircut moved to Saturday and a massage booked though each was taken back
("…. actually, undo that", "…. hmm, never mind that"); and the correction written into a
task's title: "Call the vet actually make that thursday" due Wednesday, "Buy milk to my
oat milk not milk", "Book flights oops, low priority" at high priority. The thirteenth,
"move my dental cleaning to Friday at 2. Oh no, I meant 3.", asked what time.
Corrections said after a comma of the same clause ("at 9am, sorry, 11") already held.

The cause, fixed as one rule (language/put_right.py): a sentence or clause after an ask
that changes something, opened by a correction ("actually", "sorry", "oops", "wrong day",
"no wait") or saying "make it …", "I meant …", "… not …", and saying only a time, a day,
a priority, a shift or one word for another, or taking the ask back, is applied to the
words of that ask before anything reads the message, for the planner and the narrator
alike. After: 22/22.

Eight more (ids ob2-) were written after that rule and not tuned on: a target put right
("cancel my haircut. sorry, I meant the dental cleaning": asked about the cleaning), "an
hour earlier", "no sorry, tomorrow", "quarter past 10", "three not four" in words, a
correction after a comma ("…for monday, actually tuesday"), one of two asks taken back,
and a control. First run: 8/8.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import NOW, play_case, read_cases
from tests.e2e.said_otherwise import unpunctuated
from tests.e2e.test_conversations import CATALOG, DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

ONE_BREATH: Path = DATA / "conversations_one_breath.jsonl"
KNOWN_OPEN: list[str] = []


async def test_a_change_put_right_in_the_same_message_writes_what_was_settled(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: the corrected value is written, once; nothing else."""
    assert len(read_cases(ONE_BREATH)) == 30
    _, failed = await score(make_assistant, crm_admin, ONE_BREATH, capsys)
    assert failed == KNOWN_OPEN


# Said with no pause written, as a phone's speech-to-text delivers it.
UNPUNCTUATED_OPEN: list[str] = []


async def test_a_change_put_right_without_a_pause_writes_what_was_settled(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """The same sessions with no pause written ("move my haircut to saturday actually
    undo that", "…at 2pm make it 2:30"), as speech-to-text delivers them.

    FIRST RUN (found by playing every written conversation so, a later session): 12 of
    the 30 failed, 11 with a WRONG WRITE, each as first said: the massage booked and the
    haircut moved though taken back ("…at 3pm hmm never mind that", "…saturday actually
    undo that"), the cleaning moved to Tuesday ("…tuesday wrong day i meant thursday"),
    the massage at 2pm ("…at 2pm make it 2:30"), physio at 4 ("…four in the afternoon sorry
    three not four"), the haircut at 1pm ("…can you make it half an hour later"), the
    facial at noon, the haircut at 10:00 ("…actually quarter past 10"), and the
    corrections written into titles ("Call the vet actually make that thursday" due
    Wednesday, "Book flights oops low priority" at high, "Buy milk to my oat milk not
    milk"). A correction put right only after a sentence's end. Now (language/transcript.py)
    where no pause is written, a correction's or a take-back's words after the value an
    ask ends on (a day, an hour, a priority, "my list") start a sentence. 29/30: the one
    open takes back one of two asks and answers "Okay, no problem." without the balance;
    now (tests/e2e/test_leftopen4.py) a take-back takes back only the ask it follows, though
    joined to a question by "and": 30/30.
    """
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: NOW)
    failed = []
    for case in read_cases(ONE_BREATH):
        said = {**case, "turns": [{**t, "say": unpunctuated(t["say"])} for t in case["turns"]]}
        verdict = await play_case(assistant, crm_admin, said, CATALOG)
        if not verdict.passed:
            failed.append(case["id"])
            print(case["id"], verdict.problems[:3])
    assert failed == UNPUNCTUATED_OPEN
