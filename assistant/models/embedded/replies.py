"""Answers that need no tool, and the questions asked instead of guessing.

Small talk, "what can you do", off-topic requests; the clarifying question for a
request that lacks something ("When would you like your haircut?"); and the answer
when a described task or appointment is not there, or is not the only one.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from datetime import date, timedelta

from assistant.language import ChatKind, Intent, When, is_negative, mixed_verbs, slots
from assistant.language.dates import either_way_round
from assistant.language.either import question as either_question
from assistant.language.either import two_values
from assistant.language.hesitation import PAUSE, only_hesitates
from assistant.language.lexicon import SERVICES, WEEKDAYS
from assistant.language.patterns import rx
from assistant.language.unkept import unkept_detail
from assistant.models.embedded import appointments
from assistant.models.embedded.limits import SERVICE_NOT_CHANGED
from assistant.models.embedded.scene import Item, Scene
from assistant.models.embedded.tasks import title
from assistant.resolve import Ambiguous, Match, NoMatch, Resolution, resolve_task
from assistant.schema import CustomerContext
from assistant.speech import (
    calendar_date,
    dated_day,
    due_day,
    join_and,
    lower_first,
    number,
    short_clock,
    spoken_list,
)

WEEKDAY_NAMES = tuple(name.capitalize() for name in WEEKDAYS)
HELP = "I can help with appointments, billing, tasks and support cases."
CAPABILITIES = (
    "I can check, book, move or cancel your appointments, tell you what you owe, keep your "
    "task list up to date, and check or open support cases. For example, you could ask "
    "what's my next appointment, or how much do I owe."
)
NO_ACCOUNT = (
    "I can't look up account details here, because I couldn't tell which account is yours. "
    "Please call from the phone number on your account, or sign in to the chat, and I'll "
    "gladly help."
)


# "what do you offer?": the services that can be booked, as the lexicon names them.
SERVICES_OFFERED = (
    "These can be booked here: "
    + join_and(
        [
            name if name.isupper() else name[0].lower() + name[1:]
            for name in dict.fromkeys(SERVICES.values())
        ]
    )
    + ". Which would you like, and when?"
)


def kept_detail(detail: str) -> str:
    """The answer to a detail said to stay as it is ("new phone, same number"): nothing
    to change, said so, and no new one asked for."""
    noun = "email address" if detail == "email" else "phone number"
    return (
        f"Good to know. Since your {noun} is the same, there's nothing to change: "
        f"the one on file stays as it is. Is there anything else I can do?"
    )


def chat_reply(kind: ChatKind, customer: CustomerContext | None) -> str:
    first_name = (customer.name or "").split(" ")[0] if customer and customer.name else ""
    hello = f"Hi {first_name}!" if first_name else "Hi!"
    replies: dict[ChatKind, str] = {
        "greeting": f"{hello} How can I help you today? {HELP}",
        "how_are_you": "I'm doing well, thanks for asking. What can I help you with today?",
        "thanks": "You're welcome! Is there anything else I can help with?",
        "goodbye": "You're welcome. Have a great day!",
        "capabilities": CAPABILITIES,
        "what_to_change": (
            "Sure. What would you like to change? I can move or cancel an appointment, "
            "change a task, or update your phone number or email."
        ),
        "services": SERVICES_OFFERED,
        "identity": f"I'm the virtual assistant for your account. {HELP}",
        "human": (
            "I can't transfer you to a person from here, but I can open a support case so "
            "the team gets back to you. Just tell me what it's about."
        ),
        "joke": f"I'm better with calendars than with comedy, I'm afraid. {HELP}",
        "weather": f"Sorry, I can't check the weather. {HELP}",
        "acknowledgement": "Great. Is there anything else I can help with?",
        "never_mind": "Okay, no problem. Is there anything else I can do for you?",
        "how_to": (
            "Just tell me in your own words. For example: book a haircut on Friday at 3 PM, "
            "move my next appointment to Monday, or add a task to call the bank."
        ),
        "repeat": f"Sorry about that. {HELP} What would you like to do?",
        "hearing": "Yes, I can hear you. What can I do for you?",
        "aside": "No problem. What can I do for you?",
        "remark": "Sounds like a lot. I'm here to help: what can I do for you?",
        "out_of_scope": f"Sorry, I can't help with that. {HELP}",
        "unclear": f"Sorry, I didn't quite catch that. {HELP} What would you like to do?",
    }
    return replies[kind]


# A number said, whole (lifted out as "phonenumber0") or in part ("555 1234").
# Digits said as such, not a lifted number's placeholder ("phonenumber0").
_SAID_DIGITS = rx(r"(?<![a-z])\d")
_ANCHORED_ASK = (
    "I can't work out a day from another appointment yet. Which day and time should I {}, "
    "for example Friday at 2pm?"
)
_SPAN_SAID = rx(r"\b(?:this|next|the following|the coming|coming) week(?:end)?\b")
_PART_OF_AN_ADDRESS = rx(r"\b(?:at|dot)\b|@")
_OLD_BY_ITS_END = rx(
    r"\b(?:ending|ends|end) (?:in|with) [\d ]+\b.*?\b(?:old|no longer|not (?:mine|in use"
    r"|working)|isn't (?:mine|in use|working)|disconnected|dead|out of date|outdated|gone)\b"
)
_TOO_SHORT = (
    "That number seems to be missing some digits. What's the full phone number, with the area code?"
)


_BEFORE_AN_HOUR = rx(r"\b(?P<side>before|after) (?:\d{1,2}(?::\d\d)?\s*(?:am|pm)?|noon)\b")


def _before_an_hour(intent: Intent) -> str | None:
    """The hour a booking is to be before or after ("…on January 20 before 14:30", its hour
    unread), as said aloud ("before 2:30 PM"); None when no such hour is said."""
    when = intent.when
    if (
        when is None
        or when.clock is None
        or not when.time_unread
        or ("before" not in intent.clause and "after" not in intent.clause)
        or (said := _BEFORE_AN_HOUR.search(intent.clause.lower())) is None
    ):
        return None
    return f"{said.group('side')} {when.clock.strftime('%-I:%M %p').replace(':00 ', ' ')}"


# "this weekend", "next weekend", "the weekend": a day of two, which is asked
_WEEKEND_SAID = rx(r"\b(?:this|next|the|over the|on the) weekend\b")


# Said beside another answer when a part of the message asks to pay or be refunded: no
# tool takes a payment or gives money back.
CANNOT_PAY_TOO = "I can't take payments or give refunds here, though."


def clarification(intent: Intent, today: date | None = None) -> str | None:
    """The question to ask for what `intent` lacks (None when nothing is missing)."""
    if not intent.missing:
        return None
    wanted = intent.missing[0]
    if wanted == "either" and (two := two_values(intent.kind, intent.clause)) is not None:
        return either_question(two)  # "at 3 or 4": which one
    if wanted == "move_or_cancel":
        return mixed_verbs.question(intent)  # "cancel my haircut to friday"
    service = lower_first(str(intent.arguments.get("service") or "appointment"))
    if wanted in ("no_such_date", "weekday_conflict") and intent.when is not None:
        return time_question(intent.when, wanted)
    if (
        wanted == "when"
        and today is not None
        and "/" in intent.clause
        and (two_days := either_way_round(intent.clause, today)) is not None
    ):
        # "1/4": January 4 next year, or April 1 (read day first); which is asked
        month_first, day_first = (calendar_date(day, today) for day in two_days)
        return f"Sure. Do you mean {month_first} or {day_first}?"
    if intent.kind == "book_appointment":
        if wanted == "service":
            return (
                "Sure. What would you like to book, for example a haircut or a dental cleaning, "
                "and when?"
                if "when" in intent.missing
                else "Sure. What would you like to book, for example a haircut or a dental "
                "cleaning?"
            )
        if wanted == "offered":
            return _not_offered(intent)
        if wanted == "repeat":
            return (
                f"I can book one {service} at a time, not a repeating series. Which day "
                "and time should I book the first one for?"
            )
        if wanted == "when" and _FIRST_FREE.search(intent.clause):
            # "what's the earliest you have for a consultation?" (language/earliest.py)
            return (
                "I can't see which times are free, so I can't pick one for you. When "
                f"would you like your {service}?"
            )
        if wanted == "when" and (weekend := _WEEKEND_SAID.search(intent.clause)) is not None:
            # "book a haircut this weekend at 10": which of its two days, the hour kept
            clock = intent.when.clock if intent.when is not None else None
            at = f" at {short_clock(clock)}" if clock is not None else ""
            return (
                f"Sure. Which day {weekend.group(0)} would you like your {service}{at}: "
                "Saturday or Sunday?"
            )
        if wanted == "when":
            return f"Sure. When would you like your {service}?"
        if wanted == "time":
            day = intent.when.day if intent.when else None
            if day is not None and today is not None:
                if (edge := _before_an_hour(intent)) is not None:
                    # "a massage right before my haircut": the hour it must end by, said
                    # ("What time before 2:30 PM on Sunday works for your massage?"; after
                    # one, "What time on Wednesday works for your facial, after 11 AM?")
                    the_day = _the_day(day, intent.when, today)
                    if edge.startswith("after"):
                        return f"What time {the_day} works for your {service}, {edge}?"
                    return f"What time {edge} {the_day} works for your {service}?"
                return f"What time {_the_day(day, intent.when, today)} works for you?"
            return "What time works for you?"
    if wanted == "meridiem" and intent.when is not None and intent.when.clock is not None:
        hour = intent.when.clock.strftime("%-I:%M").removesuffix(":00")
        # 3 in the evening is no hour anyone says: "in the afternoon", up to 5.
        later = "afternoon" if 1 <= intent.when.clock.hour % 12 <= 5 else "evening"
        return f"Is that {hour} in the morning or {hour} in the {later}?"
    if intent.kind == "reschedule_appointment" and wanted == "time":
        day = intent.when.day if intent.when else None
        if intent.when is not None and intent.when.day_implied:
            # "push it to the afternoon": the visit's own day, which is not today's.
            part = _part_of_day(intent.when)
            return f"Sure. What time{f' in the {part}' if part else ''} would you like it moved to?"
        if day is not None and today is not None:
            said = _the_day(day, intent.when, today)
            return f"Sure. What time {said} would you like it moved to?"
        return "Sure. What time would you like it moved to?"
    if wanted == "future":
        return "That time has already passed. When would you like it instead?"
    if (
        intent.kind == "update_contact"
        and wanted == "email"
        and _PART_OF_AN_ADDRESS.search(intent.clause)
    ):
        # "my email is maria at gmail": part of an address heard, not a whole one.
        return (
            "I didn't catch a whole email address. What's the full address, like name@example.com?"
        )
    if intent.kind == "update_contact" and wanted == "phone":
        if _OLD_BY_ITS_END.search(intent.clause):
            # "the number ending in 0101 is old": the one on file named by its end, not a
            # new one short of digits ("That number seems to be missing some digits")
            return "Sure. What's the new phone number?"
        if _SAID_DIGITS.search(intent.clause):
            # "my new number is 555 0199": digits said, too few to be read as a number
            # (an extension said with them is not kept: said, so it is not lost unsaid).
            if (extension := slots.extension_said(intent.clause)) is not None:
                return (
                    "That number seems to be missing some digits, and I can only save the "
                    f"number itself, without the extension {extension}. What's the full phone "
                    "number, with the area code?"
                )
            return _TOO_SHORT
        # "I'd like to update my phone number": no number yet, so none to find fault with.
        return "Sure. What's the new phone number?"
    if wanted == "consent" and intent.kind != "create_ticket":
        return _go_ahead(intent, today)
    if wanted == "someone_else":
        return _someone_else(intent)
    if wanted == "unkept":
        return _unkept(intent, today)
    if intent.kind == "reschedule_appointment" and wanted == "when" and (named := _named(intent)):
        # "reschedule the groceries appointment": what is moved, said back (it may be a
        # to-do's due day; "When would you like to move it to?" named nothing).
        return f"Sure. When would you like to move {named} to?"
    questions = {
        ("reschedule_appointment", "when"): "Sure. When would you like to move it to?",
        ("reschedule_appointment", "anchored_when"): _ANCHORED_ASK.format("move it to"),
        ("book_appointment", "anchored_when"): _ANCHORED_ASK.format("book it for"),
        ("add_task", "title"): "Sure. What should the task say?",
        ("add_task", "when"): "Sure. Which day should it be due?",
        ("update_task", "when"): "Sure. Which day should it be due?",
        ("update_task", "priority"): "Sure. Should it be normal or low priority?",
        ("update_task", "level"): "Sure. Should it be high, normal or low priority?",
        ("create_ticket", "problem"): "Sure. What's the problem you'd like me to report?",
        ("create_ticket", "consent"): (
            "Sorry to hear that. Would you like me to open a support case about it?"
        ),
        ("update_contact", "email"): "Sure. What's the new email address?",
        ("update_contact", "phone_country"): (
            "I couldn't tell which country that number is in. What's the new phone number, "
            "with the country code, like +1 415 555 0199?"
        ),
        ("update_contact", "phone_short"): _TOO_SHORT,
        ("update_contact", "phone_long"): (
            "That number has more digits than a US or Canadian number, which is +1 and ten "
            "digits. What's the new phone number?"
        ),
    }
    return questions.get((intent.kind, wanted), "Could you tell me a bit more about what you need?")


_VISIT_NOUN = rx(r"\b(?:appointment|visit|booking|session)\b")


def _named(intent: Intent) -> str | None:
    """ "the groceries appointment": a visit named by words no service holds, said back as
    the customer's own ("your groceries appointment"), or None."""
    target = intent.target
    if target is None or not target.words or not _VISIT_NOUN.search(target.phrase.lower()):
        return None
    if slots.service(target.phrase.lower(), target.phrase) or slots.services_named(
        target.phrase.lower()
    ):
        return None
    phrase = re.sub(r"^(?:my|the)\b", "your", target.phrase.lower().strip())
    return phrase if phrase.startswith("your ") else None


