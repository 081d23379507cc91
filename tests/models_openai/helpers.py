"""Requests and results for the OpenAI-compatible backend's tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from assistant.schema import (
    AckSink,
    CustomerContext,
    Message,
    NarratorInput,
    PlanRequest,
    ToolCall,
    ToolError,
    ToolResult,
    UserTurn,
)
from assistant.settings import PROJECT_ROOT
from assistant.tools.catalog import Catalog, load_catalog

CUSTOMER = CustomerContext(customer_id="cust_001", name="Ada", timezone="America/New_York")
# 18:05 UTC is 14:05 in New York, on Tuesday, June 3, 2025.
NOW = datetime(2025, 6, 3, 18, 5, tzinfo=UTC)
CATALOG: Catalog = load_catalog(PROJECT_ROOT / "config" / "tools.yaml")


def plan_request(
    text: str = "Show me my appointments and what I owe",
    *,
    conversation: tuple[Message, ...] | None = None,
    on_ack: AckSink | None = None,
    round_no: int = 1,
) -> PlanRequest:
    return PlanRequest(
        conversation=conversation if conversation is not None else (UserTurn(text=text),),
        tools=CATALOG.tools,
        customer=CUSTOMER,
        now=NOW,
        round=round_no,
        on_ack=on_ack,
    )


def ok(call_id: str, tool: str, result: Any, *, round_no: int = 1, **arguments: Any) -> ToolResult:
    call = ToolCall(call_id=call_id, tool_name=tool, arguments=arguments)
    return ToolResult(call=call, round=round_no, status="ok", result=result)


def failed(
    call_id: str, tool: str, code: str, message: str, *, status: str = "error", round_no: int = 1
) -> ToolResult:
    call = ToolCall(call_id=call_id, tool_name=tool)
    error = ToolError(code=code, message=message)  # type: ignore[arg-type]
    return ToolResult(call=call, round=round_no, status=status, error=error)  # type: ignore[arg-type]


def narrator_input(
    results: tuple[ToolResult, ...],
    *,
    conversation: tuple[Message, ...] = (),
    user_message: str = "Show me my appointments and what I owe",
    confirmation_prompt: str | None = None,
) -> NarratorInput:
    return NarratorInput(
        user_message=user_message,
        tool_results=results,
        context_hint="Summarise the appointments and billing; say plainly what failed.",
        customer=CUSTOMER,
        now=NOW,
        conversation=conversation,
        confirmation_prompt=confirmation_prompt,
    )
