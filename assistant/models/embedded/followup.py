"""A reply to the assistant's own question, read together with the request it was about.

"Book a haircut" → "When would you like your haircut?" → "tomorrow at 3" is one request:
the missing words are read back into the clause that lacked them. "Complete the bill
task" → "Which one did you mean…?" → "the water one" names the target, with the
earlier words kept to narrow it. "Would you like me to open a support case?" → "yes".
The planner and the narrator both read a turn this way, so they agree on what was asked.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from assistant.dialogue_state import Item
from assistant.language import Intent, detect_intents, is_affirmative, mixed_verbs
from assistant.language.another_hour import another_hour
from assistant.language.another_visit import another_visit
from assistant.language.clause import ASKED_OF_IT
from assistant.language.dates import find_when, without_unread_day
from assistant.language.either import settled
from assistant.language.hesitation import PAUSE, only_hesitates
from assistant.language.intents import is_request
from assistant.language.lexicon import MONTHS, WEEKDAYS
from assistant.language.others import as_her_own
from assistant.language.patterns import rx
from assistant.language.slots import OFFERED, cut_spans, service, service_said_apart, services_named
from assistant.language.targets import target_ref
from assistant.language.text import normalize
from assistant.models.embedded import move_or_cancel
from assistant.models.embedded.user_turns import last_two_users, last_users
from assistant.models.embedded.visit_then_when import of_one_moved, visit_read_out_moved
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.resolve import Ambiguous, Match, NoMatch, resolve_intent
from assistant.schema import AssistantTurn, Message, ToolExchange, ToolResult, UserTurn
from assistant.zones import zone_named

# A reply this long is a new request, not an answer to "which one?".
_MAX_ANSWER_WORDS = 8
# How many questions back a reply may still complete a request.
_MAX_DEPTH = 3
# A reply that asks a question of its own ("what's the other one I have?"), after fillers;
# "what about the haircut" still names the one meant.
# "same as before", "the usual time" to the hour asked (same_hour.py: its words, kept here so
# that the hour said after them answers the question before them)
SAME_AS_BEFORE = rx(
    r"^(?:(?:um|uh|oh|ok|okay|so|just|erm|hmm|yeah|well|maybe|at)\W+)*"
    r"(?:(?:the )?same (?:time |hour )?(?:as (?:before|last time|usual|always|the last one"
    r"|my last one|last)|again)|(?:the |my )?usual(?: time| hour)?|as usual"
    r"|like (?:before|last time))(?: please| thanks)?\W*$"
)
_ASKS_ABOUT = rx(
    r"^(?:(?:wait|hang on|hold on|ok|okay|and|so|um|erm|sorry|oh|hmm|actually|no|nah|nope"
    # "forget it, when's my haircut": the question let go, and one of the customer's own
    # asked (was: the cancel held aimed at the haircut, which the next yes cancelled)
    r"|forget (?:it|that|about it|about that)|never ?mind|scratch that|leave it)\b\W*)*"
    r"(?:what(?!(?: about| if)\b)|what's|when|when's|where|where's|which|how(?! about\b)"
    r"|is|are|do|does|did|have i|has)\b"
)


def pauses(reply: str) -> bool:
    """The reply asks for a moment ("hang on, let me check my calendar"), asking nothing."""
    if "?" in reply or (pause := PAUSE.search(reply.lower())) is None:
        return False
    # "hang on, remind me when my cleaning is first": a question of its own after the pause
    # (it was the open question again, "I can't see which times are free…")
    return _ASKS_AFTER_A_PAUSE.search(reply.lower(), pause.end()) is None


_ASKS_AFTER_A_PAUSE = rx(
    r"\b(?:when|what|where|which|how|remind me|tell me|show me|can you|could you)\b"
)


@dataclasses.dataclass(frozen=True, slots=True)
class _Asked:
    """The previous request, which the assistant answered with a question."""

    text: str
    results: tuple[ToolResult, ...]
    # The conversation up to that request: it may itself answer an earlier question.
    before: tuple[Message, ...]


def _asked(conversation: Sequence[Message]) -> _Asked | None:
    users = last_two_users(conversation)
    if users is None:
        return None
    current = users[-1]
    answers = [
        message
        for message in conversation[users[-2] + 1 : current]
        if isinstance(message, AssistantTurn) and message.kind == "answer"
    ]
    if not answers or not answers[-1].text.rstrip().endswith("?"):
        return None
    previous = conversation[users[-2]]
    assert isinstance(previous, UserTurn)
    results: list[ToolResult] = []
    for message in conversation[users[-2] + 1 : current]:
        if isinstance(message, ToolExchange):
            results.extend(message.results)
    return _Asked(previous.text, tuple(results), tuple(conversation[: users[-2] + 1]))


def _past_an_aside(
    conversation: Sequence[Message], now: datetime, timezone: str
) -> list[Message] | None:
    """The conversation without the customer's last question before this message, when
    that question only looked something up (and was answered) while the assistant's own
    question before it was open: the reply now may answer that question."""
    for count in (3, 4):
        # ("what time?" → "what's my balance?" → "and when's my cleaning?" → "ok, 11am for
        # the haircut": two asides, both only looked something up)
        users = last_users(conversation, count)
        if users is None:
            return None
        asked = [
            m
            for m in conversation[users[0] + 1 : users[1]]
            if isinstance(m, AssistantTurn) and m.kind == "answer"
        ]
        if not asked or not asked[-1].text.rstrip().endswith("?"):
            continue
        if all(_only_looks_up(conversation[at], now, timezone) for at in users[1:-1]):
            return [*conversation[: users[1]], *conversation[users[-1] :]]
        return None
    return None


def _only_looks_up(aside: Message, now: datetime, timezone: str) -> bool:
    """The customer's message asked something of their own, and only looked it up."""
    assert isinstance(aside, UserTurn)
    if SAME_AS_BEFORE.match(normalize(aside.text).text):
        return True  # "same as before" to the hour asked: the hours looked up (same_hour.py)
    if not _ASKS_ABOUT.search(normalize(aside.text).text):
        return False
    read = _read(aside.text, now, timezone)
    return bool(read) and not any(i.writes or i.missing for i in read)


def _asked_over_a_question(conversation: Sequence[Message]) -> _Asked | None:
    """The assistant's question before the customer's last message, when that message
    only asked something of its own (answered, no question back): the question is open."""
    users = last_users(conversation, 3)
    if users is None:
        return None
    between = conversation[users[1] : users[2]]
    if any(isinstance(m, ToolExchange) and _wrote(m.results) for m in between):
        return None
    asked_then = conversation[users[1]]
    if not isinstance(asked_then, UserTurn) or not _ASKS_ABOUT.match(asked_then.text.lower()):
        return None
    return _asked(conversation[: users[2]])


def _wrote(results: Sequence[ToolResult]) -> bool:
    return any(result.call.tool_name in WRITE_TOOLS for result in results)


def asked_about(conversation: Sequence[Message]) -> str | None:
    """The customer's previous message, when the assistant answered it with a question."""
    asked = _asked(conversation)
    return None if asked is None else asked.text


def said_before(conversation: Sequence[Message]) -> str | None:
    """The customer's message before the last one, whatever was answered to it."""
    users = last_two_users(conversation)
    if users is None:
        return None
    previous = conversation[users[0]]
    return previous.text if isinstance(previous, UserTurn) else None


