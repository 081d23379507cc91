"""What the dialogue remembers of writes (assistant.dialogue): the ones of the last turn
with a write that did not go through ("did that go through?", "try again"), and the last
few that did ("did the cancel go through?" after a cancel and then a booking).

Plain JSON values, as the rest of the dialogue state: each failed write is
{"tool", "arguments", "code", "unconfirmed"}, each done one {"tool", "label"}, and a
change of a task or a visit also {"id", "before", "changed"}: what it changed from, so that "leave
the groceries where they were" two turns later can put that one back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assistant.schema import ToolResult

Item = dict[str, Any]

# How many writes that went through are remembered.
DONE_KEPT = 6


def failed_writes(
    before: tuple[Item, ...],
    results: Sequence[ToolResult],
    changes: frozenset[str],
    known: Callable[[object], Item | None] = lambda _: None,
) -> tuple[Item, ...]:
    """This turn's writes that failed; kept through turns that write nothing ("did that
    go through?"), dropped once a write succeeds. A change not confirmed keeps what its
    item was before, so that taking it back can put it back if it went through."""
    writes = [r for r in results if r.call.tool_name in changes]  # none, most turns
    failed = tuple(_failed(r, known) for r in writes if r.status == "error")
    if failed:
        return failed
    if any(r.ok for r in writes):
        # A write not confirmed is still not known to be done or not: kept, marked
        # overtaken, for a question that names it ("did the cancel go through?" after a
        # task was added since); "did that go through?" is of the write just made.
        return tuple(
            {**write, "later": True, "overtaken": True}
            for write in before
            if write.get("unconfirmed")
        )
    # Kept through a turn: "no, don't" now is about something said since, not about it.
    return tuple(write if write.get("later") else {**write, "later": True} for write in before)


def standing(failed: tuple[Item, ...]) -> tuple[Item, ...]:
    """The failed writes no write has gone through since: those "did that go through?",
    "try again" and "undo that" are about."""
    if not any(write.get("overtaken") for write in failed):
        return failed
    return tuple(write for write in failed if not write.get("overtaken"))


def _failed(result: ToolResult, known: Callable[[object], Item | None]) -> Item:
    error = result.error
    entry: Item = {
        "tool": result.call.tool_name,
        "arguments": dict(result.call.arguments),
        "code": error.code if error is not None else "internal",
        "unconfirmed": bool(error is not None and error.unconfirmed),
    }
    argument = _PUT_BACK.get(result.call.tool_name)
    if (
        entry["unconfirmed"]
        and argument is not None
        and (item := known(result.call.arguments.get(argument))) is not None
    ):
        kept = {"id", "title", "service", *result.call.arguments}
        entry["before"] = {key: item.get(key) for key in _KEPT if key in kept}
    of = result.call.arguments.get("task_id") or result.call.arguments.get("appointment_id")
    if entry["unconfirmed"] and of is not None and (item := known(of)) is not None:
        # what it was of, as last listed: "…did go through after all: your haircut is
        # cancelled" (a cancel's or a completion's call names an id alone)
        entry["named"] = str(item.get("title") or item.get("service") or "")
    return entry


# The changes that can be put back, by the argument naming their item, and what of the
# item before them is kept for it.
_PUT_BACK = {"crm.updateTask": "task_id", "crm.rescheduleAppointment": "appointment_id"}
_MADE = frozenset({"crm.bookAppointment", "crm.addTask"})
_KEPT = ("id", "title", "service", "due_on", "starts_at", "priority")


def done_writes(
    before: tuple[Item, ...],
    results: Sequence[ToolResult],
    changes: frozenset[str],
    known: Callable[[object], Item | None] = lambda _: None,
) -> tuple[Item, ...]:
    """The last few writes that went through, oldest first, with what each was about (and
    for a change, the item as `known` says it was before)."""
    done = [_done(r, known) for r in results if r.ok and r.call.tool_name in changes]
    if not done:
        return before  # most turns: nothing written
    profile = _profile_read(results)
    for entry in done:
        if profile and "contact" in entry:
            # "what did you change it from?": the details as read before the change
            entry["was"] = {key: profile.get(key) for key in entry["contact"] if key in profile}
    return (*before, *done)[-DONE_KEPT:]


def _profile_read(results: Sequence[ToolResult]) -> Item | None:
    """The profile as this turn first read it (before any change of it)."""
    for result in results:
        if result.ok and result.call.tool_name == "crm.getCustomerProfile":
            body = result.result
            if isinstance(body, dict):
                inner = body.get("customer", body)
                return inner if isinstance(inner, dict) else None
    return None


# Writes that leave a visit at a time, said back with it.
_TIMED = frozenset({"crm.rescheduleAppointment", "crm.bookAppointment"})


def _done(result: ToolResult, known: Callable[[object], Item | None]) -> Item:
    entry: Item = {"tool": result.call.tool_name, "label": _label(result.result)}
    if result.call.tool_name == "crm.createTicket" and isinstance(result.result, dict):
        entry["case"] = result.result.get("id")  # "what's its number?"
    if result.call.tool_name == "crm.updateContactInfo":
        entry["contact"] = dict(result.call.arguments)  # "what did I just change it to?"
    if result.call.tool_name == "crm.updateTask" and isinstance(result.result, dict):
        # "did that save?": the day and priority it was given, said back with it
        entry["set"] = {
            key: result.result.get(key)
            for key in ("due_on", "priority")
            if key in result.call.arguments
        }
    if result.call.tool_name in _TIMED and isinstance(result.result, dict):
        entry["starts_at"] = result.result.get("starts_at")  # "did that go through?": to when
    if result.call.tool_name in _MADE and isinstance(result.result, dict):
        # What was booked or added, as made: "the first one I booked" counts these.
        entry["made"] = {key: result.result.get(key) for key in _KEPT if key in result.result}
    if not entry["label"]:
        # A delete or a cancel answers no record: what it was of, as last listed ("did the
        # groceries one go through?" is not asked of the eye exam deleted).
        of = result.call.arguments.get("task_id") or result.call.arguments.get("appointment_id")
        if of is not None and (item := known(of)) is not None:
            entry["named"] = str(item.get("title") or item.get("service") or "")
    argument = _PUT_BACK.get(result.call.tool_name)
    if argument is not None and (item := known(result.call.arguments.get(argument))):
        # Its name, and the fields the change set, as they were.
        kept = {"id", "title", "service", *result.call.arguments}
        entry["id"] = item.get("id")
        entry["before"] = {key: item.get(key) for key in _KEPT if key in kept}
        entry["changed"] = [key for key in _KEPT if key in result.call.arguments]
    return entry


def _label(body: object) -> str:
    """What a write's reply names: the service, the task's title or the case's subject."""
    if not isinstance(body, dict):
        return ""
    return str(body.get("service") or body.get("title") or body.get("subject") or "")


__all__ = ["DONE_KEPT", "done_writes", "failed_writes", "standing"]
