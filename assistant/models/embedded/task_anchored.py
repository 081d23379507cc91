"""Days said by another task: "add a task to renew my passport, due the same day as the car
insurance", "make the landlord one due the day before my groceries".

The grammar alone would keep "due the same day as the car insurance" in the new title and
set no day. As a day said by a visit is counted from that visit (anchored.py), this one is
counted from the task named: its due date, from the tasks the conversation knows or from
the list read first. The message is then read with that date in place of the words
("…renew my passport, due January 21"). A task named that has no due date, or none like
it, is said so and the day asked; words naming no task ("the day after my birthday") are
left to the rules that ask which day.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, timedelta

from assistant.dialogue_state import Action, Dialogue, Item
from assistant.language.lexicon import SERVICES
from assistant.language.patterns import rx
from assistant.models.embedded.last_said import last_said, said_as
from assistant.schema import (
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolResult,
)
from assistant.zones import zone_named

LOOKUP = "crm.listTasks"
_OFFSET = {"day after": 1, "day before": -1, "same day as": 0, "week after": 7, "week before": -7}
# Cheap first look: every message pays only this. A day is counted from a task only in a
# message about tasks ("the day after tomorrow" is no task's).
_GATE = re.compile(r"\b(?:same day as|day (?:after|before)|week (?:after|before))\b")
_OF_TASKS = re.compile(r"\b(?:task|tasks|remind|reminder|to-?do|to do|due)\b")
_NOT_A_TASK = frozenset({"tomorrow", "today", "tonight", "next", "this", "that", "it", "then"})
_ANCHOR = rx(
    r"\b(?P<lead>(?:due|by|on|for|to) )?(?:on )?(?:the )?(?P<rel>same day as|day after"
    r"|day before|week after|week before) (?:my |the |that |our )?(?P<what>[a-z][a-z'-]*"
    r"(?: (?!(?:and|but|then|also|please|instead|too|at|in|on|by)\b)[a-z][a-z'-]*){0,4})"
)
# Words around a task's name that are not of its title ("the car insurance task/one").
_AROUND = frozenset({"task", "tasks", "one", "to-do", "todo", "reminder", "thing", "due", "date"})
# A service names a visit (anchored.py counts from it), never a task.
_SERVICE_WORDS = frozenset(SERVICES)


def _tasks(request: PlanRequest) -> tuple[list[Item], bool]:
    """The tasks known: this turn's list first, then the conversation's; and whether the
    list was read this turn."""
    return _known_tasks(request.turn_results, request.dialogue)


def _known_tasks(results: Iterable[ToolResult], state: Dialogue) -> tuple[list[Item], bool]:
    found: list[Item] = []
    read = False
    for result in results:
        if result.call.tool_name != LOOKUP or not result.ok:
            continue
        read = True
        body = result.result if isinstance(result.result, dict) else {}
        found += [item for item in body.get("tasks") or () if isinstance(item, dict)]
    found += [*state.last_listed_of("task")]
    if (focus := state.focus_of("task")) is not None:
        found.append(focus)
    return found, read


def _named(words: list[str], tasks: Iterable[Item]) -> Item | None:
    """The one task whose title holds every word said (the longest naming wins)."""
    known = {str(t.get("id") or t.get("title")): t for t in tasks if t.get("title")}
    while words:
        said = [w for w in words if w not in _AROUND and w not in ("my", "the")]
        if said:
            like = [
                task
                for task in known.values()
                if all(re.search(rf"\b{re.escape(w)}", str(task["title"]).lower()) for w in said)
            ]
            if len(like) == 1:
                return like[0]
        words = words[:-1]
    return None


def _anchor(text: str) -> re.Match[str] | None:
    if not _GATE.search(text) or not _OF_TASKS.search(text):
        return None
    match = _ANCHOR.search(text)
    if match is None or match.group("what").split()[0] in _SERVICE_WORDS | _NOT_A_TASK:
        return None
    if any(service in match.group("what") for service in _SERVICE_WORDS if " " in service):
        return None
    return match


def counts_from_a_task(text: str) -> bool:
    """The message may say a day by another task ("due the same day as the car insurance")."""
    return _anchor(text.lower()) is not None


def read_days(request: PlanRequest) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """The request with the day counted from the task named; the tasks looked up first
    when none is known; an answer when that task has no due date; None when no day is said
    by a task."""
    if (last := last_said(request)) is None:
        return None
    index, said = last
    text = said.lower()
    if len(text) != len(said):
        return None
    if (" after" in text or " before" in text) and (that := _that_day(text)) is not None:
        # "push the groceries one to thursday" → "and the second one to the day after
        # that": counted from the day the last change gave its task.
        # A to-do named just after a visit was told is due counted from the visit's day
        # (the visit never moved); anything else counts from the day just set or told.
        return _from_the_visit_told(request, index, text, that) or _from_day_just_set(
            request, index, text, that
        )
    if "days " in text and (that := _DAYS_FROM_THAT.search(text)) is not None:
        # "what day is the cleaning?" → "make the eye exam task due two days after"
        return _from_the_visit_told(request, index, text, that)
    if (match := _anchor(text)) is None:
        return None
    tasks, read = _tasks(request)
    task = _named(match.group("what").split(), tasks)
    if task is None:
        if not read and request.round <= 1 and any(t.name == LOOKUP for t in request.tools):
            call = ToolCall(call_id="c_1_1", tool_name=LOOKUP, arguments={"status": "all"})
            return ToolCallsDecision(calls=(call,))
        # No task by those words ("the day after my birthday"): the day is asked by the
        # rules after, the message read as in a first round.
        return request if read else None
    due = task.get("due_on")
    if not isinstance(due, str) or not due:
        return FinalDecision(
            text=f"{task['title']} has no due date, so I can't count a day from it. "
            "Which day would you like instead?"
        )
    told = _told(text, match, due)
    return said_as(request, index, told)


# "to the day after that", "the week before that": a day counted from the one just said
# ("that one", "that task" name a thing, not a day).
# So too "two days after that", "a week after that", and "the day before" said last ("when
# is that due" → "make it due the day before": the day just told, "that" left unsaid).
_THAT_DAY = rx(
    r"\b(?P<lead>(?:due|by|on|for|to) )?(?:on )?(?:the (?P<rel>day after|day before|week after"
    r"|week before)|(?P<n>a|one|two|three|four|five|six|[2-9]) (?P<unit>days?|weeks?)"
    r" (?P<dir>after|before))(?: that\b(?! (?:one|task|visit|appointment|reminder))"
    r"|(?= then\W*$| please\W*$|\W*$))"
)
# (the one in focus changed: "make it due…", "move that to…"; not "remind me to pay it the
# day before", a new to-do's day counted from the bill it names)
_IT_BEFORE = rx(
    r"\b(?:make|move|put|set|push|change|shift|bump|switch) (?:it|this|that)(?: one| task)?"
    r"(?: (?:due|to|on|for|back|forward))*$"
)


def _that_day(text: str) -> re.Match[str] | None:
    """ "the day after that" (or "two weeks before that") in `text`; "the day before" said
    last with no "that" only of "it" ("when is that due" → "make it due the day before"):
    "move the cleaning to the day before" is a day before the cleaning's own, as it was."""
    that = _THAT_DAY.search(text)
    if that is None or that.group(0).endswith("that"):
        return that
    return that if _IT_BEFORE.search(text[: that.start()].rstrip()) else None


