"""Corrections and changes of mind: a revision of the last action ("actually make that
11 instead of 9", "no, I meant the car insurance one", "put it back where it was",
"undo that"), the same again for another item ("and the eye exam one too"), and a held
cancel or delete re-aimed ("actually the haircut, not the dental").
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Action, Dialogue, Item
from assistant.language import Intent, detect_intents, find_when, slots
from assistant.language.clause import ASKED_OF_IT
from assistant.language.intent import IntentKind
from assistant.language.lexicon import OTHER_CHANGE_VERBS, TITLE_VERBS
from assistant.language.patterns import rx
from assistant.language.shifts import find_shift, whole_days
from assistant.language.slots import priority as said_priority
from assistant.language.targets import TargetRef
from assistant.language.task_rules import AND_ERRAND
from assistant.language.text import normalize
from assistant.models.embedded.pinning import (
    WORD_RE,
    appointment_follow_up,
    due_day_said,
    names_other_service,
    pinned,
    positions_said,
    reschedule,
    strip_instead_of,
    task_change,
)

_CORRECTION = rx(
    # A filler ("um", "hmm", "oh") opens anything: "um, and what's due this week" asks.
    r"^(?:actually|sorry|no|nope|oh no|wait|oops|nah|hang on)\b"
    # "fine, thursday at 9 then" just after a move the customer did not like: a bare day
    # after a word of giving in, said of the change just made (was "I can't help with that")
    r"|^(?:fine|ok|okay|alright|all right)[ ,]+(?:then[ ,]+)?(?:(?:mon|tues|wednes|thurs|fri"
    r"|satur|sun)day|tomorrow)\b(?:(?: at)? [\d: ]+(?:am|pm)?)?(?: then| instead)?\W*$"
    r"|\bi meant\b|\bi mean\b|\binstead\b|\brather\b|\bmake (?:it|that)\b|\bwhere it was\b"
    # "same day but at 4", "same time but on saturday" just after a change: of that change
    # (was "I can't help with that"; with "actually" before it, it was read so)
    r"|^(?:(?:um|uh|oh|ok|okay|so|hmm|and)[ ,]+)*(?:the )?same (?:day|time)\b(?=.*\d|.*day\b)"
    r"|\bput it back\b|\bundo\b|^(?:please |can you |could you )?(?:reverse|take back)\b"
    # "not that one, the insurance"; "change it to oat milk" just after adding "Buy milk"
    r"|^(?:(?:oh|oops|um|uh|whoops)[ ,]+)?not (?:that|this) one\b"
    r"|\bchange (?:it|that) (?:to|into)\b"
    r"|\b(?:title|name) should\b|\b(?:call|rename) (?:it|that)\b|\bthe (?:title|name) to\b"
    # "oh, the task I just added should say buy printer paper": its title, said anew
    r"|\b(?:task|reminder) i (?:just )?(?:added|made|put in)(?: just now)? should (?:say|read)\b"
    # "it should say call dad", "the thing i added earlier should say oat milk"
    r"|^(?:(?:um|uh|oh|so|and|ok|okay)[ ,]+)*(?:it|that) should (?:say|read)\b"
    r"|\b(?:thing|item|to-?do) i (?:just )?(?:added|made|put in)(?: (?:just now|earlier|before))?"
    r" should (?:say|read)\b"
    # "hmm, the physio I booked should be 11 not 10": what was made, said as it should be
    r"|\bi (?:just )?(?:booked|added|made|moved)(?: it)? should (?:be|say)\b[^.?!]*\bnot\b"
)


_IT = rx(r"\b(?:it|that|this)\b")


# ("the 23rd instead, same time as it was": a time kept, said of another day, not put back)
_PUT_BACK = rx(
    r"\b(?:where it was|put it back|undo (?:that|it)|(?<!same time )(?<!same day )as it was"
    r"|change it back)\b"
)


_TOO = rx(r"\b(?:too|as well|also)\b|^(?:and|plus)\b")
# "now the insurance one": the next one, named by its own words and "one" or "task".
_NEXT_ONE = rx(r"^(?:ok |okay )?(?:now|then|next)\b,? (?:the |my )?[a-z][a-z ]* (?:one|task)[.!]?$")


_UNDO = rx(r"^(?:please |can you |could you )?(?:undo|reverse|take back)(?: that| it| this)?\b")


# "the title should be 'buy oat milk'", "call it pay rent", "change the name to…": the
# whole title said anew (named as a title or a name, or quoted: "it should be friday" is
# a day).
_WHOLE_TITLE = rx(
    r"\b(?:(?:the )?(?:title|name) should (?:be|say|read)|(?:call|rename) (?:it|that)(?: to)?"
    r"|(?:change|set|update) the (?:title|name)(?: of (?:it|that))? to"
    r"|(?:it|that) should (?:be|say|read)(?= ['\"])"
    # ("it should say oat milk": words, not a day; "the thing i added earlier should say…")
    r"|(?:it|that) should (?:say|read)\b"
    r"|\b(?:task|one|reminder|thing|item|to-?do)"
    r"(?: i (?:added|made|put in) (?:first|before|earlier)"
    r"| i (?:just )?(?:added|made|put in)(?: just now)?)?"
    r" should (?:say|read))"
    r"\s*:?\s*['\"]?(?P<t>[a-z0-9][^'\"]*?)['\"]?[.!]*$"
)


def _widened(old: str, said: str) -> str:
    """ "should say oat milk" of "Buy milk": "Buy oat milk", the word said again widened in
    place (the words before it kept), when it ends what is said and the title's first words
    are not said again; else the words said, whole."""
    words, olds = said.split(), old.lower().split()
    if not 1 < len(words) <= 3 or words[-1] not in olds or words[0] in olds:
        return said
    at = olds.index(words[-1])
    kept = old.split()
    return " ".join([*kept[:at], said, *kept[at + 1 :]])


def _corrected_title(text: str, item: Item) -> str | None:
    """ "sorry I meant oat milk", "actually make that oat milk" after adding "Buy milk":
    "Buy oat milk" (only a word of the title said again: "make it friday" is a day)."""
    if (whole := _WHOLE_TITLE.search(text)) is not None:
        title = whole.group("t").strip()
        if (swap := _SWAP.fullmatch(title)) is not None and len(swap.group("new").split()) > 1:
            title = swap.group("new")  # "should say buy conditioner not shampoo"
        elif "title" not in text and "name" not in text:
            title = _widened(str(item.get("title") or ""), title)
        return title[:1].upper() + title[1:]
    match = re.search(
        r"\b(?:i meant (?:to say )?|(?:make|change) (?:it|that|this)(?: say| to| into)? )"
        r"(?P<w>[a-z][a-z ]+?)\s*$",
        text,
    )
    if match is None:
        return None
    title = str(item.get("title") or "")
    swap = _SWAP.fullmatch(match.group("w"))
    if swap is not None:
        # "bread not eggs", "bread instead of eggs": the word said replaces the one denied.
        old, new = swap.group("old"), swap.group("new")
        if re.search(rf"\b{re.escape(old)}\b", title, re.IGNORECASE):
            return re.sub(rf"\b{re.escape(old)}\b", new, title, count=1, flags=re.I)
        return None
    words = match.group("w").split()
    if words[0] in ("just", "only") and len(words) > 1:
        # "make it just milk" after "Buy milk and bread": that alone, after the title's
        # verb (was: "Buy just milk and bread", the word put in beside the other)
        kept = [w for w in words[1:] if w not in ("the", "a", "some")]
        verb = title.split()[:1]
        if kept and all(re.search(rf"\b{re.escape(w)}\b", title, re.I) for w in kept):
            return " ".join([*verb, *kept]).capitalize() if verb else None
        return None
    if len(words) > 1 and title.split()[:1] == [words[0].capitalize()]:
        # "change that to call the electrician" after "Call the plumber": the whole title
        return " ".join(words).capitalize()
    last = words[-1]
    if re.search(rf"\b{re.escape(last)}\b", title, re.IGNORECASE):
        return re.sub(rf"\b{re.escape(last)}\b", " ".join(words), title, count=1, flags=re.I)
    return None


def _earlier_put_back(state: Dialogue, text: str) -> list[Intent] | None:
    """ "actually leave groceries where it was" after the groceries were moved and then
    another task: the earlier change, named by its item, put back as it was before it
    (the last change is put back as before; nothing named, nothing here)."""
    last = state.last_action
    last_id = (last.after or last.before or {}).get("id") if last is not None else None
    for entry in reversed(state.done):
        before = entry.get("before")
        if not isinstance(before, dict) or not _names_label(text, str(entry.get("label") or "")):
            continue
        if before.get("id") == last_id and state.focus is not None:
            return None  # the last change, in focus: put back below
        if entry.get("tool") == "crm.rescheduleAppointment":
            starts_at = before.get("starts_at")
            return [reschedule(before, starts_at, text)] if isinstance(starts_at, str) else None
        said = entry.get("changed") or ()
        changed = {key: before.get(key) for key in ("due_on", "priority", "title") if key in said}
        if not changed or any(value is None for value in changed.values()):
            return None  # a due date that was not there cannot be set back to none
        return [task_change("update_task", before, changed, text)]
    return None


def _task_put_back(action: Action, item: Item, text: str) -> list[Intent] | None:
    before = action.before or {}
    changed: dict[str, Any] = {
        key: before.get(key)
        for key in ("due_on", "priority", "title")
        if key in action.arguments and key in before
    }
    if not changed or any(value is None for value in changed.values()):
        return None
    return [task_change("update_task", item, changed, text)]


# "the task I added before", "the first one I added": of two added, the earlier one.
_ADDED_BEFORE = rx(
    r"\b(?:task|one) i (?:added|made|put (?:in|on)|created) (?:before|first|earlier)\b"
    r"|\bfirst (?:task|one) i (?:added|made|put (?:in|on)|created)\b"
    # "no, I meant the earlier one", just after a change of the one added last
    r"|^(?:no|nope|sorry|oops|actually|wait)?[ ,]*(?:i )?meant the (?:earlier|previous|first)"
    r" (?:one|task)\W*$"
)
# "the rent one", "the vet task": a task named by a word of its title.
_NAMED_ONE = rx(r"\bthe (?P<w>[a-z]+(?: [a-z]+)?) (?:one|task)\b")


def _other_task_meant(state: Dialogue, text: str, item: Item) -> TargetRef | None:
    """The task a correction names when it is not the one last added or changed: one
    added earlier in the conversation, by its place ("the task I added before") or a word
    of its title ("the rent one"). None: the last one is meant."""
    title = str(item.get("title") or "").lower()
    added = [
        str(entry.get("label") or "")
        for entry in state.done
        if entry.get("tool") == "crm.addTask" and str(entry.get("label") or "").lower() != title
    ]
    if not added:
        return None
    meant: str | None = None
    if (before := _ADDED_BEFORE.search(text)) is not None:
        if "first" in before.group():
            # The first of all added (the one in view too): not another, when it is that one.
            every = [
                str(e.get("label") or "") for e in state.done if e.get("tool") == "crm.addTask"
            ]
            if not every or every[0].lower() == title:
                return None
            meant = every[0]
        else:
            meant = added[-1]
    elif (named := _NAMED_ONE.search(text)) is not None:
        said = [w for w in named.group("w").split() if len(w) > 2]
        if said and not any(re.search(rf"\b{re.escape(w)}\b", title) for w in said):
            # A word said of three letters or more ("the mom one") is a word of it too.
            meant = next(
                (
                    a
                    for a in reversed(added)
                    if _names_label(" ".join(said), a)
                    or set(said) & set(WORD_RE.findall(a.lower()))
                ),
                None,
            )
    if meant is None:
        return None
    words = tuple(str(w) for w in WORD_RE.findall(meant.lower()) if len(w) > 2)
    return TargetRef(phrase=meant, words=words)


# "the task from before", "the one from earlier": the task changed or added before the
# one in view.
_FROM_BEFORE = rx(r"\bthe (?:task|one|reminder|to-?do) from (?:before|earlier)\b")
_TASK_WRITES = frozenset({"crm.addTask", "crm.updateTask", "crm.completeTask"})


def task_from_before(state: Dialogue, text: str) -> TargetRef | None:
    """ "and the task from before, give it a due date…": of the tasks written in the
    conversation, the last one other than the task in view (None: none, or not said so)."""
    if _FROM_BEFORE.search(text) is None:
        return None
    focus = state.focus_of("task") or {}
    current = str(focus.get("title") or "").lower()
    labels = [
        str(entry.get("label") or "")
        for entry in state.done
        if entry.get("tool") in _TASK_WRITES and entry.get("label")
    ]
    earlier = [label for label in labels if label.lower() != current]
    if not earlier:
        return None
    meant = earlier[-1]
    words = tuple(str(w) for w in WORD_RE.findall(meant.lower()) if len(w) > 2)
    return TargetRef(phrase=meant, words=words)


def _names_label(text: str, label: str) -> bool:
    """The text names the item by a telling word of its label ("groceries")."""
    words = [w for w in WORD_RE.findall(label.lower()) if len(w) > 3]
    return any(re.search(rf"\b{re.escape(w)}\b", text) for w in words)


_SWAP = rx(r"(?P<new>[a-z][a-z ]*?),? (?:not|instead of|rather than) (?P<old>[a-z][a-z ]*?)")


def _named_as_it(text: str, item: Item) -> str | None:
    """`text` with the visit it names by its service said as "it" ("make the haircut 4"
    → "make it 4"), or None when it does not name it so."""
    service = str(item.get("service") or "")
    words = [w for w in WORD_RE.findall(service.lower()) if len(w) > 3]
    words += ["dentist"] if "dental" in words else []
    # ("the physio": the service by another of its names)
    words += [
        w for w in WORD_RE.findall(text) if w not in words and slots.services_named(w) == {service}
    ]
    if not words:
        return None
    named = re.compile(
        rf"\b(?:the|my) (?:{'|'.join(words)})(?: (?:{'|'.join(words)}|appointment|one|visit"
        r"|booking|session))*\b"
    )
    said, count = named.subn("it", text, count=1)
    if not count:
        return None
    # "the physio I booked should be 11" → "make it 11"
    return _SHOULD_BE.sub("make it", said)


# A new hour said: "make the haircut 4", "should be 11 not 10", "at noon".
_AN_HOUR = rx(r"\b(?:\d{1,2}(?::\d\d)?|noon|midday)\b")


def _one_of_its_service(state: Dialogue, item: Item) -> bool:
    """No other visit of `item`'s service is known ("the haircut" with two booked is
    either)."""
    service = item.get("service")
    known = [*state.last_listed_of("appointment"), *([state.focus] if state.focus else [])]
    return not any(
        other.get("service") == service
        and other.get("id") != item.get("id")
        and other.get("status") != "cancelled"
        for other in known
    )


_SHOULD_BE = rx(r"\bit(?: (?:that )?i (?:just )?(?:booked|moved|made))? should be\b")


def _about_visit(text: str, action: Action) -> bool:
    item = action.after or action.before or {}
    service = str(item.get("service") or "").lower()
    words = [w for w in WORD_RE.findall(service) if len(w) > 3]
    if any(w in text for w in words) or "appointment" in text:
        return True
    # "the physio I booked should be 11": the service said by another of its names
    return bool(service) and service in {s.lower() for s in slots.services_named(text)}


# "her birthday's friday, so make it thursday": the day after the verb is the one asked
_MAKE_IT = rx(r"\b(?:make|put|set|change|move|push) (?:it|that|this)\b")


def _due_asked(text: str, now: datetime) -> str | None:
    """The due day a correction asks for: the one said after "make it", when one is (the
    days said before it give a reason), else the day said."""
    verbs = list(_MAKE_IT.finditer(text))
    if verbs and (due := due_day_said(text[verbs[-1].start() :], now)) is not None:
        return due
    return due_day_said(text, now)


def correction(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """A revision of the last action: its target or its time or its details."""
    action = state.last_action
    if action is None or not _CORRECTION.search(text):
        return None
    if _PUT_BACK.search(text) and (earlier := _earlier_put_back(state, text)) is not None:
        return earlier
    if state.focus is None and action.kind in ("task", "appointment") and _IT.search(text):
        # Nothing in focus (two were just added or booked, or several read out since):
        # "make it due friday" could be either, so which is asked.
        return None
    if _moved_on(state, action, text):
        return None
    if (named := _other_action_named(state, action, text)) is not None:
        # "oh wait, the cake is for sunday not saturday" after "tick off the groceries and
        # add pick up birthday cake on saturday": the change of the cake, not the last one.
        action = named
    visit = state.last_appointment_action
    if (
        action.kind != "appointment"
        and visit is not None
        and (_about_visit(text, visit) or _denies_day_of(text, visit, action, now, zone))
    ):
        # "actually make the cleaning ten" after a booking and a task; "no, I meant the
        # 21st, not the 20th" when the visit was on the 20th and the task not due then.
        action = visit
    item = action.after or action.before
    if item is None:
        return None
    if action.kind == "appointment" and _PUT_BACK.search(text) and names_other_service(text, item):
        # "put the haircut back where it was" when the cleaning was the one moved: the
        # haircut was not changed, and the cleaning is not the one named.
        return None
    if action.kind == "appointment" and action.tool != "crm.cancelAppointment":
        if (
            " at " in text
            and not _MEANT.search(text)
            and names_other_service(text, item)
            and (when := find_when(text, now)) is not None
            and when.clock is not None
        ):
            # "can the eye exam be at 3:30 instead" just after the haircut was moved: a time
            # of its own for the visit named, read alone (never the haircut put back).
            return None
        if action.tool == "crm.bookAppointment" and (other := _service_meant(text, item)):
            # "sorry, I meant a massage, not a facial" just after booking the facial: that
            # one cancelled (asked, as every cancel is) and the one meant booked at its time.
            return [
                Intent("cancel_appointment", target=pinned(item, "service"), clause=text),
                Intent(
                    "book_appointment",
                    arguments={"service": other, "starts_at": str(item.get("starts_at"))},
                    clause=text,
                ),
            ]
        if (
            action.tool == "crm.rescheduleAppointment"
            and (other := _service_meant(text, item)) is not None
            and (own := find_when(text, now)) is not None
            and (
                (_moved_before(state, other) and (own.clock is not None or own.day is not None))
                or (own.day is not None and not own.day_implied and own.day != _day_of(item, zone))
            )
        ):
            # "actually the cleaning at 9 instead" after the cleaning was moved to friday
            # and then the haircut: the cleaning's own move said again with a time of its
            # own; "would thursday at 9 work for the cleaning instead?": a day of its own.
            # Read alone (never the haircut put back and the cleaning given its slot).
            return None
        if (
            action.tool == "crm.rescheduleAppointment"
            and action.before is not None
            and (other := _service_meant(text, item)) is not None
            and (moved := _other_moved(other, item, now, zone, _clock_said(text, now)))
        ):
            # "no no, I meant the haircut (put the cleaning back)" just after the cleaning
            # was moved: the cleaning back where it was, the haircut to that time.
            before = action.before.get("starts_at")
            if isinstance(before, str):
                return [reschedule(item, before, text), moved]
        if _PUT_BACK.search(text) and action.before is not None:
            before = action.before.get("starts_at")
            if action.tool == "crm.rescheduleAppointment" and isinstance(before, str):
                return [reschedule(item, before, text)]
        if _UNDO.search(text) and action.tool == "crm.bookAppointment":
            return [Intent("cancel_appointment", target=pinned(item, "service"), clause=text)]
        plain = _without_denied(text, now)
        found = appointment_follow_up(plain, item, now, zone, correcting=True)
        if (
            found is None
            and _AN_HOUR.search(plain)
            and "cancel" not in plain
            and _one_of_its_service(state, item)
            and (as_it := _named_as_it(plain, item)) is not None
        ):
            # "actually make the haircut 4 not 2:30", a turn after another change: "it"
            found = appointment_follow_up(as_it, item, now, zone, correcting=True)
        return found
    if action.tool == "crm.addTask" and _UNDO.search(text):
        return [task_change("delete_task", item, {}, text)]
    if (
        action.tool == "crm.updateTask"
        and _PUT_BACK.search(text)
        and (level := said_priority(text)[0])
    ):
        # "no, put it back to low" after its day was set (its level set a turn before): the
        # level said, whatever the last change set.
        return [task_change("update_task", item, {"priority": level}, text)]
    if action.tool == "crm.updateTask" and _PUT_BACK.search(text):
        # "actually leave it where it was": what the change set, as it was before it (no
        # day or priority read from the rest of the message); not known: not guessed.
        return _task_put_back(action, item, text)
    if action.kind == "task" and action.tool in ("crm.addTask", "crm.updateTask"):
        if (meant := _other_task_meant(state, text, item)) is not None:
            # "wait, the rent one should be due on the 1st" after the vet task was added:
            # the one named, not the last one (its day said, the one denied left out).
            said = due_day_said(_without_denied(text, now), now)
            carried = {
                key: value
                for key, value in action.arguments.items()
                if key in ("due_on", "priority") and action.tool == "crm.updateTask"
            }
            if said is None and carried and _ADDED_BEFORE.search(text) and not _IT.search(text):
                # "make the last task I added due saturday" → "no, I meant the earlier
                # one": the change made to that one (the other's day stays: the CRM
                # takes no due date off).
                return [Intent("update_task", carried, target=meant, clause=text)]
            if said is None:
                # "the task I added first should say buy conditioner": its title, anew.
                title = _corrected_title(text, {"title": meant.phrase})
                if title is None:
                    return None
                return [Intent("update_task", {"title": title}, target=meant, clause=text)]
            return [Intent("update_task", {"due_on": said}, target=meant, clause=text)]
        if (title := _corrected_title(text, item)) is not None:
            return [task_change("update_task", item, {"title": title}, text)]
        arguments: dict[str, Any] = {}
        if (due := _due_asked(text, now)) is not None:
            arguments["due_on"] = due
        elif (
            whole_days(shift := find_shift(text))
            and shift is not None
            and (day := _due(item)) is not None
        ):
            # "no, the day after that": from the due date it was just given.
            arguments["due_on"] = (day + shift).isoformat()
        level = said_priority(text)[0]
        if level:
            arguments["priority"] = level
        if arguments:
            return [task_change("update_task", item, arguments, text)]
    if action.tool == "crm.completeTask" and re.search(r"\bmeant\b|\bnot\b|\bother\b", text):
        # "no wait, I meant the car insurance one": complete the one meant instead.
        # ("oops, not that one, the insurance": the one denied and the fillers said go)
        said = _NOT_THAT.sub(" ", re.sub(r"^.*?\bmeant\b", "", text))
        said = _FILLERS.sub(" ", said).replace(",", " ")
        intents = detect_intents("complete " + " ".join(said.split()), now)
        others = [
            i
            for i in intents
            if i.kind == "complete_task" and i.target is not None and not i.target.vague
        ]
        return others[:1] or None
    return None


# (one name for both uses: a first one, "…|wrong one", was read by neither, this one
# defined after it; "oh no, wrong one, it was the haircut I wanted moved": the one meant)
_MEANT = rx(
    r"\b(?:i meant|i mean|meant|not|instead|rather|make (?:it|that) an?|wrong one"
    r"|(?:it was|it's|its) (?:the|my) [a-z]+(?: [a-z]+)? i want(?:ed)?)\b"
)
_FILLERS = rx(r"\b(?:oops|whoops|oh|um|uh|sorry|no|wait|actually)\b")


def _service_meant(text: str, item: Item) -> str | None:
    """The other service a correction names for the visit just booked, or None."""
    if not _MEANT.search(text) or _TOO.search(text) or not item.get("starts_at"):
        return None  # "and a massage too": another booking, read as one
    kept = strip_instead_of(text)  # "…, not a facial": the service denied is not the one
    named = slots.service(kept, kept)
    if not named or named.lower() == str(item.get("service") or "").lower():
        return None
    return named


def _moved_before(state: Dialogue, service: str) -> bool:
    """Whether a visit of `service` was moved earlier in the conversation (among the last
    few writes that went through)."""
    return any(
        entry.get("tool") == "crm.rescheduleAppointment"
        and str(entry.get("label") or "").lower() == service.lower()
        for entry in state.done
    )


def _day_of(item: Item, zone: ZoneInfo) -> date | None:
    """The day a visit starts on, on the customer's clock."""
    starts = item.get("starts_at")
    if not isinstance(starts, str):
        return None
    return datetime.fromisoformat(starts).astimezone(zone).date()


