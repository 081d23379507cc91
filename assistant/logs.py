"""Structured JSON logs, with the turn's trace id on every line logged during a turn."""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime
from typing import Any

_trace: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "trace", default=None
)


class trace_context:  # used as a function: `with trace_context(…):`
    """Every log record made inside carries `trace_id` and `fields` (turn, session).

    A class rather than a generator-based context manager: every turn enters one."""

    __slots__ = ("_fields", "_token")

    def __init__(self, trace_id: str, **fields: str) -> None:
        self._fields = {"trace_id": trace_id, **fields}
        self._token: contextvars.Token[dict[str, str] | None] | None = None

    def __enter__(self) -> None:
        self._token = _trace.set(self._fields)

    def __exit__(self, *_exc: object) -> None:
        assert self._token is not None
        _trace.reset(self._token)


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