def _unkept(intent: Intent, today: date | None) -> str:
    """ "book a haircut with Sam on friday at 3": what cannot be asked for, then the booking
    as it can be made, asked about."""
    said = unkept_detail(intent.clause) or "that"
    ask = _go_ahead(intent, today).removeprefix("I haven't changed anything yet. ")
    return (
        f'I can\'t ask for "{said}" here: a booking holds only the service and the time. '
        f"{ask.removesuffix('?')} anyway?"
    )


def _go_ahead(intent: Intent, today: date | None) -> str:
    """ "…and if not, book a haircut for Tuesday": the change, asked about on its own."""
    when = ""
    own_day = intent.kind == "reschedule_appointment" and intent.when and intent.when.day_implied
    if own_day and intent.when is not None and intent.when.clock is not None:
        # "…push it to the afternoon" → "2pm": on the visit's own day, not today's
        when = f" {intent.when.clock.strftime('%-I:%M %p').replace(':00', '')} the same day"
    elif intent.when is not None and intent.when.day is not None and today is not None:
        when = f" {_the_day(intent.when.day, intent.when, today)}"
        if intent.when.clock is not None:
            when += f" at {intent.when.clock.strftime('%-I:%M %p').replace(':00', '')}"
    service = lower_first(str(intent.arguments.get("service") or "appointment"))
    task = str(intent.arguments.get("title") or "")
    # "move your haircut to Friday at 5 PM?": the visit named when the ask named one (after
    # a listing of two, "move it" left which one to guess)
    phrase = intent.target.phrase if intent.target is not None else ""
    named = slots.service(phrase.lower(), phrase) if phrase else None
    moved = f"your {lower_first(named)}" if named else "it"
    asks = {
        "book_appointment": f"book a {service}{when}",
        "reschedule_appointment": f"move {moved} to{when.removeprefix(' on')}"
        if when
        else f"move {moved}",
        "cancel_appointment": "cancel it",
        "delete_task": "delete it",
        "complete_task": "mark it as done",
        "add_task": f"add {task} to your list" if task else "add that task",
    }
    change = asks.get(intent.kind, "go ahead with that")
    return f"I haven't changed anything yet. Would you like me to {change}?"


