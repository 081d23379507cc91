"""OpenTelemetry traces of turns: one span per turn, one per step inside it.

    turn                         turn.id, session.id, customer.id, turn.status
    ├─ decision                  round, decision.type, decision.calls
    ├─ acknowledgement           round
    ├─ tool crm.listTasks        tool.*, round, status, error code, attempts,
    │  │                         idempotency key hash; events: attempt (breaker
    │  │                         state), retry (reason, wait)
    │  └─ CRM GET tasks          http.*; sends the W3C `traceparent`
    ├─ decision                  round 2 …
    ├─ acknowledgement / tool …
    └─ narration

The turn's trace id is the one in the logs, in `turn.done` and in the CRM's
`X-Trace-Id`. The exporter comes from the settings (`none`, `console`, `otlp`; the
OTLP endpoint from OpenTelemetry's own `OTEL_EXPORTER_OTLP_*` variables).

With `none` (the default) nothing here touches OpenTelemetry: every helper returns one
shared no-op context, so a turn pays a few function calls (bench/engine.py).
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Literal, ParamSpec, Protocol, TypeVar

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Span, Tracer

    from assistant.schema import ModelDecision, ToolCall, ToolResult, TurnDone

Exporter = Literal["none", "console", "otlp"]
AttributeValue = str | bool | int | float

_tracer: Tracer | None = None
_provider: TracerProvider | None = None
_NOOP: AbstractContextManager[None] = nullcontext()

P = ParamSpec("P")
R = TypeVar("R")


class _TurnLike(Protocol):
    trace_id: str
    turn_id: str


def configure(exporter: Exporter, *, service_name: str = "voice-crm-assistant") -> None:
    """Install the exporter the settings name (imports the SDK only when one is asked for)."""
    if exporter == "none":
        use_provider(None)
        return
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import (
        BatchSpanProcessor,
        ConsoleSpanExporter,
        SpanExporter,
    )

    span_exporter: SpanExporter
    if exporter == "console":
        span_exporter = ConsoleSpanExporter()
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        span_exporter = OTLPSpanExporter()  # endpoint and headers from OTEL_EXPORTER_OTLP_*
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    provider.add_span_processor(BatchSpanProcessor(span_exporter))
    use_provider(provider)


def use_provider(provider: TracerProvider | None) -> None:
    """Trace into `provider` (tests pass one with an in-memory exporter); None: off."""
    global _tracer, _provider
    if _provider is not None and _provider is not provider:
        _provider.shutdown()  # flushes what the batch processor still holds
    _provider = provider
    _tracer = provider.get_tracer("assistant") if provider is not None else None


def shutdown() -> None:
    use_provider(None)


def enabled() -> bool:
    return _tracer is not None


def span(name: str, **attributes: AttributeValue) -> AbstractContextManager[Span | None]:
    """A child span of the current one (a no-op when tracing is off)."""
    if _tracer is None:
        return _NOOP
    return _tracer.start_as_current_span(name, attributes=attributes)


def traced(
    name: str, **attributes: AttributeValue
) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Decorate a coroutine function so that each call is one span `name`. With tracing
    off the call is the function's own coroutine: no coroutine around it."""

    def decorate(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        async def in_span(*args: P.args, **kwargs: P.kwargs) -> R:
            assert _tracer is not None
            with _tracer.start_as_current_span(name, attributes=attributes):
                return await fn(*args, **kwargs)

        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> Awaitable[R]:
            if _tracer is None:
                return fn(*args, **kwargs)
            return in_span(*args, **kwargs)

        return wrapper

    return decorate


@contextmanager
def _turn_span(turn: _TurnLike, session_id: str, customer_id: str | None) -> Iterator[None]:
    assert _tracer is not None
    attributes: dict[str, AttributeValue] = {"turn.id": turn.turn_id, "session.id": session_id}
    if customer_id:
        attributes["customer.id"] = customer_id
    with _tracer.start_as_current_span("turn", attributes=attributes) as current:
        # One id everywhere: the logs, turn.done and X-Trace-Id take the span's.
        turn.trace_id = format(current.get_span_context().trace_id, "032x")
        yield


def turn_span(
    turn: _TurnLike, session_id: str, customer_id: str | None
) -> AbstractContextManager[None]:
    """The turn's root span; sets `turn.trace_id` to the span's trace id when tracing."""
    if _tracer is None:
        return _NOOP
    return _turn_span(turn, session_id, customer_id)


def annotate(**attributes: AttributeValue | None) -> None:
    """Attributes on the current span (None values are left out)."""
    if _tracer is None:
        return
    from opentelemetry import trace

    current = trace.get_current_span()
    for key, value in attributes.items():
        if value is not None:
            current.set_attribute(key, value)


def event(name: str, **attributes: AttributeValue | None) -> None:
    """An event on the current span: an attempt, a retry."""
    if _tracer is None:
        return
    from opentelemetry import trace

    clean = {key: value for key, value in attributes.items() if value is not None}
    trace.get_current_span().add_event(name, attributes=clean)


def decision_made(decision: ModelDecision | None) -> None:
    if _tracer is None or decision is None:
        return
    calls = len(getattr(decision, "calls", ()))
    annotate(**{"decision.type": decision.type, "decision.calls": calls})


def tool_span(call: ToolCall, round_no: int) -> AbstractContextManager[Span | None]:
    if _tracer is None:
        return _NOOP
    return _tracer.start_as_current_span(
        f"tool {call.tool_name}",
        attributes={"tool.name": call.tool_name, "tool.call_id": call.call_id, "round": round_no},
    )


def tool_outcome(result: ToolResult) -> None:
    """The call's outcome on its span; a failed call marks the span as an error."""
    if _tracer is None:
        return
    from opentelemetry import trace
    from opentelemetry.trace import Status, StatusCode

    current = trace.get_current_span()
    current.set_attribute("tool.status", result.status)
    current.set_attribute("tool.attempts", result.attempts)
    current.set_attribute("tool.latency_ms", result.latency_ms)
    if result.error is not None:
        current.set_attribute("tool.error_code", result.error.code)
        current.set_status(Status(StatusCode.ERROR, result.error.code))


def idempotency_key(key: str | None) -> None:
    """A hash of the write's idempotency key: enough to match CRM logs, not the key."""
    if _tracer is None or key is None:
        return
    annotate(**{"tool.idempotency_key_sha256": hashlib.sha256(key.encode()).hexdigest()[:16]})


def crm_span(
    method: str, system: str, path: tuple[str, ...], url: object
) -> AbstractContextManager[Span | None]:
    """`CRM GET tasks`: named by the collection (no ids: few distinct names). `url` is
    made a string only for a span (a yarl URL, as the client holds it)."""
    if _tracer is None:
        return _NOOP
    from opentelemetry.trace import SpanKind

    collection = path[1] if len(path) > 1 else "account"
    return _tracer.start_as_current_span(
        f"CRM {method} {collection}",
        kind=SpanKind.CLIENT,
        attributes={"http.request.method": method, "url.full": str(url), "crm.system": system},
    )


def traceparent(trace_id: str) -> str:
    """The W3C `traceparent` for a CRM request: the current span's when tracing, else
    one built from the turn's trace id, so the CRM can join its logs either way."""
    if _tracer is not None:
        from opentelemetry import propagate

        carrier: dict[str, str] = {}
        propagate.inject(carrier)
        if "traceparent" in carrier:
            return carrier["traceparent"]
    if len(trace_id) != 32:
        trace_id = hashlib.sha256(trace_id.encode()).hexdigest()[:32]
    # A span id need only be unique, not secret: no system call for it on every request.
    return f"00-{trace_id}-{random.getrandbits(64) or 1:016x}-00"


def turn_finished(done: TurnDone) -> None:
    if _tracer is None:
        return  # no attributes built for a span not made
    annotate(**{"turn.status": done.status, "turn.truncated_calls": done.truncated_calls})
    if done.status == "failed":
        from opentelemetry import trace
        from opentelemetry.trace import Status, StatusCode

        trace.get_current_span().set_status(Status(StatusCode.ERROR, "turn failed"))
