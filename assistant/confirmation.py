"""Confirmation of the calls that wait for a "yes": one question naming all of them.

Destructive calls (cancel an appointment, delete a task) and changes to identity data
(phone, email: how callers are recognised) never run on a model's word alone. Every
such call of a round waits, together, under one question ("Are you sure you want to
delete the tasks 'Buy groceries' and 'Schedule eye exam'?"); yes runs all of them, no
runs none. What to say on a no, and when the customer moves on instead, is worked out
here too, while the results that name the targets are at hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from assistant.language.account_rules import later_start
from assistant.language.another_hour import another_hour
from assistant.language.as_meant import as_meant
from assistant.language.confirm import (
    detail_named,
    go_ahead_named,
    go_ahead_naming,
    is_affirmative,
)
from assistant.language.confirm import is_negative as says_no
from assistant.language.confirm import request_after_yes as _said_after_yes
from assistant.language.dates import find_when
from assistant.language.hesitation import only_hesitates, only_pauses
from assistant.language.intents import is_request
from assistant.language.narrowed import agreed, picked
from assistant.language.others import for_someone_else
from assistant.language.replacing import replaces, time_left_open
from assistant.language.slots import e164, extension_said, services_named
from assistant.language.text import EMAIL_TOKEN, PHONE_TOKEN, normalize
from assistant.schema import ToolCall, ToolResult
from assistant.session import PendingConfirmation
from assistant.speech import article, join_and, phone

__all__ = [
    "Narrowed",
    "Wording",
    "asked_again_after_moving_on",
    "asks_to_repeat",
    "asks_what_it_does",
    "asks_which_held",
    "back_to",
    "declined_answer",
    "detail_named",
    "glad_of_it",
    "go_ahead_named",
    "go_ahead_naming",
    "hesitates",
    "is_affirmative",
    "is_negative",
    "narrowed",
    "request_after_yes",
    "says_yes_to",
    "what_it_does",
    "when_said",
    "withdrawn_first",
    "wording",
]

# Past this many words a "no" carries a new request ("no, show me my billing instead"),
# which the planner should hear; a bare "no" is answered here.
_BARE_NO_WORDS = 4


def is_negative(text: str) -> bool:
    """True for a bare no ("no", "nope, keep it", "never mind"); "no, just the haircut"
    narrows what waits, which the planner hears."""
    return (
        says_no(text)
        # "okay so nah, leave it": the words that only open it are not counted; "no wait,
        # don't. keep it.": every word one of saying no, however many.
        and (len(as_meant(text).split()) <= _BARE_NO_WORDS or _only_no_words(text))
        and _NARROWED.search(text.lower()) is None
        and _PUT_RIGHT.search(text.lower()) is None
        # "lol no the haircut", "no, the groceries one": another item meant instead
        and (_ANOTHER_NAMED.match(text.lower()) is None or _only_no_words(text))
        # "no sry, maria@example.net", "no sorry 415 555 0145": the no carries the value
        # meant instead, which the planner hears.
        and _A_VALUE.search(text) is None
        # "wait, what's my balance?": a question of its own after the pause, answered (the
        # change let go as for any question), not a no with nothing else heard
        and not _asks_after_a_pause(text)
    )


_PAUSE_LEAD = re.compile(r"^(?:(?:wait|hang on|hold on|oh|um|uh|sorry|actually)\b[\s,.!:;-]*)+")


def _asks_after_a_pause(text: str) -> bool:
    said = text.lower().strip()
    lead = _PAUSE_LEAD.match(said)
    if lead is None:
        return False
    rest = said[lead.end() :]
    return bool(rest) and not _only_no_words(rest) and is_request(rest)


# The words of a no and of keeping things as they are, and nothing else.
_NO_WORDS = frozenset(
    {
        "no", "nope", "nah", "wait", "don't", "dont", "not", "keep", "leave", "it", "that",
        "as", "is", "actually", "sorry", "never", "mind", "hold", "on", "hang", "stop",
        "forget", "oh", "please", "sec", "second", "hmm", "um", "alone", "thanks", "thank",
        "you", "cheers", "thx", "ta",
    }
)  # fmt: skip


# "keep the task", "leave the eye exam one": what was asked about, kept, named by its kind
# (a no: declining every call held is the safe side when two were)
_KEEP_KIND = re.compile(
    r"\b(keep|leave) (?:the|my|that) (?:[a-z]+ ){0,3}?(?:task|appointment|visit|booking"
    r"|reminder|one|to-?do)\b"
)


def _only_no_words(text: str) -> bool:
    said = re.sub(r"\bdo not\b", "don't", text.lower().replace("’", "'"))
    said = _KEEP_KIND.sub(r"\1 it", said)
    if "keep" in said or "leave" in said:
        # "no wait keep the cleaning actually": the visit asked about, kept, by its service
        said = _KEEP_SERVICE.sub(_kept_service, said)
    return all(word in _NO_WORDS for word in re.findall(r"[a-z']+", said))


# "no, the other one": another item meant, which the planner hears (and asks about).
_NARROWED = re.compile(r"\b(?:just|only)\b|\bthe other (?:one|appointment|task|booking)\b")
# "keep the cleaning", "leave my haircut": a visit kept, named by its service.
_KEEP_SERVICE = re.compile(r"\b(keep|leave) (?:the|my|that) ([a-z]+(?: [a-z]+)?)\b")


def _kept_service(match: re.Match[str]) -> str:
    if match.string[: match.start()].endswith(("don't ", "dont ", "not ")):
        return match.group(0)  # "no wait don't keep the cleaning": not kept, asked again
    named = services_named(match.group(2)) or services_named(match.group(2).split()[0])
    return f"{match.group(1)} it" if named else match.group(0)


# "no, the haircut", "lol no the groceries one", "sorry no my cleaning instead": a no, then
# only another item named, which the planner hears (asking about it instead).
_ANOTHER_NAMED = re.compile(
    r"^(?:(?:lol|haha+|oops|oh|no|nope|nah|sorry|wait)\b[\s,.!]*)+(?:i meant |i mean )?"
    r"(?:the|my) (?!other\b)(?!.*\b(?:is|are|was|fine|good|ok|okay|stays?|keep|leave)\b)"
    r"[a-z][a-z ]{2,30}?(?: one| appointment| task| to-?do)?"
    r"(?: instead| please| pls)?[\s.!]*$"
)
# An email address or a number of three digits or more (a phone number or its last digits).
_A_VALUE = re.compile(r"[^\s@]@[^\s@]+\.[a-z]|\d{3}", re.IGNORECASE)
# "sorry, hotmail not gmail": one word of what waits put right, which the planner hears
# ("no, not now" is a no).
_PUT_RIGHT = re.compile(
    r"\b(?!(?:no|nope|nah|not|now|yet|it|that|this|them|really|please|sure|one|me|so|then"
    r"|thanks|ok|okay|yes|sorry|wait|just|anymore|ever|again)\b)[a-z0-9_]+,? not [a-z0-9_]+"
    r"(?:,? (?:thanks|thank you|please))?[ .!]*$"
)


# "my email to …", "the phone to …": a contact detail named with its new value, the verb
# of the change said before it ("yes, and my email to maria@new.com too").
_DETAIL_AND_VALUE = re.compile(r"\b(?:e-?mail|phone|number|mobile|cell)\b.*?\b(?:to|is)\b")


# "sorry, my kid was yelling. what did you say?": the question was not heard; asked again.
_REPEAT = re.compile(
    r"\b(?:what did you (?:just )?say|what was that|say (?:that|it) again|come again"
    r"|(?:can|could) you repeat(?: that| it| the question)?|repeat that|didn't (?:hear|catch)"
    r" (?:that|you|what you said)|missed (?:that|what you said))\b|^(?:sorry|pardon)\W*$"
)


# "ok good", "great, thanks": glad of what was said, no yes to doing a thing again.
_GLAD = re.compile(
    r"^(?:(?:ok|okay|oh|ah)[\s,.!]*)?(?:good|great|perfect|cool|nice|lovely|excellent"
    r"|brilliant|awesome)(?:[\s,.!]+(?:thanks|thank you|then))?[\s.!]*$"
)


def glad_of_it(text: str, prompt: str) -> bool:
    """The reply to "I already added it… Do you want me to add it again anyway?" only
    says the customer is glad it is done ("ok good"): not a yes to doing it again."""
    return prompt.endswith("anyway?") and _GLAD.match(text.lower().strip()) is not None


# "ok, back to the groceries, yes delete it": the thing gone back to, then the answer.
_BACK_TO = re.compile(
    r"^(?:(?:ok|okay|right|so|and|anyway)[\s,]+)*(?:going |coming |getting )?back to (?:the|my)"
    r" (?P<what>[a-z][a-z' ]{1,40}?)(?: one| task| appointment| thing)?\s*[,.;:-]+\s*"
    r"(?P<rest>\S.*)$"
)
_NOT_NAMING = frozenset({"one", "task", "appointment", "thing", "visit", "booking"})


def back_to(text: str) -> tuple[tuple[str, ...], str] | None:
    """The words of the thing a reply goes back to, and what it says of it ("ok, back to
    the groceries, yes delete it": ("groceries",), "yes delete it"); None for any other."""
    said = text.lower().strip()
    if "back to" not in said or (match := _BACK_TO.match(said)) is None:
        return None
    words = tuple(w for w in match.group("what").split() if w not in _NOT_NAMING)
    return (words, match.group("rest")) if words else None


# "both", "yes, all of them", "do both please": every change the question named, said yes
# to (a question that named two or more).
_ALL_OF_THEM = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|ok|okay|sure)\b[\s,.!]*)?(?:(?:do|cancel|delete|remove)\s+)?"
    r"(?:both|all)(?: of them| of those| of em| two| three)?(?:[\s,.!]+(?:please|then|yes"
    r"|thanks|thank you))*[\s.!]*$"
)


