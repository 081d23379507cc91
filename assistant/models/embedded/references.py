"""Requests that lean on the conversation: "push it back a week", "cancel that one",
"mark it done", "the second one", "actually make that 11 instead of 9".

Read against the dialogue state (assistant.dialogue): a pronoun or an elided target is
the item in focus, a position counts the items in the order they were spoken, and a
correction revises the last action. What is read here becomes ordinary intents with
the item pinned by id, so the planner's usual find-then-act path does the rest.
None means: nothing here leans on the conversation; read the message as it stands.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from assistant.dialogue_state import Action, Dialogue, Item, Kind
from assistant.language import Intent, detect_intents, slots
from assistant.language.appointment_rules import same_day_of_a_week
from assistant.language.clause import TASK_NOUN
from assistant.language.dates import find_when
from assistant.language.intent import TOOL_OF
from assistant.language.intents import clauses_of
from assistant.language.lexicon import BOOKING_VERBS, SERVICES
from assistant.language.not_asked import asked_if_you_did
from assistant.language.patterns import GatedPattern, rx
from assistant.language.shifts import bare_clock, find_shift, shifts_by_part, whole_days
from assistant.language.targets import TargetRef
from assistant.language.text import normalize
from assistant.models.embedded import move_or_cancel, which_kind
from assistant.models.embedded.advice_taken import advice_taken
from assistant.models.embedded.back_to import back_to_ask
from assistant.models.embedded.bare_time import hour_left_unsaid, move_agreed
from assistant.models.embedded.beside_in_view import beside_in_view
from assistant.models.embedded.by_time import by_clock, by_time
from assistant.models.embedded.call_asked import call_offer_taken
from assistant.models.embedded.cases import (
    ASK_WHAT_HAPPENED,
    accepts_offer,
    already_opened,
    case_asked,
    complaint_opened,
    describes_case,
    offered_case,
)
from assistant.models.embedded.corrections import (
    also,
    another_task,
    correction,
    held_and_another,
    retarget,
    task_from_before,
    undo_reply,
)
from assistant.models.embedded.cut_off import finished as cut_off_finished
from assistant.models.embedded.described import described_otherwise
from assistant.models.embedded.followup import (
    asked_about,
    booking_timed,
    day_ellipsis,
    held_booking_retimed,
    one_more_like,
    retimed,
    said_before,
    understand,
)
from assistant.models.embedded.kept import KeptByIdentity
from assistant.models.embedded.kept_instead import kept_instead
from assistant.models.embedded.new_items import asks_for_new, the_new_one
from assistant.models.embedded.ordinals import counted_in_made, made_in_conversation, ordinal_named
from assistant.models.embedded.pinning import (
    CANCEL_IT,
    KNOWN_SERVICES,
    POSITIONAL,
    PRONOUN,
    appointment_follow_up,
    as_pronoun,
    named_by_day,
    named_listed,
    names_other_service,
    pinned,
    positions_said,
    start_of,
    task_change,
    task_follow_up,
    the_other_named,
    weekday_one_as_visit,
    zone_of,
)
from assistant.models.embedded.said_before import (
    changed_number_retold,
    contact_put_back,
    current_one_named,
    detail_read_back,
    detail_said_after_read,
    held_email_swapped,
    held_number_ending,
    held_number_regrouped,
    held_number_retold,
    it_asked_about_before,
    new_contact,
    other_detail_after_change,
    other_detail_given,
    service_said_before,
    titled_from_case,
    titled_from_focus,
)
from assistant.models.embedded.same_again import a_week_on, move_again, same_again
from assistant.models.embedded.undo import undo
from assistant.models.embedded.unheard_places import agreed, named_by_place, unheard_place
from assistant.models.embedded.user_turns import last_users
from assistant.models.embedded.visit_then_when import another_of_the_asked
from assistant.models.embedded.which_answered import (
    in_week_named,
    named_in_answer,
    which_answered,
)
from assistant.resolve import Match, resolve_intent
from assistant.schema import Message, ToolResult, UserTurn

# "the next one" counts from the calendar, not the list; "next wednesday" is only a day.
_NEXT_ONE = rx(
    r"\bnext\b(?! (?:week|month|weekend|monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday|mon|tue|tues|wed|thu|thurs|fri|sat|sun)\b)"
)


def _by_position(state: Dialogue, text: str, now: datetime, zone: ZoneInfo) -> list[Intent] | None:
    """ "complete the second task", "task 2 is done": counted in the order last spoken."""
    positions = positions_said(text)
    if not positions or _NEXT_ONE.search(text):
        return None  # most messages count nothing: no listing need be looked at
    # (the to-dos in view were looked up, never read out: see below)
    unheard_tasks = state.listed_kind == "task" and not state.listed_heard
    if (made := _MADE_IN_ORDER.search(text)) is not None:
        # "move the first one I booked to 11": counted in what was booked (or added) in
        # the conversation, in the order made, not in the last listing.
        kind: Kind = "task" if made.group("v") == "added" else "appointment"
        made_items = _made(state, kind)
        if not made_items:
            return None
        state = dataclasses.replace(state, listed_kind=kind, listed=made_items)
    else:
        state = counted_in_made(state)
    if _KIND_NAMED.search(text) and state.listed_kind != "task" and state.last_listed_of("task"):
        # "mark the first task you mentioned as done" after the visits were read out since:
        # counted in the task listing before them.
        state = dataclasses.replace(state, listed_kind="task", listed=state.last_listed_of("task"))
    elif (
        (_VISIT_NAMED.search(text) or _AT_A_TIME.search(text))
        and state.listed_kind != "appointment"
        and state.last_listed_of("appointment")
    ):
        # "move the first appointment you told me about…" after the tasks were read out.
        listed = state.last_listed_of("appointment")
        state = dataclasses.replace(state, listed_kind="appointment", listed=listed)
    if made is None and unheard_tasks and state.listed_kind == "task":
        # the to-dos looked up to add one beside them ("add a to-do to call Dr. Smith") were
        # never read out: no place is counted in them (unheard_places.py asks)
        return None
    if made is None and (asked := _which_of_those_heard(state, text, positions, now, zone)):
        return asked
    if (
        made is None
        and (state.listed_kind not in ("task", "appointment") or len(state.listed) < 2)
        and state.earlier_listed_kind in ("task", "appointment")
        and len(state.earlier_listed) > 1
    ):
        # "push the second one to the 23rd" after the tasks were read out and the balance
        # told since: counted in the list heard before (never in some other listing).
        state = dataclasses.replace(
            state, listed_kind=state.earlier_listed_kind, listed=state.earlier_listed
        )
    if state.listed_kind not in ("task", "appointment") or len(state.listed) < 2 - bool(made):
        return None
    named = {"task"} if _KIND_NAMED.search(text) else set()
    named |= {"appointment"} if _VISIT_NAMED.search(text) or _AT_A_TIME.search(text) else set()
    if len(named) == 1 and state.listed_kind not in named:
        # "move the first appointment you told me about…" with only tasks read out: not
        # counted among them (was: a TASK's due day moved).
        return None
    if len(positions) > 1 and (each := _each_in_its_clause(state, text, now, zone)) is not None:
        return each
    items = []
    for index in positions:
        if -len(state.listed) <= index < len(state.listed):
            items.append(state.listed[index])
    if not items:
        return None
    kind = state.listed_kind
    intents: list[Intent] = []
    for item in items:
        found = (
            appointment_follow_up(text, item, now, zone, correcting=False)
            if kind == "appointment"
            else task_follow_up(as_pronoun(text), item, now)
        )
        if found is None and kind == "task":
            if re.search(r"\b(?:done|complete|completed|finished|tick)\b", text):
                found = [task_change("complete_task", item, {}, text)]
            elif re.search(r"\b(?:delete|remove)\b", text):
                found = [task_change("delete_task", item, {}, text)]
        if (
            found is None
            and kind == "task"
            and re.fullmatch(
                r"(?:and |also |then )*"
                r"(?:the )?\S+(?: \S+)?\s*(?:too)?\??",
                text,
            )
        ):
            # "and number 1": the same as was just done, to another one.
            again = {"crm.completeTask": "complete_task", "crm.deleteTask": "delete_task"}
            action = state.last_action
            if action is not None and action.tool in again:
                found = [task_change(again[action.tool], item, {}, text)]
        if found is None and kind == "appointment" and re.search(r"\bcancel\b", text):
            found = [Intent("cancel_appointment", target=pinned(item, "service"), clause=text)]
        if (
            found is None
            and kind == "appointment"
            and " one " in text
            and (last := state.last_action) is not None
            and last.tool == "crm.rescheduleAppointment"
            and (too := _ONE_MOVED_TOO.search(text)) is not None
        ):
            # "and the first one to thursday same time" just after a visit was moved: that
            # one moved too, the verb unsaid
            found = appointment_follow_up(
                f"move it {too.group('rest')}", item, now, zone, correcting=False
            )
        intents.extend(found or [])
    return intents or None


# "…the first one to thursday same time": the day (and hour) the one counted goes to.
_ONE_MOVED_TOO = rx(
    r"^(?:(?:and|also|then|now|ok|okay)\b\W*)*(?:the |that )?\w+ one (?P<rest>(?:to|for|on) .+)$"
)


_MADE_IN_ORDER = rx(
    r"\b(?:first|second|third|last) (?:one|appointment|visit|booking|task|reminder)?\s*"
    r"(?:that )?(?:i|you|we) (?:just )?(?P<v>booked|added|made)\b"
)
_MADE_BY = {"appointment": "crm.bookAppointment", "task": "crm.addTask"}


def _made(state: Dialogue, kind: Kind) -> tuple[Item, ...]:
    """The items booked (or added) in the conversation, oldest first, each as last seen."""
    return made_in_conversation(state, kind)


_KIND_NAMED = rx(r"\b(?:tasks?|to-?dos?)\b")
# "…move it to thursday same time", "…to friday at 3": a visit has a time, a to-do none.
_AT_A_TIME = rx(
    r"\b(?:same time|at \d{1,2}(?::\d\d)?(?: ?[ap]\.?m\.?)?|\d{1,2}(?::\d\d)? ?[ap]\.?m\b)"
)
_VISIT_NAMED = rx(r"\b(?:appointments?|visits?|bookings?)\b")
# Where one ask ends and the next begins: "move the first to friday and cancel the second".
_NEXT_ASK = rx(r",? (?:and then|and also|then|and|but|also)\b |, ")


def _each_in_its_clause(
    state: Dialogue, text: str, now: datetime, zone: ZoneInfo
) -> list[Intent] | None:
    """Positions said in asks of their own, each read with its own words: "move the first
    to friday at 11am and cancel the second" moves one and cancels the other (read whole,
    both were moved). None when a position comes without an ask ("cancel the first and
    the second"): the whole message is one ask of them all."""
    intents: list[Intent] = []
    for piece in _NEXT_ASK.split(text):
        if not positions_said(piece):
            continue
        if len(positions_said(piece)) > 1:
            return None
        found = _by_position(state, piece, now, zone)
        if not found and _OWN_SAYING.match(piece):
            continue  # "…, I'll see how the first goes": said of it, nothing asked of it
        if not found:
            return None
        intents.extend(found)
    return intents or None


# A clause of the customer's own about themselves ("I'll see how the first goes"): it asks
# nothing of the one it counts.
_OWN_SAYING = rx(r"^\W*(?:i|i'll|i will|i'd|i'm|we|we'll|let's|let me)\b")


_AGAIN = rx(r"\b(?:" + BOOKING_VERBS + r")(?: me)? (?:a new one|another one|another|one|a new)\b")


def _one_more_booked(
    state: Dialogue, text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "and another on thursday at the same time" just after a booking."""
    action = state.last_action
    if action is None or action.tool != "crm.bookAppointment":
        return None
    return one_more_like(action.after or action.arguments, text, now, timezone)


def _book_again(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "ok book a new one for tuesday at 3pm" after talking about the consultation."""
    item = state.focus_of("appointment")
    if item is None or not _AGAIN.search(text) or slots.service(text, text) in _KNOWN_NAMES:
        return None
    service = str(item.get("service") or "").lower()
    said = _AGAIN.sub(lambda m: m.group(0).rsplit(" ", 1)[0] + f" {service}", text, count=1)
    said = said.replace("a new " + service, "a " + service).replace(
        "another " + service, "a " + service
    )
    start = start_of(item, zone_of(timezone)) if "same" in said else None
    if start is not None:
        # "can you book another one on friday, same time?" after the haircut was read
        # out: its hour (was asked "What time on Friday works for you?")
        said = _SAME_TIME_SAID.sub(f"at {start:%H:%M}", said)
    intents = detect_intents(said, now, timezone)
    return [i for i in intents if i.kind == "book_appointment"] or None


_KNOWN_NAMES = frozenset(SERVICES.values())


_REBOOK = rx(
    rf"\b(?:rebook|re-book|reschedule|move|book|make|put|get)\b(?: me)?(?: in)?"
    rf"(?: {PRONOUN}| one| another(?: one)?| a new one| again)\b"
)


def _rebook(text: str, item: Item, now: datetime, timezone: str) -> list[Intent] | None:
    """ "rebook it for Monday at 1pm" about a cancelled visit: a new booking of that service."""
    if not _REBOOK.search(text) or names_other_service(text, item):
        return None
    service = str(item.get("service") or "").lower()
    said = _REBOOK.sub(f"book a {service}", text, count=1)
    start = start_of(item, zone_of(timezone)) if "same" in said else None
    if start is not None and start > now and _SAME_TIME_SAID.search(said):
        # "rebook it, same time": when it was booked for, still ahead
        said = _SAME_TIME_SAID.sub(f"on {start:%B} {start.day} {start.year} at {start:%H:%M}", said)
    intents = detect_intents(said, now, timezone)
    return [i for i in intents if i.kind == "book_appointment"] or None


# "I need to cancel": an appointment, which one to be asked once they are looked up.
# ("cancel" alone is a "stop", not a request.)
_BARE_CANCEL = rx(
    r"(?:(?:i|we) (?:need|want|would like|have) to |i'd like to |can i |can you |could you "
    r"|please )cancel(?: (?:something|an appointment|my appointment|a booking|my booking"
    r"|a visit|it|that))?(?: please)?[.!]?"
    r"|cancel (?:something|an appointment|my appointment|a booking|my booking|a visit)"
    r"(?: please)?[.!]?"
)


# A turn reads the same message against the same state in every planner round and in
# the narrator's scene; the reading is a pure function of the state, message, moment, zone.
_FOLLOW_UPS: KeptByIdentity[Dialogue, tuple[Intent, ...] | None] = KeptByIdentity(256)


# What a message says to describe the thing it means: "the/my … one", "the … task",
# "the one on thursday", "the one with no due date". Most follow-ups ("move it to 3") say
# none of it, and pay nothing for the check.
_DESCRIBED = rx(r"\b(?:the|my) (?:\w+ ){0,3}?(?:one|task|reminder|appointment|visit|booking)\b")


# A new to-do or visit asked for in so many words: a cheap test before the message is read.
_MAKES_NEW = rx(r"\b(?:remind me|add|book|(?:a|new|another) (?:task|reminder|to-?do))\b")
_NEW_KINDS = frozenset({"add_task", "book_appointment"})
_PRONOUN = rx(r"\b(?:it|that|this)\b")


def _new_one_of_its_own(
    found: Sequence[Intent], message: str, new: re.Match[str], now: datetime, timezone: str
) -> bool:
    """The message read alone asks for a new to-do or visit, whole, while what leaning on
    the conversation found changes another: "it", said only after the new one, is that one
    ("also remind me to stop the mail before I go, put it for tomorrow" is no new day for
    the task in view; "complete it instead. Also add …" completes the one in view)."""
    if any(intent.kind in _NEW_KINDS for intent in found):
        return False
    if _PRONOUN.search(message[: new.start()]) or not _PRONOUN.search(message[new.end() :]):
        return False
    # (of the same kind: "add a task to buy floss. Actually, keep the cleaning where it
    # was" puts the cleaning back)
    kinds = {"task" if intent.kind.endswith("_task") else "appointment" for intent in found}
    return any(
        intent.kind in _NEW_KINDS
        and not intent.missing
        and {"task" if intent.kind == "add_task" else "appointment"} == kinds
        for intent in detect_intents(message, now, timezone)
    )


def follow_up(state: Dialogue, message: str, now: datetime, timezone: str) -> list[Intent] | None:
    """Intents for a message that leans on the conversation, or None."""

    def work_out() -> tuple[Intent, ...] | None:
        if not state.held and asked_if_you_did(normalize(message).text):
            # "did you cancel it or not?", "did you mark it done?": whether it was done is
            # asked, answered from what was done (was: the change of "it" made, or held for
            # a yes, after a no to it or after another change of it). With a change held,
            # it is asked again, as before: not yet, and still waiting for the yes.
            return None
        found = _follow_up(state, message, now, timezone)
        if found is None or (
            _DESCRIBED.search(message) and described_otherwise(state, message, found, now, timezone)
        ):
            return None  # "the one on thursday, make it 1pm": that one, not the one in view
        if (new := _MAKES_NEW.search(message)) is not None and _new_one_of_its_own(
            found, message, new, now, timezone
        ):
            return None  # "remind me to stop the mail, put it for tomorrow": "it" is the new one
        return tuple(found)

    kept = _FOLLOW_UPS.get(state, (message, now, timezone), work_out)
    return None if kept is None else list(kept)


def _the_ask_before(conversation: Sequence[Message]) -> str | None:
    """The customer's message before the last one; finished, when it finished an ask cut off
    in the one before it ("can you move my" → "haircut to saturday": the move of the haircut,
    its hour left unsaid, which "at 10" then gives)."""
    users = last_users(conversation, 3)
    if users is not None and (joined := cut_off_finished(conversation[: users[-1]])) is not None:
        return joined
    return said_before(conversation)


def _as_answered(text: str, message: str) -> str:
    """The reply to "which one?" as said, when what is read of it kept only "the other one"
    (the one put right, said before it and cut by normalizing, tells which the other is)."""
    return message.lower() if "other" in text else text


# A change other than a cancel, said in reply to "which one should I cancel?".
_ANOTHER_CHANGE = rx(
    r"\b(?:move|push|reschedule|shift|bump|postpone|book|add|complete|mark|change|delete|remove"
    r"|keep|leave)\b"
)


def _follow_up(state: Dialogue, message: str, now: datetime, timezone: str) -> list[Intent] | None:
    zone = zone_of(timezone)
    now = now.astimezone(zone)
    text = normalize(message).text
    lowered = message.lower()
    if (new := the_new_one(state, text)) is not None:
        # "cancel the new one": the one just booked or added, as "it".
        state, text = new
    if isinstance(undone := undo(state, text), list):
        return undone  # "undo that": the last change, made the other way
    if state.question == "which_kind" and (chosen := which_kind.answered(state, text, now, zone)):
        return chosen  # "the haircut", to "Do you mean your haircut …, or the task …?"
    if (beside := beside_in_view(state, text, now, timezone)) is not None:
        # "move the one after that to friday": not the one in view ("…back an hour": from
        # its own time)
        return with_shifts(beside, text)
    if (each := _each_clause(state, text, now, timezone)) is not None:
        return each
    found = (
        new_contact(state, message, now, timezone)
        # ("the cleaning as well" adds to the question; "no, the cleaning" re-aims it)
        or held_and_another(state, text, now, timezone)
        or retarget(state, text, now, timezone)
        or a_week_on(state, text, now, timezone)
        or _one_more_booked(state, text, now, timezone)
        or _book_again(state, text, now, timezone)
        or correction(state, text, now, zone)
        or correction(state, lowered, now, zone)
        or same_again(state, text, now, timezone)
        or by_time(state, text, now, zone)
        or by_clock(state, text, now, zone)
        or _by_position(state, text, now, zone)
        or also(state, text, now)
        or another_task(state, text, now, timezone)
        or which_answered(state, _as_answered(text, message), now, zone)
    )
    if found is not None:
        return found
    if (agreed := move_agreed(state, message, now, zone)) is not None:
        return agreed  # "yes" to "should I move your consultation … to 3:00 PM?"
    if state.question == "which_priority" and (asked := state.focus_of("task")) is not None:
        # "normal is fine" to "should it be normal or low priority?"
        level = re.search(r"\b(normal|low|medium|high)\b", text)
        if level is not None:
            priority = "normal" if level.group(1) == "medium" else level.group(1)
            return [task_change("update_task", asked, {"priority": priority}, text)]
    if state.question == "which_cancel" and not _ANOTHER_CHANGE.search(text):
        # ("the cleaning, no wait, the other one": the other than the one said first; "move
        # the haircut to friday instead" is a change of its own, no answer naming the one to
        # cancel: it was held to cancel the haircut)
        meant = named_in_answer(state, "appointment", _as_answered(text, message))
        if meant is None and (week := in_week_named(state, text, now)):
            if len(week) > 1:
                # "the one this week" when both are: which is asked again
                return [Intent("cancel_appointment", target=TargetRef(phrase="it"), clause=text)]
            meant = week[0]
        if meant is not None:
            return [Intent("cancel_appointment", target=pinned(meant, "service"), clause=text)]
    # "…make the task friday": said of a task, so never a move of the visit in view.
    of_a_task = _TASK_NOUN.search(text) is not None
    by_day = None if of_a_task else named_by_day(state, text, zone)
    if by_day is not None:
        # "and the wednesday one an hour earlier": that visit, its day no new day; none
        # known on that day: not read here (never the one in view moved to it).
        appointment, text = by_day
        if appointment is None:
            return None
    else:
        appointment = (
            None
            if of_a_task
            else named_listed(state, "appointment", text) or state.focus_of("appointment")
        )
    earlier = task_from_before(state, text)
    task = named_listed(state, "task", text) or state.focus_of("task")
    if (
        state.focus_kind == "task"
        and task is not None
        and appointment is not None
        and appointment is not state.focus
        and not _AT_A_TIME.search(text)
        and named_listed(state, "appointment", text) is None
        and (found := task_follow_up(text, task, now)) is not None
    ):
        # "bring it forward to friday" just after a to-do was talked of: "it" is that
        # to-do, the one last in view, not a visit talked of before it.
        return _with_unheard(found, text, "the task", now, timezone)
    if earlier is not None and (found := task_follow_up(text, {"title": earlier.phrase}, now)):
        # "the task from before, give it…": that one, found by its words.
        return [dataclasses.replace(i, target=earlier) for i in found]
    visits_heard = () if of_a_task else _visits_heard(state)
    if appointment is None and (
        _BARE_CANCEL.fullmatch(text) or (CANCEL_IT.search(text) and visits_heard)
    ):
        # "cancel it" with nothing in focus: ask which (the resolver offers the list).
        return [Intent("cancel_appointment", target=TargetRef(phrase="it"), clause=text)]
    if appointment is None and visits_heard and (move := _MOVE_IT.search(text)):
        # "move it to monday" with several just listed: which one is asked, not guessed.
        # (the visits heard all of one service, "when's my haircut?" with two: which of
        # those is asked, not which of every visit)
        said = text[: move.start("p")] + _heard_as(visits_heard) + text[move.end("p") :]
        moves = [
            i for i in detect_intents(said, now, timezone) if i.kind == "reschedule_appointment"
        ]
        if moves and all("when" in i.missing for i in moves) and bare_clock(text, time(12)):
            # "move it to 11": the hour is said, the day is that one's own; which one is
            # asked first (its answer then moves it: which_answered).
            # (of one service heard, "my haircut": which of those two is asked)
            target = moves[0].target if " my appointment" not in said else None
            return [
                Intent(
                    "reschedule_appointment",
                    target=target or TargetRef(phrase="it"),
                    clause=text,
                )
            ]
        if moves:
            return moves
    if appointment is not None and appointment.get("status") == "cancelled":
        found = _rebook(text, appointment, now, timezone)
        if found is not None:
            return found
    elif appointment is not None and _task_named_only(state, text, by_day):
        # "back to the list, push the insurance one to the 25th" just after the cleaning
        # was asked about: a listed to-do named, never the visit in view moved (read whole
        # when the grammar reads a change of that to-do in it)
        if any(
            i.writes and i.kind in _TASK_KINDS and i.target is not None and not i.target.vague
            for i in detect_intents(text, now, timezone)
        ):
            return None
    elif appointment is not None:
        if _PROPOSED.match(text) is not None:
            # "how about thursday at 9" after the haircut was read out: a move of it
            text = _PROPOSED.sub("move it to ", text, count=1)
        found = appointment_follow_up(text, appointment, now, zone, correcting=False)
        if (
            found is not None
            and any(i.kind == "reschedule_appointment" for i in found)
            and by_day is None
            and _made_just_before(state, appointment)
            and _BARE_DAY.match(text)
        ):
            # "the day after that then" just after a haircut was booked and the cleaning
            # asked about: the new haircut's day, or the cleaning moved? Which is asked.
            return [Intent("reschedule_appointment", target=TargetRef(phrase="it"), clause=text)]
        if found is not None and _leans(text) and not asks_for_new(text, now, timezone):
            return _with_unheard(found, text, "my appointment", now, timezone)
    if task is not None:
        found = task_follow_up(text, task, now)
        if found is not None:
            return _with_unheard(found, text, "the task", now, timezone)
    return None


def _heard_as(visits: Sequence[Item]) -> str:
    """ "my haircut" for visits heard all of one service, else "my appointment"."""
    services = {str(item.get("service") or "") for item in visits}
    service = services.pop() if len(services) == 1 else ""
    return f"my {service.lower()}" if service and len(visits) > 1 else "my appointment"


def _visits_heard(state: Dialogue) -> tuple[Item, ...]:
    """The visits "move it" / "cancel it" may mean when none is in view: those just read
    out, or those read out before a listing that holds nothing to move or cancel (the
    balance: "what appointments do I have" → "what's my balance" → "ok move it to
    saturday" asks which, as it does straight after the list; was "I didn't catch")."""
    if listed := state.listed_of("appointment"):
        return listed
    if state.listed_kind == "task" or state.focus_of("task") is not None:
        return ()  # ("move it to friday" after the to-dos: not a visit's to guess)
    return state.last_listed_of("appointment")


# A day said alone, no verb and nothing named: "the day after that then", "thursday then".
_BARE_DAY = rx(
    r"^(?:(?:ok|okay|so|and|then|um|hmm|right|fine)\W+)*(?:(?:how|what) about |on )?"
    r"(?:(?:the )?(?:day|night) (?:after|before)(?: (?:that|it))?"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)(?:\W+(?:then|instead))?\W*$"
)


_TASK_KINDS = frozenset({"update_task", "complete_task", "delete_task"})


def _task_named_only(state: Dialogue, text: str, by_day: object) -> bool:
    """Whether the message names a listed to-do and no visit (by the list, a service or a
    day)."""
    return (
        by_day is None
        and named_listed(state, "task", text) is not None
        and named_listed(state, "appointment", text) is None
        and slots.service(text, text) is None
    )


def _made_just_before(state: Dialogue, appointment: Item) -> bool:
    """Whether a visit other than `appointment` was booked or moved a turn or two ago."""
    action = state.last_appointment_action
    item = (action.after or action.before) if action is not None else None
    return (
        action is not None
        and item is not None
        and action.tool in ("crm.bookAppointment", "crm.rescheduleAppointment")
        and item.get("id") != appointment.get("id")
        and state.since_change <= 1
    )


def _with_unheard(
    found: list[Intent], text: str, thing: str, now: datetime, timezone: str
) -> list[Intent]:
    """A follow-up read whole ("ok move it to friday at 2pm and sort the card thing out")
    with the asks no rule read in it kept, as the grammar finds them with "it" named.
    Only a message with a joiner in it is read again."""
    if " and " not in text and ", " not in text:
        return found
    it = _POINTS_BACK.search(text)
    if it is None:
        return found
    named = f"{text[: it.start()]}{thing}{text[it.end() :]}"
    parts: list[str] = []
    for intent in detect_intents(named, now, timezone):
        parts += [words for words in intent.unheard if words not in parts]
    if not parts:
        return found
    return [dataclasses.replace(intent, unheard=tuple(parts)) for intent in found]


def _each_clause(state: Dialogue, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "move that one to the 25th and the groceries one to thursday": "that one" is the
    task in view, the groceries one is another, each changed as its own clause says (read
    whole, the task the message names took both changes' places). Only for a message
    whose first clause points back and a later one names a task listed."""
    if not _POINTS_BACK.search(text):
        return None
    clauses = clauses_of(text)
    if len(clauses) < 2 or not _POINTS_BACK.search(clauses[0]):
        return None
    if named_listed(state, "task", clauses[0]) is not None or not any(
        named_listed(state, "task", clause) is not None or _A_TASK_NAMED.search(clause)
        for clause in clauses[1:]
    ):
        return None
    found: list[Intent] = []
    verb = _VERB_FIRST.match(clauses[0])
    for number, clause in enumerate(clauses):
        if number and verb is not None and not _VERB_FIRST.match(clause):
            # "…. And the groceries one to thursday": the same order, its verb unsaid.
            clause = f"{verb.group('verb')} {_AND.sub('', clause)}"
        read = _follow_up(state, clause, now, timezone) or [
            # "…, and mark the eye exam one done": a task named by its own words.
            i
            for i in detect_intents(_ONE.sub("task", clause), now, timezone)
            if i.writes and i.target is not None and not i.target.vague
        ]
        if not read:
            return None  # read whole, as before ("…cross that off. And the eye exam one too")
        found += read
    return found or None


_POINTS_BACK = rx(rf"\b{PRONOUN}\b")
_VERB_FIRST = rx(
    r"(?:(?:and|then|also|please|ok|okay|now)\b[ ,]*)*(?P<verb>move|push|postpone|shift|set"
    r"|make|change|mark|tick|complete|delete|remove|cancel|reschedule|bring)\b"
)
_AND = rx(r"^(?:and|then|also)\b[ ,]*")
_A_TASK_NAMED = rx(
    # (not a day or a part of one: "cancel the one on friday, actually no, cancel the monday
    # one" names visits by their days, and read as tasks "cancel the task on friday" deleted)
    r"\b(?:the|my) (?!(?:first|second|third|last|other|same|new|next|earlier|later|early|late"
    r"|morning|afternoon|evening|today|tomorrow|tonight|weekend"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b)[a-z]+(?: [a-z]+)?"
    r" (?:one|task)\b"
)
_ONE = rx(r"\bone\b")
_TASK_NOUN = rx(r"\b(?:task|tasks|reminder|to-?do|to do list)\b")
_MOVE_IT = rx(rf"\b(?:move|push|reschedule|shift|bring|change|postpone|bump) (?P<p>{PRONOUN})\b")


# Words that show a message leans on what came before rather than standing alone.
# "how about thursday at 9", "what about friday": another time proposed, nothing else said.
_PROPOSED = rx(
    r"^(?:(?:ok|okay|so|hmm|well|and)\W+)*(?:how|what) about (?=(?:on |next |this )?"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)"
)
_LEANS = rx(
    # "could we do saturday at 10" after one visit was read out: that one, at that time
    r"^(?:(?:ok|okay|so|hmm|well|and)\W+)*(?:could|can|shall) we (?:do|make it|go for)\b|"
    rf"\b{PRONOUN}\b|\b(?:the|that|this|my) (?:appointment|visit|booking)\b|\bsame time\b"
    r"|\binstead\b|\blater\b|\bearlier\b|\bsooner\b|\bday after\b"
    r"|\bday before\b|\bfollowing\b|\bback\b|\bforward\b|^(?:and |so |ok |okay )?(?:at |to )?\d"
)


def _leans(text: str) -> bool:
    return bool(_LEANS.search(text))


_ONLY_SAME = rx(r"(?:(?:the |and |at )?same (?:day|time|weekday|hour)\s*,?\s*)+")


def with_shifts(intents: list[Intent], message: str) -> list[Intent]:
    """ "Move the haircut an hour earlier": a move said relative to its own time."""
    # The message is read for a shift only when a move lacks its time (most lack none).
    if not any(_lacks_when(intent) for intent in intents):
        return intents
    if "same" in message and "week" in message:
        # "to the week after next, same day same time": its own weekday in that week (the
        # week and "same day" said in clauses of their own)
        intents = [
            dataclasses.replace(intent, missing=(), clause=message)
            if _lacks_when(intent) and intent.when and same_day_of_a_week(intent.when, message)
            else intent
            for intent in intents
            # (", same day same time" read as a move of its own, of nothing named)
            if not (intent.target and _ONLY_SAME.fullmatch(intent.target.phrase.lower()))
        ]
    shift = find_shift(message)
    if shift is None:
        return intents
    if (parts := shifts_by_part(message)) is not None:
        return [_own_shift(intent, parts) if _lacks_when(intent) else intent for intent in intents]
    return [
        dataclasses.replace(intent, shift=shift, missing=(), target=_without_shift(intent.target))
        if _lacks_when(intent)
        else intent
        for intent in intents
    ]


def _own_shift(intent: Intent, parts: list[tuple[str, timedelta]]) -> Intent:
    """ "The cleaning an hour earlier and the haircut an hour later": each move takes the
    shift said in the part that names it; a move no part names keeps its time asked."""
    target = _without_shift(intent.target)
    words = [w for w in (target.words if target else ()) if len(w) > 2]
    own = [
        shift for part, shift in parts if words and all(re.search(rf"\b{w}", part) for w in words)
    ]
    if len(own) != 1:
        return intent
    return dataclasses.replace(intent, shift=own[0], missing=(), target=target)


def _lacks_when(intent: Intent) -> bool:
    return intent.kind == "reschedule_appointment" and intent.missing == ("when",)


# Words of "earlier by half an hour" that describe the move, not the appointment.
_SHIFT_WORDS = frozenset(
    {
        "earlier",
        "later",
        "sooner",
        "back",
        "forward",
        "ahead",
        "half",
        "hour",
        "hours",
        "minute",
        "minutes",
        "mins",
        "day",
        "days",
        "week",
        "weeks",
        "fortnight",
        "by",
        "an",
    }
)


# "back two days", "a couple of weeks later": the amount of the move, no word of a name.
_AMOUNT = rx(
    r"\b(?P<n>two|three|four|five|six|seven|eight|nine|ten|couple|few)(?: of)?"
    r" (?:days?|weeks?|hours?|minutes?|mins)\b"
)


def _without_shift(target: TargetRef | None) -> TargetRef | None:
    if target is None:
        return None
    amounts = {m.group("n") for m in _AMOUNT.finditer(target.phrase.lower())}
    words = tuple(w for w in target.words if w not in _SHIFT_WORDS and w not in amounts)
    return dataclasses.replace(target, words=words)


_APPOINTMENT_WORDS = frozenset(
    {"appointment", "appointments", "visit", "booking", "session", "dentist", "dental", "hair"}
)


def may_be_a_task(intent: Intent) -> bool:
    """A move of something that names no service: it may be a task's due date; so may
    one that names a service, said as put off ("the eye exam one can wait till friday"),
    when no such visit is booked (the visit is looked for first)."""
    target = intent.target
    if intent.kind != "reschedule_appointment" or target is None or not target.words:
        return False
    dated = intent.when is not None and intent.when.day is not None
    if not (dated or whole_days(intent.shift)) or target.item_id:
        return False
    words = set(target.words)
    if words & _PLACE_NOUNS and _AT_A_PLACE.search(target.phrase):
        return False  # "the one at the valencia street place": a visit, told by where it is
    # ("both my appointments a week later": the kind said, though not kept as a word)
    if words & _APPOINTMENT_WORDS or _APPOINTMENT_WORDS.intersection(target.phrase.split()):
        # "reschedule my car insurance appointment to friday": a to-do named as a visit,
        # when no visit is so named (the visits are looked for first)
        rest = words - _APPOINTMENT_WORDS - _VISIT_NOUNS
        return bool(rest) and not words & _NAMES_A_VISIT and not any(w in SERVICES for w in rest)
    return not any(w in SERVICES for w in words) or put_off(intent)


# "both", "them all", "those": the ones just read out; with only the words of a shift beside
_OF_THOSE = frozenset({"both", "them", "all", "those", "these", "each"})
_OF_A_SHIFT = frozenset(
    {"a", "an", "of", "by", "back", "forward", "out", "up", "later", "earlier", "on", "off"}
    | {"day", "days", "week", "weeks", "month", "fortnight", "one", "two", "three", "hour"}
    | {"hours"}
)


def of_the_visits_in_view(intent: Intent, state: Dialogue) -> bool:
    """ "move both a week later" just after the visits were read out: those visits only, so
    the to-dos are not looked up for it as well (they were, and read out before the move)."""
    if state.listed_kind != "appointment" or intent.target is None:
        return False
    words = set(intent.target.words)
    return bool(words & _OF_THOSE) and words <= _OF_THOSE | _OF_A_SHIFT


# Where a visit is ("the one at the valencia street place", "the one on market street"):
# a to-do is nowhere.
_PLACE_NOUNS = frozenset(
    {"street", "st", "avenue", "ave", "road", "rd", "place", "clinic", "office", "salon"}
)
_AT_A_PLACE = rx(
    r"\b(?:at|on|in) (?:the )?(?:[a-z0-9]+ ){0,3}(?:street|st|avenue|ave|road|rd|place|clinic"
    r"|office|salon)\b"
)

# Words of a visit's own ("my usual appointment", "the next booking"): no to-do named.
_VISIT_NOUNS = frozenset({"usual", "next", "last", "first", "other", "new", "upcoming", "both"})
_NAMES_A_VISIT = frozenset({"dentist", "dental", "hair"})


# "… can wait till", "… can be pushed back to": put off, as a to-do is as well as a visit.
_PUT_OFF = rx(
    r"\b(?:can|could|will have to|has to|can just) (?:wait|be (?:pushed|moved|put off"
    r"|postponed|bumped|shifted))\b"
)


def put_off(intent: Intent) -> bool:
    """The move is said as something put off (a cheap word test first)."""
    clause = intent.clause
    return ("wait" in clause or " be " in clause) and _PUT_OFF.search(clause) is not None


def let_go_of_a_task(intent: Intent) -> bool:
    """A cancel of a visit named by its service alone ("the eye exam is no longer needed"),
    which may be a to-do's ("Schedule eye exam") when no such visit is booked."""
    target = intent.target
    return (
        intent.kind == "cancel_appointment"
        and target is not None
        and bool(target.words)
        and target.item_id is None
        and target.day is None
        and target.weekday is None
        and target.clock is None
        and target.within is None
    )


def visit_let_go(intent: Intent, now: datetime, timezone: str) -> Intent | None:
    """ "delete the haircut", no to-do named so: the visit named by its service, whose
    cancel is asked for (held for a yes, as any cancel). None when the words name no
    service ("the dry cleaning") or say a to-do ("the haircut task")."""
    target = intent.target
    if intent.kind != "delete_task" or target is None or target.item_id is not None:
        return None
    phrase = target.phrase
    if not target.words or TASK_NOUN.search(phrase) or slots.service(phrase, phrase) is None:
        return None
    found = detect_intents(f"cancel {phrase}", now, timezone)
    if [i.kind for i in found] != ["cancel_appointment"]:
        return None
    return dataclasses.replace(found[0], clause=intent.clause)


def booked_visit_named(intent: Intent, results: Sequence[ToolResult], timezone: str) -> bool:
    """Whether a service named by a move said as put off is a visit listed this turn."""
    target = intent.target
    if target is None or not any(w in SERVICES for w in target.words) or not put_off(intent):
        return False
    return isinstance(resolve_intent(intent, results, timezone), Match)


def due_in_a_stretch(intent: Intent) -> bool:
    """ "move the groceries to the weekend": a move of something that names no service, to
    a stretch of days (asked about for a visit, whose day must be said); a task named so
    is due on its first day."""
    return (
        intent.missing == ("when",)
        and intent.when is not None
        and intent.when.vague_day
        and may_be_a_task(intent)
    )


def as_task_due(intent: Intent) -> Intent:
    """The move read as a new due date for the task it names (`may_be_a_task` holds)."""
    if intent.when is None or intent.when.day is None:
        if whole_days(intent.shift):
            # "push groceries back a day": the due date moves by that much (resolve.py).
            return Intent(
                "update_task", target=intent.target, clause=intent.clause, shift=intent.shift
            )
        return intent
    return Intent(
        "update_task",
        {"due_on": intent.when.day.isoformat()},
        target=intent.target,
        clause=intent.clause,
    )


def read_intents(
    conversation: Sequence[Message],
    message: str,
    now: datetime,
    timezone: str,
    state: Dialogue,
    results: Sequence[ToolResult] = (),
) -> list[Intent]:
    """What the message asks, read the same way by the planner and the narrator."""
    # The planner and the narrator read the same message against the same state and the
    # same conversation so far (the narrator's goes on with this turn's results, which no
    # reading looks at): it is read once a turn. Kept with the conversation it was read
    # in, which a later ask must match message for message.
    last = _last_user(conversation)
    told = tuple(conversation[: last + 1])
    key = (message, now.timestamp(), timezone, last, id(conversation[last]) if told else 0)
    kept = _READINGS.get(
        state, key, lambda: (told, tuple(_read(conversation, message, now, timezone, state)))
    )
    if kept[0] != told:
        kept = (told, tuple(_read(conversation, message, now, timezone, state)))
    updated = any(r.ok and r.call.tool_name == "crm.updateTask" for r in results)
    # "what's due this week and mark the first one done": a place counted in the list this
    # very message reads out, as it is spoken (was: which one asked, with the list told).
    listed_now = any(i.kind == "tasks" for i in kept[1])
    return [
        _case_of_the_bill(
            state,
            unheard_place(
                state,
                _unlisted(
                    state,
                    _named_visit(as_task_due(i) if updated and may_be_a_task(i) else i),
                    listed_now,
                ),
                listed_now,
                told,
            ),
        )
        for i in kept[1]
    ]


# "… asking for an itemised copy of it": the case's words end on what they are about.
_ENDS_ON_IT = re.compile(r"\b(?:of|about|for|on|with) (?:it|that|this|them)\W*$")


def _case_of_the_bill(state: Dialogue, intent: Intent) -> Intent:
    """A case whose words end on "it" with one bill in view: the bill said in its words
    (was: "Asking for an itemised copy of it", which told the team nothing)."""
    body = intent.arguments.get("body") if intent.kind == "create_ticket" else None
    if not isinstance(body, str) or not _ENDS_ON_IT.search(body):
        return intent
    bills = state.last_listed_of("invoice")
    if len(bills) != 1 or (state.listed_kind or state.focus_kind) != "invoice":
        return intent
    bill = bills[0]
    cents = bill.get("amount_cents")
    amount = f"${cents / 100:,.2f} " if isinstance(cents, int) else ""
    about = f"the {amount}{str(bill.get('description') or '').lower()} invoice".replace("  ", " ")
    said = _ENDS_ON_IT.sub(lambda m: m.group(0).split()[0] + " " + about, body.rstrip(" .!"))
    return dataclasses.replace(intent, arguments={**intent.arguments, "body": said})


# "the second one", "the first you listed": a place in a list heard, of no kind named.
_ONE_OF_A_LIST = re.compile(r"\b(?:one|you (?:listed|mentioned|told me about|read out|said))\b")


def _unlisted(state: Dialogue, intent: Intent, listed_now: bool = False) -> Intent:
    """ "push the second one to the 9th" with nothing listed here: no place is counted
    in a list this conversation never read out (was: the second visit on the calendar
    MOVED, where a platform's history held a task list another instance read out); which
    one is asked instead."""
    target = intent.target
    if target is None or target.position is None:
        return intent
    if (heard := _in_the_list_heard(state, intent, target.position, target.phrase)) is not None:
        # Counted in the list heard, not on the calendar: of a list cut after one visit,
        # "cancel the last one" is that visit (was: the haircut never heard, asked about).
        label = "title" if state.listed_kind == "task" else "service"
        return dataclasses.replace(intent, target=pinned(heard, label))
    if listed_now and intent.kind in ("complete_task", "delete_task", "update_task"):
        return intent  # counted in the to-dos this message reads out
    if named_by_place(intent):
        return intent  # the one there named, and asked (unheard_places.py)
    if (
        state.listed_kind is not None
        or state.earlier_listed_kind is not None
        or state.listings
        or not _ONE_OF_A_LIST.search(target.phrase)
        # "my last one", "my first appointment": the customer's own, counted on the calendar
        or target.phrase.startswith("my ")
        or _VISIT_NAMED.search(target.phrase)
        or _KIND_NAMED.search(target.phrase)
    ):
        return intent
    return dataclasses.replace(intent, target=dataclasses.replace(target, position=None))


_MY_NTH = re.compile(r"\bmy (?:first|second|third|fourth|fifth|last)\b")


def _which_of_those_heard(
    state: Dialogue, text: str, positions: list[int], now: datetime, zone: ZoneInfo
) -> list[Intent] | None:
    """ "move the second one to friday" when the caller heard one visit of the list (a
    barge-in cut it, assistant/heard_state.py): no place is counted past the items heard;
    the ask is read as of "my appointment" (or "my task"), so which one is asked."""
    kind = state.listed_kind
    if kind not in ("task", "appointment") or all(
        -len(state.listed) <= index < len(state.listed) for index in positions
    ):
        return None
    if _MY_NTH.search(text) or (
        _VISIT_NAMED.search(text) if kind == "task" else _KIND_NAMED.search(text)
    ):
        return None  # "my first appointment" is counted on the calendar; another kind named
    return detect_intents(POSITIONAL.sub(f"my {kind}", text), now, zone.key) or None


def _of_the_list_heard(state: Dialogue, intent: Intent, phrase: str) -> bool:
    """Whether a place said in `phrase` counts in the list last heard (of the intent's
    kind; "my first appointment" is the customer's own, counted on the calendar)."""
    tool = intent.tool if intent.kind in TOOL_OF else ""
    kind = "task" if "Task" in tool else "appointment" if "Appointment" in tool else None
    return kind is not None and state.listed_kind == kind and not phrase.startswith("my ")


def _in_the_list_heard(state: Dialogue, intent: Intent, position: int, phrase: str) -> Item | None:
    """The one item heard of a list cut after it, at the place said (a list of two or
    more is counted by `_by_position` before any grammar reads the message)."""
    if len(state.listed) != 1 or not _of_the_list_heard(state, intent, phrase):
        return None
    return state.listed[0] if position in (1, -1) else None


_READINGS: KeptByIdentity[Dialogue, tuple[tuple[Message, ...], tuple[Intent, ...]]] = (
    KeptByIdentity(64)
)


# "(and) remind me about it on friday", "remind me of that tomorrow", "remind me on friday":
# said right after a to-do was added, the day it is due.
_REMIND_ABOUT_IT = rx(
    r"^(?:(?:and|oh|also|please|ok|okay|so)[ ,]+)*(?:can you |could you )?remind me"
    r"(?: (?:about|of) (?:it|that|this))?(?P<w> (?:on|by|this|next|tomorrow|monday|tuesday"
    r"|wednesday|thursday|friday|saturday|sunday|the|in)\b.*)$"
)


# A day said alone: "tmrw", "for friday", "by the 23rd", "make it thursday".
_A_DAY_ALONE = rx(
    r"^(?:(?:and|oh|ok|okay|also|make it|it's|its|due|for|on|by)\b\W*)*"
    r"(?P<d>(?:next |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow"
    r"|the \d{1,2}(?:st|nd|rd|th)?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r" \d{1,2}(?:st|nd|rd|th)?)(?:\W+(?:please|thanks|thank you))?\W*$"
)


def _day_for_the_one_just_added(state: Dialogue, message: str) -> str | None:
    """ "add task call dentist" (added with no day) → "tmrw": the day it is due, said
    alone right after (it asked what was wanted on Tuesday)."""
    action = state.last_action
    if action is None or action.tool != "crm.addTask" or state.held:
        return None
    if action.arguments.get("due_on") or (action.after or {}).get("due_on"):
        return None  # it has its day: another one said alone is no change of it
    said = _A_DAY_ALONE.match(normalize(message).text)
    return said.group("d") if said is not None else None


def _due_of_the_one_just_added(state: Dialogue, message: str) -> str | None:
    """ "make it due on friday", for a reminder about the to-do just added (it asked what
    the task should say, or was added as a task titled "It")."""
    if state.last_action is None or state.last_action.tool != "crm.addTask":
        return None
    said = _REMIND_ABOUT_IT.match(message.lower().strip(" .!"))
    if said is None or " to " in f"{said.group('w')} ":
        return None  # "remind me on friday to call mum": a to-do of its own
    return f"make it due{said.group('w')}"


def _reminder_before_its_day(
    state: Dialogue, due: str, message: str, now: datetime
) -> list[Intent] | None:
    """ "add a task to return the books by thursday" … "and remind me wednesday": the day
    it is due stays (a task keeps one day); the reminder's, before it, goes in its note, as
    the one message keeps it."""
    action, said = state.last_action, find_when(due, now)
    added = str(action.arguments.get("due_on") or "") if action else ""
    if action is None or action.after is None or said is None or said.day is None or not added:
        return None
    if said.day.isoformat() >= added:
        return None  # on the day it is due or after: the day it is due is what is said
    earlier = action.after.get("description") or action.arguments.get("description")
    note = slots.reminder_note(said.day.isoformat())
    if isinstance(earlier, str) and earlier.strip() and slots.noted_reminder(earlier) is None:
        note = f"{note}\n{earlier}"[:2000]
    return [task_change("update_task", action.after, {"description": note}, message)]


def _last_user(conversation: Sequence[Message]) -> int:
    """Where the customer's last message is (-1: none): what a reading may look up to."""
    for index in range(len(conversation) - 1, -1, -1):
        if isinstance(conversation[index], UserTurn):
            return index
    return -1


def _read(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str, state: Dialogue
) -> list[Intent]:
    message = ordinal_named(
        state,
        the_other_named(
            state, weekday_one_as_visit(state, move_or_cancel.answered(conversation, message))
        ),
    )
    if "remind me" in message.lower() and (due := _due_of_the_one_just_added(state, message)):
        if noted := _reminder_before_its_day(state, due, message, now):
            return noted
        message = due
    elif (day := _day_for_the_one_just_added(state, message)) is not None:
        message = f"make it due {day}"  # "add task call dentist" → "tmrw"
    if "crm.bookAppointment" in state.held and (
        rebooked := held_booking_retimed(conversation, message, now, timezone)
    ):
        return rebooked
    if "crm.updateContactInfo" in state.held and (
        renumbered := held_number_ending(conversation, message, now, timezone)
    ):
        return renumbered
    if "crm.updateContactInfo" in state.held and (
        regrouped := held_number_regrouped(conversation, message, now, timezone)
    ):
        return regrouped
    if "crm.updateContactInfo" in state.held and (
        readdressed := held_email_swapped(conversation, message, now, timezone)
    ):
        return readdressed
    if "crm.updateContactInfo" in state.held and (
        retold := held_number_retold(conversation, message, now, timezone)
    ):
        return retold
    if state.done and (
        contact := contact_put_back(state, conversation, message, now, timezone)
        or changed_number_retold(state, conversation, message, now, timezone)
    ):
        return contact
    if (anew := detail_said_after_read(conversation, message, now, timezone)) is not None:
        return anew
    if (kept := kept_instead(state, message)) is not None:
        return kept  # "…You also still have a dental cleaning on…" → "move the one I have"
    if not state.held and (told := agreed(conversation, message, now, timezone)):
        return told  # "…Would you like me to mark Buy groceries as done?" → "yes"
    if not state.held and (taken := call_offer_taken(conversation, message, now, timezone)):
        return taken  # "I can't place phone calls. Would you like me to add a task…?" → "yes"
    message = current_one_named(conversation, message, state)
    message = _the_day_in_view(state, message, now, timezone)
    if (
        not state.held
        and state.question is None
        and (decided := advice_taken(conversation, message, now, timezone))
    ):
        return decided  # "should I move my haircut to saturday?" → "yeah go on then"
    pinned = (
        another_of_the_asked(conversation, message, now, timezone)
        or booking_timed(conversation, message, now, timezone)
        or other_detail_after_change(conversation, message)
        or other_detail_given(conversation, message, now, timezone)
        or detail_read_back(conversation, message, now, timezone)
        or move_again(conversation, state, message, now, timezone)
        or back_to_ask(conversation, message, now, timezone)
        or follow_up(state, message, now, timezone)
        or _time_for_the_one_in_focus(conversation, message, now, timezone, state)
        or hour_left_unsaid(state, _the_ask_before(conversation), message, now, zone_of(timezone))
    )
    if pinned is not None:
        if _SENTENCE_BREAK.search(message) and any(
            _SENTENCE_BREAK.search(i.clause) for i in pinned
        ):
            # "bump the groceries one up to high. And give it a due date of friday": one
            # reading took both sentences as one ask; each is its own, read in turn.
            return _sentence_by_sentence(conversation, message, now, timezone, state) or pinned
        if len(pinned) == 1 and " and " in message and _AND_A_VERB.search(pinned[0].clause):
            # The same said with no pause: "…up to high and give it a due date of friday".
            apart = _sentence_by_sentence(conversation, message, now, timezone, state, _AND_A_VERB)
            if apart is not None and _asks_more(apart, pinned[0]):
                return apart  # (read whole, one of the two changes was lost)
        return pinned
    intents = with_shifts(understand(conversation, message, now, timezone), message)
    if (
        not intents
        and state.question in _WHICH_ASKED
        and (_SENTENCE_BREAK.search(message) or _AND_THE_NEXT.search(message))
    ):
        # "the landlord one. And the plants one sunday" to "which task?": the one asked
        # about, then the next named with its own change, each in its turn.
        parts = _sentence_by_sentence(conversation, message, now, timezone, state, _PARTS)
        if parts is not None:
            return parts
    if _SENTENCE_BREAK.search(message) and (
        any(i.unheard for i in intents)
        or _one_ask_of_two_sentences(intents, message)
        or _a_sentence_unread(conversation, intents, message, now, timezone)
    ):
        # "no actually, move it to saturday at the same time. And add a task…", "book a
        # haircut on friday at 10. And same as before for the week after": a sentence read
        # whole as not understood, or as words of the ask before, read in its turn.
        parts = _sentence_by_sentence(conversation, message, now, timezone, state)
        if parts is not None and len(parts) > len(intents) and not any(i.unheard for i in parts):
            return parts
    intents = _on_the_same_day(intents, conversation, message, state, now, timezone)
    intents = _on_the_day_asked(intents, conversation, message, state, now, timezone)
    intents = _same_time_is_a_move(intents, now, timezone)
    intents = _the_same_service(intents, state, now, timezone)
    intents = _at_the_same_time(intents, message, state, now, timezone)
    intents = [_hour_said(i, now, timezone) for i in intents]
    if not intents and (other_day := day_ellipsis(conversation, message, now, timezone)):
        intents = other_day
    intents = service_said_before(conversation, message, intents, now, timezone)
    intents = it_asked_about_before(conversation, message, intents, now, timezone)
    intents = [titled_from_focus(i, state) if i.kind == "add_task" else i for i in intents]
    if len(intents) > 1 and any(w in message for w in ("other", "remaining", "rest")):
        intents = _the_other_visit(_the_others_said(intents))
    if len(intents) > 1 and any(w in message for w in ("done", "finished", "sorted")):
        intents = _done_too(intents, now, timezone)
    if len(intents) > 1 and intents[0].kind == "create_ticket":
        # "open a case about …. And a to-do to chase that up": that case, by its subject.
        case = dict(intents[0].arguments)
        intents = [titled_from_case(i, case) if i.kind == "add_task" else i for i in intents]
    return intents


# "…. The remaining two as well", "…. Both of the others too", "…and the rest": every other.
_THE_OTHERS_SAID = rx(
    r"^(?:(?:and|oh|also|then|plus)\b\W*)*(?:both (?:of )?)?(?:the (?:other|remaining)"
    r"(?: (?P<n>two|three|ones))?|the others|the rest)(?: of them)?"
    r"(?: (?:as well|too|also|please|done|are done|as done))*\W*$"
)


def _the_others_said(intents: list[Intent]) -> list[Intent]:
    """ "check off the car insurance task. The remaining two as well": a change made to one
    task named, then "the others": every other task (which two is asked when more are
    left than said)."""
    found: list[Intent] = []
    for intent in intents:
        before = found[-1] if found else None
        others = _THE_OTHERS_SAID.match(intent.clause)
        if (
            others is not None
            and before is not None
            and before.kind == intent.kind == "complete_task"
            and before.target is not None
            and not before.target.vague
        ):
            phrase = "both of them" if others.group("n") == "two" else "all of them"
            every = TargetRef(phrase=phrase, words=(), excluded=before.target)
            intent = dataclasses.replace(intent, target=every)
        found.append(intent)
    return found


# "…. Do the same with my other appointment", "…. And my other booking as well": said after
# a change of one visit, in the same message.
_THE_OTHER_VISIT = rx(
    r"^(?:(?:and|oh|also|then|plus|please|can you|could you)\b\W*)*"
    r"(?:(?:do )?(?:the same|that|it|same)(?: again| thing)? (?:for|with|to) )?"
    # ("the other haircut": "the haircut one …, and the other one" as the grammar carries
    # the noun said before; that one's own word, checked below)
    r"(?:my|the) other (?:appointment|booking|visit|one|(?P<noun>[a-z]+))"
    r"(?: (?:as well|too|also|please))*\W*$"
)


def _the_other_visit(intents: list[Intent]) -> list[Intent]:
    """ "push my haircut an hour later. Do the same with my other appointment": the change
    made to the visit named, made to the other one (the one not named; which is asked when
    more than one is left). A move to a time said outright is not carried (both at one
    hour is rarely meant): read as it was."""
    found: list[Intent] = []
    for intent in intents:
        before = found[-1] if found else None
        said = _THE_OTHER_VISIT.match(intent.clause) if before is not None else None
        if (
            before is not None
            and said is not None
            and before.target is not None
            and not before.target.vague
            and (said.group("noun") is None or said.group("noun") in before.target.words)
            and (
                before.kind == "cancel_appointment"
                or (before.kind == "reschedule_appointment" and before.shift is not None)
                # "…to monday same time. And the other one too": that day, its own hour
                or (
                    before.kind == "reschedule_appointment"
                    and before.when is not None
                    and before.when.day is not None
                    and before.when.clock is None
                    and not before.arguments
                )
            )
        ):
            other = TargetRef(phrase="your other appointment", words=(), excluded=before.target)
            intent = dataclasses.replace(before, target=other, clause=intent.clause)
        found.append(intent)
    return found


def _asks_more(parts: list[Intent], whole: Intent) -> bool:
    """The parts ask for a change the whole reading does not make."""
    said = {(i.kind, key) for i in parts for key in (i.arguments or {"": None})}
    return not said <= {(whole.kind, key) for key in (whole.arguments or {"": None})}


def _one_ask_of_two_sentences(intents: list[Intent], message: str) -> bool:
    """One ask read whose words run on into the next sentence of the message."""
    if len(intents) != 1:
        return False
    first, *later = _SENTENCE_BREAK.split(normalize(message).text.strip())
    clause = intents[0].clause
    if " ".join(first.split()[-3:]) not in clause:
        return False  # the ask is all of a later sentence's, none of the first's
    return any(
        (len(lead := " ".join(sentence.split()[:4])) > 8 or _AND_SHORT.match(sentence))
        and lead in clause
        for sentence in later
    )


# ". And eggs", ". Also butter": a short sentence joined on, too short for its lead alone to
# tell it from words of the ask before.
_AND_SHORT = rx(r"(?:oh )?(?:and|also|plus) [a-z]")


def _a_sentence_unread(
    conversation: Sequence[Message],
    intents: list[Intent],
    message: str,
    now: datetime,
    timezone: str,
) -> bool:
    """An ask read, and a later sentence of the message that changed nothing of it: no
    ask's words hold it, and the message read without it asks the same ("mark groceries
    as done. Now the insurance one" was the first ask alone, the second dropped unsaid)."""
    if not intents or any(not i.clause for i in intents):
        return False
    clauses = " ".join(i.clause for i in intents)
    first, *later = _SENTENCE_BREAK.split(message.strip())
    kept = [first]
    for sentence in later:
        words = normalize(sentence).text.split()
        if len(words) < 2 or " ".join(words[:2]) in clauses:
            kept.append(sentence)
    if len(kept) == len(later) + 1:
        return False
    rest = ". ".join(kept)
    alone = with_shifts(understand(conversation, rest, now, timezone), rest)
    return [(i.kind, dict(i.arguments)) for i in alone] == [
        (i.kind, dict(i.arguments)) for i in intents
    ]


# "…. And the eye exam is done too" after a completion: that one completed as well.
_DONE_TOO = rx(
    r"^(?:(?:and|oh|also|plus)\b\W*)*(?:the |my )?(?P<t>[a-z][a-z ]*?)(?: one| task)?"
    r"(?:'s| is| are) (?:done|finished|sorted)(?: too| as well| also)\W*$"
)


def _done_too(intents: list[Intent], now: datetime, timezone: str) -> list[Intent]:
    """A task told done "too" after a completion asked in the same message, read as a
    look at the visits (the eye exam is a service too): that task completed."""
    if not any(i.kind == "complete_task" for i in intents):
        return intents
    found: list[Intent] = []
    for intent in intents:
        said = _DONE_TOO.match(intent.clause) if not intent.writes and found else None
        if said is not None:
            done = [
                i
                for i in detect_intents(f"complete the {said.group('t')} task", now, timezone)
                if i.kind == "complete_task" and i.target is not None and not i.target.vague
            ]
            intent = dataclasses.replace(done[0], clause=intent.clause) if done else intent
        found.append(intent)
    return found


# A full stop (or "?", "!") and another sentence after it.
_SENTENCE_BREAK = rx(r"[.!?]+ +(?=\w)")
# ", and the plants one sunday": another thing named after a pause, its change its own.
_AND_THE_NEXT = rx(r",\s+(?=and (?:the|my) )")
_PARTS = rx(rf"{_SENTENCE_BREAK.pattern}|{_AND_THE_NEXT.pattern}")
_WHICH_ASKED = frozenset({"which_task", "which_move"})
# "…and give it a due date of friday": another change, its verb its own, after "and".
_AND_A_VERB = rx(
    r",?\s+and\s+(?:then\s+|also\s+)?(?=(?:give|make|set|move|push|put|mark|tick|add|change"
    r"|bump|book|cancel|delete|remove|complete)\s+(?:it|that|this|the|my|a|an)\b"
    # "…tick it off and add renew the registration for next monday": a to-do, as said
    r"|add\s+(?!(?:it|that|this|them)\b)[a-z])"
)


def _sentence_by_sentence(
    conversation: Sequence[Message],
    message: str,
    now: datetime,
    timezone: str,
    state: Dialogue,
    apart: GatedPattern | re.Pattern[str] = _SENTENCE_BREAK,
) -> list[Intent] | None:
    """Each sentence of the message read as said one after the other: the one the first
    changed is in focus for the next ("…. And give it a due date of friday"), as it is
    after a turn. None unless every sentence asks something and more is read than whole."""
    found: list[Intent] = []
    for sentence in apart.split(message.strip()):
        if len(found) == 1 and found[0].kind == "add_task" and _AND_SHORT.match(sentence.lower()):
            # "add a task to email the accountant. Plus the bank": the to-do just added is
            # the one the sentence says one more like (corrections.another_task)
            added = dict(found[0].arguments)
            made = Action("crm.addTask", added, "task", None, {**added, "status": "pending"})
            state = dataclasses.replace(state, last_action=made)
        read = _read(conversation, sentence, now, timezone, state)
        if not read:
            return None
        found += read
        state = _focused_on(state, read)
    return found if len(found) > 1 else None


def _focused_on(state: Dialogue, read: list[Intent]) -> Dialogue:
    """The state as it stands after `read` was done: its one item in focus (the focus of
    another kind kept as the earlier one)."""
    booked = [i for i in read if i.kind == "book_appointment" and i.complete]
    if len(read) == 1 and booked and booked[0].arguments.get("starts_at"):
        # "book a consultation on tuesday at 9am. And the same again the following week":
        # the visit just booked is the one talked about.
        visit = {**booked[0].arguments, "status": "upcoming"}
        return dataclasses.replace(
            state,
            focus_kind="appointment",
            focus=visit,
            earlier_focus_kind=state.focus_kind if state.focus_kind != "appointment" else None,
            earlier_focus=state.focus if state.focus_kind != "appointment" else None,
        )
    aimed = [i for i in read if i.target is not None]
    if len(aimed) != 1 or not aimed[0].kind.endswith(("_task", "_appointment")):
        # Nothing or several changed: "it" in the next sentence has nothing sure to mean.
        return dataclasses.replace(state, focus=None, focus_kind=None) if aimed else state
    target = aimed[0].target
    kind: Kind = "task" if aimed[0].kind.endswith("_task") else "appointment"
    known = [
        i
        for i in (state.focus, state.earlier_focus, *state.listed, *state.earlier_listed)
        if i is not None
    ]
    item = (
        next((i for i in known if i.get("id") == target.item_id), None)
        if target is not None and target.item_id
        else named_listed(state, kind, aimed[0].clause)
    )
    change = aimed[0]
    if item is None:
        # Named by words no listing holds: what "it" means next is not known here, but the
        # change made is ("…. Now the insurance one" is the same again for that one).
        made = Action(change.tool, dict(change.arguments), kind, None, None)
        return dataclasses.replace(
            state, focus=None, focus_kind=None, last_action=made, question=None, about=""
        )
    # The change as made (a question it answered, answered): "and the plants one sunday"
    # next is the same again for another.
    # (in focus as changed: "no sorry sunday. And one to buy flowers the same day" is Sunday)
    after = {**item, **change.arguments}
    done = Action(change.tool, dict(change.arguments), kind, item, after)
    if state.focus_kind == kind:
        return dataclasses.replace(state, focus=after, last_action=done, question=None, about="")
    return dataclasses.replace(
        state,
        focus_kind=kind,
        focus=after,
        earlier_focus_kind=state.focus_kind,
        earlier_focus=state.focus,
        last_action=done,
        question=None,
        about="",
    )


# "…and a cleaning the same day at 2" after a booking: the day of the visit in focus.
# So is "on it" before an hour ("…put a consultation on it at 9" after "when's my haircut?").
_SAME_DAY_SAID = rx(
    r"\b(?:on )?(?:the same|that same|that) day\b(?!,? (?:the )?(?:next|following))"
    r"|\bon it(?= (?:at|around|for) \d)"
)


_TO_THE_SAME_DAY = rx(
    r"\b(?P<p>to |for |on )?(?:the same|that same|that) day\b(?!,? (?:the )?(?:next|following))"
)


def _the_day_in_view(state: Dialogue, message: str, now: datetime, timezone: str) -> str:
    """ "ok, move the groceries one to that same day" after "when's the cleaning?", "and the
    groceries one to the same day" after a to-do was made due Friday: "the same day" with
    no day said in the message is the day last talked about (the visit's, or the to-do's
    just set), said as a date; the message as it is otherwise."""
    text = normalize(message).text
    said = _TO_THE_SAME_DAY.search(text)
    if said is None or state.focus is None:
        return message
    zone = zone_of(timezone)
    other = find_when(text[: said.start()] + text[said.end() :], now.astimezone(zone))
    if other is not None and other.day is not None and not other.day_implied:
        return message  # "a haircut friday at 10 and a massage that day at 3"
    if state.focus_kind == "appointment":
        start = start_of(state.focus, zone)
        day = start.date() if start is not None else None
    else:
        due = str(state.focus.get("due_on") or "")
        day = date.fromisoformat(due) if re.fullmatch(r"\d{4}-\d\d-\d\d", due) else None
    if day is None:
        return message
    dated = f"{said.group('p') or 'on '}{day:%B} {day.day}".lower()
    return text[: said.start()] + dated + text[said.end() :]


def _day_asked_before(conversation: Sequence[Message], message: str, now: datetime) -> date | None:
    """The day the customer's message before named ("have I got anything on the 23rd?");
    None when it named none. `now` is the customer's."""
    earlier = [m.text for m in conversation if isinstance(m, UserTurn) and m.text != message]
    if not earlier:
        return None
    when = find_when(normalize(earlier[-1]).text, now)
    if when is None or when.day is None or when.day_implied or when.vague_day:
        return None
    return when.day


def _on_the_day_asked(
    intents: list[Intent],
    conversation: Sequence[Message],
    message: str,
    state: Dialogue,
    now: datetime,
    timezone: str,
) -> list[Intent]:
    """ "what do I have tomorrow?" → "You have nothing booked tomorrow…" → "ok then book me a
    haircut at 3": a booking said with an hour and no day, just after a question about a
    day, is on that day (the hour alone was read as today's, and it was BOOKED today).
    Just after a question about a visit on another day ("when is my haircut?" → "…on
    Sunday…" → "book a massage at 4"), which day is asked: today, or the visit's."""
    if not any(
        i.kind == "book_appointment"
        and i.when is not None
        and i.when.day_implied
        and i.when.clock is not None
        for i in intents
    ):
        return intents
    local = now.astimezone(zone_of(timezone))
    day = _day_asked_before(conversation, message, local)
    earlier = [m.text for m in conversation if isinstance(m, UserTurn) and m.text != message]
    if not earlier:
        return intents
    before = detect_intents(earlier[-1], now, timezone)
    if any(i.writes for i in before):
        return intents  # the message before asked a change (its day is its own)
    if day is None:
        return _which_day_asked(intents, message, before, state, local, now, timezone)
    if day == local.date():
        return intents
    again = detect_intents(f"{normalize(message).text} on {day.isoformat()}", now, timezone)
    return again if [i.kind for i in again] == [i.kind for i in intents] else intents


_VISIT_READS = frozenset({"appointments", "next_appointment"})


def _which_day_asked(
    intents: list[Intent],
    message: str,
    before: list[Intent],
    state: Dialogue,
    local: datetime,
    now: datetime,
    timezone: str,
) -> list[Intent]:
    """The booking asked "today, or <the visit's day>?" when the message before asked
    after the visit in focus, on another day this week."""
    if not before or not all(i.kind in _VISIT_READS for i in before):
        return intents
    visit = state.focus_of("appointment")
    start = start_of(visit, zone_of(timezone)) if visit is not None else None
    if start is None or not 0 < (start.date() - local.date()).days < 7:
        return intents
    weekday = start.strftime("%A").lower()
    again = detect_intents(f"{normalize(message).text} today or on {weekday}", now, timezone)
    if [i.kind for i in again] != [i.kind for i in intents] or not any(
        i.kind == "book_appointment" and i.missing[:1] == ("either",) for i in again
    ):
        return intents
    return again


def _on_the_same_day(
    intents: list[Intent],
    conversation: Sequence[Message],
    message: str,
    state: Dialogue,
    now: datetime,
    timezone: str,
) -> list[Intent]:
    """A booking or move to "the same day" with no day said in the message: the day of the
    visit just talked about (never today, which the hour alone would read as). So is a
    to-do "for that day" ("add a task to bring my insurance card that day"): its due day,
    not words of its title."""
    if not any(
        (i.kind in ("book_appointment", "reschedule_appointment") and "when" in i.missing)
        or (
            i.kind == "add_task" and "due_on" not in i.arguments and _SAME_DAY_SAID.search(i.clause)
        )
        for i in intents
    ):
        return intents
    text = normalize(message).text
    if _SAME_DAY_SAID.search(text) is None:
        return intents
    # The day the customer asked about first ("anything on the 23rd?" then "could you put a
    # consultation on it at 9": the 23rd, though the answer named the next visit after it).
    day = _day_asked_before(conversation, message, now.astimezone(zone_of(timezone)))
    visit = state.focus_of("appointment") if day is None else None
    start = start_of(visit, zone_of(timezone)) if visit is not None else None
    day = start.date() if start is not None else day
    if day is None:
        return intents
    said = _SAME_DAY_SAID.sub(f"on {day.isoformat()}", text, count=1)
    again = detect_intents(said, now, timezone)
    kinds = [i.kind for i in intents]
    return again if [i.kind for i in again] == kinds else intents


_HOUR_ASKED = frozenset({"time", "meridiem"})
_WHEN_ASKED = _HOUR_ASKED | {"when"}
# "…and an eye exam, same time but on friday" after a booking: the hour of the visit in
# focus ("the same time as my haircut" names its own visit, read by the grammar).
_SAME_TIME_SAID = rx(r"\b(?:at )?(?:the )?same (?:time|hour)\b(?! as\b)")


# "book the same thing this saturday at 11": the service of the visit talked about.
_SAME_THING = rx(
    r"\b(?:the same|same)(?: (?:thing|one|service|kind of (?:thing|appointment)|again"
    r"|appointment|visit))?(?: again)?(?! time\b| day\b| hour\b)\b"
)


def _the_same_service(
    intents: list[Intent], state: Dialogue, now: datetime, timezone: str
) -> list[Intent]:
    """A booking of "the same thing", the service unsaid: that of the visit in focus."""
    if not any(i.kind == "book_appointment" and "service" in i.missing for i in intents):
        return intents
    visit = state.focus_of("appointment")
    service = str(visit.get("service") or "") if visit is not None else ""
    if not service:
        return intents
    again = []
    for intent in intents:
        same = _SAME_THING.search(intent.clause)
        if intent.kind != "book_appointment" or "service" not in intent.missing or not same:
            again.append(intent)
            continue
        said = f"{intent.clause[: same.start()]}a {service.lower()}{intent.clause[same.end() :]}"
        found = [i for i in detect_intents(said, now, timezone) if i.kind == "book_appointment"]
        again.append(
            dataclasses.replace(found[0], clause=intent.clause) if len(found) == 1 else intent
        )
    return again


# "cleaning. thursday. same time.": the visit named, said with no verb, "my" or "the" before
# it (not "a", "another": "…and a cleaning thursday, same time" books one more).
_BARE_VISIT = rx(
    r"^(?:(?:so|ok|okay|um|uh|and|right|just)\W+)*(?:(?:my|the|that) )?"
    r"(?!(?:a|an|another|one|new|book|schedule|get|make|so|ok|okay|um|uh|and|right|just)\b)"
    r"(?P<what>[a-z][a-z -]*?)"
    r"\W+(?:to |on |for )?(?P<day>[a-z0-9][a-z0-9 ]*?)\W+(?:at )?(?:the )?same (?:time|hour)"
    r"(?: please)?\W*$"
)


# "haircut -> 4pm same day", "haircut same day at 4": the visit named with no verb, an hour
# and "same day" (its own day, which "same day" points back to): a move of it to that hour.
_BARE_VISIT_SAME_DAY = rx(
    r"^(?:(?:so|ok|okay|um|uh|and|right|just)\W+)*(?:(?:my|the|that) )?"
    r"(?!(?:a|an|another|one|new|book|schedule|get|make|so|ok|okay|um|uh|and|right|just)\b)"
    r"(?P<what>[a-z][a-z -]*?)\W+(?:"
    r"(?:to |at |for )?(?P<hour>\d{1,2}(?::\d\d)? ?(?:am|pm)?)\W+(?:on )?(?:the )?same day"
    r"|(?:on )?(?:the )?same day\W+(?:at )?(?P<hour2>\d{1,2}(?::\d\d)? ?(?:am|pm)?)"
    r")(?: please)?\W*$"
)


def _same_time_is_a_move(intents: list[Intent], now: datetime, timezone: str) -> list[Intent]:
    """A visit, a day and "same time", or a visit, an hour and "same day", said with no
    verb: a move of that visit, not a booking of another (whose hour would be asked, or
    which landed today: "haircut -> 4pm same day" booked one today)."""
    if (
        len(intents) != 1
        or intents[0].kind != "book_appointment"
        or "same" not in intents[0].clause
    ):
        return intents
    if match := _BARE_VISIT.match(intents[0].clause):
        said = f"move my {match.group('what')} to {match.group('day')} at the same time"
    elif match := _BARE_VISIT_SAME_DAY.match(intents[0].clause):
        hour = match.group("hour") or match.group("hour2")
        said = f"move my {match.group('what')} to {hour} on the same day"
    else:
        return intents
    if slots.service(match.group("what"), match.group("what")) is None:
        return intents
    found = detect_intents(said, now, timezone)
    if len(found) != 1 or found[0].kind != "reschedule_appointment":
        return intents
    return [dataclasses.replace(found[0], clause=intents[0].clause)]


def _at_the_same_time(
    intents: list[Intent], message: str, state: Dialogue, now: datetime, timezone: str
) -> list[Intent]:
    """A booking at "the same time" with no hour said: the hour of the visit just talked
    about (a booking's time is otherwise asked, never taken from another visit unsaid)."""
    if not any(
        i.kind == "book_appointment" and set(i.missing) & {*_HOUR_ASKED, "when"} for i in intents
    ):
        return intents
    text = normalize(message).text
    same = _SAME_TIME_SAID.search(text)
    if same is None:
        return intents
    # "book a consultation thursday at 3. And an eye exam, same time but friday": the hour
    # said before it in the message comes before any visit talked about earlier.
    hour = next(
        (
            i.when.clock
            for i in reversed(intents)
            if i.when is not None
            and i.when.clock is not None
            and -1 < text.find(i.clause) < same.start()
        ),
        None,
    )
    visit = state.focus_of("appointment") if hour is None else None
    start = start_of(visit, zone_of(timezone)) if visit is not None else None
    if start is not None:
        hour = start.time()
    if hour is None:
        return intents
    said = _SAME_TIME_SAID.sub(f"at {hour:%H:%M}", text, count=1)
    again = detect_intents(said, now, timezone)
    return again if [i.kind for i in again] == [i.kind for i in intents] else intents


# "move my haircut to 3": an hour on its own, at the end of the ask.
_TO_AN_HOUR = rx(r"\b(?:to|for|at) (?P<h>1[0-2]|[1-9])(?: please| instead| then)?[.!]?$")


def _hour_said(intent: Intent, now: datetime, timezone: str) -> Intent:
    """A named visit moved to a bare hour is that hour on its own day, read by the grammar's
    reading of an hour ("3" is 3 PM, "7" is asked), not a move whose time is asked."""
    hour = _TO_AN_HOUR.search(intent.clause)
    if (
        intent.kind != "reschedule_appointment"
        or intent.missing != ("when",)
        or intent.target is None
        or intent.target.vague
        or hour is None
    ):
        return intent
    said = f"{intent.clause[: hour.start()]}to {hour.group('h')} o'clock"
    again = detect_intents(said, now, timezone)
    if len(again) != 1 or again[0].kind != intent.kind:
        return intent
    return dataclasses.replace(again[0], clause=intent.clause)


def _time_for_the_one_in_focus(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str, state: Dialogue
) -> list[Intent] | None:
    """ "move it to saturday afternoon" → "what time?" → "4pm": the move of the one in
    focus, now with its hour (the earlier words alone name no appointment)."""
    before = asked_about(conversation)
    if before is None:
        return None
    # "push it to the afternoon" leans on nothing by its words alone (a part of the day is
    # no move yet), so it is read as it stands: a move of "it", the hour asked.
    earlier = follow_up(state, before, now, timezone) or detect_intents(before, now, timezone)
    # ("could I just move it to next week instead?" → "when?" → "wednesday the 23rd, same
    # time": the day it lacked too)
    if not earlier or len(earlier) != 1 or not set(earlier[0].missing) & _WHEN_ASKED:
        return None
    found = follow_up(state, retimed(before, message, now, timezone), now, timezone)
    if found and len(found) == 1 and found[0].kind == earlier[0].kind and found[0].complete:
        return found
    return None


def _named_visit(intent: Intent) -> Intent:
    """ "when's my haircut" among other asks: the list that has it, not just the next one."""
    named = str(slots.service(intent.clause, intent.clause) or "").lower()
    if intent.kind == "next_appointment" and named in KNOWN_SERVICES:
        return dataclasses.replace(intent, kind="appointments")
    return intent


__all__ = [
    "ASK_WHAT_HAPPENED",
    "accepts_offer",
    "already_opened",
    "as_task_due",
    "booked_visit_named",
    "case_asked",
    "complaint_opened",
    "describes_case",
    "due_in_a_stretch",
    "follow_up",
    "may_be_a_task",
    "of_the_visits_in_view",
    "offered_case",
    "put_off",
    "read_intents",
    "undo",
    "undo_reply",
    "with_shifts",
]
