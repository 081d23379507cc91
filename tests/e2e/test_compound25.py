"""Several asks in one message, reads and writes mixed: the product's own kind of request.

Through the websocket and the real CRM stub.

tests/data/conversations_compound25.jsonl (50 sessions, 79 turns), taken from 95 requests
and 22 replies written before the rules were read ("cancel my haircut and add a task to
buy shampoo", "move my cleaning to friday at 9 and tell me what I owe", "mark groceries
done, delete the eye exam task, and what's my next appointment?", "change my email to …
and my phone to …", "book a haircut for friday at 10 and cancel the one on sunday"…):
each write made once, a destructive one or a change of contact details only after its
yes, the others at once, and every part of the message answered.

FIRST RUN of the 30, on the code as it was: 27/30, no wrong write, ONE UNTRUE ANSWER:
- "cancel the cleaning but keep the haircut, and push groceries to wednesday" said "I
  couldn't find an appointment like that" and left the groceries as they were (the move
  of a thing no service names looked among the visits alone, because the cancel had
  already asked for that listing, and the listing of to-dos was never asked for);
- "what's on my calendar this week and do I have anything overdue?" read the visits out
  twice and never said whether anything was overdue (a visit is never overdue);
- "push all my tasks back a week" read the list out and moved nothing ("every task" was
  read, "all my tasks" was not).
Fixed (see CHANGELOG), 30/30.

Written after those fixes, 17 more ("when's my haircut, and is anything overdue?", "delete
the eye exam task and cancel the haircut", "list my tasks, then complete the first one",
"show me my appointments and cancel the second one"…), FIRST RUN 14/17, no wrong write:
"when's my haircut, and is anything overdue?" left the haircut unsaid and answered the
to-dos, then said "I didn't catch what you meant by 'is anything overdue'"; "what do I owe,
and is anything overdue?" said the same after answering it; "move the haircut to 4 and
tell me where it is" left the place unsaid. All three pass now.

A third round, 18 bookings with values hard to read ("book my son a haircut…", "on friday
the 19th", "at 3am", "on christmas", "the day after my haircut at the same time"…), FIRST
RUN 17/18, no wrong write: "book a haircut friday at noon and another one the week after"
booked the first and read the visits out (the second read as a look at the visits, its
service named in place of "one"). It books both now.

A fourth round, support cases and bills (15 requests), FIRST RUN 11/15, no wrong write:
"my last haircut was terrible, I want a refund" told when the haircut was and passed over
the refund in silence; "what do I owe and can I pay by card" told nothing but that no
payment is taken (the balance unsaid); "cancel my haircut and refund me" said it "didn't
catch" "refund me" and, in the same breath, that no refunds are given; "when was my last
cleaning", none had yet, said "Your dental cleaning is on Wednesday…" as if that were the
one asked about. All four pass now.

A fifth round, replies to "which one?" (11), FIRST RUN 8/11, ONE WRONG QUESTION: "move
the haircut to friday instead", said to "Which appointment should I cancel…?", was held
as the haircut's cancel ("Are you sure you want to cancel your haircut…?": a yes would
have cancelled the visit the customer wanted moved). "whichever is sooner" and "neither
actually" (also "none of them") were not understood. All pass now.

A sixth round, places counted after the visits and the to-dos were read out together (4),
FIRST RUN 1/4, TWO WRITES NOT ASKED FOR: "move the second one to friday" after "what's on
my plate this week" MOVED THE SECOND TO-DO's due day, though the second visit was as
likely meant ("push the first one to thursday" the first to-do's); it now asks which
(models/embedded/which_kind.py). "move the second one to
friday at 3" (a time: a visit) was not understood; it now counts in the visits read out.
"make the second one high priority", written after, is the second to-do's (only a to-do
has a priority), not asked about; "both", to the question, makes the change to each.

A seventh round, one visit beside another in the next message, FIRST RUN: "and a massage
right after", just after a haircut was booked, met "Sorry, I can't help with that" ("and
book a massage right after it" was read). A visit said with no verb, right after or
before, is now that booking beside the visit in view (language/as_meant.py); said cold,
when is asked.

An eighth, a support case asked after: "when will they get back to me?", just after a case
was opened, met "Sorry, I can't help with that"; "when will someone get back to me about
my case" read the case out as if that said when. Both now read the open cases and say
plainly that no reply time can be seen (language/lookups.py, models/embedded/account.py).

A ninth, questions about a visit (9), FIRST RUN 6/9, no wrong write: "what should I bring to
my cleaning?" read every visit out and left its note ("please arrive 10 minutes early")
unsaid; it now tells the note, or that there is none, or that no such visit is coming up
(models/embedded/questions.py). "is my haircut before or after my cleaning?" read the
visits out; it is now compared as "which is first" is. "who is my haircut with?" read
the visits out; it now says plainly that no one is on file for a visit, and when and
where it is.

A tenth, to-dos named by what they are (6), FIRST RUN 4/6, no wrong write: "make my top
priority task due friday" looked for a task named "top" and asked which; "mark the oldest
task done" did the same. "top", "highest" and "lowest" priority now name that level
(language/targets.py); "the oldest task" is left open. "what did I book?", after a
booking, met "Sorry, I can't help with that"; it reads the visits out now.

The sessions here are those with a write or a miss, from the ten rounds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

COMPOUND25: Path = DATA / "conversations_compound25.jsonl"


async def test_several_asks_in_one_message(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: each part of the message is done or asked about, once, and the
    answer claims nothing the CRM does not hold."""
    assert len(read_cases(COMPOUND25)) == 50
    _, failed = await score(make_assistant, crm_admin, COMPOUND25, capsys)
    assert failed == []