def another_hour_for(calls: Sequence[ToolCall], text: str, now: datetime) -> bool:
    """Whether `text` answers a booking held for a yes with only another hour ("no, 10am",
    "ok then sunday at 10am"; `now` on the customer's clock): the booking wanted then."""
    if len(calls) != 1 or calls[0].tool_name != "crm.bookAppointment":
        return False  # (nearly every question)
    said = another_hour(text, now, bare=True)
    if said is None:
        return False
    when = find_when(said, now)
    try:
        held = datetime.fromisoformat(str(calls[0].arguments.get("starts_at")))
    except ValueError:
        return True
    return when is None or when.clock != held.astimezone(now.tzinfo).time().replace(tzinfo=None)


def says_yes_to(text: str, calls: Sequence[ToolCall], prompt: str = "") -> bool:
    """Whether the reply says yes to the calls held (asked about in `prompt`): a clear
    yes that names nothing else, or "both" / "all of them" to a question naming more than
    one."""
    if is_affirmative(text):
        return not _puts_a_detail_right(text, calls) and not _aims_elsewhere(text, calls, prompt)
    if len(calls) < 2:
        return False
    said = text.lower().strip()
    return ("both" in said or "all" in said) and _ALL_OF_THEM.match(said) is not None


# A yes to a contact change that goes on to put the detail right: "yeah except the last
# digit is 4", "yes, but the first part should be…" (the number asked was written).
_DETAIL_PUT_RIGHT = re.compile(
    r"\b(?:except|apart from|typo|mistake|should be|should say"
    r"|supposed to be|(?:last|first|middle) (?:digit|digits|number|numbers|letter|part|bit"
    r"|one|two|three|four)|(?:one|a) digit)\b"
)
_DIGITS = re.compile(r"\d+")
_LIFTED = re.compile(rf"\b(?:{EMAIL_TOKEN}|{PHONE_TOKEN})\d+\b")