def _not_offered(intent: Intent) -> str:
    """ "book a dental surgery": "did you mean a dental cleaning?"; "book a knee surgery":
    not offered, and what is."""
    named = str(intent.arguments.get("service") or "")
    if named in slots.OFFERED:
        said, _ = slots.service_said_apart(intent.clause) or (named.lower(), named)
        return (
            f"I don't see {_a(said)} among the services offered here. "
            f"Did you mean {_a(lower_first(named))}?"
        )
    return (
        f"Sorry, {_a(lower_first(named))} isn't one of the services offered here, so I haven't "
        "booked anything. I can book, for example, a haircut, a dental cleaning or an eye exam. "
        "What would you like instead?"
    )


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


a_noun = _a


def _someone_else(intent: Intent) -> str:
    """ "book a checkup for my son": the account is the customer's own."""
    if intent.kind == "book_appointment":
        service = lower_first(str(intent.arguments.get("service") or "appointment"))
        return (
            "I can only book appointments for you, on your own account, so I haven't booked "
            f"anything. Would you like me to book {_a(service)} for yourself?"
        )
    return (
        "I can only change your own appointments, so I haven't changed anything. Is it one "
        "of yours you'd like me to change?"
    )


def time_question(when: When, problem: str) -> str:
    """Ask about a date that is not on the calendar, or a weekday that disagrees with it."""
    if problem == "no_such_date" or when.day is None or when.weekday_said is None:
        said = when.no_such_date or "That date"
        if said.startswith("February 29, "):
            # "same day next year" on a leap day: the year after has no 29th
            year = said.removeprefix("February 29, ")
            return f"There's no February 29 in {year}. Did you mean February 28 or March 1, {year}?"
        return f"{said} isn't a date on the calendar. Which day did you mean?"
    said_day = WEEKDAY_NAMES[when.weekday_said]
    same_week = when.day + timedelta(days=when.weekday_said - when.day.weekday())
    date_day = WEEKDAY_NAMES[when.day.weekday()]
    return (
        f"{when.day:%B} {when.day.day} is a {date_day}, not a {said_day}. Did you mean "
        f"{date_day}, {when.day:%B} {when.day.day}, or {said_day}, "
        f"{same_week:%B} {same_week.day}?"
    )


