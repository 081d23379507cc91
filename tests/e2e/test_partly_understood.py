"""Messages understood only in part: one message holds two or three asks, and one of them is
something no tool does, or vague, or gibberish ("move my haircut to friday at 3pm and also
sort out the thing with my card", "what's my balance and the other thing", "cancel my
haircut, add a task to buy shampoo and do my taxes"), in either order, written and as voice
transcripts. Through the websocket and the real CRM stub.

The part not understood must not be dropped without a word: a customer who is not told
believes it was done. Each such turn must do the understood asks (and nothing else: the
CRM is checked on every turn) and its answer must show the rest was flagged (said not
understood, or a support case offered where that fits) and name it. The control sessions
(ids pc-) carry remarks, reasons, thanks, greetings and a date said in a clause of its own,
where nothing may be flagged.

tests/data/conversations_partly.jsonl (38 sessions, 40 turns: 26 partly understood, 12
controls, as first written; 48 sessions, 50 turns now), written before the language rules
were read.

FIRST RUN, on the code as it was: 10/38 sessions (12/40 turns). 18 of the 26 partly
understood turns did the understood asks and dropped the rest without a word ("move my
haircut to friday at 3pm and also sort out the thing with my card": "Done. Your haircut is
now on Friday…", nothing of the card; "what's my balance and the other thing": the balance
only; "cancel my haircut and tell the manager I'm unhappy": the cancel asked, the manager
dropped; "cancel the dental cleaning and also change my card on file" read the profile out
as if that were the ask). Two controls missed their ask for the remark or reason beside it:
"move my haircut to friday at 3pm, I'm running late today" moved nothing ("I can't pass
on a message that you're running late…"), and "cancel my dentist appointment because I'm
sick" found no such appointment. No wrong write to a visit, ticket or the profile; five
tasks took the rest of the message into their title ("Buy milk and fix my card", "Call
the bank and sort out the parking", "Buy shampoo and do my taxes", "Renew my passport and
tell the manager the music is too loud", "Pick up dry cleaning and xqzt plmbr").

Checks corrected before any rule changed, as unfair: a reminder "to buy milk and fix my
card" is one fair reading of a to-do (the customer's list, in their words), so those five
turns now ask only that the second part is named in the answer (read back in the title, or
flagged), not that it is kept out of the title; and "Sorry, a flight to boston isn't one of
the services offered here, so I haven't booked anything" did say plainly what was not done
(the check lacked its words). On the code as it was: 16/38 (18/40 turns).

The causes then fixed (general rules, see CHANGELOG). A clause that asked for nothing any
rule reads was either merged into the ask before it, to no effect ("…and also sort out
the thing with my card"), or, said first, dropped ("sort out the thing with my card and
move…"); now such a clause, when it is shaped like an ask (a verb said to the assistant,
or a thing named with nothing said of it) and not a remark, reason, thanks, refusal,
question or a day said apart, is kept with the message's asks (`Intent.unheard`) and the
answer ends "I didn't catch what you meant by '…', so I haven't done anything about it."
(language/unheard.py, models/embedded/unheard.py). A verb no rule knows with its object
("tell the manager…", "walk my dog") is no other target of the ask before it (it had
made "cancel my haircut and tell the manager I'm unhappy" two cancels, the second
silently unfound), and no words of that ask's target. A thing named after an ask as
another target of it that fits nothing ("…and uh the other thing too"), while the ask went
ahead, is said the same way. "change my card on file" is no ask to read the profile. A
reason after a visit ("…appointment because I'm sick") is no words of it; "I'm running
late" beside a move is the move's reason, not the whole message. After: 37/38 (39/40).

Every other set was then played with "didn't catch what you meant" forbidden on every
turn: no answer of theirs says it (the remarks, refusals, questions and "same time" first
caught by a wider rule are in tests/language/test_unheard.py).

Ten sessions (ids pv-, pc2-: seven partly understood, three controls, 10 turns) were then
written after those fixes and not tuned on. First run: 8/10 sessions (8/10 turns), no
wrong write. "please renew my membership and when is my haircut" read the tier out as if
it were asked ("You're on the Gold tier") and said nothing of the renewal; "add a task to
call the plumber, and also email my boss for me" made one to-do of both. The second check
was unfair by the measure above (the title read back names it) and was corrected so. Reading
every answer of the set then showed two titles holding a remark said after the to-do, in
controls of the first set: "add a task to buy shampoo, it's for my mum" ("Buy shampoo,
it's for my mum") and "remind me to call the bank tomorrow, my account is acting up"
("Call the bank my account is acting up"); those two checks were tightened. Fixed: a verb
of its own with its object that does not ask to be shown ("renew my membership", "change
my card on file") asks to see nothing, so it is said not understood; what is told after a
pause behind a to-do ("it's for my mum", "my account is acting up") is no words of its
title, unless read with it the to-do changes in more than its title ("it's urgent" is its
priority). Then 47/48 (49/50 turns).

Then the one left open: "ok move it to friday at 2pm and sort the card thing out" after
"when's my dentist" was read whole by the follow-up rules (the visit in view is "it"),
which kept nothing of the card. A follow-up read whole that holds a joiner is now read
again by the grammar with "it" named, and the asks it finds no rule for are kept with it.
Now 48/48 (50/50 turns).

Later, a to-do whose words are two deeds, each a verb and what it is done to ("remind me to
return the rental car and pay the parking ticket"), became two to-dos (one title holding
two asks is the merge tests/e2e/test_leftopen3.py reports). So three turns here may now
write two tasks as fairly as one ("Buy milk" and "Fix my card"; the second part is named
in the answer either way): two tasks were added to their fair writes, nothing else changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

PARTLY: Path = DATA / "conversations_partly.jsonl"

KNOWN_OPEN: list[str] = []


async def test_the_part_not_understood_is_said(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every part of a message is done, answered, asked about or said not understood."""
    assert len(read_cases(PARTLY)) == 48
    _, failed = await score(make_assistant, crm_admin, PARTLY, capsys)
    assert failed == KNOWN_OPEN
