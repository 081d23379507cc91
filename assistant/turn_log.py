"""One JSON log line per turn: what an operator needs to answer "why did this wait?".

The line (logger `assistant.turns`, message `turn done`) carries the trace id, session,
customer, status, every call's tool, status, error code, attempts and latency, the
calls cut by the cap, and the timings; the same facts go on the turn's span.
"""

from __future__ import annotations

import logging

from assistant import tracing
from assistant.schema import TurnDone
from assistant.turn import TurnState

log = logging.getLogger("assistant.turns")


def turn_summary(state: TurnState, done: TurnDone) -> dict[str, object]:
    customer = state.session.customer
    return {
        "trace_id": state.trace_id,
        "turn_id": done.turn_id,
        "session_id": state.session.session_id,
        "customer_id": customer.customer_id if customer else None,
        "status": done.status,
        "calls": [
            {
                "tool": call["tool"],
                "round": call["round"],
                "status": call["status"],
                "error_code": (call["error"] or {}).get("code"),
                "attempts": call["attempts"],
                "latency_ms": call["latency_ms"],
            }
            for call in done.tool_calls
        ],
        "truncated_calls": done.truncated_calls,
        "awaiting_confirmation": done.awaiting_confirmation is not None,
        "timings_ms": done.timings_ms,
    }


def turn_finished(state: TurnState, done: TurnDone) -> None:
    """Log the turn's line and put its outcome on its span."""
    tracing.turn_finished(done)
    if log.isEnabledFor(logging.INFO):
        log.info("turn done", extra={"turn": turn_summary(state, done)})
