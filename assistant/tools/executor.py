"""Runs one round of tool calls concurrently, each under its own policy.

Every call gets exactly one `tool.started` and one `tool.finished`, and exactly one
`ToolResult`, whatever happens: invalid arguments, another customer's id, a CRM
failure, a timeout or a cancellation. A failing call never fails its siblings.

On cancellation (`turn.cancel`, barge-in, a closed socket) calls that only read are
cancelled at once; a write already sent is allowed to finish, so the CRM is never
left in an unknown state, and its real outcome is reported.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from assistant import tracing
from assistant.errors import ToolFailure
from assistant.metrics import Metrics, count, observe
from assistant.schema import (
    EventSink,
    ToolCall,
    ToolDefinition,
    ToolError,
    ToolFinished,
    ToolResult,
    ToolStarted,
    tool_error_wire,
)
from assistant.tools.base import ToolBackend
from assistant.tools.catalog import Catalog, bind_customer
from assistant.tools.resilience import CallPolicy, Outcome

log = logging.getLogger(__name__)

RAW_ARGUMENTS_KEY = "__raw_arguments__"  # a model's arguments that were not valid JSON

# Told each call's result the moment it is known, before its tool.finished goes out.
ResultSink = Callable[[ToolResult], None]


def idempotency_key_of(ctx: RoundContext, call: ToolCall) -> str:
    """The idempotency key a write is sent with: its session, turn and call."""
    return f"{ctx.session_id}-{ctx.turn_id}-{call.call_id}"


class RoundContext(NamedTuple):
    """Who and what a round's calls are for. A named tuple: made twice a turn, and a frozen
    dataclass of six fields costs three times as much to build."""

    turn_id: str
    round: int
    session_id: str
    customer_id: str | None
    trace_id: str
    deadline: float  # loop time past which no attempt starts
    # Writes sent again under the key of an earlier attempt that may still be landing,
    # by call id (integrity.py `hold_doubts`): the CRM applies whichever lands once.
    resend_keys: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class _Prepared:
    call: ToolCall
    tool: ToolDefinition | None
    arguments: dict[str, object]
    refusal: ToolError | None


# Preparations kept: a few rounds' worth of calls across every session of the process.
_PREPARED_KEPT = 1024


class ToolExecutor:
    def __init__(
        self,
        catalog: Catalog,
        backend: ToolBackend,
        policy: CallPolicy | None = None,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        self._catalog = catalog
        self._backend = backend
        self._policy = policy or CallPolicy()
        self._metrics = metrics
        # Each call is prepared (tool found, customer bound, arguments validated) once:
        # the integrity checks ask before the round, the round runs it after.
        self._prepared: OrderedDict[tuple[str, str | None], _Prepared] = OrderedDict()

    def tool(self, name: str) -> ToolDefinition | None:
        return self._catalog.get(name)

    def tools(self) -> tuple[ToolDefinition, ...]:
        return self._catalog.tools

    def argument_error(self, call: ToolCall, customer_id: str) -> str | None:
        """Why `call` would be refused before reaching the CRM, or None."""
        refusal = self._prepare(call, customer_id).refusal
        return refusal.message if refusal else None

    async def run_round(
        self,
        calls: Sequence[ToolCall],
        ctx: RoundContext,
        emit: EventSink,
        into: list[ToolResult] | None = None,
    ) -> list[ToolResult]:
        """Run `calls` concurrently; results come back in the order requested.

        `into`, when given, receives the results too, even when the round is
        cancelled (then the CancelledError propagates after every call is reported).
        """
        batch = await self.launch(calls, ctx, emit)
        try:
            await batch.wait()
        except asyncio.CancelledError:
            await batch.stop()
            if into is not None:
                into.extend(batch.results())
            raise
        done = batch.results()
        if into is not None:
            into.extend(done)
        return done

    async def launch(
        self,
        calls: Sequence[ToolCall],
        ctx: RoundContext,
        emit: EventSink,
        on_result: ResultSink | None = None,
    ) -> Batch:
        """Announce `calls` (tool.started each) and start them, without waiting for them.

        `on_result` hears each result as it comes (for narrating what is ready).
        """
        prepared = [self._prepare(call, ctx.customer_id) for call in calls]
        for item in prepared:
            await emit(
                ToolStarted(
                    ctx.turn_id, ctx.round, item.call.call_id, item.call.tool_name, item.arguments
                )
            )
        batch = Batch(self, prepared, ctx, emit)
        # A read asked after writes to the same part of the CRM ("add two tasks, then read
        # me my list") waits for them: read at once, it held the writes that had landed,
        # and the answer said "I added Pay rent" over a list without it.
        writes: dict[str, list[asyncio.Task[None]]] = {}
        for index, item in enumerate(prepared):
            tool = item.tool if item.refusal is None else None
            system = tool.system if tool is not None else None
            writing = tool is not None and tool.writes
            after = writes.get(system) if system is not None and not writing else None
            task = asyncio.create_task(
                self._run_one(item, ctx, emit, batch.slots, index, on_result, after)
            )
            if system is not None and writing:
                writes.setdefault(system, []).append(task)
            batch.tasks.append(task)
        return batch

    def _prepare(self, call: ToolCall, customer_id: str | None) -> _Prepared:
        key = (call.call_id, customer_id)
        known = self._prepared.get(key)
        # The same call object, usually: compared as a value only when it is not.
        if known is not None and (known.call is call or known.call == call):
            return known
        prepared = self._prepare_once(call, customer_id)
        self._prepared[key] = prepared
        if len(self._prepared) > _PREPARED_KEPT:
            self._prepared.popitem(last=False)
        return prepared

    def _prepare_once(self, call: ToolCall, customer_id: str | None) -> _Prepared:
        tool = self._catalog.get(call.tool_name)
        if tool is None:
            error = ToolError(code="invalid_arguments", message=f"unknown tool {call.tool_name!r}")
            return _Prepared(call, None, dict(call.arguments), error)
        if customer_id is None:
            error = ToolError(code="permission_denied", message="no customer is signed in")
            return _Prepared(call, tool, dict(call.arguments), error)
        if RAW_ARGUMENTS_KEY in call.arguments:
            return _Prepared(
                call,
                tool,
                {},
                ToolError(code="invalid_arguments", message="arguments are not valid JSON"),
            )
        arguments, refused = bind_customer(call.arguments, customer_id)
        if refused:
            error = ToolError(
                code="permission_denied",
                message="a request may only concern the signed-in customer's own account",
            )
            return _Prepared(call, tool, dict(call.arguments), error)
        problem = self._catalog.argument_error(tool.name, arguments)
        if problem is not None:
            return _Prepared(
                call, tool, arguments, ToolError(code="invalid_arguments", message=problem)
            )
        return _Prepared(call, tool, arguments, None)

    async def _run_one(
        self,
        item: _Prepared,
        ctx: RoundContext,
        emit: EventSink,
        results: list[ToolResult | None],
        index: int,
        on_result: ResultSink | None = None,
        after: list[asyncio.Task[None]] | None = None,
    ) -> None:
        if after:
            await asyncio.wait(after)  # the writes asked before it, however they end
        started = time.perf_counter()
        tool = item.tool
        with tracing.tool_span(item.call, ctx.round):
            if item.refusal is not None or tool is None:
                error = item.refusal
                result = ToolResult(call=item.call, round=ctx.round, status="error", error=error)
            else:
                # Awaited here, not in a coroutine of its own (every call of every turn).
                # The same key on every attempt, so a retried write is applied exactly once;
                # an earlier turn's key for a write sent again while it may still land.
                resent = ctx.resend_keys.get(item.call.call_id) if ctx.resend_keys else None
                key = (resent or idempotency_key_of(ctx, item.call)) if tool.writes else None
                tracing.idempotency_key(key)
                # Each attempt makes a new request (a partial, not a closure: one frame less).
                attempt = functools.partial(
                    self._backend.invoke,
                    tool,
                    ctx.customer_id or "",
                    item.arguments,
                    idempotency_key=key,
                    trace_id=ctx.trace_id,
                )
                try:
                    outcome = await self._policy.run(
                        tool,
                        attempt,
                        deadline=ctx.deadline,
                        idempotent=key is not None,
                        resent=resent is not None,
                    )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # a bug below us must not cost the siblings their answer
                    log.exception("tool %s failed unexpectedly", tool.name)
                    failure = ToolFailure("internal", f"unexpected error: {type(exc).__name__}")
                    result = _failed(item.call, ctx.round, failure, started, attempts=1)
                else:
                    result = self._outcome(tool, item.call, ctx.round, outcome, started)
            tracing.tool_outcome(result)
        results[index] = result
        self.count(item.call.tool_name, result)
        if on_result is not None:
            on_result(result)
        await _emit_quietly(emit, _finished(ctx, result))

    def _outcome(
        self, tool: ToolDefinition, call: ToolCall, round_: int, outcome: Outcome, started: float
    ) -> ToolResult:
        if outcome.failure is not None:
            return _failed(call, round_, outcome.failure, started, outcome.attempts)
        latency_ms = round((time.perf_counter() - started) * 1000)
        if self._metrics is not None:
            metrics = self._metrics
            observe(metrics.labelled(metrics.tool_call_s, tool.name), latency_ms / 1000)
        return ToolResult(
            call=call,
            round=round_,
            status="ok",
            result=outcome.result,
            latency_ms=latency_ms,
            attempts=outcome.attempts,
        )

    def count(self, tool: str, result: ToolResult | None) -> None:
        if self._metrics is None or result is None:
            return
        metrics = self._metrics
        outcome = result.status if result.error is None else result.error.code
        count(metrics.labelled(metrics.tool_calls, tool, outcome))
        if result.error is not None:
            count(metrics.labelled(metrics.tool_errors, tool, result.error.code))


class Batch:
    """Calls started together (`ToolExecutor.launch`): one task each, one result slot each.

    A caller waits for the tasks directly: no task of its own wraps them, because every
    turn's round goes through here (bench/engine.py counts what a task costs).
    """

    def __init__(
        self, executor: ToolExecutor, prepared: list[_Prepared], ctx: RoundContext, emit: EventSink
    ) -> None:
        self._executor = executor
        self._prepared = prepared
        self._ctx = ctx
        self._emit = emit
        self.tasks: list[asyncio.Task[None]] = []
        self.slots: list[ToolResult | None] = [None] * len(prepared)

    def done(self) -> bool:
        return all(task.done() for task in self.tasks)

    async def wait(self) -> None:
        if not self.done():
            await asyncio.wait(self.tasks)

    def results(self) -> list[ToolResult]:
        """The results in so far, in the order the calls were given."""
        return [result for result in self.slots if result is not None]

    async def stop(self) -> None:
        """Cancel reads, let writes in flight finish, report every call exactly once."""
        for item, task in zip(self._prepared, self.tasks, strict=True):
            if item.tool is None or not item.tool.writes:
                task.cancel()
        while not self.done():
            try:
                await asyncio.wait(self.tasks)
            except asyncio.CancelledError:
                continue  # a second cancel must not abandon a write mid-flight
        ctx = self._ctx
        for index, item in enumerate(self._prepared):
            if self.slots[index] is None:
                error = ToolError(code="cancelled", message="the request was cancelled")
                result = ToolResult(call=item.call, round=ctx.round, status="error", error=error)
                self.slots[index] = result
                self._executor.count(item.call.tool_name, result)
                await _emit_quietly(self._emit, _finished(ctx, result))


def _failed(
    call: ToolCall, round_: int, failure: ToolFailure, started: float, attempts: int
) -> ToolResult:
    return ToolResult(
        call=call,
        round=round_,
        status="error",
        error=ToolError(
            code=failure.code,
            message=failure.message,
            retry_after_s=failure.retry_after_s,
            unconfirmed=failure.unconfirmed,
        ),
        latency_ms=round((time.perf_counter() - started) * 1000),
        attempts=attempts,
    )


def _finished(ctx: RoundContext, result: ToolResult) -> ToolFinished:
    return ToolFinished(
        ctx.turn_id,
        ctx.round,
        result.call.call_id,
        result.call.tool_name,
        result.status,
        tool_error_wire(result.error),
        result.latency_ms,
        result.attempts,
    )


async def _emit_quietly(emit: EventSink, event: ToolFinished) -> None:
    """Emit even while the turn winds down; a client gone away must not lose the result."""
    try:
        await emit(event)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.warning("could not deliver %s", event.type, exc_info=True)
