"""Days said by the bill: "remind me to pay my bill two days before it's due", "make the
groceries task due when my bill is due", "…a week before my bill is due to check my bank".

As a day said by a visit is counted from that visit (anchored.py) and one said by a to-do
from its due date (task_anchored.py), this one is counted from the open bill's due date,
read first. The message is then read with that date in place of the words ("remind me to
pay my bill on February 1"). No open bill, or several due on different days: said so, and
the day asked (none is guessed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from assistant.language.patterns import rx
from assistant.models.embedded.last_said import last_said, said_as
from assistant.schema import (
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolResult,
)

LOOKUP = "crm.getOpenInvoices"
# Cheap first look: every message pays only this.
_GATE = re.compile(r"\b(?:bill|invoice|payment)s?\b")
_COUNT = {
    "a": 1, "an": 1, "one": 1, "the": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "ten": 10, "couple of": 2, "few": 3,
}  # fmt: skip
_THE_BILL = r"(?:my |the |our )?(?:bill|invoice|payment)"
_AMOUNT = r"(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|ten|the|a couple of|a few)"
_ANCHOR = rx(
    r"\b(?P<lead>(?:due|by|on|for|to) )?(?:on )?(?:the )?(?:"
    # "two days before it's due", "a week before my bill is due", "the day before my bill"
    rf"{_AMOUNT} (?P<unit>days?|weeks?) before (?:(?:it'?s|it is|its) due|{_THE_BILL}"
    r"(?: is| 's)?(?: due)?)"
    # "the same day as my bill", "when my bill is due", "the day my bill is due"
    rf"|(?P<same>same day as {_THE_BILL}(?: is)?(?: due)?|(?:when|the day) {_THE_BILL}"
    r" is due|(?:on )?(?:my |the )?(?:bill|invoice)'?s due date))"
)


# "when is my bill due and add a reminder for that day": "that day" is the bill's, asked
# before it in the same message.
_DUE_ASKED = rx(r"\bwhen(?:'s| is| was) (?:my |the )?(?:bill|invoice|payment) due\b")
_THAT_DAY = rx(r"\b(?P<lead>(?:due|by|on|for|to) )(?:on )?(?P<same>(?:that|the same) day)\b")


def _anchor(text: str) -> re.Match[str] | None:
    if not _GATE.search(text):
        return None
    if (asked := _DUE_ASKED.search(text)) is not None and (
        that_day := _THAT_DAY.search(text, asked.end())
    ):
        return that_day
    return _ANCHOR.search(text)


def counts_from_the_bill(text: str) -> bool:
    """The message may say a day by the bill ("two days before my bill is due")."""
    return _anchor(text.lower()) is not None


def _offset(match: re.Match[str]) -> timedelta:
    if match.group("same"):
        return timedelta(0)  # (also "for that day", after the bill's day was asked)
    amount = match.group("n")
    count = int(amount) if amount.isdigit() else _COUNT.get(amount.removeprefix("a "), 1)
    days = count * (7 if match.group("unit").startswith("week") else 1)
    return -timedelta(days=days)


def _due_days(results: Iterable[ToolResult]) -> tuple[set[date], bool]:
    """The open bills' due days read this turn, and whether they were read."""
    days: set[date] = set()
    read = False
    for result in results:
        if result.call.tool_name != LOOKUP or not result.ok:
            continue
        read = True
        body: Any = result.result if isinstance(result.result, dict) else {}
        for invoice in body.get("invoices") or ():
            due = invoice.get("due_on") if isinstance(invoice, dict) else None
            if isinstance(due, str) and due:
                days.add(date.fromisoformat(due[:10]))
    return days, read


def read_days(request: PlanRequest) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """The request with the day counted from the bill; the bills looked up first; an answer
    when no one day can be counted; None when no day is said by the bill."""
    if (last := last_said(request)) is None:
        return None
    index, said = last
    text = said.lower()
    if len(text) != len(said) or (match := _anchor(text)) is None:
        return None
    days, read = _due_days(request.turn_results)
    if not read:
        if request.round <= 1 and any(tool.name == LOOKUP for tool in request.tools):
            return ToolCallsDecision(calls=(ToolCall(call_id="c_1_1", tool_name=LOOKUP),))
        return None
    if len(days) != 1:
        said = "You don't have an open bill" if not days else "Your open bills fall due apart"
        return FinalDecision(
            text=f"{said}, so I can't count a day from it. Which day would you like instead?"
        )
    told = _told(text, match, days.pop())
    return said_as(request, index, told)


def _told(text: str, match: re.Match[str], due: date) -> str:
    """`text` with the day counted from `due` in place of the words that say it."""
    day = due + _offset(match)
    lead = match.group("lead") or "on "
    said = f"{'due ' if lead == 'due ' else lead}{day:%B} {day.day}"
    return text[: match.start()] + said + text[match.end() :]


def counted(text: str, results: Iterable[ToolResult]) -> str | None:
    """ "…two days before my bill is due", read by the narrator as the planner read it, with
    the day counted from the bill read this turn; None when no one day is."""
    lowered = text.lower()
    if len(lowered) != len(text) or (match := _anchor(lowered)) is None:
        return None
    days, _ = _due_days(results)
    return _told(lowered, match, days.pop()) if len(days) == 1 else None


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has read only the bills the day is counted from."""
    results = request.turn_results
    return len(results) == 1 and results[0].call.tool_name == LOOKUP and results[0].round == 1