def _puts_a_detail_right(text: str, calls: Sequence[ToolCall]) -> bool:
    """A yes to a contact change whose reply says another detail than the one asked (an
    email, a number, digits not in the number asked), or words that put part of it right:
    no yes to the detail asked ("yes, 415 555 0144 actually" to 0143 wrote 0143; "yes the
    last four are 0134" the same). The reply is then read as the customer's own ask."""
    held = [call.arguments for call in calls if call.tool_name == "crm.updateContactInfo"]
    if not held:
        return False
    said = normalize(text)
    emails = {str(arguments["email"]).lower() for arguments in held if "email" in arguments}
    phones = [str(arguments["phone"]) for arguments in held if "phone" in arguments]
    # (Another kind of detail said after the yes is a change of its own: "yes, and my
    # email to … too" to a new number.)
    if emails and any(email.lower() not in emails for email in said.emails):
        return True
    if phones and any(e164(number) not in phones for number in said.phones):
        return True
    rest = _LIFTED.sub(" ", said.text)  # (the placeholders' numbers are none of hers)
    if phones and any(not any(run in phone for phone in phones) for run in _DIGITS.findall(rest)):
        return True
    return _DETAIL_PUT_RIGHT.search(rest) is not None


# A yes that goes on to name another item or time than the one asked about: "yes, the eye
# exam one actually" to "delete 'Buy groceries'?", "yes, the one on wednesday" to "cancel
# your haircut on Sunday?", "yes, but call it buy more groceries" to "…add it again
# anyway?" (each was made as asked, not as meant).
_ANOTHER_ONE = re.compile(
    r"\b(?:i mean|i meant|instead|rather|not (?:that|the|this)|the other"
    # ("yes call it off" is a cancel said in other words: no name for it)
    r"|(?:call|name|title|rename|label) it(?! off\b)"
    r"|the (?:[a-z-]+ ){1,3}one|the one (?:on|at|for|in|from) [a-z0-9:]+)\b"
)
# An hour, a half of the day or a weekday said after the yes: checked against the time held.
_CLOCK_SAID = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b")
_HALF_SAID = re.compile(r"\b(morning|afternoon|evening|night|noon|midnight|am|pm)\b")
_WEEKDAY_SAID = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b")
_HALVES = {
    "morning": range(5, 12),
    "am": range(0, 12),
    "afternoon": range(12, 18),
    "pm": range(12, 24),
    "evening": range(17, 24),
    "night": (*range(19, 24), *range(0, 5)),
    "noon": (12,),
    "midnight": (0,),
}