_NUMBER = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _offset_of(that: re.Match[str]) -> int:
    """The days "the day after that", "two weeks before that" count from the day told."""
    if that.groupdict().get("rel"):
        return _OFFSET[that.group("rel")]
    said = that.group("n")
    days = (int(said) if said.isdigit() else _NUMBER[said]) * (
        7 if (that.groupdict().get("unit") or "").startswith("week") else 1
    )
    return days if that.group("dir") == "after" else -days


def _from_day_just_set(
    request: PlanRequest, index: int, text: str, that: re.Match[str]
) -> PlanRequest | None:
    """The message with "the day after that" read as the day the last change set (a
    to-do's due day, a visit's day), else the day of the to-do or visit in focus; None when
    neither has one."""
    timezone = request.customer.timezone if request.customer else None
    day = _day_just_set(request.dialogue, timezone)
    if day is None:
        return None
    day += timedelta(days=_offset_of(that))
    lead = that.group("lead") or "on "
    said = f"{lead}{day:%B} {day.day}"
    told = text[: that.start()] + said + text[that.end() :]
    return said_as(request, index, told)


def _day_just_set(state: Dialogue, timezone: str | None) -> date | None:
    """The day the last change gave its to-do or visit, else the day of the one in focus
    ("when is my haircut?" → "move my cleaning to the day before that": the haircut's).
    The one talked of since the last change, if another, is the one "that" says."""
    action = state.last_action
    focus = state.focus
    if focus is not None and (action is None or str(focus.get("id")) != _acted_on(action)):
        if state.focus_kind == "task" and focus.get("due_on"):
            # "when is the car insurance renewal due?" → "put the call on the day before
            # that": the day just told of the to-do in focus
            return date.fromisoformat(str(focus["due_on"])[:10])
        return _visit_day(focus, timezone) if state.focus_kind == "appointment" else None
    if action is not None and action.kind == "task" and action.arguments.get("due_on"):
        return date.fromisoformat(str(action.arguments["due_on"])[:10])
    if action is not None and action.tool in _VISIT_DAY_SET:
        # "move my haircut to saturday" → "and the cleaning to the day before that": the
        # Friday (was: the day before the cleaning's own day, a wrong move)
        return _visit_day(action.after or {}, timezone)
    return None