# "the earliest you have", "what times are free": the CRM's open slots are not known here.
_SLOTS_ASKED = rx(
    r"\b(?:earliest|first|soonest|latest|free|open|available|availability|slots?"
    r"|what times|which times|any time|anytime|whenever)\b"
)


_FIRST_FREE = rx(r"\bthe (?:earliest|soonest|first|next) you have$")


def asked_again(intent: Intent, question: str, reply: str) -> str:
    """The open question asked again after a reply that did not answer it."""
    question = question.removeprefix("Sure. ")
    said = reply.lower()
    if set(intent.missing) & {"when", "time"} and _SLOTS_ASKED.search(said):
        return f"I can't see which times are free, so I can't pick one for you. {question}"
    if PAUSE.search(said) or only_hesitates(reply):
        return f"Sure, take your time. {question}"  # "hang on, let me find it", "hmm, let me think"
    if is_negative(reply):
        # "hmm, no, let's leave it for now": the question is let go, nothing was changed.
        return LET_GO
    if intent.kind == "reschedule_appointment" and _ANOTHER_SERVICE.match(said):
        # "change my haircut" → "When…?" → "to a massage": the service, not the time
        return f"{SERVICE_NOT_CHANGED} {question}"
    return f"Sorry, I didn't catch that. {question}"


