"""Progressive answers: what is ready is said while one slow call is still out.

With a real model the answer already waits for the decision; waiting also for the
slowest tool is seconds of silence on a phone. So while a round's calls run, once some
results are in and another call has run `progress_after_s`, the engine asks the
narrator for a first part (the results in, then "I'm still checking your billing.",
`NarratorInput.waiting_on`) and, when every result is in, for the rest of the same
answer (`told`, `already_said`): one answer per turn, no sentence said twice.

A first part commits the turn to narrating (no later round), so it is only given when
the round is surely the last: every call reads, the request asks for no change (a
lookup before an action waits for the action), and nothing is to be confirmed or was
said yet.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from assistant.language import detect_intents
from assistant.round_run import RoundRun
from assistant.schema import NarratorInput
from assistant.tools.executor import ToolExecutor
from assistant.turn import TurnState, context_hint


def may_tell_early(state: TurnState, run: RoundRun, executor: ToolExecutor) -> bool:
    if state.pending is not None or state.answer or state.checks:
        return False
    for call in run.calls:
        tool = executor.tool(call.tool_name)
        if tool is None or tool.writes or tool.needs_confirmation:
            return False
    return not any(intent.writes for intent in detect_intents(state.text, state.now))


async def await_round(
    run: RoundRun,
    threshold_s: float,
    *,
    may_tell: Callable[[], bool],
    tell: Callable[[], Awaitable[None]],
) -> None:
    """Every call of the round; `tell` once, when some results are in and another call
    has run `threshold_s` (never when `threshold_s` is 0 or `may_tell` says no)."""
    if threshold_s > 0:
        while not run.done():
            wait = run.overdue_in(threshold_s)
            if wait is None:
                break  # nothing is running any more
            if wait > 0:
                await run.wait(within_s=wait)  # most rounds end here, long before
            elif run.ready:
                if may_tell():
                    await tell()
                break
            else:
                await run.next_arrival(None)  # overdue, nothing in yet: the first result
    await run.wait()


def first_part(
    state: TurnState, run: RoundRun, hint_of: Callable[[str], str | None]
) -> NarratorInput:
    """The narrator's request for the results in so far and what is still being done."""
    ready = tuple(result for result in run.results() if result.call.call_id in run.ready)
    waiting: list[str] = []
    for call in run.running():
        hint = hint_of(call.tool_name)
        if hint and hint not in waiting:
            waiting.append(hint)
    return NarratorInput(
        user_message=state.text,
        tool_results=ready,
        context_hint=context_hint(ready, hint_of),
        customer=state.session.customer,
        now=state.now,
        conversation=tuple(state.session.history),
        waiting_on=tuple(waiting),
        dialogue=state.session.dialogue,
    )