def _acted_on(action: Action) -> str:
    after = action.after or {}
    return str(
        after.get("id")
        or action.arguments.get("task_id")
        or action.arguments.get("appointment_id")
        or ""
    )


_VISIT_DAY_SET = frozenset({"crm.bookAppointment", "crm.rescheduleAppointment"})


def _visit_day(visit: Item, timezone: str | None) -> date | None:
    starts_at = visit.get("starts_at")
    if not isinstance(starts_at, str):
        return None
    zone = zone_named(timezone)
    try:
        return datetime.fromisoformat(starts_at).astimezone(zone).date()
    except ValueError:
        return None


# "two days after", "three days before that": counted from the day just told.
_DAYS_FROM_THAT = rx(
    r"\b(?P<lead>(?:due|by|on|for|to) )?(?P<n>two|three|four|five|[2-9]) days"
    r" (?P<dir>after|before)(?: that| it| then)?\W*$"
)
_BOOKS_A_VISIT = rx(r"\b(?:book|appointments?|visits?|bookings?|reschedule|cancel)\b")
# Words of the ask around a to-do's name ("put the call on…", "set the eye exam for…").
_ASK_WORDS = frozenset(
    {
        "put",
        "move",
        "set",
        "make",
        "change",
        "push",
        "shift",
        "switch",
        "bump",
        "the",
        "my",
        "a",
        "an",
        "it",
        "to",
        "on",
        "for",
        "due",
        "and",
        "also",
        "please",
        "can",
        "you",
        "could",
        "would",
        "instead",
        "that",
        "then",
        "so",
        "ok",
        "okay",
        "of",
        "date",
        "day",
        "is",
        "be",
        "should",
        "just",
        "now",
        "one",
        "task",
        "to-do",
        "todo",
        "reminder",
        "remind",
        "me",
        "about",
        "have",
        "thing",
        "oh",
    }
)