def _aims_elsewhere(text: str, calls: Sequence[ToolCall], prompt: str) -> bool:
    """The yes goes on to name another item or another time than the calls held: no yes
    to them ("yes, 12:30 pm I mean" to a booking held at 12:30 AM booked 12:30 AM; "yes,
    4pm" the same; "yes, the eye exam one actually" deleted the groceries task asked
    about). The reply is then read as the customer's own ask."""
    said = _LIFTED.sub(" ", normalize(text).text)
    # (Not a question asked after it: "yes go ahead. do I still owe for the last one?"
    # asks something more; "Yes. The eye exam one." is still of the yes.)
    said = " ".join(
        sentence
        for number, sentence in enumerate(_SENTENCE.findall(said))
        if number == 0 or not sentence.rstrip().endswith("?")
    )
    opening = _YES_OPENING.match(said)
    rest = said[opening.end() :] if opening else said
    if not rest.strip(" ,.!?"):
        return False
    asked = set(_WORDS_OF.findall(prompt.lower()))
    for another in _ANOTHER_ONE.finditer(rest):
        named = set(_WORDS_OF.findall(another.group(0))) - _NOT_NAMING_WORDS
        if not named or not named <= asked:
            return True  # ("yes, the sunday one" to "…your haircut on Sunday…?" is a yes)
    if (named_change := _CHANGE_NAMED.match(rest.lstrip(" ,.!"))) is not None:
        named = set(_LETTERS_OF.findall(named_change.group("what"))) - _NOT_NAMING_THINGS
        if named and not named <= asked:
            # "yes, cancel the haircut" to "…cancel your dental cleaning…?": another item's
            # change asked for in the yes's place, not a yes to this one (was: the cleaning
            # was cancelled). ("yes and also move my haircut" asks one more: a yes.)
            return True
    if any(call.tool_name == "crm.bookAppointment" for call in calls) and for_someone_else(rest):
        return True  # "yes, it's for my daughter": booked on hers as hers, unasked
    held = [
        moment
        for call in calls
        if (moment := _held_moment(call.arguments.get("starts_at"))) is not None
    ]
    if not held:
        return False
    for clock in _CLOCK_SAID.finditer(rest):
        hour, minute, half = int(clock.group(1)), int(clock.group(2) or 0), clock.group(3)
        if hour > 23 or not (clock.group(2) or half):
            continue  # a number that is no hour ("the 2 of them")
        if not any(
            moment.minute == minute
            and (moment.hour % 12 == hour % 12)
            and (half is None or (moment.hour >= 12) == (half == "pm"))
            for moment in held
        ):
            return True
    for half in _HALF_SAID.findall(rest):
        if not any(moment.hour in _HALVES[half] for moment in held):
            return True
    for weekday in _WEEKDAY_SAID.findall(rest):
        if not any(moment.strftime("%A").lower() == weekday for moment in held):
            return True
    return False


_WORDS_OF = re.compile(r"[a-z0-9]+")
# A change said with what it is made to just after the yes: "cancel the haircut", "delete
# my insurance task" (its words checked against the question's).
_CHANGE_NAMED = re.compile(
    r"(?:(?:just|then|now|so)\s+)*(?:cancel|call off|delete|remove|erase|move|reschedule|mark"
    r"|complete|tick off|change|update)"
    r" (?:the|my|your) (?P<what>[a-z][a-z' -]{1,40}?)(?=$|[,.!?;]| (?:and|too|as well|also"
    r"|instead|please|then|now|one|appointment|task|visit|booking|on|at|for|to)\b)"
)
_LETTERS_OF = re.compile(r"[a-z]+")
_NOT_NAMING_THINGS = frozenset(
    {
        "one",
        "ones",
        "appointment",
        "appointments",
        "task",
        "tasks",
        "visit",
        "booking",
        "it",
        "that",
        "this",
        "them",
        "thing",
        "first",
        "last",
        "same",
        "whole",
        "lot",
    }
)
_SENTENCE = re.compile(r"[^.?!]+(?:[.?!]+|$)")
_NOT_NAMING_WORDS = frozenset({"the", "one", "on", "at", "for", "in", "from"})


_YES_OPENING = re.compile(
    # ("so yeah yes, cancel the haircut": the fillers before the yes are of it; not "and",
    # whose change after the yes is one more: "yes and move my haircut")
    r"^\W*(?:(?:so|um+|uh+|well|oh|yes|yeah|yep|yup|ok|okay|sure|right|correct|please"
    r"|go ahead|do it|that's (?:right|fine|correct)|fine)\b[\s,.!]*)+"
)