# A reply naming a service, as the thing to change a visit into ("to a massage").
_ANOTHER_SERVICE = rx(
    r"^(?:(?:um|uh|oh|no|well|actually|sorry)[ ,]+)*(?:to|into|for|make it) (?:a |an )"
    + r"(?:"
    + "|".join(sorted(SERVICES, key=len, reverse=True))
    + r")\b"
)


LET_GO = "Okay, I'll leave it for now. Is there anything else I can do?"


# The hour a part of the day was read as (language/dates.py), named back when it is asked.
_PART_AT_HOUR = {9: "morning", 14: "afternoon", 18: "evening", 19: "evening"}


def of_the_service(question: str | None, intent: Intent, intents: Sequence[Intent]) -> str | None:
    """ "book a massage saturday at 1 and a facial too": the hour asked of the facial names
    it ("What time on Saturday works for your facial?"), another visit being booked beside
    it (was "…works for you?", of either)."""
    service = intent.arguments.get("service")
    if (
        question is None
        or not question.endswith(" works for you?")
        or intent.kind != "book_appointment"
        or not service
        or not any(
            other.kind == "book_appointment" and other.arguments.get("service") != service
            for other in intents
        )
    ):
        return question
    return f"{question.removesuffix(' works for you?')} works for your {lower_first(str(service))}?"


def hours_question(intents: Sequence[Intent], today: date) -> str | None:
    """ "What time on Tuesday and on Friday works for you?": the hours of several bookings
    said with their days alone, asked in one question (None unless that is all they lack)."""
    days = [i.when.day for i in intents if i.when is not None and i.when.day is not None]
    if (
        len(intents) < 2
        or len(days) != len(intents)
        or any(i.kind != "book_appointment" or i.missing != ("time",) for i in intents)
    ):
        return None
    said = join_and([_the_day(day, None, today) for day in days])
    return f"What time {said} works for you?"


