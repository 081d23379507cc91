"""What the dialogue remembers of writes (assistant.dialogue): the ones of the last turn
with a write that did not go through ("did that go through?", "try again"), and the last
few that did ("did the cancel go through?" after a cancel and then a booking).

Plain JSON values, as the rest of the dialogue state: each failed write is
{"tool", "arguments", "code", "unconfirmed"}, each done one {"tool", "label"}.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.schema import ToolResult

Item = dict[str, Any]

# How many writes that went through are remembered.
DONE_KEPT = 6


def failed_writes(
    before: tuple[Item, ...], results: Sequence[ToolResult], changes: frozenset[str]
) -> tuple[Item, ...]:
    """This turn's writes that failed; kept through turns that write nothing ("did that
    go through?"), dropped once a write succeeds."""
    failed = tuple(
        {
            "tool": r.call.tool_name,
            "arguments": dict(r.call.arguments),
            "code": r.error.code if r.error is not None else "internal",
            "unconfirmed": bool(r.error is not None and r.error.unconfirmed),
        }
        for r in results
        if not r.ok and r.call.tool_name in changes and r.status == "error"
    )
    if failed:
        return failed
    if any(r.ok and r.call.tool_name in changes for r in results):
        return ()
    return before


def done_writes(
    before: tuple[Item, ...], results: Sequence[ToolResult], changes: frozenset[str]
) -> tuple[Item, ...]:
    """The last few writes that went through, oldest first, with what each was about."""
    done = [
        {"tool": r.call.tool_name, "label": _label(r.result)}
        for r in results
        if r.ok and r.call.tool_name in changes
    ]
    return (*before, *done)[-DONE_KEPT:] if done else before


def _label(body: object) -> str:
    """What a write's reply names: the service, the task's title or the case's subject."""
    if not isinstance(body, dict):
        return ""
    return str(body.get("service") or body.get("title") or body.get("subject") or "")


__all__ = ["DONE_KEPT", "done_writes", "failed_writes"]
