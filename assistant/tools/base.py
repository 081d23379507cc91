"""The seam between the executor and whatever performs a tool call (the CRM)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from assistant.schema import ToolDefinition


class ToolBackend(Protocol):
    async def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Any:
        """Perform one attempt of `tool` for `customer_id` and return its JSON result.

        Raises `ToolFailure` with a PROTOCOL.md tool error code on any failure. The
        caller owns timeouts, retries and the circuit breaker.
        """
        ...

    def supports(self, tool_name: str) -> bool:
        """Whether this backend can perform `tool_name` (checked at start)."""
        ...
