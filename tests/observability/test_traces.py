"""OpenTelemetry traces of a turn, read from the SDK's in-memory exporter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from assistant import tracing
from assistant.errors import ConfigError
from assistant.settings import load_settings
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.use_provider(provider)
    yield exporter
    tracing.use_provider(None)


def of_trace(spans: InMemorySpanExporter, trace_id: str) -> tuple[ReadableSpan, ...]:
    """The spans of one trace (opening the session reads the profile in a trace of its own)."""
    return tuple(
        span
        for span in spans.get_finished_spans()
        if span.context and format(span.context.trace_id, "032x") == trace_id
    )


def tree(finished: tuple[ReadableSpan, ...]) -> list[str]:
    """Span names indented under their parents, children in start order."""
    by_parent: dict[int | None, list[ReadableSpan]] = {}
    for span in finished:
        parent = span.parent.span_id if span.parent else None
        by_parent.setdefault(parent, []).append(span)
    lines: list[str] = []

    def walk(parent: int | None, depth: int) -> None:
        for span in sorted(by_parent.get(parent, []), key=lambda s: s.start_time or 0):
            lines.append("  " * depth + span.name)
            walk(span.context.span_id if span.context else None, depth + 1)

    walk(None, 0)
    return lines


async def test_two_round_turn_tree(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, spans: InMemorySpanExporter
) -> None:
    """'Complete the grocery task' is one turn span over decision, ack, tool and CRM
    request spans for each of its two rounds, the final decision and the narration."""
    chat = await (await make_assistant()).connect()
    events = await chat.say("Complete the grocery task")
    done = events[-1]
    assert done["status"] == "ok"
    finished = of_trace(spans, done["trace_id"])
    assert tree(finished) == [
        "turn",
        "  decision",
        "  acknowledgement",
        "  tool crm.listTasks",
        "    CRM GET tasks",
        "  decision",
        "  acknowledgement",
        "  tool crm.completeTask",
        "    CRM POST tasks",
        "  decision",
        "  narration",
    ]
    by_name = {span.name: span for span in finished}
    turn = by_name["turn"].attributes or {}
    assert (turn["turn.status"], turn["customer.id"]) == ("ok", "cust_001")
    complete = by_name["tool crm.completeTask"]
    attributes = complete.attributes or {}
    assert attributes["round"] == 2
    assert attributes["tool.status"] == "ok"
    assert attributes["tool.attempts"] == 1
    assert len(str(attributes["tool.idempotency_key_sha256"])) == 16
    assert [(e.name, (e.attributes or {}).get("breaker")) for e in complete.events] == [
        ("attempt", "closed")
    ]
    assert "tool.idempotency_key_sha256" not in (by_name["tool crm.listTasks"].attributes or {})


async def test_crm_gets_traceparent_of_its_span(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, spans: InMemorySpanExporter
) -> None:
    """The CRM receives a W3C traceparent naming the request's own span, beside X-Trace-Id."""
    chat = await (await make_assistant()).connect()
    done = (await chat.say("What do I owe?"))[-1]
    crm_span = next(s for s in of_trace(spans, done["trace_id"]) if s.name.startswith("CRM"))
    assert crm_span.context is not None
    attributes = crm_span.attributes or {}
    assert str(attributes["url.full"]).endswith("/v1/customers/cust_001/invoices")
    assert attributes["http.response.status_code"] == 200
    seen = [r for r in await crm_admin.requests() if r["trace_id"] == done["trace_id"]]
    # version-trace id-parent span id-flags (sampled)
    assert [r["traceparent"][:-2] for r in seen] == [
        f"00-{done['trace_id']}-{crm_span.context.span_id:016x}-"
    ]


async def test_retries_are_span_events(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, spans: InMemorySpanExporter
) -> None:
    """A read that fails once with a 503 shows two attempts and the retry on its span."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/invoices", status=503, times=1)
    chat = await (await make_assistant()).connect()
    done = (await chat.say("What do I owe?"))[-1]
    assert done["tool_calls"][0]["attempts"] == 2
    tool = next(s for s in spans.get_finished_spans() if s.name == "tool crm.getOpenInvoices")
    assert [e.name for e in tool.events] == ["attempt", "retry", "attempt"]
    assert [s.name for s in spans.get_finished_spans()].count("CRM GET invoices") == 2


async def test_without_tracing_the_crm_still_gets_a_traceparent(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """With the exporter off, the CRM's traceparent carries the turn's trace id."""
    chat = await (await make_assistant()).connect()
    done = (await chat.say("What do I owe?"))[-1]
    seen = [r for r in await crm_admin.requests() if r["trace_id"] == done["trace_id"]]
    assert seen and all(r["traceparent"].split("-")[1] == done["trace_id"] for r in seen)


@pytest.mark.parametrize("exporter", ["console", "otlp"])
def test_exporter_comes_from_the_settings(exporter: str) -> None:
    """ASSISTANT_OTEL_EXPORTER=console|otlp turns tracing on; none turns it off."""
    settings = load_settings(otel_exporter=exporter)
    tracing.configure(settings.otel_exporter)
    try:
        assert tracing.enabled()
    finally:
        tracing.configure("none")
    assert not tracing.enabled()


def test_an_unknown_exporter_is_refused_by_name() -> None:
    """A misspelt exporter stops the start with a message naming the setting."""
    with pytest.raises(ConfigError, match="ASSISTANT_OTEL_EXPORTER"):
        load_settings(otel_exporter="zipkin")
