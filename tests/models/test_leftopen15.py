"""The cases the last sessions left open, each said in new words (written before any rule).

Three kinds, each written before the rules it exercises were read:
(1) a to-do said done, in words of regret or of a mistake: nothing is written;
(2) an ask said through "what I need / want / would like is for you to …": it is made (a
    tick-off at once; a cancel or a delete held for its yes);
(3) a visit named by its place or its kind in other words ("the one at the dentist's",
    "the salon one", "my appointment at downtown dental"): the one visit that fits is
    picked (a move made, a cancel held), none other.

FIRST RUN (15 of kinds 1-3, on 2fca569): 12/15. WRONG WRITE: "honestly i'm sorry i
completed the car insurance task so early" TICKED RENEW CAR INSURANCE OFF (as "I kind of
regret that I completed the groceries task" did: "I completed …" is read as told done
wherever it stands). Asks lost: "what i'm after is for you to cancel my haircut" listed the
visits ("what…" read as a question; "what I need is for you to tick off…" too); "cancel my
visit at the hair salon" asked which ("hair salon" said in two words, "salon" alone no
service). The other regrets already asked nothing; "the dentist's", "downtown dental",
"the barber's" already picked the one visit.
Fixed: words of regret before a to-do told done (task_rules._REGRETTED) tick nothing; an
ask said as what is wanted ("what/all/the thing I need/want/'d like/'m after is (for you)
to …") is read as the ask (as_meant._POLITE_OPENING); a visit named by a service in two
words, or by the kind of place it is at ("the salon one": lexicon.PLACE_KINDS), is the one
visit of those services (resolve.py, questions.py). 15/15.

(4) FRAMED, frames23's asks left open in other words, written before the clause rules were
read: first run 7/9 (the ones in other words passed; frames23's own four still failed:
"cross off the groceries task for us" was cut after "cross off", "the groceries task for
us" taken for a second order with its verb left unsaid). "cross off" / "tick off" right
before what they are done to no longer end an order (intents._ends_an_order). The two
"… today" (TODAY_SAID) are left open: which one is asked, nothing written.
"""

from __future__ import annotations

import pytest

from assistant.fakes import world
from assistant.fakes.world import Turn, moment, play
from assistant.models.embedded.write_tools import WRITE_TOOLS

DONE, CANCEL, MOVE, DELETE = (
    "crm.completeTask",
    "crm.cancelAppointment",
    "crm.rescheduleAppointment",
    "crm.deleteTask",
)


def _made(turn: Turn) -> list[str]:
    return [
        f"{c.tool_name} {c.arguments}"
        for cs in turn.rounds
        for c in cs
        if c.tool_name in WRITE_TOOLS
    ]


# (1) Regret or a mistake told of a to-do done: nothing changes.
REGRETTED = [
    "i sort of wish i hadn't finished the groceries task",
    "honestly i'm sorry i completed the car insurance task so early",
    "it was a mistake that i crossed off the eye exam task",
    "i feel bad that i ticked off the groceries task",
    "i really regret marking the groceries task as done",
]

# (2) An ask said as what is needed of the assistant: (message, tool made or held, its id).
NEEDED = [
    ("so basically what i'd like is for you to mark the groceries task done", DONE, "task_1"),
    ("all i want is for you to cross off the car insurance task", DONE, "task_2"),
    ("what i'm after is for you to cancel my haircut", CANCEL, "appt_2"),
    ("the thing i need is for you to delete the eye exam task", DELETE, "task_3"),
    ("what we need is for you to move my haircut to saturday at 3pm", MOVE, "appt_2"),
]

# (3) A visit named by its place or kind in other words: (message, tool, the visit's id).
BY_PLACE = [
    ("move my appointment at the dentist's to friday at 11am", MOVE, "appt_1"),
    ("cancel my visit at the hair salon", CANCEL, "appt_2"),
    ("push the dentist one to thursday at 2pm", MOVE, "appt_1"),
    ("please cancel the thing at downtown dental", CANCEL, "appt_1"),
    ("move my appointment at the barber's to saturday at 4pm", MOVE, "appt_2"),
]

# (4) frames23's asks left open, in other words: a to-do ticked off "for me when you get
# a…", asked with "ya" or "u", and a visit's change said with "today" (none that day).
FRAMED = [
    ("mark the groceries task done for me when you have a moment", DONE, "task_1"),
    ("cross off the car insurance task for me whenever you get a chance", DONE, "task_2"),
    ("tick off the eye exam task for me when you get a minute", DONE, "task_3"),
    ("can ya mark the groceries task done", DONE, "task_1"),
    ("could ya cross off the car insurance task for us", DONE, "task_2"),
    ("can u tick off the eye exam one for us", DONE, "task_3"),
    ("hoping to move my haircut to saturday at 3pm today", MOVE, "appt_2"),
]

# Left open, as frames23's "hoping to cancel my haircut today": "today" is read as the
# visit's day, none is that day, and which one is asked (both named): nothing is written.
TODAY_SAID = [
    "i was hoping to cancel my haircut today",
    "looking to call off my dental cleaning today",
]


def _ids(turn: Turn, tool: str) -> list[str]:
    calls = [c for cs in turn.rounds for c in cs if c.tool_name == tool]
    if turn.held is not None and turn.held.tool_name == tool:
        calls.append(turn.held)
    return [str(c.arguments.get("task_id") or c.arguments.get("appointment_id")) for c in calls]


