"""The seam between the executor and whatever performs a tool call (the CRM)."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

from assistant.schema import ToolDefinition


class ToolBackend(Protocol):
    def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Awaitable[Any]:
        """Perform one attempt of `tool` for `customer_id`: awaited, its JSON result.

        An `async def` implements it; the CRM's returns its request's coroutine as it
        is. Raises (or the awaitable raises) `ToolFailure` with a PROTOCOL.md tool error
        code on any failure. The caller owns timeouts, retries and the circuit breaker.
        """
        ...

    def supports(self, tool_name: str) -> bool:
        """Whether this backend can perform `tool_name` (checked at start)."""
        ...
