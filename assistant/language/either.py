"""Two values said for one slot of a write: "at 3 or 4", "monday or tuesday", two emails.

"book a haircut saturday at 3 or 4" booked 3pm; "book a massage at 10am on monday at 2pm"
booked 10am; "make the eye exam due monday or tuesday" made it due Monday; "change my
email to a@x.com or b@x.com" changed it to the first. Either value is a guess, and a write
is never guessed: the change asks which (a self-correction, "tuesday, no wednesday", is no
choice left open, and is read as the value put right elsewhere).

Only the write's own clause is read, and only the values its change takes: a time or a
day for a visit, a day for a to-do (its title may say "2 or 3 lemons"), an address or a
number for the contact details. Gated by " or " (or a second " at ") in the clause.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.language.patterns import rx

_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
# A day: a weekday (this/next one), tomorrow, today, a day of the month.
_DAY = (
    rf"(?:(?:this |next |on )?{_WEEKDAY}|tomorrow|today"
    r"|(?:the )?\d{1,2}(?:st|nd|rd|th)(?: of [a-z]+)?)"
)
# An hour: "3", "3pm", "3:30", "10 am", "noon".
_HOUR = r"(?:(?:1[0-2]|0?[1-9])(?::[0-5]\d)?(?:\s*[ap]\.?m\.?)?|noon|midday)"
# An hour said plainly as one: with am/pm, minutes or o'clock (a bare "at 1" may be a
# street number: "at 1 embarcadero center").
_CLOCK = r"(?:(?:1[0-2]|0?[1-9])(?::[0-5]\d|\s*[ap]\.?m\.?|\s*o'?clock)|noon|midday)"

_DAYS_OR = rx(rf"\b(?P<a>{_DAY})(?:,)? or (?:on )?(?P<b>{_DAY})\b")
_HOURS_OR = rx(rf"\b(?P<a>{_HOUR})(?:,)? or (?:at )?(?P<b>{_HOUR})(?!\s*(?:st|nd|rd|th|of)\b)\b")
_CONTACT = r"(?:emailaddress|phonenumber)\d+"  # an address or a number, as normalized
_CONTACTS_OR = rx(rf"\b(?P<a>{_CONTACT})(?:,)? or (?:to )?(?P<b>{_CONTACT})\b")
_AT_CLOCK = rx(rf"\bat (?P<t>{_CLOCK})")
_A_WEEKDAY = rx(_WEEKDAY)

# The kinds of write whose values are read here, and the values each takes.
_VISIT_WRITES = frozenset({"book_appointment", "reschedule_appointment"})
_TASK_WRITES = frozenset({"add_task", "update_task"})


@dataclass(frozen=True, slots=True)
class Either:
    """Two values said for one slot: what they are ("time", "day", "email", "phone")."""

    slot: str
    first: str
    second: str
    joined: str = "or"  # "and": both said as if meant ("at 10am on monday at 2pm")


def two_values(kind: str, clause: str) -> Either | None:
    """The two values `clause` offers for the change of `kind`, or None (one value said)."""
    if " or " in clause:
        if kind == "update_contact" and (m := _CONTACTS_OR.search(clause)) is not None:
            slot = "email" if m.group("a").startswith("email") else "phone"
            return Either(slot, m.group("a"), m.group("b"))
        dated = kind in _VISIT_WRITES or kind in _TASK_WRITES
        if dated and (m := _DAYS_OR.search(clause)) is not None and _unlike(m["a"], m["b"]):
            return Either("day", m.group("a"), m.group("b"))
        timed = kind in _VISIT_WRITES
        if timed and (m := _HOURS_OR.search(clause)) is not None and _unlike(m["a"], m["b"]):
            return Either("time", m.group("a"), m.group("b"))
    if kind == "book_appointment" and clause.count(" at ") >= 2:
        # "a massage at 10am on monday at 2pm": two hours for one booking (a visit moved
        # names its own hour, "the haircut at 2:30 to friday at 4", so only a booking).
        hours = [m.group("t") for m in _AT_CLOCK.finditer(clause)]
        if len(hours) >= 2 and _unlike(hours[0], hours[1]):
            return Either("time", hours[0], hours[1], "and")
    return None


def settled(kind: str, clause: str, reply: str) -> str:
    """`clause` with the reply to "which?" in the place of its two values ("book a haircut
    saturday at 3 or 4" → "4pm" → "book a haircut saturday at 4pm")."""
    two = two_values(kind, clause)
    if two is None:
        return f"{clause} {reply}"
    if " or " in clause:
        for pattern in (_CONTACTS_OR, _DAYS_OR, _HOURS_OR):
            if (m := pattern.search(clause)) is not None and m.group("a") == two.first:
                return f"{clause[: m.start()]}{reply}{clause[m.end() :]}"
    # "at 10am on monday at 2pm": both hours give way to the one said now
    hourless = " ".join(_AT_CLOCK.sub(" ", clause).split())
    return f"{hourless} at {reply}" if reply[:1].isdigit() else f"{hourless} {reply}"


def _unlike(first: str, second: str) -> bool:
    return first.replace(" ", "").removeprefix("on") != second.replace(" ", "").removeprefix("on")


def question(either: Either) -> str:
    """The question that asks which value was meant."""
    if either.slot in ("email", "phone"):
        said = "email addresses" if either.slot == "email" else "phone numbers"
        return f"You gave me two {said}. Which one should I put on file?"
    first, second = (_spoken(either.first), _spoken(either.second))
    if either.slot == "day" and either.first == "today":
        # (also asked of an hour said with no day just after a visit on another day was
        # told: models/embedded/references.py `_on_the_day_asked`)
        return f"Would that be today, or {second}?"  # (cut_off.py reads the reply to it)
    return f"You said {first} {either.joined} {second}. Which {either.slot} would you like?"


def _spoken(value: str) -> str:
    words = value.split()
    return " ".join(word.capitalize() if _A_WEEKDAY.fullmatch(word) else word for word in words)
