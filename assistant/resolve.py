"""Find-then-act: which listed task or appointment a request is about.

Pure functions over the CRM's listings. A target is resolved from the data, never
guessed: by title or service (case-insensitive, tolerant of word forms and small
slips: "grocery task" finds "Buy groceries", "dentist" finds "Dental cleaning"), by
day ("the Tuesday one", "the one on the 15th") or by position ("my next
appointment"). The answer is one of `Match` (act on it), `NoMatch` (say so and offer
what exists) or `Ambiguous` (ask which one, naming them). Used by the embedded
planner's second round and by the engine's forced follow-up.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.language import slots
from assistant.language.appointment_rules import same_day_of_a_week
from assistant.language.intents import APPOINTMENT_ACTIONS, TASK_ACTIONS, Intent
from assistant.language.lexicon import PLACE_KINDS, SERVICES, TITLE_VERBS, VISIT_WORDS
from assistant.language.patterns import rx
from assistant.language.shifts import weekday_beside
from assistant.language.targets import FILLER, TargetRef
from assistant.language.typos import damerau
from assistant.ordering import spoken_appointments, spoken_tasks
from assistant.schema import ToolResult
from assistant.zones import zone_named

Item = dict[str, Any]

# A listed item counts as meant when its words cover this share of the description.
_THRESHOLD = 0.5
_TIE = 0.05


@dataclass(frozen=True, slots=True)
class Match:
    item: Item


@dataclass(frozen=True, slots=True)
class NoMatch:
    """Nothing fits; `options` are what exists (to offer instead). `near`: the ones a word
    of the description fits though it names another service ("my dental surgery" and the
    dental cleaning), offered as "did you mean…?", never picked."""

    options: tuple[Item, ...]
    near: tuple[Item, ...] = ()


@dataclass(frozen=True, slots=True)
class Ambiguous:
    """Several fit equally well; ask which one."""

    candidates: tuple[Item, ...]


Resolution = Match | NoMatch | Ambiguous


# --- words ---------------------------------------------------------------------------


def stem(word: str) -> str:
    """A crude English stem, enough for titles: groceries/grocery → grocer."""
    word = word.lower().strip(".,'\"!?")
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 4 and word.endswith(("y", "e")):
        word = word[:-1]
    return word


def _content_words(text: str) -> list[str]:
    words = [w.strip(".,:;!?\"'()").lower() for w in text.replace("-", " ").split()]
    return [w for w in words if w and w not in FILLER]


def _word_score(query: str, words: Sequence[str]) -> float:
    q = stem(query)
    best = 0.0
    for word in words:
        w = stem(word)
        if q == w:
            return 1.0
        shorter = min(len(q), len(w))
        if shorter >= 4 and (q.startswith(w) or w.startswith(q)):
            best = max(best, 0.85)
        elif shorter >= 4 and damerau(q, w) <= (2 if shorter >= 8 else 1):
            best = max(best, 0.75)
        elif shorter >= 4 and q[:4] == w[:4]:
            best = max(best, 0.6)
    return best


def text_score(query_words: Sequence[str], text: str) -> float:
    """How well `text` (a title, a service) fits the described words, 0…1."""
    words = _content_words(text)
    if not query_words or not words:
        return 0.0
    return sum(_word_score(q, words) for q in query_words) / len(query_words)


def _same_words(query_words: Sequence[str], text: str) -> bool:
    return [stem(w) for w in query_words] == [stem(w) for w in _content_words(text)]


# A word counts as found in a title from this score on (a shared first four letters).
_FOUND = 0.6
_TITLE_VERB_STEMS = frozenset(stem(word) for word in TITLE_VERBS)


def _found(word: str, words: Sequence[str]) -> bool:
    """`word` is among `words`, as `_word_score` reads them or with one slip in a short
    word ("exm" for "exam")."""
    if _word_score(word, words) >= _FOUND:
        return True
    return len(word) >= 3 and any(len(w) >= 3 and damerau(word, w) <= 1 for w in words)


def _names_another(query_words: Sequence[str], text: str) -> bool:
    """Whether the description names another item than `text` though words of it fit:
    each holds a word, not a doing word, that the other lacks ("call the bank" and "Call
    the pharmacy", "the car registration task" and "Renew car insurance"). A title said
    with other doing words ("the grocery shopping task", "Buy groceries") or in part
    ("the insurance task") is still the one named."""
    words = _content_words(text)
    said_only = [q for q in query_words if not _found(q, words)]
    listed_only = [w for w in words if not _found(w, query_words)]
    return any(stem(q) not in _TITLE_VERB_STEMS for q in said_only) and any(
        stem(w) not in _TITLE_VERB_STEMS for w in listed_only
    )


def _best(items: Sequence[Item], query_words: Sequence[str], field: str) -> tuple[Item, ...]:
    scored = [(text_score(query_words, str(item.get(field) or "")), item) for item in items]
    scored = [(score, item) for score, item in scored if score >= _THRESHOLD]
    if field == "title":
        # Titles are the customer's own free text: a word or two shared is not a name.
        scored = [
            (score, item)
            for score, item in scored
            if not _names_another(query_words, str(item.get(field) or ""))
        ]
    if not scored:
        return ()
    top = max(score for score, _ in scored)
    leaders = tuple(item for score, item in scored if score >= top - _TIE)
    exact = tuple(item for item in leaders if _same_words(query_words, str(item.get(field))))
    return exact if len(exact) == 1 else leaders


# How an address is written ("48 Valencia St") for the words said of it ("the valencia
# street place"), and words that say only that it is a place.
_ADDRESS_SHORT = {"street": "st", "avenue": "ave", "road": "rd", "boulevard": "blvd"}
_A_PLACE = frozenset({"place", "clinic", "office", "location", "spot", "branch", "one"})


def _place_words(said: Sequence[str]) -> tuple[str, ...]:
    return tuple(_ADDRESS_SHORT.get(word, word) for word in said if word not in _A_PLACE)


def _pick(candidates: Sequence[Item], position: int | None) -> Resolution | None:
    if position is None or not candidates:
        return None
    index = position - 1 if position > 0 else position
    if -len(candidates) <= index < len(candidates):
        return Match(candidates[index])
    return None


def _by_id(items: Sequence[Item], item_id: str) -> Resolution:
    """The item the conversation pinned down; gone from the listing: say so, offer the rest."""
    found = [item for item in items if item.get("id") == item_id]
    return Match(found[0]) if found else NoMatch(tuple(items))


def _decide(found: Sequence[Item], options: Sequence[Item]) -> Resolution:
    if len(found) == 1:
        return Match(found[0])
    if not found:
        return NoMatch(tuple(options))
    return Ambiguous(tuple(found))


def _beside(ordered: Sequence[Item], anchor: Resolution, side: int) -> Resolution:
    """ "The one after the dentist": the next (or previous) to the anchor, in order."""
    if not isinstance(anchor, Match):
        return anchor  # the anchor itself unknown or unclear: that is what is asked
    at = next(i for i, item in enumerate(ordered) if item is anchor.item)
    index = at + side
    if 0 <= index < len(ordered):
        return Match(ordered[index])
    return NoMatch(tuple(ordered))


def _left_in(
    pool: Sequence[Item],
    excluded: TargetRef,
    resolve: Callable[[Sequence[Item], TargetRef], Resolution],
) -> list[Item]:
    """The pool without what "except …" names (each of several): every item it fits, when
    it fits any."""
    gone: list[Item] = []
    for part in excluded.parts or (excluded,):
        left_out = resolve(pool, part)
        if isinstance(left_out, Match):
            gone.append(left_out.item)
        elif isinstance(left_out, Ambiguous):
            gone += left_out.candidates
    gone_ids = {g.get("id") for g in gone}
    return [item for item in pool if item.get("id") not in gone_ids]


def _when_said(items: Sequence[Item], target: TargetRef, zone: ZoneInfo) -> list[Item]:
    """The visits on the days and at the time the description says, if it says any."""
    found = _within(items, target, zone)
    if target.weekday is not None and target.day is not None:
        # "my Tuesday appointment": the coming Tuesday, else any Tuesday.
        found = _on_day(found, target.day, zone) or _on_weekday(found, target.weekday, zone)
    elif target.day is not None:
        found = _on_day(found, target.day, zone)
    if target.clock is not None:
        found = _at_clock(found, target, zone)
    if target.hours is not None:
        first, last = target.hours
        found = [
            item
            for item in found
            if (start := _local_start(item, zone)) is not None and first <= start.hour < last
        ]
    return found


def _within(items: Sequence[Item], target: TargetRef, zone: ZoneInfo) -> list[Item]:
    """The visits in the span of days said ("next week"), or all when none was."""
    if target.within is None:
        return list(items)
    first, last = target.within
    found = []
    for item in items:
        start = _local_start(item, zone)
        if start is not None and first <= start.date() <= last:
            found.append(item)
    return found


# --- tasks ---------------------------------------------------------------------------


def resolve_task(tasks: Sequence[Item], target: TargetRef) -> Resolution:
    """The task meant; pending tasks first, a completed one only when no pending fits."""
    if target.item_id is not None:
        return _by_id(tasks, target.item_id)
    # Counted in the order spoken ("the second one" is the second the customer heard).
    pending = spoken_tasks(t for t in tasks if t.get("status") != "completed")
    completed = [t for t in tasks if t.get("status") == "completed"]
    if target.anchor is not None:
        anchor_id = target.anchor.item_id
        if anchor_id is not None and not any(t.get("id") == anchor_id for t in pending):
            # "and the one after it" just after it was marked done: counted in the list as
            # it was heard, the one done in its place (was: which was asked)
            heard = spoken_tasks(
                t for t in tasks if t.get("status") != "completed" or t.get("id") == anchor_id
            )
            return _beside(heard, _by_id(heard, anchor_id), target.beside)
        return _beside(pending, resolve_task(pending, target.anchor), target.beside)
    if target.excluded is not None:
        pending = _left_in(pending, target.excluded, lambda pool, ref: resolve_task(pool, ref))
        completed = _left_in(completed, target.excluded, lambda pool, ref: resolve_task(pool, ref))
    for pool in (pending, completed):
        found = _task_candidates(pool, target)
        if found:
            if (picked := _pick(found, target.position)) is not None:
                return picked
            return _decide(found, pending)
    if target.vague and not pending:
        return NoMatch(())
    return NoMatch(tuple(pending))


def _task_candidates(pool: Sequence[Item], target: TargetRef) -> tuple[Item, ...]:
    found = _filtered_tasks(pool, target)
    if target.words:
        said = found
        found = _best(said, target.words, "title")
        if not found and (other := _other_words(target.words)) is not None:
            # "the shopping is done" of "Buy groceries": a word said for a title's word,
            # from a short list, found only when the words said find nothing (two found:
            # which is asked, never guessed)
            found = _best(said, other, "title")
    return _narrow(found, target, "title")


def _filtered_tasks(pool: Sequence[Item], target: TargetRef) -> Sequence[Item]:
    """The tasks of `pool` the target's day, span, level and "no due date" allow."""
    found: Sequence[Item] = pool
    if target.day is not None:
        found = [t for t in found if t.get("due_on") == target.day.isoformat()]
    if target.within is not None:
        first, last = (day.isoformat() for day in target.within)
        found = [t for t in found if first <= str(t.get("due_on") or "") <= last]
    if target.priority is not None:
        found = [t for t in found if t.get("priority") == target.priority]
    if target.undated:
        found = [t for t in found if not t.get("due_on")]
    return found


# A few words people say for a word of a to-do's title ("the shopping" for "Buy
# groceries"): only where one reads as the other whatever the title around it.
SAID_FOR = {
    "shopping": "groceries",
    "supermarket": "groceries",
    "optician": "eye",
    "optometrist": "eye",
}


def _other_words(words: Sequence[str]) -> tuple[str, ...] | None:
    """`words` with each said for a title's word put as that word; None when none is."""
    if not any(word in SAID_FOR for word in words):
        return None
    return tuple(SAID_FOR.get(word, word) for word in words if word != "food")


def _narrow(found: Sequence[Item], target: TargetRef, field: str) -> tuple[Item, ...]:
    """Several fit: keep those the earlier description also fits, if any do."""
    if len(found) > 1 and target.context:
        narrowed = _best(found, target.context, field)
        if narrowed:
            return narrowed
    return tuple(found)


# --- appointments ----------------------------------------------------------------------


def _local_start(item: Item, zone: ZoneInfo) -> datetime | None:
    try:
        return datetime.fromisoformat(str(item.get("starts_at"))).astimezone(zone)
    except ValueError:
        return None


def _on_day(items: Iterable[Item], day: date, zone: ZoneInfo) -> list[Item]:
    found = []
    for item in items:
        start = _local_start(item, zone)
        if start is not None and start.date() == day:
            found.append(item)
    return found


def _on_weekday(items: Iterable[Item], weekday: int, zone: ZoneInfo) -> list[Item]:
    found = []
    for item in items:
        start = _local_start(item, zone)
        if start is not None and start.weekday() == weekday:
            found.append(item)
    return found


def _at_clock(items: Iterable[Item], target: TargetRef, zone: ZoneInfo) -> list[Item]:
    """The visits that start at the time said ("my 2:30": 2:30 AM or PM, unless said)."""
    assert target.clock is not None
    wanted = target.clock
    found = []
    for item in items:
        start = _local_start(item, zone)
        if start is None or start.minute != wanted.minute:
            continue
        if start.hour == wanted.hour or (
            target.either_half and start.hour % 12 == wanted.hour % 12
        ):
            found.append(item)
    return found


def _service_words(words: Sequence[str]) -> list[str]:
    """'dentist' → also the words of the service it names ('dental cleaning')."""
    expanded = list(words)
    for word in words:
        if word in SERVICES:
            expanded.extend(_content_words(SERVICES[word]))
        elif word in VISIT_WORDS:
            expanded.extend(_content_words(VISIT_WORDS[word]))
    for pair in itertools.pairwise(words):
        # "my visit at the hair salon": a service named in two words
        if (named := SERVICES.get(" ".join(pair))) is not None:
            expanded.extend(_content_words(named))
    return expanded


def _at_a_kind_of_place(items: Sequence[Item], words: Sequence[str]) -> tuple[Item, ...]:
    """ "the salon one", "my thing at the spa": the visits of the services done there."""
    kinds = [PLACE_KINDS[word] for word in words if word in PLACE_KINDS]
    if not kinds:
        return ()
    return tuple(
        item for item in items if any(str(item.get("service") or "") in kind for kind in kinds)
    )


def resolve_appointment(
    appointments: Sequence[Item], target: TargetRef, timezone: str = "UTC"
) -> Resolution:
    """The appointment meant, among upcoming (not cancelled) ones, soonest first."""
    zone = zone_named(timezone)
    upcoming = spoken_appointments(a for a in appointments if a.get("status") != "cancelled")
    if target.item_id is not None:
        return _by_id(upcoming, target.item_id)
    if target.anchor is not None:
        anchor = resolve_appointment(upcoming, target.anchor, timezone)
        return _beside(upcoming, anchor, target.beside)
    found: Sequence[Item] = _when_said(upcoming, target, zone)
    if target.excluded is not None:
        excluded = target.excluded
        found = _left_in(
            found, excluded, lambda pool, ref: resolve_appointment(pool, ref, timezone)
        )
    if target.words and found and (apart := slots.service_said_apart(target.phrase)):
        said, near_service = apart
        named = [a for a in found if str(a.get("service") or "").lower() == said]
        if not named:
            near = tuple(a for a in found if a.get("service") == near_service)
            return NoMatch(tuple(upcoming), near)
        found = named
    if target.words and found:
        by_service = _best(found, target.words, "service")
        if not by_service:
            by_service = _best(found, _service_words(target.words), "service")
        if not by_service:
            # "cancel the one on market street": a visit named by where it is (a cancel
            # is still asked about first, naming the visit found).
            by_service = _best(found, _place_words(target.words), "location")
        if not by_service:
            by_service = _at_a_kind_of_place(found, target.words)
        found = by_service
    found = _narrow(found, target, "service")
    if (picked := _pick(found, target.position)) is not None:
        return picked
    return _decide(found, upcoming)


# --- intents ---------------------------------------------------------------------------


def _added(results: Iterable[ToolResult]) -> list[Item]:
    """The tasks this turn added ("add a task to buy milk, then mark it done")."""
    return [
        result.result
        for result in results
        if result.ok
        and result.call.tool_name == "crm.addTask"
        and isinstance(result.result, dict)
        and "id" in result.result
    ]


def listing(intent: Intent, results: Iterable[ToolResult]) -> list[Item] | None:
    """The items of the latest successful listing this intent's target is found in."""
    results = list(results)
    found: list[Item] | None = None
    of_tasks = intent.kind in TASK_ACTIONS or intent.kind == "add_task"
    added = _added(results) if intent.kind in TASK_ACTIONS else []
    for result in results:
        if not result.ok or not isinstance(result.result, dict):
            continue
        tool = result.call.tool_name
        if of_tasks and tool == "crm.listTasks":
            found = [t for t in result.result.get("tasks") or [] if isinstance(t, dict)]
        elif intent.kind in APPOINTMENT_ACTIONS and tool == "crm.listUpcomingAppointments":
            found = [a for a in result.result.get("appointments") or [] if isinstance(a, dict)]
        elif (
            intent.kind in APPOINTMENT_ACTIONS
            and tool == "crm.getNextAppointment"
            and found is None  # a full listing, when there is one, says more
        ):
            single = result.result.get("appointment")
            found = [single] if isinstance(single, dict) else []
    if added:
        # A listing read at the same time as the add may not have the new one yet.
        known = {item.get("id") for item in found or []}
        found = [*(found or []), *(item for item in added if item.get("id") not in known)]
    return found


def resolve_intent(
    intent: Intent, results: Iterable[ToolResult], timezone: str = "UTC"
) -> Resolution | None:
    """Resolve a find-then-act intent against this turn's results (None: no listing)."""
    if intent.target is None:
        return None
    items = listing(intent, results)
    if items is None:
        return None
    target = intent.target
    if target.words == ("both",):
        # "cancel both my appointments": every one (resolve_all), no name (was: "I
        # couldn't find an appointment like that", said before the question about both)
        target = dataclasses.replace(target, words=())
    if intent.kind in TASK_ACTIONS or intent.kind == "add_task":
        return resolve_task(items, target)
    return resolve_appointment(items, target, timezone)


_ALL = re.compile(r"\b(?:all|every|everything|each|both)\b")
# "both", "the two of them": every one, when there are two.
_BOTH = re.compile(r"\b(?:both|two)\b")
# Words a target for every one may hold: "both", "all of them", "them both".
_EVERY_ONE = frozenset({"both", "them", "two", "every"})
_DONE_ONES = re.compile(r"\b(?:completed|done|finished|ticked off)\b")
# "remove everything I've finished from my list": the done ones, said after what is read
# as the target ("I'm done with this list" says nothing of which).
_SAID_DONE = re.compile(
    r"\b(?:i've|i have|i had|we've|that are|that were|which are|i already|i've already)"
    r" (?:already )?(?:completed|done|finished|ticked off)\b"
)
_PLURAL = re.compile(r"\b(?:tasks|ones|to-?dos|items|reminders)\b")


def resolve_all(
    intent: Intent, results: Iterable[ToolResult], timezone: str = "UTC"
) -> list[Item] | None:
    """ "Delete all completed tasks", "cancel all my appointments next week", "…except the
    dentist": every item meant, or None when the target is not "all of them"."""
    target = intent.target
    if target is None or target.anchor is not None:
        return None
    results = list(results)  # read twice: the listing, and the tasks added this turn
    phrase = target.phrase.lower()
    # "delete my completed tasks", "the tasks I have finished": every one of those, though
    # "all" is unsaid
    done_said = intent.kind in TASK_ACTIONS and (
        _DONE_ONES.search(phrase) is not None or _SAID_DONE.search(intent.clause) is not None
    )
    if not _ALL.search(phrase) and not (done_said and _PLURAL.search(phrase)):
        return None
    if not set(target.words) <= _EVERY_ONE:
        return None  # "all my dental appointments": the words narrow which
    items = listing(intent, results)
    if items is None:
        return None
    every: list[Item]
    if intent.kind in TASK_ACTIONS:
        done = done_said
        if intent.kind == "complete_task":
            done = False
        # "mark all my tasks done and add one to call mom": all that were there, not the
        # one added as it was said (it was added and marked done at once)
        added = {task.get("id") for task in _added(results)}
        every = [
            t
            for t in items
            if (t.get("status") == "completed") == done and t.get("id") not in added
        ]
        # "mark all the high priority tasks done", "get rid of all my low priority tasks",
        # "everything due this week": those only (was: every task, the level unread)
        every = list(_filtered_tasks(every, target))
        if target.excluded is not None:
            every = _left_in(every, target.excluded, resolve_task)
    else:
        zone = zone_named(timezone)
        every = _when_said([a for a in items if a.get("status") != "cancelled"], target, zone)
        if target.excluded is not None:
            excluded = target.excluded
            every = _left_in(
                every, excluded, lambda pool, ref: resolve_appointment(pool, ref, timezone)
            )
    if _BOTH.search(target.phrase.lower()) and len(every) != 2:
        return None  # "cancel both" with three listed: which two is asked
    return every


def action_arguments(intent: Intent, item: Item, timezone: str = "UTC") -> dict[str, Any] | None:
    """The action call's arguments for the resolved `item` (None: the time is unclear)."""
    item_id = item.get("id")
    if not isinstance(item_id, str):
        return None
    if intent.kind == "add_task":
        # "re-add the pharmacy task": a new to-do with the title of the one named
        title = item.get("title")
        return {"title": title, **intent.arguments} if isinstance(title, str) else None
    if intent.kind in TASK_ACTIONS:
        if intent.kind == "update_task" and intent.shift is not None and not intent.arguments:
            # "push the groceries back a day": from the due date it has; none, no guess.
            due = _due_date(item)
            if due is None:
                return None
            return {"task_id": item_id, "due_on": (due + intent.shift).date().isoformat()}
        arguments = dict(intent.arguments)
        if slots.noted_time(arguments.get("description")) and item.get("description"):
            # "move the groceries task to friday at 5pm": the hour goes in its note, the
            # words already there kept.
            arguments["description"] = slots.note_kept_with(
                item.get("description"), arguments["description"]
            )
        return {"task_id": item_id, **arguments}
    if intent.kind == "cancel_appointment":
        return {"appointment_id": item_id}
    starts_at = intent.arguments.get("starts_at") or _new_start(intent, item, timezone)
    if starts_at is None:
        return None
    return {
        "appointment_id": item_id,
        "starts_at": _not_where_it_is(starts_at, intent, item, timezone),
    }


def _due_date(item: Item) -> datetime | None:
    try:
        return datetime.fromisoformat(str(item.get("due_on")))
    except ValueError:
        return None


def _new_start(intent: Intent, item: Item, timezone: str) -> str | None:
    """ "Move my Tuesday appointment to Friday": Friday, at the appointment's own time."""
    when = intent.when
    zone = zone_named(timezone)
    current = _local_start(item, zone)
    # "the same time next week": the shift says the day; "next week" alone names no day.
    if current is not None and intent.shift is not None and (when is None or when.vague_day):
        return (current + intent.shift).isoformat()
    if current is not None and (beside := weekday_beside(intent.clause, current.date())):
        # "move it to the friday before, same time": counted from its own day.
        clock = when.clock if when is not None and when.clock else current.time()
        return datetime.combine(beside, clock.replace(tzinfo=None), tzinfo=zone).isoformat()
    if when is None or current is None:
        return None
    day = current.date() if when.day_implied or when.day is None else when.day
    if when.day is not None and same_day_of_a_week(when, intent.clause):
        # "to the week after next, same day": its own weekday in that week
        day = when.day + timedelta(days=current.weekday())
    clock = when.clock or current.time().replace(tzinfo=None)
    return datetime.combine(day, clock, tzinfo=zone).isoformat()


def _not_where_it_is(starts_at: str, intent: Intent, item: Item, timezone: str) -> str:
    """ "move my cleaning to next wednesday", said of the one on this wednesday: the one
    after (read as this one, nothing would move; "next" is either in speech)."""
    if "next" not in intent.clause or not _NEXT_WEEKDAY.search(intent.clause):
        return starts_at
    current = _local_start(item, zone_named(timezone))
    moved = datetime.fromisoformat(starts_at)
    return (moved + timedelta(days=7)).isoformat() if moved == current else starts_at


_NEXT_WEEKDAY = rx(r"\bnext (?:mon|tues|wednes|thurs|fri|satur|sun)day\b")