def _clock_said(text: str, now: datetime) -> str | None:
    """The hour a correction says ("…the cleaning at 2 instead"), as HH:MM, or None."""
    when = find_when(text, now)
    if when is None or when.clock is None or when.vague_time:
        return None
    return when.clock.strftime("%H:%M")


def _other_moved(
    service: str, item: Item, now: datetime, zone: ZoneInfo, clock: str | None = None
) -> Intent | None:
    """The move of the customer's `service` to where `item` was just moved (at the hour
    the correction says, when it says one: "no, the cleaning, at 2")."""
    starts = item.get("starts_at")
    if not isinstance(starts, str):
        return None
    when = datetime.fromisoformat(starts).astimezone(zone)
    at = clock or f"{when:%H:%M}"
    said = f"move my {service.lower()} to {when:%B} {when.day} {when.year} at {at}"
    found = [
        i
        for i in detect_intents(said, now, str(zone))
        if i.kind == "reschedule_appointment" and not i.missing
    ]
    return found[0] if len(found) == 1 else None


_DENIED = rx(r"\bnot (?:at |on |for )?")
# "not ten it's ten thirty", "not 10, make it 10:30": a bare hour denied (read as no time
# alone), then the one meant.
_BARE_HOUR_DENIED = rx(
    r"^(?:\d{1,2}(?::\d\d)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve)\b[ ,]*(?:(?:it's|it is|it should be|make it|i meant|i mean|at)\b[ ,]*)?"
)


