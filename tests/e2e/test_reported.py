"""What the customer reports was done elsewhere, not asked here
(tests/data/conversations_reported.jsonl): "i already cancelled my haircut online", "the
dentist called and moved my cleaning to friday at 2", "my sister booked me a massage".

Written before the rules were read. FIRST RUN, on the code before (ff963c1): 5 of 14,
with ONE WRONG WRITE: "my husband booked me in for a haircut on friday at 10" BOOKED a
second haircut. "my sister said she booked me a massage for thursday" asked "What time on
Thursday works for you?" (the next answer would have booked it); "i was told my number got
changed to 415 555 0100" and "my email changed to … last week, is that what you have?"
held the change of the customer's own number and email for a yes; "i already cancelled my
haircut online" read every visit out without saying the haircut is still booked; "the
dentist called and moved my cleaning to friday at 2" said "nothing booked on Friday" and
never named the cleaning; "i marked the eye exam done in the app" read the visits; "no
that's fine leave it as it is" was "Sorry, I can't help with that".

Fixed: a change told as made elsewhere (someone did it, or the customer did it online, on
the app, yesterday, already) is read as the look-up that shows it
(language/told_elsewhere.py), and answered with how the CRM has the one named
(models/embedded/told_back.py); "leave it on wednesday then", "keep the one you have" let
go. `bench.decisions --dump`: no decision changed. 14/14.

Eight more (rp-b-), written after the fixes: FIRST RUN 7 of 8; "i already booked a facial
for friday so cancel the haircut" lost the cancel asked after what was told (a report's
asks were all read as told). The ask said after it is now kept. 22/22.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

REPORTED: Path = DATA / "conversations_reported.jsonl"


async def test_what_was_done_elsewhere_is_checked_and_never_written(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """A change the customer says was made elsewhere is looked up and told as the CRM has
    it; nothing is written until they ask for it here."""
    assert len(read_cases(REPORTED)) == 22
    share, failed = await score(make_assistant, crm_admin, REPORTED, capsys)
    assert share == 1.0, failed