def _the_day(day: date, when: When | None, today: date) -> str:
    """ "tomorrow morning", "on Friday afternoon", "on March 15": the day asked about."""
    said = due_day(day, today)
    if said not in ("today", "tomorrow", "yesterday"):
        said = f"on {said}"
    part = _part_of_day(when)
    if part is not None:
        # "this evening", not "today evening"
        said = f"this {part}" if said == "today" else f"{said} {part}"
    return said


def _part_of_day(when: When | None) -> str | None:
    """ "afternoon" for a time said as a part of the day, not an hour."""
    if when is None or not when.vague_time or when.clock is None or when.clock.minute:
        return None
    return _PART_AT_HOUR.get(when.clock.hour)


def _target_words(intent: Intent) -> str:
    if intent.target is None or not intent.target.words:
        return ""
    return " ".join(intent.target.words)


def unresolved(intent: Intent, resolution: Resolution, scene: Scene) -> list[str]:
    """Say that the described item is not there, or ask which one of several."""
    if isinstance(resolution, Match):
        return []
    if intent.lookup == "crm.listTasks":  # (a to-do named to be added again too)
        return _unresolved_task(intent, resolution, scene)
    return _unresolved_appointment(intent, resolution, scene)


def _still_pending(items: Iterable[Item], scene: Scene) -> list[Item]:
    """The to-dos offered, without those this turn completed or deleted ("mark the
    groceries done and delete the laundry task": not "Your pending tasks are Buy
    groceries, …" just after it was done), nor those done before (a listing of every
    task holds the completed ones: "Your pending tasks are …, Call the pharmacy", done
    yesterday)."""
    gone = {
        str(r.call.arguments.get("task_id"))
        for r in scene.results
        if r.ok and r.call.tool_name in ("crm.completeTask", "crm.deleteTask")
    }
    return [
        item
        for item in items
        if str(item.get("id")) not in gone and item.get("status", "pending") == "pending"
    ]


def _unresolved_task(intent: Intent, resolution: NoMatch | Ambiguous, scene: Scene) -> list[str]:
    if isinstance(resolution, Ambiguous):
        names = join_and([title(t) for t in resolution.candidates], "or")
        if not _target_words(intent):
            return [f"Which task do you mean: {names}?"]
        found = number(len(resolution.candidates))
        return [f"I found {found} tasks that could fit: {names}.", "Which one did you mean?"]
    words = _target_words(intent)
    if intent.target is not None and intent.target.undated and words:
        # "if groceries doesn't have a due date yet, make it due friday": it has one
        dated = _dated_by_words(intent, resolution.options, scene)
        if dated is not None:
            return [dated]
    head = f'I couldn\'t find a task matching "{words}".' if words else "I'm not sure which task."
    options = _still_pending(resolution.options, scene)
    if not options:
        return [head, "You don't have any pending tasks."]
    names = spoken_list([title(t) for t in options])
    return [head, f"Your pending tasks are {names}.", "Which one did you mean?"]


def _dated_by_words(intent: Intent, options: Sequence[Item], scene: Scene) -> str | None:
    """ "Buy groceries already has a due date, tomorrow, so I haven't changed it.": the
    to-do named with no due date has one; None when no one to-do is named so."""
    assert intent.target is not None
    found = resolve_task(options, dataclasses.replace(intent.target, undated=False))
    if not isinstance(found, Match) or not found.item.get("due_on"):
        return None
    due = date.fromisoformat(str(found.item["due_on"])[:10])
    return (
        f"{title(found.item)} already has a due date, {due_day(due, scene.now.date())}, "
        "so I haven't changed it."
    )