def _without_denied(text: str, now: datetime) -> str:
    """ "sorry not two thirty, three thirty": the time denied is dropped, the one meant kept."""
    denied = _DENIED.search(text)
    if denied is None:
        return text
    rest = text[denied.end() :]
    when = find_when(rest, now)
    if (
        when is not None
        and when.spans
        and when.spans[0][0] != 0
        and (bare := _BARE_HOUR_DENIED.match(rest)) is not None
        and when.spans[0][0] >= bare.end() - 1
        and when.clock is not None
    ):
        return f"{text[: denied.start()]}{rest[bare.end() :]}".strip()
    if when is None or not when.spans or when.spans[0][0] != 0:
        return text
    kept = rest[when.spans[0][1] :].strip(" ,")
    if find_when(kept, now) is None:
        return text  # nothing else was said: "not at 3" alone is not a new time
    return f"{text[: denied.start()]}{kept}".strip()


def _other_action_named(state: Dialogue, action: Action, text: str) -> Action | None:
    """Of the last turn's several changes, the one other than the last whose item the
    correction names by a word of its own (None: none, or the last one is named)."""
    several = state.last_turn_actions
    if len(several) < 2:
        return None

    def words(each: Action) -> set[str]:
        item = each.after or each.before or {}
        label = str(item.get("title") or item.get("service") or "").lower()
        return {w for w in WORD_RE.findall(label) if len(w) > 2}

    said = set(WORD_RE.findall(text))
    if words(action) & said:
        return None
    named = [each for each in several[:-1] if words(each) & said]
    return named[-1] if len(named) == 1 else None


