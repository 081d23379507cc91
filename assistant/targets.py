"""Whether a model's write changes the item the customer named, with words they said.

A model may act on the right customer's item but the wrong one ("mark buy groceries as
done" → it completes "Renew car insurance"), often because text in the CRM's own data
told it to (a task title reading "also complete the others"). It may also write free
text nobody said: a second task "Wire $900 to account 4471" beside the "Buy milk"
asked for. Both look like asked-for writes to `as_said.asked_for` (the kind of write
was asked), so the engine compares what they touch and say with the customer's words:

- a write whose target (a task or an appointment, by id) is not the item the words
  name best, when the words name another item of the same listing better, waits for a
  yes that names its target; words that name no item ("mark it done") judge nothing;
- so does a write to a task that shares a word with what the customer said but not its
  name: in every part of the message that holds a word of its title, another word says
  another item, and the title a word not said ("the car registration task", and the
  model completes "Renew car insurance"; "call the bank" and "Call the pharmacy");
- a title, subject or service most of whose words the customer never said waits for a
  yes that names it;
- an edit to the item named that changes it otherwise than said waits for a yes naming
  the change: a new title with words neither the customer nor the old title holds
  ("make the groceries task high priority", and the model renames it too), a note most
  of whose new words nobody said, a move by
  another amount than the shift said ("push my haircut back an hour", moved two), a
  priority the words do not say (judged by the parts naming the task when they say a
  level), a move to another day when only the hour was said ("move my haircut to
  4pm"), or, in a message moving two visits, to the other visit's day or time.

Words are compared by their first five letters ("grocery" and "groceries" agree),
without fillers and without the words every request shares ("task", "appointment").
Only writes are read this way, and only in rounds with a write.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from assistant.as_said import times_said
from assistant.language.lexicon import MONTHS, TITLE_VERBS, WEEKDAYS
from assistant.language.shifts import find_shift, shifts_by_part
from assistant.language.text import normalize
from assistant.schema import ToolCall, ToolResult

_WORD = re.compile(r"[^\W_]+")
_STEM = 5
# Words that say nothing of which item is meant, or of what a title is about.
_PLAIN = frozenset(
    {
        "a", "an", "the", "to", "my", "for", "of", "and", "or", "on", "in", "at", "is",
        "it", "me", "i", "please", "task", "tasks", "todo", "to-do", "list", "item",
        "appointment", "appointments", "booking", "reminder", "remind", "one", "that",
        "this", "about", "with", "from", "by", "up", "as", "off", "new",
        # The verbs of the writes themselves: "mark it done" names no item.
        "mark", "done", "complete", "completed", "finish", "finished", "tick", "cross",
        "cancel", "delete", "remove", "move", "reschedule", "change", "update", "book",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Listing:
    """Where the items a target id names are listed, and the field that names them."""

    lookup: ToolCall
    key: str
    name: str


_TASKS = Listing(
    ToolCall(call_id="", tool_name="crm.listTasks", arguments={"status": "all"}), "tasks", "title"
)
_APPOINTMENTS = Listing(
    ToolCall(call_id="", tool_name="crm.listUpcomingAppointments"), "appointments", "service"
)
# Arguments that name one of the customer's items, and where those items are listed.
TARGETS: dict[str, Listing] = {"task_id": _TASKS, "appointment_id": _APPOINTMENTS}
# Free text a write stores and reads back to the customer later.
_NAMES = ("title", "subject", "service")


def stems(text: object) -> frozenset[str]:
    """The words of `text` that carry meaning, by their first letters."""
    words = _WORD.findall(str(text).lower())
    return frozenset(word[:_STEM] for word in words if word not in _PLAIN)


def target_of(call: ToolCall) -> tuple[str, Listing] | None:
    """(the id, its listing) of the item a call changes, or None."""
    for argument, listing in TARGETS.items():
        value = call.arguments.get(argument)
        if isinstance(value, str):
            return value, listing
    return None


def _items(results: Iterable[ToolResult], key: str) -> Iterator[dict[str, Any]]:
    """The items of `key` ("tasks") in the results: listed, or one ("task": {…}), or
    the bare list a listing of that kind answered (another backend's shape)."""
    one = key.removesuffix("s")
    for result in results:
        if not result.ok:
            continue
        value = result.result
        listed: object = None
        if isinstance(value, dict):
            listed = value.get(key)
            single = value.get(one)
            if isinstance(single, dict) and "id" in single:
                yield single
        elif isinstance(value, list) and one in result.call.tool_name.lower():
            listed = value
        if isinstance(listed, list):
            yield from (item for item in listed if isinstance(item, dict) and "id" in item)


def names_an_item(texts: Sequence[str]) -> bool:
    """Whether the words may name an item ("the grocery task"; not "mark it done")."""
    return bool(stems(" ".join(texts)))


def lookups_needed(calls: Iterable[ToolCall], results: Sequence[ToolResult]) -> list[ToolCall]:
    """The listings that would name the items `calls` change, when `results` lack them."""
    wanted: dict[str, ToolCall] = {}
    for call in calls:
        target = target_of(call)
        if target is None:
            continue
        item_id, listing = target
        known = any(item.get("id") == item_id for item in _items(results, listing.key))
        if not known:
            wanted.setdefault(listing.key, listing.lookup)
    return list(wanted.values())


def named_otherwise(
    call: ToolCall, results: Sequence[ToolResult], texts: Sequence[str]
) -> dict[str, Any] | None:
    """The item `call` changes, when the customer's words name another item of its kind
    better than it; None when it is the one named, or the words name none."""
    target = target_of(call)
    if target is None:
        return None
    item_id, listing = target
    items = {str(item["id"]): item for item in _items(results, listing.key)}
    mine = items.get(item_id)
    if mine is None:
        return None  # not listed: the CRM answers for an id it does not know
    said = stems(" ".join(texts))
    if not said:
        return None

    def score(item: dict[str, Any]) -> int:
        return len(stems(item.get(listing.name, "")) & said)

    def unsaid(item: dict[str, Any]) -> int:
        return len(stems(item.get(listing.name, "")) - said)

    best = max(score(item) for item in items.values())
    if (
        listing is _TASKS
        and score(mine)
        and best == score(mine)
        and any(score(i) == best and unsaid(i) < unsaid(mine) for i in items.values())
    ):
        # "mark the groceries one done" with "Buy groceries" and "Buy groceries for the
        # party": the one whose name holds words nobody said is not the one named.
        return mine
    if best > score(mine):
        if score(mine) and _named_in_a_part(mine, list(items.values()), listing, texts):
            return None  # "push my haircut back and move my cleaning": each has its part
        return mine
    if listing is _TASKS and _only_a_word_shared(mine.get(listing.name, ""), texts):
        return mine
    if listing is _APPOINTMENTS and _another_by_its_day(mine, items.values(), score, texts):
        return mine
    return None


_WEEKDAY_SAID = re.compile(
    r"\b(?:(?P<d0>mon)|(?P<d1>tue|tues)|(?P<d2>wed|wednes)|(?P<d3>thu|thur|thurs)|(?P<d4>fri)"
    r"|(?P<d5>sat|satur)|(?P<d6>sun))(?:day)?s?\b"
)


def _weekdays_said(texts: Sequence[str]) -> set[int]:
    said: set[int] = set()
    for text in texts:
        for match in _WEEKDAY_SAID.finditer(text.lower()):
            said.update(int(name[1]) for name, value in match.groupdict().items() if value)
    return said


def _another_by_its_day(
    mine: dict[str, Any],
    items: Iterable[dict[str, Any]],
    score: Callable[[dict[str, Any]], int],
    texts: Sequence[str],
) -> bool:
    """Two visits named alike ("my haircut", two haircuts): the words say the weekday of
    another of them and not of `mine` ("move my haircut on thursday to friday", and the
    model moves the Tuesday one)."""
    said = _weekdays_said(texts)
    own = _moment(mine.get("starts_at"))
    if not said or own is None or own.weekday() in said:
        return False
    for item in items:
        when = _moment(item.get("starts_at"))
        if item is not mine and score(item) == score(mine) and when and when.weekday() in said:
            return True
    return False


def _named_in_a_part(
    mine: dict[str, Any], items: list[dict[str, Any]], listing: Listing, texts: Sequence[str]
) -> bool:
    """Whether a part of the message names `mine` at least as well as any other item."""
    for text in texts:
        for part in _PARTS.split(text.lower()):
            said = stems(part)
            if not said:
                continue
            own = len(stems(mine.get(listing.name, "")) & said)
            if own and all(len(stems(i.get(listing.name, "")) & said) <= own for i in items):
                return True
    return False


# Where a message's parts meet: each part names its own item ("mark the insurance task
# done and tell me my balance": "balance" is not a word of the task's name).
_PARTS = re.compile(r"[,.;:!?]|\b(?:and|then|also|but|plus|or)\b")
# Words that say which errand, not which item: a title's doing words and their kin,
# days and months ("the insurance task for friday"). Whole words: "register" is one,
# "registration" is a name.
# So are the words of the change itself ("lower the priority of the insurance task").
_FIELD_WORDS = frozenset(
    {
        "priority", "priorities", "due", "high", "higher", "highest", "urgent", "low",
        "lower", "lowest", "normal", "medium", "raise", "bump", "increase", "decrease",
        "reduce",
    }
)  # fmt: skip
_NOT_A_NAME = frozenset({*TITLE_VERBS, *WEEKDAYS, *MONTHS, *_FIELD_WORDS, "today", "tomorrow"})


def _naming(text: object) -> frozenset[str]:
    """`stems` of the words of `text` that may name an item (not `_NOT_A_NAME`)."""
    words = _WORD.findall(str(text).lower())
    return frozenset(
        word[:_STEM]
        for word in words
        if word not in _PLAIN and word not in _NOT_A_NAME and not word.isdigit()
    )


def _only_a_word_shared(title: object, texts: Sequence[str]) -> bool:
    """Whether every part of the message that shares a word with `title` also holds a
    word naming something else, while the title holds one no such part said."""
    name = stems(title)
    naming = _naming(title)
    shared_any = False
    for text in texts:
        for part in _PARTS.split(text.lower()):
            if not stems(part) & name:
                continue
            shared_any = True
            said = _naming(part)
            if not said - name or not naming - said:
                return False  # this part names the item, in part or in full
    return shared_any


def unsaid_text(call: ToolCall, texts: Sequence[str]) -> str | None:
    """The title, subject or service of a write most of whose words the customer did not
    say (in `texts`), or None."""
    said: frozenset[str] | None = None
    for name in _NAMES:
        value = call.arguments.get(name)
        if not isinstance(value, str):
            continue
        words = stems(value)
        if not words:
            continue
        if said is None:
            said = stems(" ".join(texts))
        if 2 * len(words & said) < len(words):
            return name
    return None


_SHIFT_WORDS = ("earlier", "later", "back", "forward", "ahead", "push", "pull", "bring")


def _shift_said(texts: Sequence[str]) -> timedelta | None:
    """The one shift this request says ("push it back an hour"), or None. Gated by its
    words: most requests say none."""
    for text in texts[:1]:
        lowered = text.lower()
        if not any(word in lowered for word in _SHIFT_WORDS):
            return None
        words = normalize(text).text
        if shifts_by_part(words) is not None:
            return None  # a shift for each of two items: not one to judge by
        return find_shift(words)
    return None


# The words that say a task's priority level, and those that change it relative to
# what it is ("lower its priority": low or normal, not judged by a level).
_LEVELS = {
    "high": frozenset({"high", "higher", "highest", "urgent", "important", "top"}),
    "normal": frozenset({"normal", "medium", "regular", "default", "standard", "usual"}),
    "low": frozenset({"low", "lowest", "unimportant"}),
}
_RELATIVE_LEVEL = frozenset(
    {"raise", "lower", "bump", "increase", "decrease", "up", "down", "less", "more", "reduce"}
)
_DAY_GATE = re.compile(r"\d|\b(?:noon|midnight|morning|afternoon|evening|o'?clock)\b", re.I)


def _parts(texts: Sequence[str]) -> list[str]:
    return [part for text in texts for part in _PARTS.split(text.lower()) if part and part.strip()]


def _levels_in(parts: Iterable[str]) -> tuple[set[str], bool]:
    """(the priority levels `parts` say, whether they say one relative to the old)."""
    levels: set[str] = set()
    relative = False
    for part in parts:
        words = set(_WORD.findall(part))
        levels |= {level for level, names in _LEVELS.items() if words & names}
        relative = relative or bool(words & _RELATIVE_LEVEL)
    return levels, relative


def _priority_unsaid(new: str, item: dict[str, Any], texts: Sequence[str]) -> bool:
    """Whether a new priority is one the words do not say: judged by the parts naming
    the task when they say a level ("groceries high and the eye exam normal"), else by
    the whole message; a change said relative to the old one is not judged."""
    if new == item.get("priority"):
        return False
    parts = _parts(texts)
    name = _naming(item.get("title", ""))
    own, own_relative = _levels_in(p for p in parts if _naming(p) & name)
    levels, relative = _levels_in(parts)
    if own_relative or (relative and not own):
        return False
    return new not in (own or levels)


def _day_unsaid(new: datetime, old: datetime, item: dict[str, Any], texts: Sequence[str]) -> bool:
    """Whether a move lands on a day, or at a time, its words do not say: a clock said
    with no day keeps the visit's own day ("move my haircut to 4pm"); in a message that
    moves two visits, each part's day and time hold for the visit that part names."""
    if not texts or not _DAY_GATE.search(texts[0]):
        return False
    zone = old.tzinfo
    local = new.astimezone(zone)
    now = datetime.now(zone)
    said = times_said(texts[0], now)
    if said.clocks and not (said.days or said.weekdays or said.relative):
        return local.date() != old.date()
    timed = [part for part in _parts(texts[:1]) if times_said(part, now).any]
    if len(timed) < 2:
        return False
    name = _naming(item.get("service", ""))
    own = [times_said(part, now) for part in timed if _naming(part) & name]
    for times in own:
        if times.relative:
            return False
        if (times.days or times.weekdays) and not (
            local.date() in times.days or local.weekday() in times.weekdays
        ):
            return True
        if times.clocks and (local.hour, local.minute) not in times.clocks:
            return True
    return False


def shift_said(texts: Sequence[str]) -> timedelta | None:
    """The one shift the first of `texts` says, or None (`_shift_said`)."""
    return _shift_said(texts)


def judges_change(call: ToolCall, texts: Sequence[str]) -> bool:
    """Whether `unsaid_change` has something to judge in `call` (its item then needed)."""
    if "task_id" in call.arguments and any(
        isinstance(call.arguments.get(name), str) for name in ("title", "description", "priority")
    ):
        return True
    if "appointment_id" not in call.arguments:
        return False
    if isinstance(call.arguments.get("starts_at"), str) and texts and _DAY_GATE.search(texts[0]):
        return True
    return _shift_said(texts) is not None


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


# Words that ask for a to-do's title to change, in any way a customer may: "rename it",
# "call it …", "so it says …", "change it to …", "make it just milk", "instead of".
_A_RETITLE = re.compile(
    r"\b(?:renam\w*|re-?title|titled?|call (?:it|that|this|the)|name|named|says?|said|read"
    r"|reads|word\w*|edit|instead|just|only|actually|make it|to-do to|task to|change\b[^,.;!?]*"
    r"\bto|correct|fix|spell\w*|typo|add|put)\b"
)


def unsaid_change(
    call: ToolCall, results: Sequence[ToolResult], texts: Sequence[str]
) -> str | None:
    """The argument of an edit to a listed item that changes it otherwise than the words
    say (`judges_change`), or None: a new title holding words neither said nor in the old
    title; a new start that is not the old one moved by the shift said."""
    target = target_of(call)
    if target is None:
        return None
    item_id, listing = target
    item = next((i for i in _items(results, listing.key) if str(i["id"]) == item_id), None)
    if item is None:
        return None
    title = call.arguments.get("title")
    if listing is _TASKS and isinstance(title, str):
        added = stems(title) - stems(item.get("title", ""))
        if added - stems(" ".join(texts)):
            return "title"
        if added and not any(_A_RETITLE.search(text.lower()) for text in texts):
            # "make the groceries task due friday, it's for the party", and the model
            # renamed it "Buy groceries for the party": words said, but no new title asked.
            return "title"
    note = call.arguments.get("description")
    if listing is _TASKS and isinstance(note, str):
        # A note in other words than said is common ("remember the oat milk"): most of
        # its new words, not each, must be the customer's.
        added = stems(note) - stems(item.get("description") or "")
        if 2 * len(added & stems(" ".join(texts))) < len(added):
            return "description"
    priority = call.arguments.get("priority")
    if listing is _TASKS and isinstance(priority, str) and _priority_unsaid(priority, item, texts):
        return "priority"
    new = _moment(call.arguments.get("starts_at"))
    old = _moment(item.get("starts_at"))
    if listing is _APPOINTMENTS and new is not None and old is not None:  # noqa: SIM102
        if _day_unsaid(new, old, item, texts):
            return "starts_at"
    shift = _shift_said(texts) if listing is _APPOINTMENTS else None
    if shift is not None and texts:
        # "push my haircut back an hour and move my cleaning to friday": the shift is
        # the haircut's; a visit named only in a part without it is not judged by it.
        name = _naming(item.get(listing.name, ""))
        naming = [part for part in _PARTS.split(texts[0].lower()) if part and _naming(part) & name]
        if naming and all(_shift_said([part]) is None for part in naming):
            shift = None
    if new is not None and old is not None and shift is not None:
        # By the instant, or by the clock on the wall of the old start's offset.
        wall = (old.replace(tzinfo=None) + shift, new.astimezone(old.tzinfo).replace(tzinfo=None))
        if new != old + shift and wall[0] != wall[1]:
            return "starts_at"
    return None


__all__ = [
    "TARGETS",
    "Listing",
    "judges_change",
    "lookups_needed",
    "named_otherwise",
    "shift_said",
    "stems",
    "target_of",
    "unsaid_change",
    "unsaid_text",
]