@pytest.mark.parametrize("said", REGRETTED)
async def test_a_to_do_done_told_with_regret_changes_nothing(said: str) -> None:
    turn = await play(said)
    assert not _made(turn), f"{said!r} wrote {_made(turn)}"
    assert turn.held is None, f"{said!r} held {turn.held.tool_name}"


@pytest.mark.parametrize(("said", "tool", "target"), NEEDED + BY_PLACE + FRAMED)
async def test_the_change_asked_lands_on_the_one_named(said: str, tool: str, target: str) -> None:
    turn = await play(said)
    assert _ids(turn, tool) == [target], f"{said!r}: {turn.tools} held={turn.held} {turn.answer!r}"
    others = [m for m in _made(turn) if not m.startswith(tool)]
    assert not others, f"{said!r} wrote {others}"


@pytest.mark.parametrize("said", TODAY_SAID)
async def test_known_open_a_change_said_today_asks_and_writes_nothing(said: str) -> None:
    turn = await play(said)
    assert not _made(turn) and turn.held is None and "?" in (turn.final or turn.answer)


# Found by probing after the fixes above: a visit asked after by the kind of place it is at.
# "when is the salon one" was "I can't help", "when is my appointment at the salon" was
# answered with the dental cleaning (the next of any kind), "when is the one at the hair
# salon" was "I don't see a visit at the hair salon".
ASKED_BY_KIND = [
    ("when is the salon one", "haircut"),
    ("when is my appointment at the salon", "haircut"),
    ("when is the one at the hair salon", "haircut"),
    ("where's my appointment at the salon", "valencia"),
    ("when is my thing at the spa", "don't see"),
]


@pytest.mark.parametrize(("said", "told"), ASKED_BY_KIND)
async def test_a_visit_asked_after_by_its_kind_of_place_is_that_one(said: str, told: str) -> None:
    turn = await play(said)
    answer = (turn.final or turn.answer).lower()
    assert told in answer and not _made(turn), f"{said!r}: {answer!r}"
    if told != "haircut":
        return
    assert "cleaning" not in answer, answer


# (5) honest23's "when was my last haircut and when is the next one?" in other words,
# written before any rule was read. FIRST RUN 0/5: the next visit of any kind (the dental
# cleaning) was read, or every visit ahead, or the next left out. "the next one" after one
# service named in the message, asked only, is that service's next (as_meant._NEXT_OF_IT).
LAST_AND_NEXT = [
    "when was my last haircut and when is the next one?",
    "when did i last have a haircut and when's my next one",
    "when was my previous haircut and when is my upcoming one",
]
# Left open: the last haircut's day is not read in these words (the visits ahead are, with
# the haircut among them, true); nothing is written.
LAST_AND_NEXT_OPEN = [
    "what was the date of my last haircut, and of the next one?",
    "how long ago was my last haircut and when's the next",
]


@pytest.mark.parametrize("said", LAST_AND_NEXT)
async def test_the_next_one_after_a_service_named_is_that_service_s(said: str) -> None:
    turn = await play(said)
    answer = (turn.final or turn.answer).lower()
    assert "december 31" in answer and "friday, march 7" in answer, answer
    assert "cleaning" not in answer and not _made(turn), answer


@pytest.mark.parametrize("said", LAST_AND_NEXT_OPEN)
async def test_known_open_last_and_next_write_nothing(said: str) -> None:
    turn = await play(said)
    assert not _made(turn) and turn.held is None and "haircut" in (turn.final or turn.answer)


# (6) honest23's "when is my acupuncture?" (a service the words do not know, booked in the
# CRM) in other words, written before any rule was read, with a reflexology visit booked.
# FIRST RUN 3/4: with "appointment", "session" or "booked" said it is read from the CRM;
# "when is my reflexology?" alone is "I can't help with that" (as honest23's acupuncture):
# left open (UNKNOWN_SERVICE_OPEN), nothing written, nothing untrue.
UNKNOWN_SERVICE = [
    "what time's my reflexology appointment",
    "when's the reflexology session",
    "what day is my reflexology booked for",
]


@pytest.fixture
def reflexology(monkeypatch: pytest.MonkeyPatch) -> None:
    visit = {
        "id": "appt_7",
        "service": "Reflexology",
        "starts_at": moment(5, 11, 30),
        "ends_at": moment(5, 12, 30),
        "status": "scheduled",
        "location": "Main office, 1 Embarcadero Center",
        "notes": None,
    }
    monkeypatch.setattr(world, "APPOINTMENTS", [*world.APPOINTMENTS, visit])


@pytest.mark.parametrize("said", UNKNOWN_SERVICE)
@pytest.mark.usefixtures("reflexology")
async def test_a_visit_of_a_service_the_words_do_not_know_is_read_from_the_crm(said: str) -> None:
    turn = await play(said)
    answer = (turn.final or turn.answer).lower()
    assert "reflexology" in answer and "11:30" in answer, answer
    assert "thursday" in answer and not _made(turn), answer


UNKNOWN_SERVICE_OPEN = ["when is my reflexology?"]


@pytest.mark.parametrize("said", UNKNOWN_SERVICE_OPEN)
@pytest.mark.usefixtures("reflexology")
async def test_known_open_a_service_not_known_said_alone_writes_nothing(said: str) -> None:
    turn = await play(said)
    assert not _made(turn) and turn.held is None