def _unresolved_appointment(
    intent: Intent, resolution: NoMatch | Ambiguous, scene: Scene
) -> list[str]:
    verb = "cancel" if intent.kind == "cancel_appointment" else "move"
    if isinstance(resolution, Ambiguous):
        options = [appointments.describe(a, scene) for a in resolution.candidates]
        return [f"Which appointment should I {verb}: {join_and(options[:4], 'or')}?"]
    if not resolution.options:
        return [f"You have no upcoming appointments, so there's nothing to {verb}."]
    if resolution.near and intent.target is not None:
        # "move my dental surgery": not the cleaning it shares a word with, unless said so.
        said, _ = slots.service_said_apart(intent.target.phrase) or ("", "")
        near = [appointments.describe(a, scene) for a in resolution.near]
        return [
            f"I don't see {_a(said or 'appointment like that')} on your account.",
            f"Did you mean {join_and(near[:3], 'or')}?",
        ]
    options = [appointments.describe(a, scene) for a in _as_now(resolution.options, scene)]
    target = intent.target
    if target is not None and target.excluded is not None:
        # "cancel all except the haircut and the cleaning", with only those two: none left
        # (not "I don't see an upcoming haircut", said of one that is booked)
        return [
            f"With those left out, there's no other appointment to {verb}.",
            f"You have {spoken_list(options)}.",
        ]
    if target is not None and target.within is not None:
        # "cancel my appointment next week" with none then: said so, and which is asked.
        span = _SPAN_SAID.search(target.phrase.lower())
        return [
            f"You don't have any appointments {span.group(0) if span else 'then'}.",
            f"You have {spoken_list(options)}.",
            f"Which one should I {verb}, if any?",
        ]
    head = (
        _done_already(intent, scene)
        or _none_of_that(intent, scene)
        or ("I couldn't find an appointment like that.")
    )
    if_any = ", if any" if head.startswith("You don't have any") else ""
    return [head, f"You have {spoken_list(options)}.", f"Which one should I {verb}{if_any}?"]


def _as_now(items: Iterable[Item], scene: Scene) -> list[Item]:
    """The visits as this turn's writes left them ("move my haircut to 4 and cancel my eye
    exam": the haircut offered is at 4 now, not where the listing before had it)."""
    written = {
        str(r.result["id"]): r.result
        for r in scene.results
        if r.ok and isinstance(r.result, dict) and r.result.get("id") and "starts_at" in r.result
    }
    return [written.get(str(item.get("id")), item) for item in items]


def _none_of_that(intent: Intent, scene: Scene) -> str | None:
    """ "cancel my eye exam" with none booked: the service named said back, so that the
    customer hears which ask found nothing (beside another that went ahead); "the haircut
    on the 21st", with the haircut on the 20th: none that day (not none at all)."""
    said = intent.target.phrase.lower() if intent.target is not None else ""
    named = slots.service(said, said) if said else None
    day = intent.target.day if intent.target is not None else None
    if not named:
        # "cancel everything on thursday", "clear my thursday": nothing booked that day.
        if day is None:
            # "cancel my yoga and show my bill": the thing named said back (was "I couldn't
            # find an appointment like that", beside the bill read out)
            words = intent.target.words if intent.target is not None else ()
            if (
                len(words) == 1
                and words[0] not in _NO_NAME
                and _MY_THING.fullmatch(said) is not None
            ):
                return f"I don't see {_a(words[0])} appointment on your account."
            return None
        when = dated_day(day, scene.now.date())
        on = "" if when.startswith(("today", "tomorrow")) else "on "
        return f"You don't have any appointments {on}{when}."
    if day is not None:
        return f"I don't see a {named.lower()} on {dated_day(day, scene.now.date())}."
    hours = intent.target.hours if intent.target is not None else None
    if hours in _PARTS_SAID:
        # "cancel the haircut if it's before noon", the haircut at 2:30: none then (not
        # "I don't see an upcoming haircut", said of one that is booked)
        return f"I don't see a {named.lower()} in the {_PARTS_SAID[hours]}."
    return f"I don't see an upcoming {named.lower()} on your account."


_PARTS_SAID = {(0, 12): "morning", (12, 17): "afternoon", (17, 24): "evening"}
_MY_THING = rx(r"(?:my|the|our) [a-z]+")
# Words of a target that name no kind of visit ("cancel the other one").
_NO_NAME = frozenset(
    {"not", "other", "one", "ones", "thing", "first", "second", "last", "next", "new", "old"}
    | {"earlier", "later", "same", "all", "both", "each", "every", "any", "that", "this"}
)


def _done_already(intent: Intent, scene: Scene) -> str | None:
    """ "cancel my haircut" said again after it was cancelled in this conversation: said so
    (not "I couldn't find one"), before the others are offered."""
    target = intent.target
    if intent.kind != "cancel_appointment" or target is None:
        return None
    said = target.phrase.lower()
    named = str(slots.service(said, said) or "").lower()
    for done in reversed(scene.dialogue.done):
        label = str(done.get("label") or "").lower()
        if done.get("tool") == "crm.cancelAppointment" and label and label in (said, named):
            return f"Your {label} is already cancelled."
    return None