def _held_moment(value: object) -> datetime | None:
    """The wall-clock moment a held call's time was written at (its own offset's)."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


# "wait, what will that do?", "what happens if I do?": what the change held would do, asked
# before answering (the question waits; it was let go, and the yes after it asked again).
_WHAT_IT_DOES = re.compile(
    r"\bwhat (?:will|would|does|is) (?:that|this|it) (?:do|mean|going to do)\b"
    r"|\bwhat happens (?:if|when|then|after|next)\b|\bwhat do you mean\b"
    r"|\bwhat does (?:that|this|it) (?:mean|involve)\b"
)
_DOES = {
    "crm.cancelAppointment": "Cancelling takes the visit off your calendar and frees its time;"
    " you can book again later.",
    "crm.deleteTask": "Deleting removes the task from your list for good; it isn't marked done.",
    "crm.updateContactInfo": "The new details replace the ones on file, and they're what we use"
    " to reach you and to recognise you when you call.",
}


def asks_what_it_does(text: str) -> bool:
    """The reply only asks what the change held would do ("wait, what will that do?")."""
    said = text.lower().strip()
    return len(said) < 60 and "what" in said and _WHAT_IT_DOES.search(said) is not None


# "wait, which one were you going to cancel?", "which one was that again?": what the held
# change is of, asked; its question names it.
_WHICH_HELD = re.compile(
    r"^(?:(?:wait|sorry|hang on|hold on|um|uh|oh|hmm|so|and)\b[\s,.!]*)*"
    r"(?:(?:which|what)(?: one| appointment| visit| task| booking| thing)?"
    r" (?:were|are|was|did) you (?:going to|gonna|about to|trying to|planning to|asking to)"
    r" (?:cancel|delete|remove|change|update)(?: again)?"
    r"|which one (?:is|was) (?:that|it)(?: again)?)[\s?!.]*$"
)


def asks_which_held(text: str) -> bool:
    """The reply only asks what the change held is of ("wait, which one were you going to
    cancel?"): its question, which names it, is asked again (it was let go: "I didn't
    cancel your dental cleaning", and the "the cancel, yes" after it re-asked)."""
    said = text.lower().strip()
    return (
        len(said) < 80
        and ("which" in said or "what" in said)
        and _WHICH_HELD.match(said) is not None
    )


def what_it_does(calls: Sequence[ToolCall]) -> str:
    """What the held calls would do, said before their question is asked again."""
    told = dict.fromkeys(_DOES.get(call.tool_name, "") for call in calls)
    said = " ".join(filter(None, told)) or "It would make that change to your account."
    return f"{said} Nothing changes until you say yes."


# "actually never mind, what's my next appointment?": the change taken back before the
# next thing is asked, so no later yes brings it back (a question moved on to without
# it, "actually just tell me what I owe", lets it go: a yes after is asked again).
_WITHDRAWN_FIRST = re.compile(
    r"^(?:(?:actually|oh|ok|okay|um|uh|well|no|nah|nope|sorry)\b[\s,.!]*)*"
    r"(?:never ?mind|forget (?:it|that|about it|about that)|scratch that|don't bother"
    r"|leave it|let's not|i changed my mind|changed my mind)\b[\s,.!;:-]+\S"
)


# "hang on, first schedule me a haircut", "wait, before that book a massage": a request
# said to come before the question waiting, which is asked again after it.
_ASKED_BEFORE_IT = re.compile(
    r"^(?:(?:hang on|hold on|wait|one sec(?:ond)?|just a sec(?:ond)?|sorry|ok|okay|actually"
    r"|um|uh|oh|so|yeah|well)\b[\s,.!-]*)*"
    r"(?:first|before (?:that|you do that|doing that|we do that))\b"
    r"[\s,]*(?:can you |could you |please |would you )?(?!of all\b|things?\b|one\b)\w+"
)


def asked_before_it(text: str) -> bool:
    """The message asks something to be done before the question waiting is answered."""
    said = text.lower().strip()
    return ("first" in said or "before" in said) and _ASKED_BEFORE_IT.match(said) is not None


def withdrawn_first(text: str) -> bool:
    """The reply takes the change back before it asks something else."""
    said = text.lower().strip()
    return _WITHDRAWN_FIRST.match(said) is not None


def asked_again_after_moving_on(held: PendingConfirmation) -> str:
    """The question of a change let go for a question in between, asked again for the bare
    yes said after it ("Just to be sure, as you asked something else in between: are you
    sure you want to cancel…?")."""
    prompt = held.prompt
    return (
        f"Just to be sure, as you asked something else in between: {prompt[:1].lower()}{prompt[1:]}"
    )


def hesitates(text: str) -> bool:
    """ "hmm, not sure", "let me think", "hold on a sec", "hang on": no answer yet, the
    question still open (a pause said with a request, "hang on, first book me a haircut",
    is that request, and lets the question go)."""
    return only_hesitates(text) or only_pauses(text)


def asks_to_repeat(text: str) -> bool:
    """The message only asks to hear the question again (nothing else is asked)."""
    said = text.lower().strip()
    return len(said) < 80 and _REPEAT.search(said) is not None


def request_after_yes(text: str) -> str | None:
    """ "yes, and also add a task to buy shampoo": the new request after the yes, or None
    (nothing, or only more words of the yes: "sure thing", "yes that's right")."""
    rest = _said_after_yes(text)
    if rest is None:
        return None
    if is_request(rest):
        return rest
    return rest if _DETAIL_AND_VALUE.search(rest) and _A_VALUE.search(text) else None


def _items(results: Iterable[ToolResult]) -> Iterator[dict[str, Any]]:
    """Every object with an id found in the results (tasks, appointments, …)."""
    for result in results:
        if not isinstance(result.result, dict):
            continue
        for value in result.result.values():
            if isinstance(value, list):
                yield from (item for item in value if isinstance(item, dict) and "id" in item)
            elif isinstance(value, dict) and "id" in value:
                yield value


def _find(results: Iterable[ToolResult], item_id: object) -> dict[str, Any] | None:
    return next((item for item in _items(results) if item.get("id") == item_id), None)


def when_said(starts_at: str, timezone: str) -> str:
    """ " on Sunday, November 29 at 2:30 PM" in the customer's timezone ("" if unreadable)."""
    return _when(starts_at, timezone)


def _when(starts_at: str, timezone: str) -> str:
    try:
        moment = datetime.fromisoformat(starts_at).astimezone(ZoneInfo(timezone))
    except (ValueError, KeyError):
        return ""
    hour = moment.strftime("%I:%M %p").lstrip("0")
    return f" on {moment:%A}, {moment:%B} {moment.day} at {hour}"


def _task(call: ToolCall, results: Sequence[ToolResult]) -> str | None:
    task = _find(results, call.arguments.get("task_id"))
    return f"'{task['title']}'" if task else None


def task_named(call: ToolCall, results: Sequence[ToolResult]) -> str | None:
    """The task a call names, by its title as the results hold it ("'Buy groceries'");
    None when they do not hold it."""
    return _task(call, results)


def visit_named(call: ToolCall, results: Sequence[ToolResult], timezone: str) -> str | None:
    """The visit a call names, as the results hold it ("your haircut on Sunday, November
    29 at 2:30 PM"); None when they do not hold it."""
    return _appointment(call, results, timezone)


def _appointment(call: ToolCall, results: Sequence[ToolResult], timezone: str) -> str | None:
    appointment = _find(results, call.arguments.get("appointment_id"))
    if appointment is None:
        return None
    service = str(appointment.get("service") or "appointment").lower()
    return f"your {service}{_when(str(appointment.get('starts_at', '')), timezone)}"


def _contact(call: ToolCall, said: str = "") -> list[str]:
    changes = []
    if email := call.arguments.get("email"):
        changes.append(f"your email to {email}")
    if number := call.arguments.get("phone"):
        left_out = extension_said(said) if said else None
        # "415 555 0177 ext 3": the account holds the number alone, so the question says
        # the extension is left out (a yes is a yes to the number without it)
        without = f", without the extension {left_out}" if left_out else ""
        changes.append(f"your phone number to {phone(str(number))}{_country(str(number))}{without}")
    return changes


# Said with a number outside North America, so that a yes is a yes to that country.
_COUNTRIES = {"+44": "a UK number"}


def _country(number: str) -> str:
    if number.startswith("+1"):
        return ""
    named = next((name for code, name in _COUNTRIES.items() if number.startswith(code)), None)
    return f" ({named or 'an international number'})"


def _clause(
    tool: str, calls: list[ToolCall], results: Sequence[ToolResult], tz: str, said: str = ""
) -> str:
    """ "delete the tasks 'Buy groceries' and 'Schedule eye exam'" for calls of one tool."""
    if tool == "crm.deleteTask":
        titles = [_task(call, results) for call in calls]
        if len(calls) == 1:
            return f"delete the task {titles[0]}" if titles[0] else "delete that task"
        if all(titles):
            return f"delete the tasks {join_and([t for t in titles if t])}"
        return f"delete those {len(calls)} tasks"
    if tool == "crm.cancelAppointment":
        named = [_appointment(call, results, tz) for call in calls]
        if all(named):
            return f"cancel {join_and([n for n in named if n])}"
        return "cancel that appointment" if len(calls) == 1 else "cancel those appointments"
    if tool == "crm.updateContactInfo":
        changes = [change for call in calls for change in _contact(call, said)]
        if not changes:
            return "change your contact details"
        # One number and one email are kept: "add a second number", "you can also reach
        # me on…", "a work email, but keep my personal one" would lose the one on file
        # on a yes, so the question says so.
        kept = "the ones" if len(changes) > 1 else "the one"
        # "from tomorrow use…", "my number will be … starting next week": a change is made
        # when it is said yes to, so the question says now, and that a later day is not kept.
        now = " now (I can't set it for a later day)" if later_start(said) else ""
        return f"change {join_and(changes)}{now}, in place of {kept} on file"
    return join_and([_write_clause(call, results, tz) for call in calls])


def _write_clause(call: ToolCall, results: Sequence[ToolResult], tz: str) -> str:
    """A write held because the customer did not say it (assistant/as_said.py): named
    with what it would do, the model's time and title included, so a yes is a yes to that."""
    arguments = call.arguments
    when = _when(str(arguments.get("starts_at", "")), tz)
    if call.tool_name == "crm.bookAppointment":
        return f"book {article(str(arguments.get('service') or 'appointment').lower())}{when}"
    if call.tool_name == "crm.rescheduleAppointment":
        target = _appointment(call, results, tz) or "that appointment"
        return f"move {target} to{when.removeprefix(' on')}" if when else f"move {target}"
    if call.tool_name == "crm.addTask" and arguments.get("title"):
        due = f" due {arguments['due_on']}" if arguments.get("due_on") else ""
        return f"add the task '{arguments['title']}'{due}"
    if call.tool_name == "crm.completeTask":
        return f"mark the task {_task(call, results) or 'you mean'} complete"
    if call.tool_name == "crm.updateTask":
        return _task_change(call, results)
    if call.tool_name == "crm.createTicket" and arguments.get("subject"):
        return f"open a support case about '{arguments['subject']}'"
    return "go ahead with that"


def _task_change(call: ToolCall, results: Sequence[ToolResult]) -> str:
    """ "give the task 'Buy groceries' the title 'DONE'": the change itself is named, so
    that a yes is a yes to it (a model's rename nobody asked for, asked about as "change
    the task you mean", was made by the yes that followed)."""
    arguments = call.arguments
    parts = []
    if arguments.get("title"):
        parts.append(f"the title '{arguments['title']}'")
    if arguments.get("due_on"):
        parts.append(f"the due date {_day(str(arguments['due_on']))}")
    if arguments.get("priority"):
        parts.append(f"{arguments['priority']} priority")
    if arguments.get("description"):
        parts.append("a new description")
    target = _task(call, results)
    named = f"the task {target}" if target else "a task"
    if not parts:
        return f"change {named}"
    return f"give {named} {join_and(parts)}"


def _day(value: str) -> str:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        return value
    return f"{day:%B} {day.day}, {day.year}"


# Calls that always wait for a yes: asked "Are you sure…?"; a write held only because
# the customer did not say it is asked "Shall I…?".
_CONFIRMED = frozenset({"crm.deleteTask", "crm.cancelAppointment", "crm.updateContactInfo"})


@dataclass(frozen=True, slots=True)
class Wording:
    """What to ask, what to say on a no, and what to say if the customer moves on."""

    prompt: str
    declined: str
    dropped: str
    # Each call and what it would do, in the order the question says them ("the second").
    named: tuple[tuple[str, str], ...] = ()


def wording(
    calls: Sequence[ToolCall], results: Iterable[ToolResult], timezone: str, said: str = ""
) -> Wording:
    """The question naming every pending call, and the answers if it is not a yes (`said`:
    the customer's words, for what the calls leave out of them)."""
    results = list(results)
    if (replacing := _replacement(calls, results, timezone, said)) is not None:
        return replacing
    by_tool: dict[str, list[ToolCall]] = {}
    for call in calls:
        by_tool.setdefault(call.tool_name, []).append(call)
    clauses = [_clause(tool, group, results, timezone, said) for tool, group in by_tool.items()]
    sure = all(call.tool_name in _CONFIRMED for call in calls)
    prompt = f"{'Are you sure you want to' if sure else 'Shall I'} {join_and(clauses)}?"
    dropped = f"I didn't {join_and(clauses, 'or')}."
    named = tuple(
        (call.call_id, _clause(tool, [call], results, timezone, said))
        for tool, group in by_tool.items()
        for call in group
    )
    return Wording(prompt, declined_answer(calls), dropped, named)


def _replacement(
    calls: Sequence[ToolCall], results: list[ToolResult], timezone: str, said: str
) -> Wording | None:
    """ "Are you sure you want to cancel your haircut on Sunday, January 20 at 2:30 PM and
    book a massage in its place at that time?": a visit replaced by another service, one
    question naming both (with the time asked too when none was said); None for any
    other calls."""
    tools = sorted(call.tool_name for call in calls)
    if tools != ["crm.bookAppointment", "crm.cancelAppointment"] or not replaces(said):
        return None
    cancel, book = sorted(calls, key=lambda call: call.tool_name != "crm.cancelAppointment")
    cancelled = _clause(cancel.tool_name, [cancel], results, timezone)
    visit = _find(results, cancel.arguments.get("appointment_id"))
    service = article(str(book.arguments.get("service") or "appointment").lower())
    starts_at = str(book.arguments.get("starts_at", ""))
    same = visit is not None and _same_moment(starts_at, str(visit.get("starts_at", "")))
    if time_left_open(said) and same:
        booked = f"book {service} in its place, at that time or at another"
    elif time_left_open(said):
        booked = f"book {service} in its place{_when(starts_at, timezone)}, or at another time"
    elif same:
        booked = f"book {service} in its place at that time"
    else:
        booked = f"book {service} in its place{_when(starts_at, timezone)}"
    return Wording(
        prompt=f"Are you sure you want to {cancelled} and {booked}?",
        declined=f"Okay, I won't {cancelled} or book {service}. Nothing was changed.",
        dropped=f"I didn't {cancelled} or book {service}.",
        named=((cancel.call_id, cancelled), (book.call_id, booked)),
    )


def _same_moment(one: str, other: str) -> bool:
    try:
        return datetime.fromisoformat(one) == datetime.fromisoformat(other)
    except ValueError:
        return False


_KIND = {
    "crm.deleteTask": "task",
    "crm.addTask": "task",
    "crm.completeTask": "task",
    "crm.updateTask": "task",
    "crm.cancelAppointment": "appointment",
    "crm.bookAppointment": "appointment",
    "crm.rescheduleAppointment": "appointment",
    "crm.updateContactInfo": "contact",
}


@dataclass(frozen=True, slots=True)
class Narrowed:
    """The waiting calls a reply picked: run at once when it said yes ("yes to the first"),
    else asked about again on their own ("no wait, just the task")."""

    calls: list[ToolCall]
    named: tuple[tuple[str, str], ...]
    agreed: bool
    left: str  # "Okay, I won't cancel your haircut …": said before the ones run
    prompt: str  # the question about the ones picked alone
    dropped: str  # if the customer moves on from that question


def narrowed(
    text: str, calls: Sequence[ToolCall], named: Sequence[tuple[str, str]]
) -> Narrowed | None:
    """The waiting calls the reply picks some of ("yes to the first, no to the second",
    "no wait, just the task"); None when it picks no strict part of them."""
    if len(named) < 2 or len(named) != len(calls):
        return None
    by_id = {call.call_id: call for call in calls}
    spoken = [by_id.get(call_id) for call_id, _ in named]
    if any(call is None for call in spoken):
        return None
    ordered = [call for call in spoken if call is not None]
    # (read as meant: "I think I need to do the cancell but not the delet")
    chosen = picked(
        as_meant(text),
        [_KIND.get(call.tool_name, "") for call in ordered],
        [n for _, n in named],
    )
    if chosen is None:
        return None
    kept = sorted(chosen)
    left = [named[i][1] for i in range(len(named)) if i not in chosen]
    sure = all(ordered[i].tool_name in _CONFIRMED for i in kept)
    asked = join_and([named[i][1] for i in kept])
    return Narrowed(
        calls=[ordered[i] for i in kept],
        named=tuple(named[i] for i in kept),
        agreed=agreed(text),
        left=f"Okay, I won't {join_and(left, 'or')}.",
        prompt=f"{'Are you sure you want to' if sure else 'Shall I'} {asked}?",
        dropped=f"I didn't {join_and([named[i][1] for i in kept], 'or')}.",
    )


def declined_answer(calls: Sequence[ToolCall]) -> str:
    tools = {call.tool_name for call in calls}
    if len(calls) > 1:
        return "Okay, I won't go ahead with any of that. Nothing was changed."
    if tools == {"crm.deleteTask"}:
        return "Okay, I won't delete it. The task stays on your list."
    if tools == {"crm.cancelAppointment"}:
        return "Okay, I won't cancel it. Your appointment stays booked."
    if tools == {"crm.updateContactInfo"}:
        return "Okay, I'll leave your contact details as they are."
    return "Okay, I won't go ahead with that."
