"""A verb said with another change's words, or a thing named by the other kind's noun.

- "cancel my haircut to friday": a cancel has no "to <day>"; said with one, a move may be
  meant, and a cancellation held for a yes on those words asks the wrong thing (it was
  held as asked). Which is meant is asked. Gated by "cancel" and " to ".
- "book the car insurance task for monday": a to-do is not booked; its due day is set
  (it asked what service to book). Gated by "book" and a to-do noun.
- "add an appointment to buy milk on sunday": an errand is a to-do, whatever it is
  called (it read the visits). Gated by "appointment to".
"""

from __future__ import annotations

import dataclasses

from assistant.language.intent import Intent
from assistant.language.patterns import rx
from assistant.language.slots import service_said_apart, services_named

_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
# "… to friday", "… to wednesday at 3", "… to the 14th", "… to 4pm": where a move goes.
_TO_WHEN = rx(
    rf"^(?P<what>.+?) to (?P<when>(?:(?:this |next )?{_WEEKDAY}|tomorrow|today"
    r"|(?:the )?\d{1,2}(?:st|nd|rd|th)|(?:1[0-2]|0?[1-9])(?::[0-5]\d)?\s*[ap]\.?m\.?)\b.*)$"
)
_CANCEL = rx(r"^(?:.*?\b)?(?:cancel|call off)\b\s*")


def cancel_with_a_move(intent: Intent) -> Intent:
    """The cancellation said "to <day>", asked about (move or cancel?)."""
    if intent.kind != "cancel_appointment" or " to " not in intent.clause:
        return intent
    verb = _CANCEL.match(intent.clause)
    if verb is None or _TO_WHEN.match(intent.clause[verb.end() :]) is None:
        return intent
    return dataclasses.replace(intent, missing=("move_or_cancel", *intent.missing))


def question(intent: Intent) -> str:
    """ "Did you want your haircut moved to friday, or cancelled?" """
    verb = _CANCEL.match(intent.clause)
    said = _TO_WHEN.match(intent.clause[verb.end() :]) if verb is not None else None
    if said is None:
        return "Did you want it moved, or cancelled?"
    what = said.group("what")
    for mine in ("my ", "the "):
        what = what.removeprefix(mine)
    return f"Did you want your {what} moved to {said.group('when')}, or cancelled?"


_MOVE_SAID = rx(r"\b(?:move|reschedule|shift|push|change)(?:d|ed)?\b")
_CANCEL_SAID = rx(r"\b(?:cancel|cancell?ed|call it off|called off)\b")


def as_answered(intent: Intent, reply: str) -> str | None:
    """The request as the reply to "moved, or cancelled?" settles it ("move it": "move my
    cleaning to wednesday at 3"), or None when the reply says neither (or both)."""
    verb = _CANCEL.match(intent.clause)
    said = _TO_WHEN.match(intent.clause[verb.end() :]) if verb is not None else None
    if said is None:
        return None
    moved, cancelled = _MOVE_SAID.search(reply.lower()), _CANCEL_SAID.search(reply.lower())
    if moved and not cancelled:
        return f"move {said.group('what')} to {said.group('when')}"
    if cancelled and not moved:
        return f"cancel {said.group('what')}"
    return None


_TODO = r"(?:task|to-?do|reminder)"
# "book the car insurance task for monday", "book my task for monday"
_TASK_BOOKED = rx(
    rf"\bbook (?P<t>(?:the|my|that|this) (?:[a-z']+ ){{0,4}}?{_TODO}) (?:for|on|to) (?P<w>.+)$"
)
# Errands done by the customer, never a visit of ours ("buy milk", "call the bank").
_ERRAND = (
    "buy|pick up|collect|call|ring|phone|pay|send|post|mail|email|text|return|drop off"
    "|renew|order|water|feed|walk|wash|clean|fix|cook|bake|pack|print|sign|file|book flights"
)
_ERRAND_AS_VISIT = rx(
    rf"\b(?:add|put|make|create|set up|schedule)(?: me)? (?:an? |my )?(?:appointment|appt)"
    rf" to (?=(?:{_ERRAND})\b)"
)


# "book in the car insurance for friday", "schedule the insurance renewal on friday":
# "the" or "my" and words that name no service, booked for a day: said as a move of the
# thing named (a to-do is due that day; a visit named so is moved; neither is asked).
_THE_THING_BOOKED = rx(
    r"\b(?:book|schedule) (?:in )?(?P<t>(?:the|my) (?!(?:usual|same|next|first|earliest|one"
    r"|appointment|visit|slot|time|session|booking)\b)(?:[a-z']+ ){0,3}?[a-z']+) (?:in )?(?:for|on)"
    r" (?P<w>(?:this |next |the )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|tomorrow|today)\b.*)$"
)


_TODO_LEAD = rx(r"\b(?:remind(?:er)?|tasks?|to-?dos?|note|jot|remember|forget|list)\b")


def as_the_thing_is(text: str) -> str:
    """`text` with a to-do booked or an errand called an appointment said as a to-do's own
    change ("book the car insurance task for monday" → "make the car insurance task due
    monday"); unchanged otherwise."""
    low = text.lower()
    if "book " in low and (m := _TASK_BOOKED.search(low)) is not None:
        return f"{text[: m.start()]}make {m.group('t')} due {m.group('w')}"
    if (
        ("book " in low or "schedule " in low)
        and (m := _THE_THING_BOOKED.search(low)) is not None
        # ("set a reminder to schedule the car service on friday": a to-do's own words)
        and not _TODO_LEAD.search(low, 0, m.start())
        and not services_named(m.group("t"))
        and service_said_apart(m.group("t")) is None
    ):
        return f"{text[: m.start()]}move {m.group('t')} to {m.group('w')}"
    errand = "appointment to " in low or "appt to " in low
    if errand and (m := _ERRAND_AS_VISIT.search(low)) is not None:
        verb = m.group(0).split()[0]
        return f"{text[: m.start()]}{verb} a task to {text[m.end() :]}"
    return text
