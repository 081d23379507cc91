"""The kinds of request the eleventh held-out set found read wrongly (tests/data/heldout11.jsonl),
a caller's speech as a recogniser writes it, each in wordings beyond the set's own: a
service said over ("book a pedicure for, um, make it a manicure"), a to-do named again as
"the … one" after one told done, the very words taken back with "not" ("…no wait, not the
haircut, the cleaning"), a change said over by another aimed at "it" ("cancel my cleaning,
actually move it to…"), an ask begun with "I was going to…" and cut off after its "but",
an hour put right in number words and back to an earlier morning hour ("at ten no nine"),
a thing named first as "the … thing", and "appointments I cancelled".

Played in the test world (assistant/fakes/world.py: Saturday, March 1, 2025; a dental
cleaning on Monday at 10, a haircut on Friday at 2:30; groceries, car insurance and eye
exam to-dos). Written after the set's fixes; first run 31/32, no wrong write. Missed: "mark
the insurance done no wait the eye exam one" (listed the visits: the older reading of "X no
Y" took "done" away with the thing said over, and "mark the eye exam one" was read as the
visit). Fixed by reading a to-do or a service said over with its cue before that older
reading (which still reads "…no the cleaning" said without a cue word of its own).
The last two groups were written after the set's second block was fixed; first run 7/8:
"move my cleaning to friday actually don't change anything just tell me when it is" was
refused ("it" had lost what the ask taken back named; on main it moved the cleaning, a
WRONG WRITE): fixed. One check was corrected as unfair: "delete the groceries task sorry
dont delete anything" answers "Okay, no problem" without reading the list (the check had
asked for the list; nothing written either way). Probed after, beside the cases: "i was
going to ask about my bill but" was taken back ("Okay, I'll leave everything as it is";
main read the balance): only a change begun and dropped is taken back now; "move the
cleaning to friday no wait keep it where it is" asked when to move it (as on main): it is
now left as it was."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.fakes.world import NOW, play
from assistant.language.put_right import put_right

CANCEL = "crm.cancelAppointment"
DELETE = "crm.deleteTask"


async def outcome(text: str) -> tuple[list[str], str | None, dict[str, Any]]:
    """The tools a turn called, the call held for a yes, and every call's arguments."""
    turn = await play(text)
    args: dict[str, Any] = {}
    for call in [c for calls in turn.rounds for c in calls] + ([turn.held] if turn.held else []):
        args.update(call.arguments)
    return turn.tools, turn.held.tool_name if turn.held else None, args


@pytest.mark.parametrize(
    ("text", "service", "starts_at"),
    [
        (
            "book a pedicure for um make it a manicure on thursday at 3",
            "Manicure",
            "2025-03-06T15:00:00-08:00",
        ),
        (
            "i'd like a facial sorry a massage on friday at 11",
            "Massage",
            "2025-03-07T11:00:00-08:00",
        ),
        (
            "book a massage at 4 on saturday. actually make it a facial",
            "Facial",
            "2025-03-08T16:00:00-08:00",
        ),
        (
            "book a massage no sorry not a massage a facial tuesday at 10",
            "Facial",
            "2025-03-04T10:00:00-08:00",
        ),
    ],
)
async def test_a_service_said_over_books_the_one_said_last(
    text: str, service: str, starts_at: str
) -> None:
    tools, held, args = await outcome(text)
    assert "crm.bookAppointment" in tools and held is None, (text, tools)
    assert (args["service"], args["starts_at"]) == (service, starts_at), (text, args)


@pytest.mark.parametrize(
    ("text", "tool", "task_id"),
    [
        ("tick off groceries sorry the insurance one", "crm.completeTask", "task_2"),
        ("mark the insurance done no wait the eye exam one", "crm.completeTask", "task_3"),
        ("delete the eye exam one actually the groceries one", DELETE, "task_1"),
        ("mark the groceries as done sorry not the groceries the insurance", "crm.completeTask",
         "task_2"),
    ],
)  # fmt: skip
async def test_a_to_do_said_over_changes_the_one_said_last(
    text: str, tool: str, task_id: str
) -> None:
    tools, held, args = await outcome(text)
    assert tool in tools or held == tool, (text, tools, held)
    assert args["task_id"] == task_id, (text, args)


@pytest.mark.parametrize(
    ("text", "tool", "appointment_id", "starts_at"),
    [
        ("cancel my haircut actually my cleaning", CANCEL, "appt_1", None),
        ("the haircut can go no wait not the haircut the cleaning", CANCEL, "appt_1", None),
        # a change said over by another aimed at "it": the first is never made nor held
        (
            "cancel my cleaning actually move it to wednesday at 10",
            "crm.rescheduleAppointment",
            "appt_1",
            "2025-03-05T10:00:00-08:00",
        ),
        ("move the haircut i mean not move cancel it", CANCEL, "appt_2", None),
        # (the new day said with the move goes with it: no "moved, or cancelled?" asked)
        ("move my haircut to friday no wait cancel it", CANCEL, "appt_2", None),
        (
            "move my cleaning to thursday at ten no nine",
            "crm.rescheduleAppointment",
            "appt_1",
            "2025-03-06T09:00:00-08:00",
        ),
        (
            "the cleaning thing could you move it to friday at 9",
            "crm.rescheduleAppointment",
            "appt_1",
            "2025-03-07T09:00:00-08:00",
        ),
    ],
)
async def test_a_visit_or_a_change_said_over_is_the_one_said_last(
    text: str, tool: str, appointment_id: str, starts_at: str | None
) -> None:
    tools, held, args = await outcome(text)
    if tool == CANCEL:
        assert held == CANCEL and "crm.rescheduleAppointment" not in tools, (text, tools)
    else:
        assert tool in tools and held is None, (text, tools, held)
        assert args["starts_at"] == starts_at, (text, args)
    assert args["appointment_id"] == appointment_id, (text, args)


