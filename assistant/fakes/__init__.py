"""Fakes at the model and tool boundaries, for the tests and the benchmarks.

Here rather than under tests/ so that bench/ does not import the test suite; with
them, the scripted OpenAI-compatible server (openai_server.py) and a small world of
customer data the embedded models are tried on (world.py).

A scripted planner or narrator fails when called past its script, and
`assert_used_up()` proves every scripted step was used.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.errors import ModelUnavailable, ToolFailure
from assistant.schema import (
    FinalDecision,
    NarratorInput,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolDefinition,
)

Step = FinalDecision | ToolCallsDecision | Exception | Callable[[PlanRequest], Any]


def calls(*specs: tuple[str, dict[str, Any]] | str, ack: str | None = None) -> ToolCallsDecision:
    """`calls("crm.listTasks", ("crm.addTask", {"title": "x"}))` → a tool-calls decision."""
    built = []
    for index, spec in enumerate(specs, start=1):
        name, arguments = (spec, {}) if isinstance(spec, str) else spec
        built.append(ToolCall(call_id=f"c_{index}", tool_name=name, arguments=arguments))
    return ToolCallsDecision(calls=tuple(built), acknowledgement=ack)


class ScriptedPlanner:
    """Answers each `decide` with the next scripted step; fails past the script."""

    def __init__(self, *steps: Step, reads_the_words: bool = False) -> None:
        self._steps = list(steps)
        self.requests: list[PlanRequest] = []
        # Like a model by default: its writes are compared with the customer's words
        # (assistant/as_said.py). True where the message is a placeholder and the
        # script is the request (retry and soak tests of the tool layer).
        self.reads_the_words = reads_the_words

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        self.requests.append(request)
        if not self._steps:
            raise AssertionError(f"planner called past its script (round {request.round})")
        step = self._steps.pop(0)
        if isinstance(step, Exception):
            raise step
        if callable(step) and not isinstance(step, FinalDecision | ToolCallsDecision):
            result = step(request)
            if asyncio.iscoroutine(result):
                result = await result
            assert isinstance(result, FinalDecision | ToolCallsDecision)
            return result
        assert isinstance(step, FinalDecision | ToolCallsDecision)
        return step

    def assert_used_up(self) -> None:
        assert not self._steps, f"{len(self._steps)} scripted planner steps were not used"


class ScriptedNarrator:
    """Streams scripted pieces (or a function of the input); fails past the script."""

    def __init__(
        self,
        *scripts: Sequence[str] | Exception | Callable[[NarratorInput], str],
        delay_s: float = 0.0,
    ) -> None:
        self._scripts = list(scripts)
        self.inputs: list[NarratorInput] = []
        self._delay_s = delay_s

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        self.inputs.append(request)
        if not self._scripts:
            raise AssertionError("narrator called past its script")
        script = self._scripts.pop(0)
        if isinstance(script, Exception):
            raise script
        pieces = [script(request)] if callable(script) else list(script)
        for piece in pieces:
            if self._delay_s:
                await asyncio.sleep(self._delay_s)
            yield piece

    def assert_used_up(self) -> None:
        assert not self._scripts, f"{len(self._scripts)} scripted narrations were not used"


class EchoNarrator:
    """Says which tools answered and which failed; never runs out."""

    def __init__(self) -> None:
        self.inputs: list[NarratorInput] = []

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        self.inputs.append(request)
        for result in request.tool_results:
            outcome = "ok" if result.ok else (result.error.code if result.error else "error")
            yield f"{result.call.tool_name}: {outcome}. "
        if request.confirmation_prompt:
            yield request.confirmation_prompt


class DownNarrator:
    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        raise ModelUnavailable("narrator down")
        yield ""  # pragma: no cover - makes this an async generator


@dataclass
class Interval:
    tool: str
    start: float
    end: float


@dataclass
class FakeToolBackend:
    """Answers every tool from `results`, after `delays_s`, or fails with `failures`.

    Records each call's (start, end) interval so tests can prove overlap by structure.
    """

    results: Mapping[str, Any] = field(default_factory=dict)
    delays_s: Mapping[str, float] = field(default_factory=dict)
    failures: Mapping[str, ToolFailure] = field(default_factory=dict)
    intervals: list[Interval] = field(default_factory=list)
    invocations: list[tuple[str, str, dict[str, Any], str | None]] = field(default_factory=list)
    release: asyncio.Event | None = None  # when set, tools wait for it before answering
    # Tools named here wait for their own event before answering (one slow tool).
    held: Mapping[str, asyncio.Event] = field(default_factory=dict)
    # Told each tool's name as its request is made (a test reacting to a call's start).
    on_invoke: Callable[[str], None] | None = None

    def supports(self, tool_name: str) -> bool:
        return True

    async def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Any:
        self.invocations.append((tool.name, customer_id, dict(arguments), idempotency_key))
        if self.on_invoke is not None:
            self.on_invoke(tool.name)
        start = time.perf_counter()
        try:
            if self.release is not None:
                await self.release.wait()
            if tool.name in self.held:
                await self.held[tool.name].wait()
            delay = self.delays_s.get(tool.name, 0.0)
            if delay:
                await asyncio.sleep(delay)
            if tool.name in self.failures:
                raise self.failures[tool.name]
            return self.results.get(tool.name, {"ok": True, "tool": tool.name})
        finally:
            self.intervals.append(Interval(tool.name, start, time.perf_counter()))


class HangingToolBackend:
    """Tools that never answer until cancelled, and tell when they started and stopped."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = asyncio.Event()

    def supports(self, tool_name: str) -> bool:
        return True

    async def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Any:
        self.started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
