"""A turn on a time axis: where its time went, from the events it sent.

Each turn becomes bars: the decision of each round, the acknowledgement, one bar per
tool call (a round's calls start together, so their bars overlap), and the narration.
With event times (recordings made since events carry `at_ms`, and the demo server's
live turns) the bars are where the events were. Older recordings only hold each call's
latency and the turn's `timings_ms`: the bars are then laid out from those, one round
after another, and the timeline says it is an estimate.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from assistant.recording.format import Recording
from assistant.schema import Event, EventSink

Wire = dict[str, Any]
BarKind = Literal["decision", "ack", "tool", "answer"]


@dataclass(frozen=True, slots=True)
class Bar:
    kind: BarKind
    label: str
    start_ms: float
    end_ms: float
    round: int = 0
    status: str = "ok"  # ok | error | skipped
    attempts: int = 1
    error_code: str | None = None


@dataclass(slots=True)
class TurnTimeline:
    number: int
    user_text: str
    bars: list[Bar] = field(default_factory=list)
    total_ms: float = 0.0
    status: str = ""
    trace_id: str | None = None
    ack_text: list[str] = field(default_factory=list)
    answer_text: str = ""
    estimated: bool = False


def turn_timeline(
    number: int,
    user_text: str,
    events: Sequence[Wire],
    at_ms: Sequence[float | None] | None = None,
) -> TurnTimeline:
    """The timeline of one turn's wire events; `at_ms[i]` is when event i was sent."""
    timeline = TurnTimeline(number, user_text)
    for event in events:
        kind = event.get("type")
        if kind == "ack.done":
            timeline.ack_text.append(str(event.get("text", "")))
        elif kind == "answer.done":
            timeline.answer_text = str(event.get("text", ""))
        elif kind == "turn.done":
            timeline.status = str(event.get("status", ""))
            timeline.trace_id = event.get("trace_id")
    times = list(at_ms) if at_ms is not None else []
    if len(times) == len(events) and events and all(t is not None for t in times):
        _from_times(timeline, events, [float(t) for t in times if t is not None])
    else:
        _estimated(timeline, events)
    return timeline


def recording_timelines(recording: Recording) -> list[TurnTimeline]:
    """Every finished turn of a recording, in order."""
    return [
        turn_timeline(
            turn.number, turn.user.text if turn.user else "", turn.events, turn.event_times_ms
        )
        for turn in recording.turns()
        if turn.finished
    ]


def _from_times(timeline: TurnTimeline, events: Sequence[Wire], times: list[float]) -> None:
    bars = timeline.bars
    started: dict[str, float] = {}
    ack_start: dict[int, float] = {}
    answer_start: float | None = None
    # The model decides at the start and after each round's last call: from then until
    # the next thing it makes happen (an acknowledgement, a call or the answer).
    deciding_since: float | None = 0.0
    for event, at in zip(events, times, strict=True):
        kind = event.get("type")
        round_no = int(event.get("round") or 0)
        if kind in _DECISION_ENDS and deciding_since is not None:
            bars.append(Bar("decision", "decision", deciding_since, at, round_no))
            deciding_since = None
        if kind == "ack.delta":
            ack_start.setdefault(round_no, at)
        elif kind == "ack.done":
            bars.append(Bar("ack", "acknowledgement", ack_start.get(round_no, at), at, round_no))
        elif kind == "tool.started":
            started[str(event.get("call_id"))] = at
        elif kind == "tool.finished":
            bars.append(_tool_bar(event, started.pop(str(event.get("call_id")), at), at))
            if not started:
                deciding_since = at
        elif kind == "answer.delta" and answer_start is None:
            answer_start = at
        elif kind == "answer.done":
            bars.append(Bar("answer", "narration", answer_start or at, at))
        elif kind == "turn.done":
            timeline.total_ms = at
    timeline.total_ms = max([timeline.total_ms, *(bar.end_ms for bar in bars)])


_DECISION_ENDS = frozenset({"ack.delta", "ack.done", "tool.started", "answer.delta"})


def _estimated(timeline: TurnTimeline, events: Sequence[Wire]) -> None:
    """Bars from latencies and `timings_ms` alone: rounds one after another."""
    timeline.estimated = True
    done = next((e for e in events if e.get("type") == "turn.done"), {})
    timings = done.get("timings_ms") or {}
    finished = [e for e in events if e.get("type") == "tool.finished"]
    rounds = sorted({int(e.get("round") or 1) for e in finished})
    decisions = len(rounds) + (1 if any(e.get("type") == "answer.done" for e in events) else 0)
    decision_ms = float(timings.get("decision", 0)) / max(decisions, 1)
    cursor = 0.0
    for round_no in rounds:
        timeline.bars.append(Bar("decision", "decision", cursor, cursor + decision_ms, round_no))
        cursor += decision_ms
        if any(e.get("type") == "ack.done" and e.get("round") == round_no for e in events):
            timeline.bars.append(Bar("ack", "acknowledgement", cursor, cursor, round_no))
        longest = 0.0
        for event in (e for e in finished if int(e.get("round") or 1) == round_no):
            latency = float(event.get("latency_ms") or 0)
            timeline.bars.append(_tool_bar(event, cursor, cursor + latency))
            longest = max(longest, latency)
        cursor += longest
    if len(rounds) < decisions:
        timeline.bars.append(Bar("decision", "decision", cursor, cursor + decision_ms))
        cursor += decision_ms
    answer_ms = float(timings.get("answer", 0))
    if any(e.get("type") == "answer.done" for e in events):
        timeline.bars.append(Bar("answer", "narration", cursor, cursor + answer_ms))
    timeline.total_ms = max(float(timings.get("total", 0)), cursor + answer_ms)


def _tool_bar(event: Wire, start_ms: float, end_ms: float) -> Bar:
    error = event.get("error") or {}
    return Bar(
        "tool",
        str(event.get("tool", "")),
        start_ms,
        end_ms,
        int(event.get("round") or 1),
        str(event.get("status", "ok")),
        int(event.get("attempts") or 0),
        error.get("code"),
    )


@dataclass(slots=True)
class _LiveTurn:
    user_text: str
    events: list[Wire] = field(default_factory=list)
    at_ms: list[float] = field(default_factory=list)


class LiveTimelines:
    """The last turns the server ran (demo mode), each event with its time."""

    def __init__(self, keep: int = 20) -> None:
        self._turns: deque[_LiveTurn] = deque(maxlen=keep)
        self._count = 0

    def wrap_emit(self, emit: EventSink, user_text: str) -> EventSink:
        """For one turn: note each event and when it was sent, then pass it on."""
        turn = _LiveTurn(user_text)
        self._turns.append(turn)
        self._count += 1
        started = time.perf_counter()

        async def noted(event: Event) -> None:
            turn.events.append(event.to_wire())
            turn.at_ms.append((time.perf_counter() - started) * 1000)
            await emit(event)

        return noted

    def timelines(self) -> list[TurnTimeline]:
        """Newest first, numbered in the order the server ran them."""
        first = self._count - len(self._turns) + 1
        drawn = [
            turn_timeline(first + index, turn.user_text, turn.events, turn.at_ms)
            for index, turn in enumerate(self._turns)
        ]
        return drawn[::-1]
