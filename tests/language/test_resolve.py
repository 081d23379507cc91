"""Find-then-act targets resolved from real-shaped listings: title, day, position."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from assistant.fakes.world import APPOINTMENTS, NOW, TASKS, TIMEZONE, task
from assistant.language import detect_intents
from assistant.language.targets import TargetRef, target_ref
from assistant.resolve import (
    Ambiguous,
    Match,
    NoMatch,
    action_arguments,
    resolve_appointment,
    resolve_intent,
    resolve_task,
)
from assistant.schema import ToolCall, ToolResult


def ref(*words: str, **fields: Any) -> TargetRef:
    return TargetRef(phrase=" ".join(words), words=words, **fields)


def test_grocery_task_finds_buy_groceries() -> None:
    """ "the grocery task" finds "Buy groceries": word forms and case do not matter."""
    resolution = resolve_task(TASKS, ref("grocery"))
    assert isinstance(resolution, Match)
    assert resolution.item["title"] == "Buy groceries"


def test_small_differences_still_match() -> None:
    """A slip ("grocries") or another form ("insurance renewal") still finds the task."""
    slip = resolve_task(TASKS, ref("grocries"))
    assert isinstance(slip, Match)
    assert slip.item["id"] == "task_1"
    renewal = resolve_task(TASKS, ref("insurance", "renewal"))
    assert isinstance(renewal, Match)
    assert renewal.item["title"] == "Renew car insurance"


def test_two_tasks_sharing_a_word_are_ambiguous() -> None:
    """ "the bill task" with "Pay water bill" and "Pay phone bill" asks which one."""
    bills = [task("t_w", "Pay water bill", "high", 3), task("t_p", "Pay phone bill", "normal", 5)]
    resolution = resolve_task(bills, ref("bill"))
    assert isinstance(resolution, Ambiguous)
    assert {t["title"] for t in resolution.candidates} == {"Pay water bill", "Pay phone bill"}
    water = resolve_task(bills, ref("water", context=("bill",)))
    assert isinstance(water, Match)
    assert water.item["id"] == "t_w"
    first = resolve_task(bills, TargetRef(phrase="the first one", position=1, context=("bill",)))
    assert isinstance(first, Match)
    assert first.item["id"] == "t_w"


def test_a_shared_word_with_other_words_of_its_own_is_another_task() -> None:
    """ "call the bank" is not "Call the pharmacy", nor "the car registration" "Renew car
    insurance", nor "the gas bill" "Pay water bill": nothing fits, the list is offered.
    Said with other doing words ("grocery shopping") or a slip ("eye exm"), it fits."""
    tasks = [*TASKS, task("t_w", "Pay water bill", "normal", 3)]
    for words in (("call", "bank"), ("car", "registration"), ("gas", "bill"), ("eye", "drops")):
        assert isinstance(resolve_task(tasks, ref(*words)), NoMatch), words
    for words, title in (
        (("grocery", "shopping"), "Buy groceries"),
        (("eye", "exm"), "Schedule eye exam"),
        (("car", "insurance", "renewal"), "Renew car insurance"),
        (("water",), "Pay water bill"),
    ):
        found = resolve_task(tasks, ref(*words))
        assert isinstance(found, Match), words
        assert found.item["title"] == title


def test_nothing_matching_offers_the_pending_tasks() -> None:
    """No match is said as such, with the pending tasks to choose from."""
    resolution = resolve_task(TASKS, ref("dishwasher"))
    assert isinstance(resolution, NoMatch)
    assert [t["title"] for t in resolution.options] == [
        "Buy groceries",
        "Renew car insurance",
        "Schedule eye exam",
    ]


def test_an_exact_title_wins_over_a_longer_one() -> None:
    """ "buy groceries" is "Buy groceries", not also "Buy groceries for the party"."""
    both = [*TASKS, task("task_8", "Buy groceries for the party", "normal", 4)]
    resolution = resolve_task(both, ref("buy", "groceries"))
    assert isinstance(resolution, Match)
    assert resolution.item["id"] == "task_1"


def test_pending_tasks_come_before_completed_ones() -> None:
    """A completed task is only meant when no pending one fits ("the pharmacy task")."""
    resolution = resolve_task(TASKS, ref("pharmacy"))
    assert isinstance(resolution, Match)
    assert resolution.item["status"] == "completed"


def test_the_tuesday_one_is_the_appointment_on_that_weekday() -> None:
    """ "my Monday appointment" is the dental cleaning on Monday."""
    (intent,) = detect_intents("move my monday appointment to friday", NOW, TIMEZONE)
    assert intent.target is not None
    resolution = resolve_appointment(APPOINTMENTS, intent.target, TIMEZONE)
    assert isinstance(resolution, Match)
    assert resolution.item["service"] == "Dental cleaning"


def test_the_dental_one_and_the_dentist_appointment() -> None:
    """A service named loosely ("dentist", "the dental one") finds its appointment."""
    for words in (("dental",), ("dentist",), ("hair",)):
        resolution = resolve_appointment(APPOINTMENTS, ref(*words), TIMEZONE)
        assert isinstance(resolution, Match), words
    haircut = resolve_appointment(APPOINTMENTS, ref("hair"), TIMEZONE)
    assert isinstance(haircut, Match)
    assert haircut.item["id"] == "appt_2"


def test_the_one_on_the_7th_and_the_next_one() -> None:
    """A day of the month, or "next", picks the appointment meant."""
    (on_day,) = detect_intents("cancel the appointment on the 7th", NOW, TIMEZONE)
    assert on_day.target is not None
    found = resolve_appointment(APPOINTMENTS, on_day.target, TIMEZONE)
    assert isinstance(found, Match)
    assert found.item["id"] == "appt_2"
    soonest = resolve_appointment(list(reversed(APPOINTMENTS)), ref(position=1), TIMEZONE)
    assert isinstance(soonest, Match)
    assert soonest.item["id"] == "appt_1"


def test_no_appointment_that_day_offers_what_exists() -> None:
    """Nothing on the day named: no match, with the upcoming appointments as options."""
    (intent,) = detect_intents("cancel my tuesday appointment", NOW, TIMEZONE)
    assert intent.target is not None
    resolution = resolve_appointment(APPOINTMENTS, intent.target, TIMEZONE)
    assert isinstance(resolution, NoMatch)
    assert len(resolution.options) == 2


def test_a_vague_target_with_two_candidates_asks_which() -> None:
    """ "cancel my appointment" with two booked asks which one."""
    (intent,) = detect_intents("cancel my appointment", NOW, TIMEZONE)
    assert intent.target is not None
    assert isinstance(resolve_appointment(APPOINTMENTS, intent.target, TIMEZONE), Ambiguous)


def test_moving_to_a_day_keeps_the_appointments_own_time() -> None:
    """ "move my Monday appointment to Friday" keeps 10 AM, on Friday."""
    (intent,) = detect_intents("move my monday appointment to friday", NOW, TIMEZONE)
    listing = ToolResult(
        call=ToolCall(call_id="c_1_1", tool_name="crm.listUpcomingAppointments"),
        status="ok",
        result={"appointments": APPOINTMENTS},
    )
    resolution = resolve_intent(intent, [listing], TIMEZONE)
    assert isinstance(resolution, Match)
    assert action_arguments(intent, resolution.item, TIMEZONE) == {
        "appointment_id": "appt_1",
        "starts_at": "2025-03-07T10:00:00-08:00",
    }


def test_no_listing_means_nothing_to_resolve() -> None:
    """Without a successful listing in the results there is no resolution at all."""
    (intent,) = detect_intents("complete the grocery task", NOW, TIMEZONE)
    failed = ToolResult(
        call=ToolCall(call_id="c_1_1", tool_name="crm.listTasks"),
        status="error",
        error={"code": "timeout", "message": "slow"},
    )
    assert resolve_intent(intent, [failed], TIMEZONE) is None


def _visits_at(*times: str) -> list[dict[str, str]]:
    return [
        {"id": f"a{n}", "service": "Haircut", "starts_at": f"2030-01-20T{at}:00-08:00"}
        for n, at in enumerate(times)
    ]


def test_a_visit_named_by_its_time_is_the_one_that_starts_then() -> None:
    """ "my 2:30" is the visit at 2:30 in the afternoon; "my 2:30am" is not; a time no
    visit starts at finds none (never the nearest)."""
    now = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
    visits = _visits_at("10:00", "14:30")
    zone = "America/Los_Angeles"
    said = target_ref("my 2:30", "my 2:30", now)
    assert said.clock is not None and said.either_half and not said.vague
    found = resolve_appointment(visits, said, zone)
    assert isinstance(found, Match) and found.item["id"] == "a1"
    assert isinstance(resolve_appointment(visits, target_ref("my 2:30am", "", now), zone), NoMatch)
    assert isinstance(resolve_appointment(visits, target_ref("my 10:30", "", now), zone), NoMatch)
    both = resolve_appointment(_visits_at("02:30", "14:30"), said, zone)
    assert isinstance(both, Ambiguous)


def _appointment(description: str) -> Match | NoMatch | Ambiguous:
    return resolve_appointment(APPOINTMENTS, target_ref(description, description, NOW), TIMEZONE)


def test_what_is_left_out_is_never_the_one_meant() -> None:
    """ "…except the dentist" names the dentist only to leave it out: the other one is meant."""
    resolution = _appointment("my appointment except the dentist")
    assert isinstance(resolution, Match)
    assert resolution.item["service"] == "Haircut"
    (intent,) = detect_intents(
        "mark every task as done apart from the car insurance", NOW, TIMEZONE
    )
    assert intent.target is not None and intent.target.excluded is not None
    assert "insurance" in intent.target.excluded.words


def test_the_one_after_or_before_another_is_its_neighbour() -> None:
    """ "The appointment after the dentist" is the haircut, not the dentist; none after the last."""
    after = _appointment("the appointment after the dentist")
    assert isinstance(after, Match) and after.item["service"] == "Haircut"
    before = _appointment("the one before my haircut")
    assert isinstance(before, Match) and before.item["service"] == "Dental cleaning"
    assert isinstance(_appointment("the appointment after the haircut"), NoMatch)


def test_a_span_part_of_day_or_priority_narrows_what_is_meant() -> None:
    """ "Next week" is its seven days, "morning" its hours, "high priority" the task's."""
    assert isinstance(_appointment("my appointment this weekend"), NoMatch)  # NOW: a Saturday
    assert isinstance(_appointment("my appointment next week"), Ambiguous)
    morning = _appointment("my morning appointment")
    assert isinstance(morning, Match) and morning.item["service"] == "Dental cleaning"
    afternoon = _appointment("the afternoon one")
    assert isinstance(afternoon, Match) and afternoon.item["service"] == "Haircut"
    urgent = resolve_task(TASKS, target_ref("the high priority task", "the high priority task"))
    assert isinstance(urgent, Match) and urgent.item["title"] == "Renew car insurance"
