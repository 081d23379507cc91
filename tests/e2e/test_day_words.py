"""A day of the month said in words up to the twelfth ("for the twelfth at eleven", "to
the seventh at nine", "by the tenth"), through the websocket and the real CRM stub.

tests/data/conversations_day_words.jsonl. The kind was found by playing the dated
conversations on other Mondays (tests/e2e/test_another_day.py, `moved_dates`): "the
twenty second" said on the 4th of March became "the twelfth", and "book a consultation
for the twelfth at eleven" was BOOKED FOR TOMORROW. The first 14 sessions were written
before the rules were read. FIRST RUN 4/14 (7/17 turns), with SEVEN WRONG WRITES, each a
day nobody said: "book a consultation for the twelfth at eleven" booked tomorrow at 11;
"book a haircut for the eleventh at 2pm" booked today at 2; "…for the fifth at 10am" and
"a dental cleaning for tuesday the twelfth at nine…" booked tomorrow; "a massage on
friday the eighth at 3" booked the coming Friday; "move my dental cleaning to the
seventh at nine" and "move my haircut to the third at 4pm" moved each to 9 and 4 on its
own day. And "remind me to renew the parking permit by the tenth" was titled with the
date, due no day; "push the car insurance task to the sixth" read the tasks out.
The 13th to the 31st in words were made digits before the date was read; the 1st to the
12th were left as words (they are also places in a list), and only "on the …" read them.

Now (language/transcript.py) they are a day where only a day stands: after a weekday or
a word of a deadline ("friday the eighth", "by the tenth"); after "for", "to", "on"…
the sixth to the twelfth with an hour or nothing after, the first to the fifth only with
an hour. "Yes to the first, no to the second" and "move it to the second" stay places in
a list. 14/14.

The last 6 (dw2-) were written after the fix, not tuned on: FIRST RUN 4/6, no wrong
write; both misses read the day rightly and are in KNOWN_OPEN.
Both were closed later (tests/e2e/test_leftopen4.py): "is there any chance of an eye exam on
sunday the tenth at 11" books (a day and an hour said, asked as a chance of a visit), and
"change the groceries task so it's due on the seventh" sets that day; now 20/20.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

DAY_WORDS: Path = DATA / "conversations_day_words.jsonl"
# Read, not done (nothing written): "is there any chance of an eye exam on sunday the
# tenth at 11" is answered as a question about that day; "change the groceries task so
# it's due on the seventh" reads the tasks out (the change said as "so it's due …").
KNOWN_OPEN: list[str] = []


async def test_a_day_of_the_month_in_words_is_that_day_and_a_place_in_a_list_is_not(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session but those known open passes: the day written is the one said, never
    the next day."""
    assert len(read_cases(DAY_WORDS)) == 20
    _, failed = await score(make_assistant, crm_admin, DAY_WORDS, capsys)
    assert failed == KNOWN_OPEN
