"""The dialogue state: what the conversation is about, shared by planner and narrator.

Per conversation: the items last listed (in the order they were spoken), the item in
focus (the one last booked, moved, completed, named or asked about), the last action
(so that "actually make that 11" or "put it back" can revise it), and the question the
assistant left open (an offered support case). Pronouns, "same time", "an hour
earlier", "instead", corrections and changes of mind resolve against it. The value
itself is `assistant.dialogue_state.Dialogue`; this module moves it on after a turn.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import lru_cache

from assistant.dialogue_state import (
    MAY_STILL_LAND,
    MOVE_QUESTION_START,
    STILL_NOT_LANDED,
    WHICH_KIND_START,
    WHICH_KIND_TASK,
    Action,
    Dialogue,
    Item,
    Kind,
)
from assistant.ordering import spoken_appointments, spoken_tasks
from assistant.schema import ToolCall, ToolResult
from assistant.write_memory import done_writes, failed_writes

# The write tools whose reply is the item after the change, and the item's kind.
_WRITES: dict[str, Kind] = {
    "crm.bookAppointment": "appointment",
    "crm.rescheduleAppointment": "appointment",
    "crm.cancelAppointment": "appointment",
    "crm.addTask": "task",
    "crm.completeTask": "task",
    "crm.updateTask": "task",
    "crm.deleteTask": "task",
    "crm.createTicket": "ticket",
}
_ID_ARGUMENT = {"appointment": "appointment_id", "task": "task_id"}
# Every tool that changes something: remembered when it fails, and when it goes through.
_CHANGES = frozenset({*_WRITES, "crm.updateContactInfo"})
# The answer's closing offer that a "yes" accepts.
# The questions of which one is meant, kept open through a question of the customer's own.
_STAYS_OPEN = frozenset({"which_move", "which_cancel", "which_task"})
# ("which is earlier?": asked of those offered, assistant.models.embedded.which_asked_back)
_ASKS_OF_ITS_OWN = re.compile(r"\b(?:what|when|where|why|who|how)\b(?! about\b)|^which\b")
_OFFERS_A_CASE = re.compile(
    r"\b(?:open|raise|log) (?:a|one|a support) (?:support )?case\b.*\?\s*$"
    r"|\bi can open a support case so the team gets back\b"
)


def _listing(result: ToolResult) -> tuple[Kind, list[Item]] | None:
    body = result.result
    if not result.ok or not isinstance(body, dict):
        return None
    if isinstance(body.get("tasks"), list):
        tasks = [t for t in body["tasks"] if isinstance(t, dict)]
        pending = [t for t in tasks if t.get("status") != "completed"]
        done = [t for t in tasks if t.get("status") == "completed"]
        return "task", spoken_tasks(pending) or done
    if isinstance(body.get("appointments"), list):
        items = [a for a in body["appointments"] if isinstance(a, dict)]
        return "appointment", spoken_appointments(items)
    if isinstance(body.get("appointment"), dict):
        return "appointment", [body["appointment"]]
    if isinstance(body.get("invoices"), list):
        return "invoice", [i for i in body["invoices"] if isinstance(i, dict)]
    if isinstance(body.get("tickets"), list):
        return "ticket", [t for t in body["tickets"] if isinstance(t, dict)]
    return None


def _known(state: Dialogue, results: Sequence[ToolResult], item_id: object) -> Item | None:
    """The item with this id as last seen (this turn's listings first)."""
    if item_id is None:
        return None
    for result in reversed(results):
        found = _listing(result)
        if found is not None:
            for item in found[1]:
                if item.get("id") == item_id:
                    return item
    earlier = [state.focus] if state.focus is not None else []
    for known in (*earlier, *state.listed):
        if known.get("id") == item_id:
            return known
    return None


def advance(
    state: Dialogue | None,
    results: Iterable[ToolResult],
    user_text: str,
    answer: str,
    held: Sequence[ToolCall] = (),
    meant: str | None = None,
) -> Dialogue:
    """The state after a turn: what was listed, what is now in focus, what was done.

    `held` are calls awaiting the customer's yes: their target is in focus, so that
    "no, just move it" is about it. `meant` is the message as the planner read it
    (language/as_meant.py: "what's the uh other appointment" is "the other appointment"):
    what it names is read from that.
    """
    named_in = user_text if meant is None else meant
    state = state or Dialogue()
    results = list(results)
    listings = [_listing(result) for result in results]  # each read once, used twice
    listed_kind, listed = state.listed_kind, state.listed
    focus_kind, focus = state.focus_kind, state.focus
    last_action = state.last_action
    appointment_action = state.last_appointment_action
    written: set[object] = set()  # the items this turn's writes changed
    let_go = False  # the focus let go of because several were read out
    actions: list[Action] = []
    for result, found in zip(results, listings, strict=True):
        if found is not None:
            kind, items = found
            if len(items) > 1 or kind != listed_kind:
                listed_kind, listed = kind, tuple(items)
            if len(items) == 1 and kind in ("task", "appointment"):
                focus_kind, focus = kind, items[0]
            continue
        kind_of_write = _WRITES.get(result.call.tool_name)
        if kind_of_write is None or not result.ok:
            continue
        id_argument = _ID_ARGUMENT.get(kind_of_write, "")
        before = _known(state, results, result.call.arguments.get(id_argument))
        after = result.result if isinstance(result.result, dict) and "id" in result.result else None
        if after is None and before is not None and result.call.tool_name != "crm.deleteTask":
            after = before
        if state.since_change == 0 and user_text[:1] and _SAID_AS_CORRECTION.search(user_text):
            before = _before_corrected(state.last_action, result, before)
        last_action = Action(
            result.call.tool_name, dict(result.call.arguments), kind_of_write, before, after
        )
        actions.append(last_action)
        if kind_of_write == "appointment":
            appointment_action = last_action
        if after is not None and kind_of_write in ("task", "appointment"):
            written.add(after.get("id"))
            focus_kind, focus = kind_of_write, after
            listed = tuple(after if i.get("id") == after.get("id") else i for i in listed)
            if kind_of_write == listed_kind and not any(
                i.get("id") == after.get("id") for i in listed
            ):
                # Added while the list was in view: it is on the list now, last, as the
                # CRM lists it, so it can be named ("make the dry cleaning saturday").
                listed = (*listed, after)
    if listed_kind == "task" and any(found is not None for found in listings):
        # "Renew car insurance is due January 21 and Buy groceries is due tomorrow": the
        # tasks the answer spoke of are the ones listed, in the order spoken.
        listed = _spoken_of(listed, answer)
    if focus_kind is None or not any(
        found is None for result, found in zip(results, listings, strict=True) if result.ok
    ):
        # Asked about by name, or the one item the answer spoke of.
        named = (
            _the_other(listed_kind, listed, focus, named_in)
            or _named(listed_kind, listed, named_in)
            or _named(listed_kind, listed, answer)
            or _soonest(listed_kind, listed, named_in)
            or _on_weekday(listed_kind, listed, named_in)
        )
        if named is not None and listed_kind is not None and results:
            focus_kind, focus = listed_kind, named
        elif (
            named is None
            and results
            and listed_kind == "appointment"
            and len(several := _several_ahead(listed, named_in)) > 1
        ):
            # "when's my haircut?" with two ahead, both told: those two are what "it", "the
            # first one" count in next (the question of which offers them, not every visit)
            listed = several
        elif (
            listed_kind == focus_kind == state.focus_kind
            and focus is state.focus
            and len(listed) > 1
            and any(found is not None and len(found[1]) > 1 for found in listings)
            and not held
        ):
            # Several read out and none of them named ("what's due soonest" answered with
            # two): "mark that done" next is one of those, asked, not the one before.
            focus_kind, focus = None, None
            # (the one before is kept as the earlier focus: "when is my haircut?" → "move
            # an appointment to the day after that" → "which?": the day still counts from it)
            let_go = True
        elif not results and listed_kind is not None:
            # Answered from what is known ("and the dental one, what time was it again"):
            # the one the customer named is in focus now, so "push that to 11" is about it.
            said = _the_other(listed_kind, listed, focus, named_in) or _named(
                listed_kind, listed, named_in
            )
            if said is None and named_in[:5].lower() == "which":
                # "which is earlier?" answered with the one that is: "that one" next
                said = _named(listed_kind, listed, answer)
            if said is None and _ONE_SENTENCE.fullmatch(answer.strip()):
                # "and the high priority one, when's that due?" → "Renew car insurance is
                # due January 21.": the one the answer spoke of is in focus ("move it…")
                said = _named(listed_kind, listed, answer)
            if said is not None:
                focus_kind, focus = listed_kind, said
    if len(written) > 1 and focus_kind is not None:
        # "book a haircut thursday and physio friday": "move it to 11" next could be
        # either, so neither is in focus (which one is asked); the last action stays.
        focus_kind, focus = None, None
    for call in held:
        kind_held = _WRITES.get(call.tool_name)
        if kind_held is not None:
            item = _known(state, results, call.arguments.get(_ID_ARGUMENT.get(kind_held, "")))
            if item is not None:
                focus_kind, focus = kind_held, item
    question, about, at = (None, "", 0)
    lowered = answer.lower()
    # Both of the offer's phrasings say "case": most answers are passed over at once.
    # The three "Which …" questions all say "Which" (case-sensitive patterns): an answer
    # without it, most of them, skips their searches (~4 µs each over a listing's answer).
    asks_which = "Which" in answer
    if "case" in lowered and (asking := _OFFERS_A_CASE.search(lowered)):
        question, about, at = "offer_case", user_text, asking.start()
    elif asks_which and (asking := _WHICH_TO_CANCEL.search(answer)):
        question, about, at = "which_cancel", user_text, asking.start()
    elif asks_which and (asking := _WHICH_TO_MOVE.search(answer)):
        question, about, at = "which_move", user_text, asking.start()
    elif asks_which and (asking := _WHICH_TASK.search(answer)):
        question, about, at = "which_task", user_text, asking.start()
    elif answer.endswith("Should it be normal or low priority?"):
        question, about, at = "which_priority", user_text, answer.rfind("Should it")
    elif "Tell me what happened" in answer:
        question, about, at = "describe_case", user_text, answer.find("Tell me what happened")
    elif answer.startswith(MOVE_QUESTION_START):
        question, about = "move_to", user_text
    elif answer.startswith(WHICH_KIND_START) and WHICH_KIND_TASK in answer:
        question, about = "which_kind", user_text  # (models/embedded/which_kind.py)
    if (
        question in ("which_move", "which_cancel")
        and listed_kind == "appointment"
        and len(listed) > 2
    ):
        # "Which appointment should I move: your haircut on … or your haircut on …?": "the
        # first one" next counts in those offered, not in every visit looked up
        offered = _offered(listed, answer[at:])
        listed = offered if len(offered) > 1 else listed
    if (
        question is None
        and state.question in _STAYS_OPEN
        and not actions
        and not held
        and _ASKS_OF_ITS_OWN.search(named_in.lower())
    ):
        # "which appointment should I move?" → "wait, what time is my dentist at?": a
        # question answered on the way, the one asked is still open ("ok the dentist one").
        question, about = state.question, state.about
        # ("…is the earlier one. Which one would you like?": the question asked again is
        # the one the next yes or name answers, as heard)
        at = max(answer.rfind("?") - 1, 0)
    earlier_kind, earlier = state.earlier_focus_kind, state.earlier_focus
    changed_kind = (
        state.focus_kind is not None and focus_kind is not None and state.focus_kind != focus_kind
    )
    if changed_kind or (let_go and focus_kind is None):
        earlier_kind, earlier = state.focus_kind, state.focus
    return Dialogue(
        listed_kind,
        listed,
        focus_kind,
        focus,
        last_action,
        question,
        about,
        tuple(call.tool_name for call in held),
        earlier_kind,
        earlier,
        appointment_action,
        _taken_back(
            failed_writes(state.failed, results, _CHANGES, lambda id_: _known(state, results, id_)),
            answer,
            held,
        ),
        done_writes(state.done, results, _CHANGES, lambda id_: _known(state, results, id_)),
        *_earlier_listing(state, listed_kind),
        tuple(actions) if actions else state.last_turn_actions,
        _listings(state, listed_kind),
        asked=_sentence_at(answer, at) if question else "",
        told=_told(state.told, listings, answer),
        listed_heard=_heard(state, listings, listed, answer),
        since_change=0 if actions else min(state.since_change + 1, 99),
        read_together=_read_together(state, listings),
    )


def _read_together(
    state: Dialogue, listings: Sequence[tuple[Kind, list[Item]] | None]
) -> tuple[tuple[Kind, tuple[Item, ...]], ...]:
    """The lists of a visit kind and a to-do kind this answer read out together (two or
    more of each), in the order read; those of before when it read no list out."""
    found = [listing for listing in listings if listing is not None]
    if not found:
        return state.read_together
    read = [
        (kind, tuple(items))
        for kind, items in found
        if kind in ("appointment", "task") and len(items) > 1
    ]
    if len({kind for kind, _ in read}) != 2:
        return ()
    return tuple(read[:2])


# A change said as a correction of the one just made: "no, I said 4 not 3", "no sorry,
# saturday", "actually make it 4", "I meant friday".
_SAID_AS_CORRECTION = re.compile(
    r"(?i)^\W*(?:no|nope|sorry|oops|whoops|actually|wait)\b|\bi (?:said|meant)\b|\bnot\b"
)
# The fields a move or a to-do's change sets that a correction sets again.
_CORRECTED = ("starts_at", "due_on", "priority")


def _before_corrected(
    previous: Action | None, result: ToolResult, before: Item | None
) -> Item | None:
    """What the item was before a change that corrects the change just made to it (the
    same tool, the same item, the same fields): what it was before that one. The change
    corrected was not wanted ("no, I said 4 not 3": 3 was misheard), so putting it back
    after the correction puts it where it was at first (it went back to the 3 o'clock)."""
    if (
        previous is None
        or before is None
        or previous.before is None
        or previous.tool != result.call.tool_name
        or previous.before.get("id") != before.get("id")
    ):
        return before
    fields = [key for key in _CORRECTED if key in result.call.arguments]
    if not fields or any(key not in previous.arguments for key in fields):
        return before
    return {**before, **{key: previous.before.get(key) for key in fields}}


def _taken_back(
    failed: tuple[Item, ...], answer: str, held: Sequence[ToolCall]
) -> tuple[Item, ...]:
    """The failed writes, marked taken back when the answer said the customer's take-back
    waits for them to land (MAY_STILL_LAND); unmarked once a put-back is asked about, or
    the next look still found nothing (STILL_NOT_LANDED)."""
    if failed and MAY_STILL_LAND in answer:
        return tuple({**write, "taken_back": True} for write in failed)
    if (held or STILL_NOT_LANDED in answer) and any(w.get("taken_back") for w in failed):
        return tuple({k: v for k, v in write.items() if k != "taken_back"} for write in failed)
    return failed


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_ONE_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


def _heard(
    state: Dialogue,
    listings: Sequence[tuple[Kind, list[Item]] | None],
    listed: tuple[Item, ...],
    answer: str,
) -> bool:
    """Whether the listing in view was read out: two or more of it named by the answer of
    the turn that looked it up (as it was, when no listing came this turn)."""
    if not any(found is not None and len(found[1]) > 1 for found in listings):
        return state.listed_heard
    if state.listed_heard and len(listed) > 1 and _ids(listed) == _ids(state.listed):
        # the list heard, looked up again to change one of it: still the list heard
        return True
    said = answer.lower()
    names = {str(item.get("service") or item.get("title") or "").lower() for item in listed}
    return sum(bool(name) and name in said for name in names) > 1 or len(listed) < 2


def _ids(items: Sequence[Item]) -> set[str]:
    return {str(item.get("id")) for item in items}


def _told(
    before: tuple[tuple[Kind, Item], ...],
    listings: Sequence[tuple[Kind, list[Item]] | None],
    answer: str,
) -> tuple[tuple[Kind, Item], ...]:
    """The items of several kinds the answer told one each of, in the order spoken; else
    those told before, unless the answer read out two or more of one listing."""
    if not any(found is not None for found in listings):
        return before  # no lookup this turn: what was heard last stays
    said = answer.lower()
    where: list[tuple[int, Kind, Item]] = []
    kinds: set[Kind] = set()
    for found in listings:
        if found is None or found[0] not in _NAME_FIELD:
            continue
        kind, items = found
        field = _NAME_FIELD[kind]
        named = [
            (at, item)
            for item in items
            if (name := str(item.get(field) or "").lower())
            and item.get("status") not in ("past", "completed", "cancelled")
            and (at := said.find(name)) >= 0
        ]
        if len(named) > 1:
            return ()  # a list read out: counted in it from now on
        if named and kind not in kinds:
            kinds.add(kind)
            where.append((named[0][0], kind, named[0][1]))
    if len(kinds) < 2:
        # One of those told before, spoken of again ("your haircut is now on Saturday"):
        # they stay; anything else told is what is heard now.
        ids = {str(item.get("id")) for _, item in before}
        return before if all(str(item.get("id")) in ids for _, _, item in where) else ()
    return tuple((kind, item) for _, kind, item in sorted(where, key=lambda w: w[0]))


def _sentence_at(answer: str, at: int) -> str:
    """The sentence of `answer` that holds position `at` (where a question was found)."""
    start = max((end.end() for end in _SENTENCE_END.finditer(answer, 0, at)), default=0)
    end = _SENTENCE_END.search(answer, at)
    return answer[start : end.end() if end else len(answer)].strip()


def _listings(
    state: Dialogue, listed_kind: Kind | None
) -> tuple[tuple[Kind, tuple[Item, ...]], ...]:
    """Listings older than the two kept in view (`listed`, `earlier_listed`), one per kind:
    the one this turn's listing pushes out of them is kept here (none most turns)."""
    if listed_kind is None or state.listed_kind in (None, listed_kind):
        return state.listings  # the two in view stay as they were
    out = state.earlier_listed_kind
    if out is None or out in (listed_kind, state.listed_kind):
        return state.listings
    kept = (listed_kind, state.listed_kind, out)
    return ((out, state.earlier_listed), *(e for e in state.listings if e[0] not in kept))


def _earlier_listing(
    state: Dialogue, listed_kind: Kind | None
) -> tuple[Kind | None, tuple[Item, ...]]:
    """The listing before, when this turn's is of another kind."""
    if state.listed_kind is not None and state.listed_kind != listed_kind:
        return state.listed_kind, state.listed
    return state.earlier_listed_kind, state.earlier_listed


_WORD = re.compile(r"[a-z]+")


def _spoken_of(tasks: tuple[Item, ...], answer: str) -> tuple[Item, ...]:
    """The tasks the answer named, in its order, when it named some but not all of them
    (two or more); else the listing as it was."""
    said = answer.lower()
    where: list[tuple[int, int]] = []
    for index, task in enumerate(tasks):
        title = str(task.get("title") or "").lower()
        at = said.find(title) if title else -1
        if at >= 0:
            where.append((at, index))
    if not 2 <= len(where) < len(tasks):
        return tasks
    return tuple(tasks[index] for _, index in sorted(where))


# "Which appointment should I cancel: …?": the next answer names it.
_WHICH_TO_CANCEL = re.compile(r"\bWhich appointment should I cancel\b")
# "Which appointment should I move: …?", "Which task do you mean: …?": the next answer
# names the one the request was about (assistant.models.embedded.which_answered).
_WHICH_TO_MOVE = re.compile(r"\bWhich (?:appointment|one) should I move\b")
_WHICH_TASK = re.compile(r"\bWhich task do you mean\b|\bWhich one did you mean\?$")


_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _on_weekday(kind: Kind | None, items: Sequence[Item], text: str) -> Item | None:
    """ "anything on Wednesday?": the one appointment on the weekday named."""
    if kind != "appointment":
        return None
    lowered = text.lower()
    said = [d for d in _DAY_NAMES if d in lowered]
    if len(said) != 1:
        return None
    index = _DAY_NAMES.index(said[0])
    found = []
    for item in items:
        try:
            start = datetime.fromisoformat(str(item.get("starts_at")))
        except ValueError:
            continue
        if start.weekday() == index and item.get("status") != "cancelled":
            found.append(item)
    return found[0] if len(found) == 1 else None


_NAME_FIELD = {"appointment": "service", "task": "title"}


@lru_cache(maxsize=1024)
def _name_words(name: str) -> tuple[str, ...]:
    """The words of a service or title that can name it (the same few, every turn)."""
    return tuple(w for w in _WORD.findall(name.lower()) if len(w) > 3)


def _named(kind: Kind | None, items: Sequence[Item], text: str) -> Item | None:
    """The one listed item the customer named ("when is my haircut?"), if just one."""
    field = _NAME_FIELD.get(kind or "")
    if field is None or not items:
        return None
    said = set(_WORD.findall(text.lower().replace("hair cut", "haircut")))
    # "my dentist appointment": the dental cleaning, as the grammar reads it (pinning.py).
    said |= {"dental"} if "dentist" in said else set()
    said |= {"physical"} if "physio" in said else set()
    named = []
    for item in items:
        words = _name_words(str(item.get(field) or ""))
        if words and any(w in said for w in words):
            named.append(item)
    if len({str(i.get(field)) for i in named}) > 1:
        # "when is the car insurance renewal due?" with "Call the insurance company" listed
        # too: a name whose every word said is also a word said of another ("insurance") is
        # not the one named ("car" and "insurance" are); two that share none stay two
        heard = {id(i): {w for w in _name_words(str(i.get(field))) if w in said} for i in named}
        named = [i for i in named if not any(heard[id(i)] < heard[id(j)] for j in named)]
    if named and all(str(i.get(field)) == str(named[0].get(field)) for i in named):
        # The same service or title more than once (a past haircut and the next one):
        # the one still ahead, else the latest.
        ahead = [i for i in named if i.get("status") in ("upcoming", "pending", "scheduled")]
        if kind == "appointment" and _BEFORE_NOW.search(text.lower()):
            # "when was my last haircut?": the latest one gone by, not the one ahead.
            gone = [i for i in named if i.get("status") in ("past", "completed")]
            if gone:
                return max(gone, key=lambda i: str(i.get("starts_at") or ""))
        if len(ahead) > 1 and kind == "appointment" and not _SOONEST.search(text.lower()):
            # Two visits of the service ahead ("when is my dental cleaning?" answered with
            # the next and "one more after it"): "move it" next could be either, asked.
            return None
        return ahead[0] if ahead else named[-1]
    return None


def _offered(items: Sequence[Item], asked: str) -> tuple[Item, ...]:
    """The visits a question of which names ("your haircut on Sunday, January 20 at …"), in
    the order it names them."""
    lowered = asked.lower()
    found: list[tuple[int, Item]] = []
    for item in items:
        try:
            starts = datetime.fromisoformat(str(item.get("starts_at")))
        except ValueError:
            continue
        said = f"{str(item.get('service') or '').lower()} on {starts:%A}, {starts:%B} {starts.day}"
        at = lowered.find(said.lower())
        if at >= 0:
            found.append((at, item))
    return tuple(item for _, item in sorted(found, key=lambda pair: pair[0]))


def _several_ahead(items: Sequence[Item], text: str) -> tuple[Item, ...]:
    """The visits ahead of the one service the customer named, when there are several
    ("when's my haircut?" with two booked) and none was singled out ("next", "first")."""
    said = set(_WORD.findall(text.lower().replace("hair cut", "haircut")))
    said |= {"dental"} if "dentist" in said else set()
    said |= {"physical"} if "physio" in said else set()
    named = [
        item
        for item in items
        if (words := _name_words(str(item.get("service") or ""))) and any(w in said for w in words)
    ]
    if not named or any(i.get("service") != named[0].get("service") for i in named):
        return ()
    if _SOONEST.search(text.lower()) or _BEFORE_NOW.search(text.lower()):
        return ()
    return tuple(i for i in named if i.get("status") in ("upcoming", "pending", "scheduled"))


_BEFORE_NOW = re.compile(r"\b(?:last|previous|most recent|latest)\b(?! (?:one|of them)\b)")


_OTHER = re.compile(r"\b(?:the|that) other (?:one|appointment|visit|booking|task|reminder)\b")


def _the_other(
    kind: Kind | None, items: Sequence[Item], focus: Item | None, text: str
) -> Item | None:
    """ "what's the other appointment I have?": the one listed that was not in focus."""
    if focus is None or kind not in ("appointment", "task") or not _OTHER.search(text.lower()):
        return None
    others = [i for i in items if i.get("id") != focus.get("id") and i.get("status") != "cancelled"]
    return others[0] if len(others) == 1 and len(others) < len(items) else None


_SOONEST = re.compile(r"\b(?:next|soon|soonest|first|coming up next|earliest)\b")


def _soonest(kind: Kind | None, items: Sequence[Item], text: str) -> Item | None:
    """ "do I have an appointment soon?": the soonest one is what is talked about."""
    if kind == "task" and _DUE_FIRST.search(text.lower()):
        # "what's due soonest": the pending task due first.
        dated = [i for i in items if i.get("due_on") and i.get("status") != "completed"]
        return min(dated, key=lambda i: str(i.get("due_on"))) if dated else None
    if kind != "appointment" or not items or not _SOONEST.search(text.lower()):
        return None
    ahead = [i for i in items if i.get("status") != "cancelled"]
    return ahead[0] if ahead else None


_DUE_FIRST = re.compile(r"\bdue (?:soonest|first|next|earliest)\b")


def focus_from_target(state: Dialogue | None, kind: Kind, item: Item) -> Dialogue:
    """The state with `item` in focus (a target named in a question or a confirmation)."""
    return dataclasses.replace(state or Dialogue(), focus_kind=kind, focus=item)