def _moved_on(state: Dialogue, action: Action, text: str) -> bool:
    """ "ok make that one due friday instead" after asking about another task since the
    last change: "that one" is the one asked about (in focus now), not the one changed."""
    focus = state.focus
    item = action.after or action.before
    return (
        focus is not None
        and item is not None
        and state.focus_kind == action.kind
        and focus.get("id") != item.get("id")
        and _IT.search(text) is not None
        # ("actually put the cleaning back where it was": the one changed, named)
        and not _names_label(text, str(item.get("service") or item.get("title") or ""))
    )


def _denies_day_of(text: str, visit: Action, action: Action, now: datetime, zone: ZoneInfo) -> bool:
    """The correction denies the day the visit was booked or moved to ("…not the 20th")
    and not the day the task last changed is due: it is the visit's day that was wrong."""
    denied = _DENIED.search(text)
    if denied is None:
        return False
    said = due_day_said(text[denied.end() :], now)
    starts_at = (visit.after or {}).get("starts_at")
    if said is None or not isinstance(starts_at, str):
        return False
    try:
        day = datetime.fromisoformat(starts_at).astimezone(zone).date().isoformat()
    except ValueError:
        return False
    task = action.after or action.before or {}
    return said == day and str(task.get("due_on") or "") != said


def _due(item: Item) -> date | None:
    try:
        return date.fromisoformat(str(item.get("due_on")))
    except ValueError:
        return None


