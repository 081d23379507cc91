"""Structured JSON logs, with the turn's trace id on every line logged during a turn."""

from __future__ import annotations

import contextvars
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

_trace: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "trace", default=None
)


@contextmanager
def trace_context(trace_id: str, **fields: str) -> Iterator[None]:
    """Every log record made inside carries `trace_id` and `fields` (turn, session)."""
    token = _trace.set({"trace_id": trace_id, **fields})
    try:
        yield
    finally:
        _trace.reset(token)


def current_trace_id() -> str | None:
    return (_trace.get() or {}).get("trace_id")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **(_trace.get() or {}),
        }
        for key in ("customer_id", "tool", "code", "attempt", "reason", "turn"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
