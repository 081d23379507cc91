"""Some of the changes a question held, picked by their places, and an hour no clock has
(tests/data/conversations_some_of_them.jsonl).

Found by probing: "only the first two" to a question about deleting three to-dos held the
first alone, and the yes deleted one of the two asked (a change LOST); "move my haircut to
25:00 on friday" MOVED it to Friday at its own hour (the hour said was dropped unread).
FIRST RUN, written before the rules were read and played on the code before them (main
at 98cbf38): 1 of 6 (5/11 turns), with WRONG WRITES: "yes but just the last two" DELETED
ALL THREE to-dos, groceries included; "move the cleaning to friday 10:75" and "…25:00 on
friday" moved the visit to Friday at an hour not said; and two changes LOST ("only the
first two", "just the top two please" held the first alone). (At the session's start,
53c83f0, the two hours were asked: a change merged since had let them through.)

Fixed as rules: "the first/last/top/bottom two (three)" name those places of the question
(language/narrowed.py); an hour shaped as a clock and read as none ("25:00", "10:75") is an
hour unread, asked again (language/dates.py). `bench.decisions --dump`: no decision
changed. 6/6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin

SOME_OF_THEM: Path = DATA / "conversations_some_of_them.jsonl"


async def test_some_of_a_question_and_an_hour_no_clock_has(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every session changes the ones picked, and no hour is guessed for one no clock has."""
    assert len(read_cases(SOME_OF_THEM)) == 6
    share, failed = await score(make_assistant, crm_admin, SOME_OF_THEM, capsys)
    assert share == 1.0, failed