def also(state: Dialogue, text: str, now: datetime) -> list[Intent] | None:
    """ "and the eye exam one too" after completing a task: the same again, another target."""
    action = state.last_action
    said_too = _TOO.search(text) or _NEXT_ONE.match(text)
    if action is None or not said_too or action.tool not in _DONE_TOO:
        return None
    if _OWN_VERB.search(text) or _ASKS_ITS_OWN.search(text):
        # "and move the car insurance one to friday", "and show me my support cases": a
        # request of its own (before, the second was looked for as a task to complete)
        return None
    if (others := _THE_OTHERS.search(text)) is not None:
        return _the_others_too(state, action, others.group("n"))
    if action.tool != "crm.completeTask":
        return None  # (a to-do deleted: "the other one too" only, asked as usual)
    words = re.sub(
        r"\b(?:and|too|as well|also|is|are|done|one|the|please|now|then|next|ok|okay|my|task)\b",
        " ",
        text,
    )
    intents = detect_intents(f"complete the {words.strip()} task", now)
    found = [i for i in intents if i.kind == "complete_task" and i.target and not i.target.vague]
    return found[:1] or None


def another_task(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "add call the bank for tomorrow" → "and buy a birthday card": a task of its own,
    when nothing else reads the words (a lookup or a change of their own is not this)."""
    action = state.last_action
    if action is None or not _added_here(state, action):
        return None
    if (more := _ONE_MORE.match(text)) is not None:
        return _one_more(action, more, now, timezone)
    if ("again" in text or "same" in text) and (again := _added_again_on(action, text, now)):
        return again
    said = AND_ERRAND.match(text)
    if said is None:
        return _the_same_for(action, text, now, timezone)
    if detect_intents(text, now, timezone):
        return None
    found = detect_intents(f"add a task to {said.group('t')}", now, timezone)
    return [i for i in found if i.kind == "add_task"][:1] or None


# "and eggs", "also butter", "and dad too": a thing said short after a to-do was added,
# one more like it (its verb, for the thing said).
_AND_A_THING = rx(
    r"^(?:and|also|plus|oh and|and also|and some|also some)\s+"
    r"(?P<x>[a-z][a-z']*(?: [a-z][a-z']*){0,2}?)"
    r"(?:\s+(?:too|as well|also|please))*[.!]*$"
)
# Words that make the short reply something else than a thing ("and that's it", "also no").
_NOT_A_THING = rx(
    r"\b(?:it|that|this|that's|thats|those|these|them|what|when|where|how|why|who|which|yes"
    r"|no|not|nothing|thanks|thank|done|all|else|more|one|another|same|today|tomorrow|tonight"
    r"|[a-z]+day|week|month|morning|afternoon|evening|urgent|priority|high|low|normal|due)\b"
)
# A title's verb, with its particle ("pick up", "drop off").
_VERB_OF_TITLE = rx(r"^(?P<v>[a-z]+(?: (?:up|off|out|in|back|down|over))?) (?P<rest>.+)$")


def _the_same_for(action: Action, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "add buy milk" → "and eggs": "Buy eggs", the last to-do's verb for the thing said
    (the same due day); None unless nothing else reads the words."""
    said = _AND_A_THING.match(text)
    if said is None or _NOT_A_THING.search(said.group("x")) or find_when(text, now):
        return None
    if slots.services_named(said.group("x")):
        return None  # "and a haircut": a visit, asked about as one
    title = str((action.after or {}).get("title") or action.arguments.get("title") or "")
    verb = _VERB_OF_TITLE.match(title.lower())
    thing = said.group("x")
    if verb is not None and verb.group("v").split()[0] in TITLE_VERBS:
        new_title = f"{title[: len(verb.group('v'))]} {thing}"
    elif title and len(title.split()) <= 2 and not set(title.lower().split()) & TITLE_VERBS:
        # "add eggs to my list" → "and milk too": "Milk", a thing as the last one was (was
        # "I didn't catch what you meant by 'milk'")
        new_title = thing[:1].upper() + thing[1:]
    else:
        return None
    if detect_intents(text, now, timezone):
        return None
    arguments: dict[str, Any] = {"title": new_title}
    due = (action.after or {}).get("due_on") or action.arguments.get("due_on")
    if due:
        arguments["due_on"] = str(due)[:10]
    return [Intent("add_task", arguments, clause=said.group(0))]


def _added_here(state: Dialogue, action: Action) -> bool:
    """The last change added a task, or changed one added in this conversation ("add call
    my mom on saturday" → "no sorry sunday" → "and one to buy flowers the same day")."""
    if action.tool == "crm.addTask":
        return True
    if action.tool != "crm.updateTask":
        return False
    changed = (action.after or action.before or {}).get("id")
    return changed is not None and any(
        entry.get("tool") == "crm.addTask" and (entry.get("made") or {}).get("id") == changed
        for entry in state.done
    )


# "and one to water the plants on wednesday", "one more like that for the electrician":
# another task just after one was added, its own errand or the same one for another.
_ONE_MORE = rx(
    r"^(?:and |also |plus |oh and )?(?:(?:can you |could you )?(?:add|put in|put) )?"
    r"(?:one more|another one|another|one)(?: more)?"
    r"(?P<like> like (?:that|this|it)| the same)? (?P<how>to|for) (?P<rest>[a-z][a-z0-9' -]*)"
    r"[.!]*$"
)


_SAME_DAY = rx(r"\s*,?\s*(?:on |for |due )?the same day$")

# "and again next week", "same again on monday" just after a to-do was added: that to-do
# once more, due a week after it ("next week", "the week after") or on the day said (was:
# "I didn't catch what you meant by 'again next week'").
_AGAIN_ON = rx(
    r"^(?:(?:and|also|then|ok|okay|oh|plus|so)\W+)*(?:again|(?:the )?same(?: again| thing)?)"
    r"(?: (?:for|on|due|by))? (?P<when>[a-z0-9][a-z0-9 ]*?)(?: too| as well| please)?[.!]*$"
)
_WEEK_ON = rx(r"^(?:(?:the )?next week|the week after|a week later|the following week)$")


def _added_again_on(action: Action, text: str, now: datetime) -> list[Intent] | None:
    """The to-do just added, added once more on the day `text` says ("and again next
    week"), or None when it says more than a day."""
    said = _AGAIN_ON.match(text)
    if said is None:
        return None
    title = str((action.after or {}).get("title") or action.arguments.get("title") or "")
    due = str((action.after or {}).get("due_on") or action.arguments.get("due_on") or "")[:10]
    if not title or ("again" not in text and not due):
        return None  # ("and the same for friday" of one with no day: maybe its day, not asked)
    when_said = said.group("when")
    if _WEEK_ON.match(when_said):
        if not due:
            return None  # a week after no day: which day is asked as for any to-do
        day = date.fromisoformat(due) + timedelta(days=7)
    else:
        when = find_when(when_said, now)
        if when is None or when.day is None or when.clock is not None or when.vague_day:
            return None
        rest = when_said
        for start, end in sorted(when.spans, reverse=True):
            rest = rest[:start] + rest[end:]
        if rest.strip(" ,"):
            return None  # more said than a day
        day = when.day
    return [Intent("add_task", {"title": title, "due_on": day.isoformat()}, clause=text)]


def _one_more(
    action: Action, more: re.Match[str], now: datetime, timezone: str
) -> list[Intent] | None:
    rest = more.group("rest")
    if more.group("like") is None:
        if more.group("how") != "to":
            return None  # "one for friday": which, and what, is not said
        due = (action.after or {}).get("due_on") or action.arguments.get("due_on")
        same_day = _SAME_DAY.search(rest)
        if same_day is not None and due:
            # "and one to buy flowers the same day": due the day the last one is
            rest = f"{rest[: same_day.start()]} on {str(due)[:10]}"
        found = detect_intents(f"add a task to {rest}", now, timezone)
        return [i for i in found if i.kind == "add_task"][:1] or None
    # "like that for the electrician": the last one's verb, for the one said, the same day.
    title = str((action.after or {}).get("title") or action.arguments.get("title") or "")
    verb = title.split(" ", 1)[0]
    if not verb or find_when(rest, now) is not None:
        return None
    arguments: dict[str, Any] = {"title": f"{verb} {rest}".strip()}
    due = (action.after or {}).get("due_on") or action.arguments.get("due_on")
    if due:
        arguments["due_on"] = str(due)[:10]
    return [Intent("add_task", arguments, clause=more.group(0))]


# "and the other two as well", "the rest too": every other one of the tasks listed.
# "the other one", "the other task" are one: with two or more left, which is asked (every
# one left was completed).
_THE_OTHERS = rx(
    r"\bthe (?:other|remaining)"
    r"(?: (?P<n>one|task|to-?do|reminder|two|three|four|ones|[1-4]))?\b|\bthe rest\b"
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_ONE = frozenset({"one", "task", "todo", "to-do", "reminder", "1"})
# The change to a to-do that "and the other one too" asks again.
_DONE_TOO: dict[str, IntentKind] = {
    "crm.completeTask": "complete_task",
    "crm.deleteTask": "delete_task",
}


def _the_others_too(state: Dialogue, action: Action, said: str | None) -> list[Intent] | None:
    """The same done to every other pending task listed, when as many are left as said."""
    done = (action.after or action.before or {}).get("id")
    others = [
        item
        for item in state.last_listed_of("task")
        if item.get("id") != done and item.get("status") != "completed"
    ]
    kind = _DONE_TOO[action.tool]
    if (
        others
        and (said in _ONE or (said in _COUNTS and _COUNTS[said] < len(others)))
        and (len(others) > 1)
    ):
        # "and the other one too" of two left, "the other 2" of three: which is asked, none
        # done (the second was "I didn't catch what you meant by 'the other 2'")
        other = TargetRef(phrase="the other task", excluded=TargetRef(phrase="it", item_id=done))
        return [Intent(kind, {}, target=other, clause=f"{kind.split('_')[0]} the other task")]
    if not others or (said in _COUNTS and _COUNTS[said] != len(others)):
        return None  # "the other two" of three left: which is asked
    if kind == "delete_task" and said not in _ONE:
        return None  # ("delete the rest too": every one, asked whole as usual)
    return [task_change(kind, item, {}, f"{kind.split('_')[0]} it") for item in others]


# A verb that asks for another change than the one just made.
# (with every other word for a change: "and schedule me an eye exam for tuesday" after the
# "Schedule eye exam" to-do was done is a booking, not that to-do done again)
_OWN_VERB = rx(
    r"\b(?:move|push|delete|remove|add|book|cancel|change|set|make|rename|update|bump"
    r"|reschedule|put|give|" + OTHER_CHANGE_VERBS + r")\b"
)


_ASKS_ITS_OWN = rx(
    r"\b(?:show|tell|list|read|check|look up|find|open)\b|^(?:and |also )?(?:what|when|where"
    r"|how|which|who|do i|does|did|is there|are there|have i|can you|could you)\b"
    # "and the car insurance one when's that due again": named first, then asked about
    r"|\b(?:when|what|where|which|how)(?:'s|s| is| was)? (?:that|it|this|they)\b"
)


_NOT_THAT = rx(r"\b(?:not|rather than|instead of) (?:the |my |that )?[a-z]+(?: one)?\b")


_RETARGET = rx(
    r"\b(?:meant|mean|actually|rather|not|instead)\b|^(?:no|wait|sorry)\b|^(?:just|only) the\b"
)
_LET_GO = rx(
    r"^(?:(?:no|wait|sorry|oh|ok|okay|actually)\b\W*)*(?:never ?mind|forget|skip|leave out"
    r"|scrap|not) (?:about )?the (?:first|second|third|fourth|last|other) one\b\W*"
)


_HELD_VERB = {"crm.cancelAppointment": "cancel my {}", "crm.deleteTask": "delete the {} task"}
# The verb of the other kind of held change, said with a change of mind (a cheap test
# before the sentence is read whole).
_OTHER_VERB = {
    "delete_task": rx(r"\bcancel"),
    "cancel_appointment": rx(r"\b(?:delete|remove)\b"),
}


_A_TASK = rx(r"\b(?:task|to-?do|reminder)s?\b")
_A_VISIT = rx(r"\b(?:appointment|visit|booking|session)s?\b")


def _names_other_kind(kind: str, text: str) -> bool:
    """Whether `text` names a thing of the other kind than the held change's: a visit
    (a service, "appointment") for a held task delete, a task for a held cancel."""
    if kind == "delete_task":
        return not _A_TASK.search(text) and bool(
            slots.services_named(text) or _A_VISIT.search(text)
        )
    return bool(_A_TASK.search(text))


# "actually make it the cleaning": the held question, about the one named (no change of
# its own: "make it 3pm" is a time).
_MAKE_IT_THE = rx(r"\bmake (?:it|that)(?= (?:the|my)\b)")


def retarget(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "actually the haircut, not the dental": the question just asked, about another item."""
    held = [tool for tool in state.held if tool in _HELD_VERB]
    if not held:
        return None
    if "make" in text:
        text = _MAKE_IT_THE.sub("", text)
    if _ACTION_VERB.search(text) or _ASKS.search(text) or ASKED_OF_IT.search(text):
        return None  # ("and the haircut is that still on": asked about, not the one meant)
    kind = "cancel_appointment" if held[0] == "crm.cancelAppointment" else "delete_task"
    # "never mind the second one, just the groceries": the one let go is not the one meant.
    text = _LET_GO.sub(" ", text).strip(" ,")
    listed = state.listed_of("appointment" if kind == "cancel_appointment" else "task")
    positions = [p for p in positions_said(text) if -len(listed) <= p < len(listed)]
    if positions and listed and not re.search(r"\bnext\b", text):
        # "no wait, the first one": counted in the list the customer heard.
        label = "service" if kind == "cancel_appointment" else "title"
        item = listed[positions[0]]
        return [Intent(kind, target=pinned(item, label), clause=text)]  # type: ignore[arg-type]
    if not _RETARGET.search(text):
        return None
    if _OTHER_VERB[kind].search(text) and _names_other_kind(kind, text):
        # "actually cancel my haircut" after "delete the groceries task?": another kind of
        # change, said whole, takes the question's place; it does not aim this one at a
        # task called "haircut" ("actually cancel the car insurance one" still does).
        return None
    found = _named_for_held(
        held[0], kind, _RETARGET_WORDS.sub(" ", _NOT_THAT.sub(" ", text)), now, timezone
    )
    return found[:1] or None


_RETARGET_WORDS = rx(
    r"\b(?:actually|sorry|no|i meant|i mean|meant|rather|instead|wait|oh|the|my|one|just|only)\b"
)
_MORE_WORDS = rx(r"\b(?:and|plus|too|as well|also|please|the|my|one|that|this|then|ok|okay|oh)\b")


def _named_for_held(tool: str, kind: str, rest: str, now: datetime, timezone: str) -> list[Intent]:
    """The things `rest` (the reply, its other words taken out) names, read as the held
    change said of them ("cancel my <rest>")."""
    rest = " ".join(rest.replace(",", " ").split())
    if not rest:
        return []
    intents = detect_intents(_HELD_VERB[tool].format(rest), now, timezone)
    return [i for i in intents if i.kind == kind and i.target is not None and not i.target.vague]


_ASKS = rx(r"\b(?:what|when|where|how|which|why|who)\b|\?")
# "and is my haircut still on", "and do I still owe anything": a question of its own, said
# without its question mark (a recogniser's words), not one more thing to cancel or delete
_ASKED_YES_NO = rx(
    r"^(?:(?:and|plus|also|so|oh|ok|okay)\s+)*(?:is|are|was|were|do|does|did|have|has|am"
    r"|can|could|will|would|should)\s+(?:i|my|it|that|this|there|they|you|the)\b"
)


def held_and_another(
    state: Dialogue, text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "and the insurance one too", "the cleaning as well" while a cancel or delete waits
    for a yes: the question again, about the one waiting and the one named (a yes to the
    old question would have done only the first; a no to it, neither)."""
    held = state.held
    if len(held) != 1 or held[0] not in _HELD_VERB or not _TOO.search(text):
        return None
    if _ACTION_VERB.search(text) or _ASKS.search(text) or _THE_OTHERS.search(text):
        return None
    if _ASKED_YES_NO.search(text) or ASKED_OF_IT.search(text):
        # ("and the haircut is that still on": was held with the cancel waiting, and "ok
        # good" CANCELLED IT)
        return None
    kind = "cancel_appointment" if held[0] == "crm.cancelAppointment" else "delete_task"
    waiting = state.focus_of("appointment" if kind == "cancel_appointment" else "task")
    if waiting is None:
        return None
    found = _named_for_held(held[0], kind, _MORE_WORDS.sub(" ", text), now, timezone)
    if len(found) != 1:
        return None
    label = "service" if kind == "cancel_appointment" else "title"
    return [Intent(found[0].kind, target=pinned(waiting, label), clause=text), found[0]]


# (a change of its own: "wait no, just tick it off" asks no other one deleted)
_ACTION_VERB = rx(
    r"\b(?:move|book|push|reschedule|add|complete|mark|change|rename|tick|finish|cross|set"
    r"|make|give|bump|done|finished|shift|switch|postpone|rebook"
    # "sure, but put it on monday at 4 instead": a move of the one asked about
    r"|put (?:it|that|this|them)|bring (?:it|that|this|them))\b"
)


def undo_reply(state: Dialogue, message: str) -> str | None:
    """ "undo that" after completing a task: no route reopens one, so say so plainly."""
    action = state.last_action
    if action is None or action.tool != "crm.completeTask":
        return None
    if len(state.last_turn_actions) > 1:
        return None  # several were made: which to undo is asked (models/embedded/undo.py)
    if not _UNDO.search(normalize(message).text):
        return None
    title = str((action.after or action.before or {}).get("title") or "That task")
    return (
        f"I can't reopen a completed task from here, so {title} stays marked complete. "
        "I can add it again as a new task if you like."
    )


__all__ = ["also", "correction", "retarget", "undo_reply"]
