"""Another hour given in reply to a booking held for a yes.

"That's 2:30 AM on Sunday, when places are usually closed. Do you want me to book it for
then?" → "no, 10am", "ok then sunday at 10am", "nah, 1pm": the booking is wanted at the
hour said, not declined and not agreed to at the hour asked. The reply is planned afresh
as the booking at that hour, with the checks a fresh request meets (a night hour asked
again, an overlap, a time gone by).
"""

from __future__ import annotations

import re
from datetime import datetime

from assistant.language.dates import find_when
from assistant.language.text import normalize

# The words a reply may say around the hour and still say nothing else.
_AROUND = re.compile(
    r"\b(?:no|nope|nah|ok|okay|yes|yeah|yep|sure|then|so|well|oh|actually|sorry|instead"
    r"|rather|please|make it|make that|let'?s say|let'?s do|let'?s make it|how about"
    r"|what about|i meant|i mean|for (?:me|us)|thanks|thank you|at|on|for|it|that|in the)\b"
)


# "no, 10", "nope, 9", "no, make it 11": a refusal, then only an hour from 1 to 12.
_BARE_HOUR = re.compile(
    r"^(?:(?:so|yeah|well|oh|um|uh|sorry|actually)\b[\s,]*)*(?:no|nope|nah|no no)\b[\s,.!-]*"
    r"(?:(?:make it|make that|how about|what about|say"
    r"|i meant|i mean|rather|instead|at)\s+)*(?P<h>1[0-2]|0?[1-9])(?::(?P<m>[0-5]\d))?"
    r"(?:[\s,]+(?:instead|please|then|for (?:me|us)|thanks|thank you))*[\s.!]*$"
)


def another_hour(text: str, now: datetime, *, bare: bool = False) -> str | None:
    """The words giving the day and hour in `text`, when it says only another hour (and
    maybe a day) around the words a reply opens with; None otherwise (`now`: on the
    customer's clock; `bare`: "no, 10" is an hour, when the question was of one). Cheap
    first: a digit or "noon" must be said."""
    low = text.lower()
    if not any(ch.isdigit() for ch in low) and "noon" not in low:
        return None  # (nearly every reply)
    said = normalize(text).text
    when = find_when(said, now)
    if bare and (when is None or when.clock is None) and (alone := _BARE_HOUR.match(said)):
        # "no, 10", "nope, 9", "no, make it 11": an hour alone, said back to the hour
        # asked about (a bare number is no hour elsewhere: "for 2" is two people)
        return f"at {alone.group('h')}" + (f":{alone.group('m')}" if alone.group("m") else "")
    if when is None or when.clock is None or when.vague_time or not when.spans:
        return None
    rest = said
    for start, end in sorted(when.spans, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    if re.sub(r"[\W_]+", "", _AROUND.sub(" ", rest)):
        return None  # "no, keep it at 2:30 and add a task…": more than an hour
    return " ".join(said[start:end] for start, end in sorted(when.spans))