def retimed(clause: str, reply: str, now: datetime, timezone: str) -> str:
    """The request with the time the reply gives in place of the one it lacked."""
    stripped, reply = _retimed(normalize(clause).text, reply, _on_their_clock(now, timezone))
    return f"{stripped} to {reply}"


def _on_their_clock(now: datetime, timezone: str) -> datetime:
    """`now` in the customer's timezone: the day and the hour the words below are read
    against ("9am" on the day asked about) are hers, not the server's (its date, in UTC,
    is Sunday still where her Monday has begun)."""
    return now.astimezone(zone_named(timezone))


@lru_cache(maxsize=512)
def _read(text: str, now: datetime, timezone: str) -> tuple[Intent, ...]:
    """`detect_intents`, once per turn: the planner, each later round and the narrator's
    scene all read the same words at the same `now` (a third of the server's CPU)."""
    return tuple(detect_intents(text, now, timezone))


def one_more_like(
    booked: Mapping[str, Any], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "and another on thursday at the same time" just after `booked` was booked: one more
    of that service, that day (language/another_visit.py); None for anything else."""
    named, starts = booked.get("service"), booked.get("starts_at")
    if not isinstance(named, str) or not isinstance(starts, str):
        return None
    if (other := service(text, text)) in OFFERED and other != named:
        return None  # "and a massage on friday": another service, read as said
    zone = zone_named(timezone)
    said = another_visit(text, named, datetime.fromisoformat(starts).astimezone(zone), now)
    if said is None:
        return None
    return [i for i in detect_intents(said, now, timezone) if i.kind == "book_appointment"] or None


_SAME_HOUR_ONLY = rx(
    r"^(?:(?:ok|okay|yes|yeah|um|uh|oh|just|and)[, ]+)*(?:at )?(?:the )?same (?:time|hour)"
    r"(?: as (?:before|that one|the other one|the last one|the first one))?(?: please| thanks)?"
    r"[.!]?$"
)


# "same time as my sunday one", "the same hour as the haircut": the hour of another visit,
# named by its day or its service.
_SAME_AS_ANOTHER = rx(r"\b(?:the )?same (?:time|hour) as (?:my|the) ([a-z' ]+?)[.!?]*$")


def _the_hour_booked(
    lacking: Intent, conversation: Sequence[Message], text: str, timezone: str
) -> str | None:
    """ "same time", said when a booking's hour is asked, as the hour of the visit the
    conversation booked last ("at 14:00"); None for any other reply."""
    if lacking.kind != "book_appointment" or "time" not in lacking.missing:
        return None
    said = text.lower().strip()
    other = None
    if _SAME_HOUR_ONLY.match(said) is None and (other := _SAME_AS_ANOTHER.search(said)) is None:
        return None
    booked = _last_booked(conversation)
    if other is not None and (
        booked is None
        or not set(str(booked.get("service") or "").lower().split()) & set(other.group(1).split())
    ):
        return None  # "same time as my sunday one": not the visit just booked
    starts = booked.get("starts_at") if booked else None
    if not isinstance(starts, str):
        return None
    return f"at {datetime.fromisoformat(starts).astimezone(zone_named(timezone)):%H:%M}"


def _last_booked(conversation: Sequence[Message]) -> Item | None:
    """The visit the conversation booked last, as the CRM answered it."""
    for message in reversed(conversation):
        if isinstance(message, ToolExchange):
            for result in reversed(message.results):
                if result.call.tool_name == "crm.bookAppointment" and result.ok:
                    booked = result.result
                    return booked if isinstance(booked, dict) else None
    return None


def understand(
    conversation: Sequence[Message],
    text: str,
    now: datetime,
    timezone: str,
    *,
    depth: int = 0,
    looked_up: Sequence[ToolResult] = (),
) -> list[Intent]:
    """What `text` asks for, taking the assistant's last question into account.
    `looked_up`: the results of the turn `text` began, when it is read again for a reply.

    Questions can follow one another ("When?" then "Which one?"), so the earlier
    request is itself read in the light of the question before it, a few levels deep.
    """
    now = _on_their_clock(now, timezone)
    # ("…cancel it, or move it to another day?" → "move it": read as asked)
    intents = list(_read(move_or_cancel.answered(conversation, text), now, timezone))
    if len(intents) == 1 and intents[0].kind == "book_appointment":
        # "cleaning thursday 10am" after the cleaning was read out: its move, asked
        intents = visit_read_out_moved(intents, conversation, now, timezone, looked_up)
    elif len(intents) == 1 and not intents[0].writes:
        # "my haircut saturday 11am", read as a question of the day, of the one haircut
        intents = of_one_moved(intents, text, conversation, now, timezone, looked_up)
    if (
        depth
        and not _books(intents)
        and (booked := _last_booked(conversation)) is not None
        and (more := one_more_like(booked, text, now, timezone))
    ):
        # "and another on thursday" → "What time on Thursday…?" → "4pm": read again as it
        # was read then, against the visit booked before it.
        intents = more
    asked = _asked(conversation) if depth < _MAX_DEPTH else None
    if asked is None and depth == 0 and not any(i.complete for i in intents):
        # "what time?" → "what's my balance first?" → "ok, 3pm": the question asked before
        # the customer's own question is still open.
        asked = _asked_over_a_question(conversation)
    if (
        asked is None
        and depth == 0
        and (
            not any(i.complete for i in intents)
            # "ok, 11am for the haircut": the time asked, said with the visit it is for
            or (not any(i.writes for i in intents) and not _no_time_said(text, now))
        )
        # (never a yes: what waited for one was let go when the aside was asked)
        and not is_affirmative(text)
        and (skipped := _past_an_aside(conversation, now, timezone)) is not None
    ):
        # "which task?" → "hold on, when's my haircut?" → (told) → "ok, the insurance
        # one": the question asked before the aside still waits for its answer.
        conversation, asked = skipped, _asked(skipped)
    if asked is None:
        if depth == 0 and (agreed := _consent_after_a_question(conversation, text, now, timezone)):
            return agreed
        return intents
    if (" and " in text or ". And " in text) and (
        both := _answer_then_more(asked, text, now, timezone, depth)
    ):
        return both
    if _SWAPPED.search(text.lower()) and (swapped := _swapped(asked, text, now, timezone, depth)):
        return swapped
    if (
        intents
        and all(i.complete for i in intents)
        and (any(i.writes for i in intents) or is_request(text))
    ):
        return intents  # a new, complete request: the question is left behind
    earlier = understand(
        asked.before, asked.text, now, timezone, depth=depth + 1, looked_up=asked.results
    )
    if (pauses(asked.text) or only_hesitates(asked.text)) and not any(i.writes for i in earlier):
        earlier = []  # "hang on, let me check my calendar": a pause, whatever it reads as
    if not earlier and (still := unanswered(asked.before, now, timezone, depth=depth + 1)):
        # "what time?" → "the earliest you have" → the question again → "11am": the
        # reply between answered nothing, so the request asked about is still open.
        earlier = [still]
    elif (
        depth == 0
        and earlier
        and all(i.complete and i.writes for i in earlier)
        and not any(i.writes for i in intents)
        and not is_affirmative(text)
        and not _no_time_said(text, now)
        and (still := unanswered(asked.before, now, timezone, depth=depth + 1)) is not None
        and still.kind == "book_appointment"
        and (filled := _fill(still, text, now, timezone))
        and all(i.kind == "book_appointment" and not i.missing for i in filled)
    ):
        # "when would you like your eye exam?" → "and also cancel my haircut" → "Are you
        # sure…?" → "thursday at 3pm for the exam": the time of the booking asked first,
        # not a reply to the yes asked since (which is let go, as anything but a yes).
        return filled
    lacking = [i for i in earlier if i.missing]
    if (
        lacking
        and lacking[0].kind != "book_appointment"
        and _books(intents)
        # ("When would you like to move it to?" → "cleaning to friday": the visit to move
        # and its day, no booking said; it was booked beside the one to move)
        and not (lacking[0].kind == "reschedule_appointment" and _no_booking_said(text))
    ):
        # "when should I move it to?" → "then just book one for the 3rd at 9": a booking
        # of its own, not the day of the move.
        return intents
    if (
        lacking
        and lacking[0].missing[:1] in (("problem",), ("title",))
        and text.rstrip().endswith("?")
        and intents
        and all(i.complete and not i.writes for i in intents)
    ):
        # "What's the problem you'd like me to report?" → "and was my haircut bill paid?":
        # a question of the customer's own, answered; never the words of a case or a task.
        return intents
    if len(lacking) > 1 and (each := _each_hour(lacking, text, now, timezone)) is not None:
        return each  # "What time on Tuesday and on Friday…?" → "11am for both"
    if lacking:
        if "same" in text and (hour := _the_hour_booked(lacking[0], conversation, text, timezone)):
            text = hour  # "What time on Friday…?" → "same time": as the visit just booked
        elif "same" in text and (other := _SAME_AS_ANOTHER.search(text.lower())) is not None:
            # "What time on Saturday…?" → "same time as my sunday one": the day said is the
            # other visit's, not the booking's (was: asked "What time on Sunday…?", and the
            # hour said next booked it on Sunday); its hour is asked again
            text = text[: other.start()].strip(" ,") or "hmm"
        filled = _fill(lacking[0], text, now, timezone)
        if filled is None and (aimed := _aimed_at(lacking[0], text, intents, now)) is not None:
            # "I need to reschedule my appointment" → "when?" → "the dentist one": the
            # reply says which, and the time is still to be asked.
            return [aimed]
        return filled or intents
    if len(text.split()) <= _MAX_ANSWER_WORDS and not any(
        # "which one should I cancel?" → "and move my haircut to 4": another ask, not which
        i.writes and i.kind not in {e.kind for e in earlier}
        for i in intents
    ):
        for intent in earlier:
            if intent.needs_target and (named := _renamed(intent, text, asked, now, timezone)):
                return [named]
            if intent.needs_target and (meant := _near_agreed(intent, text, asked, timezone)):
                return [meant]
    return intents


# "10am, and what do I owe?": the answer, then another ask joined to it.
# ("2pm. And the dentist thing, move that to saturday": the answer, then a sentence more)
_AND_THEN = rx(r"[,.]?\s+[aA]nd\s+(?:also\s+|then\s+|can you\s+|could you\s+)?")


def _answer_then_more(
    asked: _Asked, text: str, now: datetime, timezone: str, depth: int
) -> list[Intent] | None:
    """ "What time?" → "6 in the morning, and add a task to bring my ID": the words before
    "and" answer the question (the request asked about is made whole), and what follows
    is asked as well; neither is lost for the other."""
    joined = _AND_THEN.search(text)
    if joined is None or not text[: joined.start()].strip():
        return None
    head, tail = text[: joined.start()], text[joined.end() :]
    more = list(_read(tail, now, timezone))
    if not more:
        return None
    earlier = understand(
        asked.before, asked.text, now, timezone, depth=depth + 1, looked_up=asked.results
    )
    lacking = [i for i in earlier if i.missing]
    if not lacking:
        return None
    filled = _fill(lacking[0], head, now, timezone)
    if not filled or not filled[0].complete:
        return None
    others = [i for i in more if i.kind != filled[0].kind]
    return [filled[0], *others] if others else None


# "actually make it a massage instead": the thing asked about, swapped for another.
_SWAPPED = rx(r"\b(?:instead|rather|make it|change it to|switch (?:it )?to)\b")


def _swapped(
    asked: _Asked, text: str, now: datetime, timezone: str, depth: int
) -> list[Intent] | None:
    earlier = understand(
        asked.before, asked.text, now, timezone, depth=depth + 1, looked_up=asked.results
    )
    lacking = [i for i in earlier if i.missing]
    if not lacking:
        return None
    if lacking[0].kind == "book_appointment" and (
        swapped := _service_swapped(lacking[0], text, now, timezone)
    ):
        return swapped
    said = normalize(text)
    when = find_when(said.text, now)
    if not set(lacking[0].missing) & _TIME_ASKED or when is None or when.clock is None:
        return None
    # "what time on Friday?" → "make it 3pm instead": the time asked for, said as a change
    # (no visit of the customer's is moved by it).
    time_words = " ".join(said.text[start:end] for start, end in when.spans)
    return _fill(lacking[0], time_words, now, timezone)


def _service_swapped(
    intent: Intent, text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "book a haircut friday" → "what time?" → "actually make it a massage instead, at
    2pm": the booking asked about, of the service said now (and at the time said, if one
    is); never a move of a visit of that service."""
    said = normalize(text)
    new = service(said.text, said.original)
    old = str(intent.arguments.get("service") or "")
    if new is None or not old or new == old or old.lower() not in intent.clause:
        return None
    clause = intent.clause.replace(old.lower(), new.lower(), 1)
    again = [i for i in detect_intents(clause, now, timezone) if i.kind == intent.kind][:1]
    if not again or not again[0].missing:
        return again or None
    when = find_when(said.text, now)
    if when is None or not when.spans:
        return again
    time_words = " ".join(said.text[start:end] for start, end in when.spans)
    return _fill(again[0], time_words, now, timezone) or again


# "make it 2pm", "can we do it at 3": a time said of "it".
_IT_TIMED = rx(r"\b(?:make|do|have|put|can|could) (?:it|that|we)\b|\bit (?:at|for)\b")


def booking_timed(
    conversation: Sequence[Message], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "ok then make it 2pm" while the time of a booking is asked ("What time on
    Wednesday works for you?"): "it" is the booking asked about, whatever visit was
    named since (never a move of that one). None when the reply completes no booking."""
    if _IT_TIMED.search(text) is None:
        return None
    if _asked(conversation) is None:
        return None
    if _books(_read(text, _on_their_clock(now, timezone), timezone)):
        return None  # a booking of its own
    filled = understand(conversation, text, now, timezone)
    if filled and all(i.kind == "book_appointment" and not i.missing for i in filled):
        return filled  # the booking asked about, its time now said
    return None


def _books(intents: Sequence[Intent]) -> bool:
    return any(intent.kind == "book_appointment" for intent in intents)


def unanswered(
    conversation: Sequence[Message], now: datetime, timezone: str, *, depth: int = 0
) -> Intent | None:
    """The request the assistant's last question was about, when that question asked for
    something it still lacks ("What time on Friday works for you?"): a reply that does
    not answer it is met with the question again, not with a shrug."""
    now = _on_their_clock(now, timezone)
    asked = _asked(conversation) if depth < _MAX_DEPTH else None
    if asked is None:
        return None
    earlier = understand(
        asked.before, asked.text, now, timezone, depth=depth + 1, looked_up=asked.results
    )
    lacking = [i for i in earlier if i.missing]
    return lacking[0] if len(lacking) == 1 else None


# The words of a yes that name the action asked about: "yes please, move it", "ok yes,
# add the reminder" (a bare "yes" two turns on could be to anything).
_ACTION_NAMED: dict[str, str] = {
    "book_appointment": r"\b(?:book|booking|book it|get it booked)\b",
    "reschedule_appointment": r"\b(?:move|moving|reschedule|push|change)\b",
    "cancel_appointment": r"\b(?:cancel|cancelling|canceling)\b",
    "add_task": r"\b(?:add|reminder|put it|task|note it)\b",
    "update_task": r"\b(?:change|update|move|set)\b",
    "complete_task": r"\b(?:mark|done|complete|tick)\b",
    "delete_task": r"\b(?:delete|remove)\b",
    "create_ticket": r"\b(?:open|case|ticket|report)\b",
}
_ANY_ACTION_NAMED = re.compile("|".join(_ACTION_NAMED.values()))


def _consent_after_a_question(
    conversation: Sequence[Message], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "if my haircut is on the weekend, move it to friday" → "Would you like me to move
    it…?" → "is that still at the same place?" → "yes please, move it": the change asked
    about a turn before the question, agreed to by a yes that names it. Nothing written in
    between, and only the one change asked about."""
    if _ANY_ACTION_NAMED.search(text.lower()) is None:
        return None  # most messages name no change: nothing more is looked at
    users = last_users(conversation, 3)
    asked = None if users is None else _asked(conversation[: users[-1]])
    if users is None or asked is None or not is_affirmative(text):
        return None
    between = conversation[users[-2] + 1 : users[-1]]
    if any(
        result.ok and result.call.tool_name in WRITE_TOOLS
        for message in between
        if isinstance(message, ToolExchange)
        for result in message.results
    ):
        return None  # something was written since: the question is left behind
    earlier = understand(asked.before, asked.text, now, timezone, depth=1, looked_up=asked.results)
    lacking = [i for i in earlier if i.missing]
    if len(lacking) != 1 or lacking[0].missing != ("consent",):
        return None
    named = _ACTION_NAMED.get(lacking[0].kind)
    if named is None or not re.search(named, normalize(text).text):
        return None
    return [dataclasses.replace(lacking[0], missing=())]


def held_booking_retimed(
    conversation: Sequence[Message], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "book a consultation wednesday at 10" → "that overlaps…, book it anyway?" → "ok
    make it 2pm instead": the booking asked about, at the new time, and nothing else (the
    "it" is the booking not made, never the visit it overlapped). Only while a booking
    is held for a yes (the caller knows)."""
    now = _on_their_clock(now, timezone)
    asked = _asked(conversation)
    if asked is None:
        return None
    earlier = understand(asked.before, asked.text, now, timezone, depth=1, looked_up=asked.results)
    intents = _read(text, now, timezone)
    if len(earlier) != 1 or earlier[0].kind != "book_appointment" or earlier[0].missing:
        return None
    if any(r.ok and r.call.tool_name == "crm.bookAppointment" for r in asked.results):
        return None  # it was booked: "make it 2pm" moves that one (the last action)
    said = normalize(text)
    # "no, 10am", "ok then sunday at 10am": only another hour (and day) said back
    hour = another_hour(text, now, bare=True)
    if (
        hour is None
        and not (len(intents) == 1 and intents[0].kind == "reschedule_appointment")
        and (intents or _MAKE_IT.search(said.text) is None)
    ):
        return None  # ("yes but make it 4" reads as nothing alone: the yes, then the change)
    if service(said.text, said.original) is not None:
        return None  # "move the dental to 2pm instead" names another visit
    when = find_when(said.text, now)
    if when is None or when.clock is None:
        # "yes but make it 4": the bare hour is the time meant
        bare = _BARE_HOUR_REPLY.match(re.sub(r"\s*,\s*", " ", said.text))
        if bare is None:
            return None
        time_words = bare.group(1)
    else:
        time_words = " ".join(said.text[start:end] for start, end in when.spans)
    clause, reply = _retimed(earlier[0].clause, time_words, now)
    booked = [i for i in detect_intents(f"{clause} {reply}", now, timezone) if i.writes]
    if len(booked) != 1 or booked[0].kind != "book_appointment":
        return None
    return booked


_MAKE_IT = rx(r"\b(?:make it|change it to|move it to|switch it to|do it at)\b")


# "what about wednesday?", "and friday": only another day, said after a lookup by day.
_OTHER_DAY = rx(r"^(?:and|what about|how about|ok|okay|so|\W)+(?P<d>[a-z0-9 ]+?)\W*$")


def day_ellipsis(
    conversation: Sequence[Message], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "have I got anything tomorrow?" → "no" → "what about wednesday": the same lookup
    for the other day. Only lookups are read this way: a write is never inferred."""
    now = _on_their_clock(now, timezone)
    said = normalize(text).text
    other = _OTHER_DAY.match(said)
    users = last_two_users(conversation)
    if other is None or users is None:
        return None
    when = find_when(other.group("d"), now)
    if when is None or when.day is None or when.day_implied or len(when.spans) != 1:
        return None
    start, end = when.spans[0]
    if other.group("d")[:start].strip() or other.group("d")[end:].strip():
        return None  # more than a day was said
    previous = conversation[users[0]]
    assert isinstance(previous, UserTurn)
    before = normalize(previous.text).text
    earlier = find_when(before, now)
    if earlier is None or earlier.day is None or not earlier.spans:
        return None
    first, last = earlier.spans[0][0], earlier.spans[-1][1]
    again = f"{before[:first]}{other.group('d')[start:end]}{before[last:]}"
    intents = list(_read(again, now, timezone))
    if not intents or any(i.writes for i in intents):
        return None
    return intents


# An apology said before the answer: "sorry, 9:15", "oh sorry about that, friday at 3".
_SORRY_LEAD = rx(
    r"^(?:(?:oh|ah|um|uh|so|ok|okay)[ ,]+)*sorry(?: about that| for that)?[ ,.!]+(?=\w)"
)
# A reply that asks a question back with a question word ("why" may open a complaint:
# "why was I charged twice").
_ASKS_OWN_QUESTION = rx(
    r"^(?:(?:ok|okay|um|uh|so|and|wait|oh|sorry)\b\W*)*(?:what|what's|whats|when|when's|where"
    r"|which|how)\b"
)
# A reply that only ends the call: "that's all", "so yeah that's it thanks", "bye".
_ONLY_CLOSES = rx(
    # ("thanks so yeah thats it" to "What's the problem…?" opened a case titled with it)
    r"^(?:(?:ok|okay|so|yeah|yes|well|alright|cool|great|right|no|nope|thanks|thank you|thx"
    r"|cheers)[ ,.!]+)*"
    r"(?:that's all|that is all|that's it|that's everything|nothing else|i'm done|bye"
    r"|goodbye)(?:[ ,.!]+(?:thanks|thank you|for now|bye|then))*[ .!]*$"
)


# The slots whose answer is the customer's own words (any words would do), and the words
# that let the ask go instead of answering.
_FREE_TEXT = frozenset({"title", "problem"})
_TODO_NOUN = rx(r"\b(?:task|reminder|to-?do|to do)\b")
_TO_LEAD = rx(r"^(?:to|it should say|it says|say|just|it's|its)\s+", re.IGNORECASE)
_LETS_GO = rx(
    r"^(?:(?:oh|um|uh|hmm+|ok|okay|actually|no|nah|nope|sorry|wait|well)[ ,.!]+)*"
    r"(?:never ?mind|forget (?:it|that|about it)|scratch that|no|nope|nah|no thanks|not now"
    r"|leave it|don't bother|cancel that|don't worry(?: about it)?|skip it|it's fine"
    r"|it doesn't matter|doesn't matter|not anymore|no need)"
    r"(?:[ ,.!]+(?:thanks|thank you|then|after all|actually))*[ ,.!]*$"
)


_FOR_THE = rx(r"(?i)\s*\b(?:for|of) (?:the|my|a) (?P<s>[a-z]+(?: [a-z]+)?)\b")


_HOUR_PARTS = re.compile(r"\s*(?:,|;|\band\b|\bthen\b)\s*")
_FOR_ALL = rx(
    r"\b(?:for |on )?(?:both(?: of them| days)?|all(?: of them| three| days)?|each(?: one| day)?)\b"
)


def _each_hour(
    lacking: list[Intent], text: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """The hours of several bookings asked in one question ("What time on Tuesday and on
    Friday works for you?"): "11am for both" is each one's; "9 on thursday and 2 on
    saturday" gives each the hour said beside its day. None unless every one is filled."""
    if any(i.kind != "book_appointment" or i.missing != ("time",) for i in lacking):
        return None
    days = [i.when.day if i.when is not None else None for i in lacking]
    said = normalize(text).text
    hours: dict[Any, str] = {}
    for part in _HOUR_PARTS.split(said):
        when = find_when(part, now)
        if when is None or when.clock is None:
            continue
        if when.day is not None and not when.day_implied:
            if when.day not in days:
                return None  # a day that was not asked about: read as said
            hours[when.day] = part
        else:
            hours[None] = _FOR_ALL.sub(" ", part)
    filled: list[Intent] = []
    for intent, day in zip(lacking, days, strict=True):
        part = hours.get(day) or hours.get(None)
        if part is None:
            return None
        when = find_when(part, now)
        clock = when.clock if when is not None else None
        if clock is None or day is None:
            return None
        one = _fill(intent, f"at {clock:%H:%M}", now, timezone)
        if not one or len(one) != 1 or one[0].missing:
            return None
        filled.extend(one)
    return filled


def _fill(intent: Intent, text: str, now: datetime, timezone: str) -> list[Intent] | None:
    """The lacking clause read again with the reply's words added."""
    if intent.missing[:1] == ("someone_else",):
        if is_affirmative(text) and intent.kind == "book_appointment":
            # "Would you like me to book a haircut for yourself?" → "yes please": hers,
            # as asked (it found nothing waiting for a yes); when it was not said, it is
            # asked next ("book a checkup for my son" → "yes" → "When would you like…?"),
            # of the clause as hers (the time said then is read with it)
            if intent.missing == ("someone_else",) and "starts_at" in intent.arguments:
                return [dataclasses.replace(intent, missing=())]
            if (own := as_her_own(intent.clause)) is not None:
                return [dataclasses.replace(intent, missing=intent.missing[1:], clause=own)]
        if (
            intent.kind == "book_appointment"
            and (hour := another_hour(text, now)) is not None
            and (own := as_her_own(intent.clause)) is not None
        ):
            # "…for two people" → "…book a massage for yourself?" → "at 11am": hers, at the
            # hour said (it was "Sorry, I didn't catch that")
            mine = dataclasses.replace(intent, missing=intent.missing[1:] or ("when",), clause=own)
            return _fill(mine, hour, now, timezone)
        return None  # someone else's visit: what follows is read as a request of its own
    if only_hesitates(text):
        # "What should the task say?" → "hmm, let me think": the answer is still to come
        # (never a to-do or a case titled with the words that put it off).
        return None
    if (
        intent.missing[:1] in (("when",), ("no_such_date",), ("future",))
        and is_affirmative(text)
        and find_when(normalize(text).text, now) is None
    ):
        # "February 31 isn't a date on the calendar. Which day did you mean?" → "ok":
        # no day said yet, so it is asked again (read with the hour said before, it was
        # today's; dropped, "Great." told her nothing of it). "That time has already
        # passed. When would you like it instead?" → "yes", "sure go ahead" the same: it
        # was booked tomorrow at the hour said, moved to the visit's own day at it, or a
        # to-do added without its day (titled "… yes").
        return [intent]
    if _FREE_TEXT & set(intent.missing) and _LETS_GO.match(text.lower().strip()):
        # "What's the problem you'd like me to report?" → "never mind", "actually no":
        # the ask is let go (a case titled "Never mind", a to-do "Nevermind" were made)
        return None
    if intent.missing == ("unkept",):
        # "I can't ask for 'with Sam' here… book it anyway?": only a yes books it.
        return [dataclasses.replace(intent, missing=())] if is_affirmative(text) else None
    if intent.missing[-1:] == ("consent",):
        # Asked last, once nothing else was lacking: only a yes makes the change.
        if intent.missing == ("consent",) and is_affirmative(text):
            return [dataclasses.replace(intent, missing=())]
        if intent.missing == ("consent",):
            return None
    if "sorry" in text.lower() and (sorry := _SORRY_LEAD.match(text.lower())) is not None:
        # "What time…?" → "sorry nine fifteen in the morning": the apology is no part of
        # the answer (read into the ask, it read as a correction of nothing).
        text = text[sorry.end() :]
    if intent.kind == "create_ticket" and _ASKS_OWN_QUESTION.match(normalize(text).text):
        # "What's the problem you'd like me to report?" → "ok um what's the status of that":
        # a question of the customer's own, no subject (a case was opened titled with it).
        return None
    closing = "all" in text or " it" in text or "bye" in text or "else" in text or "done" in text
    if closing and _ONLY_CLOSES.match(normalize(text).text):
        # "Which day should it be due?" → "ok so yeah that's all": the call closed, no
        # answer (it was a to-do titled "Fast the day yeah that's all").
        return None
    if intent.kind == "book_appointment" and (booked := intent.arguments.get("service")):
        # "What time on Friday…?" → "ok, 1pm for the haircut": the visit named again is
        # the one asked about (read twice, "I need a haircut on friday … the haircut"
        # read as a question about the haircut booked)
        text = _FOR_THE.sub(
            lambda said: "" if services_named(said.group("s")) == {booked} else said[0],
            text,
        )
    # The clause is already normalized; the reply goes in raw so that an email or a
    # phone number in it is lifted out as usual.
    clause = intent.clause
    if intent.missing[0] == "offered":
        named = str(intent.arguments.get("service") or "")
        if named in OFFERED and is_affirmative(text):
            # "Did you mean a dental cleaning?" → "yes": that one, and what else is lacking.
            return [dataclasses.replace(intent, missing=intent.missing[1:])]
        # "no, a haircut": the service said now, in the place of the one not offered.
        said, _ = service_said_apart(clause) or (named.lower(), named)
        reply = normalize(text).text
        if (instead := service(reply, reply)) in OFFERED and instead is not None:
            again = detect_intents(clause.replace(said, instead.lower(), 1), now, timezone)
            return [i for i in again if i.kind == intent.kind][:1] or None
        clause = clause.replace(said, " ")
    if (
        intent.kind == "update_contact"
        and intent.missing[0].startswith("phone")
        and not _run_on_groups(clause, text)
    ):
        # "change my phone to 555 0134" → "the full number?" → "415 555 0134": the digits
        # said first give way to the number said now (read together, they ran into one);
        # unless they began it: "415 555" → "0172", "415" → "555 0172" (an area code, or
        # it and the exchange, then the rest: ten digits in all, read back before a yes)
        clause = " ".join(_DIGITS_SAID.sub(" ", clause).split())
    if intent.missing[0] == "move_or_cancel":
        # "cancel my haircut to friday" → "moved, or cancelled?" → "move it"
        answered = mixed_verbs.as_answered(intent, text)
        if answered is None:
            return None
        return detect_intents(answered, now, timezone)[:1] or None
    if intent.missing[0] == "either":
        # "at 3 or 4" → "which time?" → "4pm": the one said now in the place of the two
        again = detect_intents(settled(intent.kind, clause, text), now, timezone)
        chosen = [i for i in again if i.kind == intent.kind][:1]
        if chosen and intent.target is not None and chosen[0].target is None:
            chosen[0] = dataclasses.replace(chosen[0], target=intent.target)
        return chosen or None
    if "when" in intent.missing:
        # "book a haircut on thanksgiving at 3pm" → "which day?" → "november 28th": the
        # day not read gives way to the one said now.
        clause = without_unread_day(clause) or clause
    if (
        intent.kind == "reschedule_appointment"
        and (intent.target is None or intent.target.vague)
        and (visit := _VISIT_TO.match(normalize(text).text)) is not None
        and services_named(visit.group("s"))
    ):
        # "can you push it" → "When would you like to move it to?" → "cleaning to friday":
        # the visit to move named with its day (read as a new booking of it, then booked)
        said = f"move my {visit.group('s')} to {visit.group('rest')}"
        found = detect_intents(said, now, timezone)
        moves = [i for i in found if i.kind == intent.kind and i.target and not i.target.vague]
        return moves[:1] or None
    if set(intent.missing) & _TIME_ASKED:
        if _ASKS_BACK.match(normalize(text).text):
            # "When would you like to move it to?" → "how late are you open on friday?":
            # a question of the customer's own, the day in it no answer (nothing moved).
            return None
        if _no_time_said(text, now):
            if intent.kind == "reschedule_appointment" and _SHIFTED.search(text.lower()):
                # "when would you like to move it to?" → "the day before, same time", "a
                # day earlier": counted from the visit moved, the move still asked (its
                # shift is read from these words as from the move said whole).
                return [intent]
            # "That time has already passed. When…?" → "no I mean it, just put it in",
            # "what day of the week is that?": no time in the reply, so none is filled
            # (the time said before, read again without its day, was a day not asked).
            return None
        clause, text = _retimed(clause, text, now)
    if (
        intent.kind == "add_task"
        and "title" in intent.missing
        and (noun := _TODO_NOUN.search(clause)) is not None
        and clause[noun.end() :].strip()
    ):
        # "add a reminder for that day" → "What should the task say?" → "pay the bill": what
        # to do goes after the to-do's noun, before the words said of its day (after them,
        # it was titled "Day pay the bill")
        said = _TO_LEAD.sub("", text.strip())
        return (
            detect_intents(f"{clause[: noun.end()]} to {said}{clause[noun.end() :]}", now, timezone)
            or None
        )
    joiner = " to " if intent.kind == "reschedule_appointment" else " "
    filled = detect_intents(clause + joiner + text, now, timezone)
    same = [i for i in filled if i.kind == intent.kind]
    said_before = intent.target is not None and not intent.target.vague
    if same and said_before and (same[0].target is None or same[0].target.vague):
        # The one it is about was said in an earlier reply ("the dentist one"): kept.
        same[0] = dataclasses.replace(same[0], target=intent.target)
    if same and intent.missing == ("anchored_when",) and not _day_said(same[0]):
        # "the morning after my haircut" → "which day?" → "9am": the hour, not yet the
        # day: written on no day read into it (its own, today's); the day is asked again.
        arguments = {k: v for k, v in same[0].arguments.items() if k != "starts_at"}
        return [dataclasses.replace(same[0], arguments=arguments, missing=intent.missing)]
    # Progress is enough: "book a haircut" → "when?" → "Friday" leaves only the time to ask.
    if same and (
        same[0].complete
        # "What's the new phone number?" → "it's 415 555": digits, too few, asked to be
        # finished (they were "Sorry, I didn't catch that", and lost to the rest said next)
        or (
            intent.missing == same[0].missing == ("phone",)
            and _DIGITS_SAID.search(intent.clause) is None
            and _DIGITS_SAID.search(same[0].clause) is not None
        )
        or len(same[0].missing) < len(intent.missing)
        or (same[0].missing == ("time",) and "when" in intent.missing)
        # "tomorrow morning" → "what time?" → "make it friday afternoon": still no hour,
        # but the day asked about is the one said now.
        or (same[0].missing == intent.missing == ("time",) and _other_day(same[0], intent))
        # "what time on Friday afternoon?" → "11": an hour, whose half of the day is asked
        or (same[0].missing == ("meridiem",) and intent.missing == ("time",))
        # "what time on Friday?" → "afternoon", "morning would be best": no hour yet, but
        # the part of the day is said (asked again about that part, not taken as a hello).
        or (
            same[0].missing == intent.missing == ("time",)
            and _part_said(same[0])
            and not _part_said(intent)
        )
        # "when would you like it?" → "3pm today" when 3 PM has passed: the time said is
        # the answer, and what is wrong with it is said ("that time has already passed").
        or (
            bool(same[0].missing)
            and set(same[0].missing) <= _SAID_TIME_PROBLEMS
            and bool({"when", "time"} & set(intent.missing))
        )
    ):
        return same[:1]
    return None


# A reply that asks a question back with a question word ("how late are you open on
# friday?", "which is earlier?"); "what about friday?", "how about 3?" offer a time.
_BOOKING_SAID = rx(
    r"\b(?:book|booking|new|another|schedule|appointment for|make (?:a|an|me)|get me|set up)\b"
)


def _no_booking_said(text: str) -> bool:
    """No word of a booking in the reply: a visit and a day only ("cleaning to friday")."""
    return _BOOKING_SAID.search(normalize(text).text) is None


# A visit named, then where it goes: "cleaning to friday", "the haircut, saturday at 11".
_VISIT_TO = rx(
    r"^(?:(?:ok|okay|oh|um|so|sorry)\W+)*(?:the |my )?(?P<s>[a-z][a-z ]{2,25}?)(?: one)?"
    r"(?:,? (?:to|for|on) |, )(?P<rest>.+)$"
)
_ASKS_BACK = rx(
    r"^(?:(?:wait|hang on|hold on|ok|okay|and|so|um|erm|sorry|oh|hmm|well|but)\b\W*)*"
    r"(?:how(?! about\b)|what(?!(?: about| if)\b)|what's|when|when's|where|where's|which|why)\b"
)


# A time counted from the visit itself: "the day before", "an hour later".
_SHIFTED = rx(r"\b(?:before|after|earlier|later|sooner)\b")


# What may answer "morning or evening?" with no clock: the half of the day alone.
_HALF_OF_DAY = rx(r"\b(?:am|a\.m|pm|p\.m|morning|afternoon|evening|night|tonight|noon|midday)\b")


def _no_time_said(reply: str, now: datetime) -> bool:
    """The reply to a question about a time says none (no day, no hour, no half of the
    day) and is no yes: it pushes back or asks something of its own."""
    said = re.sub(r"\s*,\s*", " ", normalize(reply).text)
    if find_when(said, now) is not None or _BARE_HOUR_REPLY.match(said):
        return False
    return _HALF_OF_DAY.search(said) is None and not is_affirmative(reply)


def _day_said(intent: Intent) -> bool:
    return intent.when is not None and intent.when.day is not None and not intent.when.day_implied


def _part_said(intent: Intent) -> bool:
    return intent.when is not None and intent.when.vague_time


def _other_day(now_said: Intent, before: Intent) -> bool:
    day = now_said.when.day if now_said.when is not None else None
    return day is not None and (before.when is None or before.when.day != day)


# What the assistant asks about a time: none said, none usable, one on no calendar.
_TIME_ASKED = frozenset(
    {"when", "time", "future", "no_such_date", "weekday_conflict", "meridiem", "repeat"}
)
# What is wrong with a time the customer said: asked about in its own words.
_SAID_TIME_PROBLEMS = frozenset({"future", "no_such_date", "weekday_conflict", "meridiem"})
_MONTH = rx(rf"\b(?:{'|'.join(MONTHS)})\b")
_DAY_OF_MONTH = rx(r"\b(?:the )?(\d{1,2}(?:st|nd|rd|th))\b")
_WEEKDAY = rx(rf"\b(?:{'|'.join(WEEKDAYS)})\b")
# A week said by when it falls, whose first day is its Monday (language/dates.py).
_A_WEEK_BY_ITS_DAYS = rx(r"\bweek (?:after next|of|starting|beginning|commencing)\b")
_TRAILING_TO = rx(r"\s+(?:(?:to|for|on|at|in)(?:\s+the)?|the)\s*$")


_PART_OF_DAY = rx(r"\b(?:morning|afternoon|evening|tonight|night)\b")
_PARTS = {"tonight": "evening", "night": "evening"}
# An hour's half of the day said with it: "3pm", "10 a.m.", "in the morning".
_MERIDIEM = rx(r"\b(?:[ap]m|[ap]\.m\b|morning|afternoon|evening|tonight|night|noon|midnight)")
_BARE_HOUR_REPLY = rx(
    r"^(?:(?:ok|okay|um|uh|erm|yeah|yes|so|maybe|say|sorry|oh|oops|actually|no|wait|but"
    r"|make it|i meant|i mean|how about|what about|let's say|lets say|let's do|lets do|try"
    # "can we do 5", "could you do 4": an hour offered, asked as a question
    r"|(?:can|could) (?:we|you|i) (?:do|say|make it|go for))\W+)*(1[0-2]|0?[1-9])\b"
    r"(?!\s*(?:st|nd|rd|th|days?|weeks?|months?|minutes?|mins?|hours?|of)\b|[/.:-]\d)"
)


# Digits said as a number, with an extension after them ("555 0134 ext 4").
_DIGITS_SAID = rx(
    r"\+?\d[\d\s().-]*\d(?:\s*(?:,\s*)?(?:\b(?:ext|extn|extension)\b\.?|\bx)\s*\d+)?|\+?\d"
)
# A reply of digits alone (and words of no number: "it's", "the rest is").
_ONLY_DIGITS = rx(
    r"^(?:[a-z' ]*?\s)?(?P<d>\d{3,4}(?:[ .-]\d{3,4})?)"
    r"(?:[\s,.]+(?:thanks|thank you|please|that's it|that's all))?[\s.!]*$"
)


def _run_on_groups(clause: str, reply: str) -> bool:
    """The digits said before a number's question began it, and the reply ends it: three
    or six said (an area code, and the exchange), ten in all, the reply digits alone."""
    if (said := _ONLY_DIGITS.match(reply.lower().strip())) is None:
        return False
    before = sum(ch.isdigit() for m in _DIGITS_SAID.finditer(clause) for ch in m.group(0))
    return before in (3, 6) and before + sum(ch.isdigit() for ch in said.group("d")) == 10


# "oh sorry", "ah my bad", "oops": said before the answer to a question about the time.
_SORRY_FIRST = rx(r"^(?:(?:oh|ah|aah|oops|whoops|sorry|my bad|um|uh|erm|woops)\b[\s,.!-]*)+")
_COMMA = rx(r"\s*,(?!\s*(?:like|say|maybe|ideally) \d)\s*")


def _retimed(clause: str, reply: str, now: datetime) -> tuple[str, str]:
    """The clause without the time it said, and the reply with what it left unsaid.

    "book a checkup on february 30th at 10" → "which day?" → "the 28th then": the reply
    replaces the day, keeps the month and the time it did not change ("February 28 at
    10"); "move it to sometime next week" → "tuesday at 10" replaces the vague time.
    """
    # Only a time is expected: read as one clause ("the 30th, same time"); a comma before
    # an hour offered stays ("tomorrow first thing, like 9": the 9 is the hour).
    reply = said = _COMMA.sub(" ", normalize(reply).text)
    if said[:1] in "soaumw" and (sorry := _SORRY_FIRST.match(said)) and said[sorry.end() :]:
        # "morning or evening?" → "oh sorry 8pm": an apology before the answer puts right
        # nothing of the request (read after it, "sorry" cut the request away)
        reply = said = said[sorry.end() :]
    if (hour := _BARE_HOUR_REPLY.match(said)) and find_when(said, now) is None:
        # "what time?" → "12 is fine", "4 please": the number is the hour asked for.
        reply = said = f"at {said[hour.start(1) :]}"
    earlier = find_when(clause, now)
    if earlier is None:
        return clause, reply
    if earlier.vague_day and "next week" in clause and "week" not in said:
        # "sometime next week" → "tuesday at 10": the Tuesday of next week.
        reply = said = _WEEKDAY.sub(r"\g<0> next week", said, count=1)
    elif (
        earlier.vague_day
        and earlier.day is not None
        and "week" not in said
        and _A_WEEK_BY_ITS_DAYS.search(clause)
        and (weekday := _WEEKDAY.search(said)) is not None
    ):
        # "to the week after next" → "tuesday": that week's Tuesday (was: tomorrow's, a
        # wrong move); "the week of the 28th" → "thursday" the same way.
        that_day = earlier.day + timedelta(
            days=(WEEKDAYS.index(weekday.group(0)) - earlier.day.weekday()) % 7
        )
        reply = said = (
            f"{said[: weekday.start()]}{that_day:%B} {that_day.day}{said[weekday.end() :]}"
        )
    elif (
        earlier.weekday_conflict
        and earlier.day is not None
        and earlier.weekday_said is not None
        and (weekday := _WEEKDAY.search(said)) is not None
        and not _DAY_OF_MONTH.search(said)
        and not _MONTH.search(said)
        and "next" not in said
        and "week" not in said
    ):
        # "wednesday the 22nd" (a Tuesday) → "January 22 is a Tuesday… Did you mean Tuesday,
        # January 22, or Wednesday, January 23?" → "the tuesday then": the Tuesday offered,
        # the 22nd (was: tomorrow, the next Tuesday, booked); "wednesday": the 23rd. Another
        # weekday named is read as said.
        named = WEEKDAYS.index(weekday.group(0))
        offered = earlier.day + timedelta(days=earlier.weekday_said - earlier.day.weekday())
        picked = {earlier.day.weekday(): earlier.day, earlier.weekday_said: offered}.get(named)
        if picked is not None:
            reply = said = (
                f"{said[: weekday.start()]}{picked:%B} {picked.day}{said[weekday.end() :]}"
            )
    month = _MONTH.search(clause[earlier.spans[0][0] :]) if earlier.spans else None
    if earlier.no_such_date is not None and _A_YEAR.search(earlier.no_such_date):
        # "There's no February 29 in 2033…" → "the 28th", "march 1st": of that year
        month = None
    if month and not _MONTH.search(said) and (day := _DAY_OF_MONTH.search(reply)):
        reply = f"{reply[: day.start()]}the {day.group(1)} of {month.group(0)}{reply[day.end() :]}"
    if earlier.no_such_date is not None and not month:
        reply = _in_counted_month(earlier.no_such_date, said, reply)
    again = find_when(normalize(reply).text, now)
    if (
        earlier.vague_time
        and again is not None
        and again.clock is not None
        and not again.vague_time
        and _MERIDIEM.search(said) is None
        and (part := _PART_OF_DAY.search(clause)) is not None
    ):
        # "the day after tomorrow in the evening" → "what time?" → "six o'clock": six in
        # the evening asked about, not asked again whether morning or evening; "friday
        # afternoon" → "what time?" → "11" is 11 in the afternoon, which is asked about
        # (it was booked at 11 AM).
        # (Said before the hour, as it was: "in the evening" after it would be its "pm".)
        reply = f"in the {_PARTS.get(part.group(0), part.group(0))} {reply}"
        again = find_when(normalize(reply).text, now)
    if earlier.hour_unsure and earlier.clock is not None and (again is None or again.vague_time):
        # "friday at 7" → "morning or evening?" → "in the morning": 7 in the morning.
        reply = f"at {earlier.clock:%-I:%M} {reply if again is not None else ''}".strip()
        if again is None and re.search(r"\b(?:am|a\.m\.|morning)\b", said):
            reply += " am"
        elif again is None and re.search(r"\b(?:pm|p\.m\.|evening|night)\b", said):
            reply += " pm"
        again = find_when(normalize(reply).text, now)
    day_still_unsaid = (
        earlier.vague_day or earlier.day_unread or earlier.no_such_date is not None
    ) and (again is None or again.day is None or again.day_implied)
    if (
        earlier.clock is not None
        and not earlier.vague_time
        and (again is None or again.clock is None)
        and not day_still_unsaid
    ):
        # (Not when the day asked about is still unsaid: "next month at 2pm" → "when?"
        # → "ok", or "february 30th at 10" → "which day?" → "ok", names no day, and
        # the hour alone would be read as today's.)
        reply = f"{reply} at {earlier.clock:%H:%M}"
    if (
        earlier.day is not None
        and not earlier.day_implied
        and not earlier.vague_day
        and again is not None
        and again.day_implied
    ):
        # "book a consultation for wednesday" → "what time?" → "half ten": Wednesday's,
        # not the next 10:30 that comes (the day said is not taken away with the time).
        reply = f"{reply} on {earlier.day:%B} {earlier.day.day} {earlier.day.year}"
    stripped = _TRAILING_TO.sub("", cut_spans(clause, list(earlier.spans)))
    return stripped, reply


_A_YEAR = rx(r"\b20\d\d\b")
_COUNTED_DATE = rx(r"^([a-z]+) \d{1,2}(?:, (\d{4}))?$")


def _in_counted_month(asked: str, said: str, reply: str) -> str:
    """The reply to "February 31 isn't a date on the calendar" (a day counted in months,
    "a month from today" on the 31st, its month not said) read in the month the count
    named: "the 28th" is February's."""
    counted = _COUNTED_DATE.match(asked.lower())
    year = f" {counted.group(2)}" if counted is not None and counted.group(2) else ""
    if counted is not None and year and _MONTH.search(said) and not _A_YEAR.search(said):
        # "February 29, 2033 …" → "march 1st": that year's (read alone, the next one)
        return f"{reply}{year}"
    if counted is None or counted.group(1) not in MONTHS or _MONTH.search(said):
        return reply
    if (day := _DAY_OF_MONTH.search(reply)) is None:
        return reply
    named = f"{counted.group(1)} {day.group(1)[:-2]}{year}"
    return f"{reply[: day.start()]}{named}{reply[day.end() :]}"


_DOMAIN_READS = {"reschedule_appointment": "appointments", "cancel_appointment": "appointments"}


def _aimed_at(intent: Intent, text: str, own: list[Intent], now: datetime) -> Intent | None:
    """The lacking action aimed at the one the reply names, when it named none itself and
    the reply is only that name ("the dentist one"): a visit by its service."""
    domain = _DOMAIN_READS.get(intent.kind)
    if domain is None or (intent.target is not None and not intent.target.vague):
        return None
    if len(text.split()) > _MAX_ANSWER_WORDS or any(i.kind != domain for i in own):
        return None
    norm = normalize(text)
    if _ASKS_ABOUT.search(norm.text):
        return None
    target = target_ref(norm.text, norm.original, now)
    if target.vague or not any(service(word, word) for word in target.words):
        return None
    return dataclasses.replace(intent, target=target)


def _near_agreed(intent: Intent, text: str, asked: _Asked, timezone: str) -> Intent | None:
    """ "move my dental surgery" → "Did you mean your dental cleaning on…?" → "yes": the
    earlier action aimed at the one offered, when one was."""
    if intent.target is None or not is_affirmative(text):
        return None
    before = resolve_intent(intent, asked.results, timezone)
    if not isinstance(before, NoMatch) or len(before.near) != 1:
        return None
    meant = str(before.near[0].get("id") or "")
    return dataclasses.replace(intent, target=dataclasses.replace(intent.target, item_id=meant))


def _renamed(
    intent: Intent, text: str, asked: _Asked, now: datetime, timezone: str
) -> Intent | None:
    """The earlier action aimed at the target the reply describes, if it is one."""
    norm = normalize(text)
    if _ASKS_ABOUT.search(norm.text) or ASKED_OF_IT.search(norm.text):
        # "wait, what's the other appointment I have?", "and the haircut is that still on"
        # ask; they name no target (was: the cancel held aimed at the haircut)
        return None
    target = target_ref(norm.text, norm.original, now)
    if target.vague or intent.target is None:
        return None
    target = dataclasses.replace(target, context=intent.target.words)
    aimed = dataclasses.replace(intent, target=target)
    before = resolve_intent(intent, asked.results, timezone)
    now_resolved = resolve_intent(aimed, asked.results, timezone)
    if isinstance(now_resolved, Match) or (
        isinstance(now_resolved, Ambiguous)
        and isinstance(before, Ambiguous)
        and len(now_resolved.candidates) < len(before.candidates)
    ):
        return aimed
    return None
