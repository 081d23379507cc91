"""A day cleared, and a contact detail changed from a later day or kept beside another
(tests/data/conversations_cleared.jsonl).

Found by probing. FIRST RUN: 1 of 12 passed ("I want to clear my balance", which must stay
about money). Nothing was written, but: "clear my wednesday please", "can you clear my
calendar for sunday" were told "I can't take payments…" (read as clearing a balance) and
"clear my schedule for wednesday" "a wednesday isn't one of the services offered"; "free
up my sunday" was not understood. A contact change said for later ("from tomorrow use
maria@new.com", "my email is changing next month to…") asked "Are you sure you want to
change your email to …?" with the day left out, so a yes changed it at once, unsaid;
"starting next week my number will be 415 555 0123" read the number on file back; "my
number ends in 0134 right?" was asked for the whole number; "add my work number 555 0188"
was not understood. One check was unfair and is corrected: "update my email to … but keep
the old one too" is asked "…in place of the one on file?", which says what a yes does.

Now a day cleared is every visit that day cancelled, asked first (language/said_plainly.py;
a day with none says so: "You don't have any appointments on Thursday, January 17"); a
contact change said to start later is asked as made now ("…to maria@new.com now (I can't
set it for a later day)…", confirmation.py with account_rules.later_start), also when the
day was said in the message before the number asked for (heard.words_of_the_ask: written
after the fix, it failed its first run); "will be", "is changing", "add my work number"
are changes; "…, right?" about a detail asks what is on file. `bench.decisions --dump`
gives the same decisions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

CLEARED: Path = DATA / "conversations_cleared.jsonl"


async def test_a_day_cleared_is_asked_and_a_later_change_said_now(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session passes: a day's visits are cancelled only on a yes, and a contact
    detail is never changed as if it were the time or the second one said."""
    assert len(read_cases(CLEARED)) == 13
    share, failed = await score(make_assistant, crm_admin, CLEARED, capsys)
    assert share == 1.0, failed