@pytest.mark.parametrize(
    ("text", "starts_at"),
    [
        ("book a haircut on saturday at eleven sorry no actually ten", "2025-03-08T10:00:00-08:00"),
        ("book a massage on thursday at 10am no 9", "2025-03-06T09:00:00-08:00"),
        # kept: an afternoon hour after a late morning one, an hour in the same half
        ("book a haircut on tuesday at 11am no wait 1", "2025-03-04T13:00:00-08:00"),
        ("book a facial on monday at 2pm no 3", "2025-03-03T15:00:00-08:00"),
    ],
)
async def test_an_hour_put_right_is_read_in_the_business_day(text: str, starts_at: str) -> None:
    """ "at ten no nine" is 9am (it was 9pm, after a 10am), said in words or digits."""
    _, _, args = await outcome(text)
    assert args.get("starts_at") == starts_at, (text, args)


@pytest.mark.parametrize(
    "text",
    [
        "i was going to move my haircut but",
        "so i was about to cancel the cleaning but um",
        "i was gonna delete the groceries task but uh",
    ],
)
async def test_an_ask_begun_and_dropped_changes_nothing(text: str) -> None:
    tools, held, _ = await outcome(text)
    writes = {"crm.rescheduleAppointment", "crm.completeTask", "crm.updateTask"}
    assert held is None and not writes.intersection(tools), (text, tools, held)


@pytest.mark.parametrize(
    "text",
    [
        "are there any visits i missed",
        "show me the appointments that i cancelled",
        "any bookings i've cancelled",
    ],
)
async def test_visits_missed_or_cancelled_read_the_history(text: str) -> None:
    tools, held, _ = await outcome(text)
    assert tools == ["crm.listAppointments"] and held is None, (text, tools)


async def test_the_thing_named_first_as_a_thing_is_changed() -> None:
    tools, _, args = await outcome("the insurance thing can you make it due on the 12th")
    assert tools == ["crm.listTasks", "crm.updateTask"], tools
    assert (args["task_id"], args["due_on"]) == ("task_2", "2025-03-12"), args


@pytest.mark.parametrize(
    "text",
    [
        "not the haircut, the dental one - when is it",
        "cancel the haircut and the cleaning",
        "book a massage for my sister",
        "is the haircut no longer on",
        "the haircut, the cleaning, when are they",
        "i was going to ask about my bill but you answered it",
        "i was going to ask about my bill but",
        "mark the groceries done and the insurance one",
    ],
)
def test_what_is_not_said_over_is_read_as_said(text: str) -> None:
    assert put_right(text, NOW) == text


# Found by the set's second block (not tuned on before its first run): a value put right by
# "half past"/"quarter to", after "you know what", with the day kept ("keep it on friday,
# just make it 4"), and an ask taken back by "don't <do> anything".
@pytest.mark.parametrize(
    ("text", "starts_at"),
    [
        ("book a massage on thursday at 3 no quarter to 4", "2025-03-06T15:45:00-08:00"),
        ("book a facial saturday at ten you know what make it eleven", "2025-03-08T11:00:00-08:00"),
        (
            "move my cleaning to wednesday at 9 actually keep it on monday just make it 11",
            "2025-03-03T11:00:00-08:00",
        ),
        (
            "move the haircut to saturday at 11 no wait keep it at 11 and make it sunday",
            "2025-03-02T11:00:00-08:00",
        ),
    ],
)
async def test_a_value_put_right_in_speech_is_the_one_written(text: str, starts_at: str) -> None:
    _, held, args = await outcome(text)
    assert held is None and args.get("starts_at") == starts_at, (text, args)


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("delete the groceries task sorry dont delete anything", []),
        ("cancel my haircut oh wait don't do that", []),
        ("move the cleaning to friday no wait keep it where it is", []),
        (
            "what do i owe and mark the insurance done no wait don't do that",
            ["crm.getOpenInvoices"],
        ),
        (
            "move my cleaning to friday actually don't change anything just tell me when it is",
            ["crm.listUpcomingAppointments"],
        ),
    ],
)
async def test_an_ask_taken_back_by_dont_changes_nothing(text: str, tools: list[str]) -> None:
    """Nothing written or held; what is asked beside or after it is read."""
    got, held, _ = await outcome(text)
    reads = {"crm.listTasks", "crm.listUpcomingAppointments", "crm.getOpenInvoices"}
    assert held is None and set(got) <= reads, (text, got, held)
    assert set(tools) <= set(got), (text, got)