def _from_the_visit_told(
    request: PlanRequest, index: int, text: str, that: re.Match[str]
) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """ "when is my haircut?" → "put the call on the day before that": a to-do named (not
    the visit) made due on the day counted from the visit just told (was: the haircut
    MOVED a day, the to-do's name not read; "the eye exam the day after that" read the
    visits again). The tasks are read first when none is known. None when no one to-do
    is named (read as it was), or a visit is."""
    state = request.dialogue
    visit = state.focus_of("appointment")
    if visit is None or state.focus_kind != "appointment":
        return None
    starts = visit.get("starts_at")
    if not isinstance(starts, str):
        return None
    rest = f"{text[: that.start()]} {text[that.end() :]}"
    words = [w for w in re.findall(r"[a-z][a-z'-]*", rest) if w not in _ASK_WORDS]
    known = {
        str(v.get("service") or "").lower() for v in (visit, *state.last_listed_of("appointment"))
    }
    if (
        not words
        or _BOOKS_A_VISIT.search(rest)
        # a visit known by the service said is the one meant ("move my haircut to the day
        # before that"); "the eye exam", with no eye exam booked, is the to-do
        or any(service and service in rest for service in known)
    ):
        return None
    tasks, read = _known_tasks(request.turn_results, state)
    like = {
        str(task.get("id")): task
        for task in tasks
        if task.get("title")
        and all(re.search(rf"\b{re.escape(w)}", str(task["title"]).lower()) for w in words)
    }
    if len(like) != 1:
        if not read and request.round <= 1 and any(t.name == LOOKUP for t in request.tools):
            call = ToolCall(call_id="c_1_1", tool_name=LOOKUP, arguments={"status": "all"})
            return ToolCallsDecision(calls=(call,))
        return None  # no one to-do by those words: read as it was
    task = next(iter(like.values()))
    offset = _offset_of(that)
    zone_day = datetime.fromisoformat(starts)
    if request.customer is not None:
        zone_day = zone_day.astimezone(zone_named(request.customer.timezone))
    day = zone_day.date() + timedelta(days=offset)
    title = str(task["title"]).lower()
    return said_as(request, index, f"make the {title} task due {day:%B} {day.day}")


def _told(text: str, match: re.Match[str], due: str) -> str:
    """`text` with the day counted from `due` in place of the words that say it."""
    day = date.fromisoformat(due[:10]) + timedelta(days=_OFFSET[match.group("rel")])
    lead = match.group("lead") or "on "
    said = f"{'due ' if lead == 'due ' else lead}{day:%B} {day.day}"
    return text[: match.start()] + said + text[match.end() :]


def visit_moved_to_that_day(text: str, state: Dialogue, timezone: str) -> str | None:
    """ "when is my haircut?" → "move an appointment to the day after that": read by the
    narrator as the planner read it, the day counted from the one just told or set, so
    that which visit is asked (was: the visits read out, and no question); None unless a
    visit is what moves."""
    lowered = text.lower()
    if len(lowered) != len(text) or not (" after" in lowered or " before" in lowered):
        return None
    if (that := _that_day(lowered)) is None:
        return None
    if not _BOOKS_A_VISIT.search(f"{lowered[: that.start()]} {lowered[that.end() :]}"):
        return None  # a to-do's day (its own rule) or nothing named
    day = _day_just_set(state, timezone)
    if day is None and state.focus is None and state.earlier_focus_kind == "appointment":
        # (the visit told, let go of when the visits were read out to ask which)
        day = _visit_day(state.earlier_focus or {}, timezone)
    if day is None:
        return None
    day += timedelta(days=_offset_of(that))
    said = f"{that.group('lead') or 'on '}{day:%B} {day.day}"
    return lowered[: that.start()] + said + lowered[that.end() :]


def counted(text: str, results: Iterable[ToolResult], state: Dialogue) -> str | None:
    """ "…due the same day as the car insurance", read by the narrator as the planner read
    it, with the day counted from that to-do; None when none is known with a due date."""
    lowered = text.lower()
    if len(lowered) != len(text) or (match := _anchor(lowered)) is None:
        return None
    tasks, _ = _known_tasks(results, state)
    task = _named(match.group("what").split(), tasks)
    due = task.get("due_on") if task is not None else None
    return _told(lowered, match, due) if isinstance(due, str) and due else None


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has read only the list the day is counted from."""
    results = request.turn_results
    return len(results) == 1 and results[0].call.tool_name == LOOKUP and results[0].round == 1
