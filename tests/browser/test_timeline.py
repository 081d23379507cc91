"""The turn timeline in Chromium: bars where the recorded timings put them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from assistant.recording.format import EventRecord, Header, UserRecord, dump_record
from assistant.replay import run as replay
from tests.browser.live import LiveStack

RECORDINGS = Path(__file__).resolve().parents[1] / "recordings"


def ev(at_ms: float, **event: Any) -> EventRecord:
    return EventRecord(turn=1, event={"turn_id": "t_1", **event}, at_ms=at_ms)


def tool(call_id: str, name: str, round_: int = 1, **finished: Any) -> dict[str, Any]:
    return {
        "type": "tool.finished",
        "round": round_,
        "call_id": call_id,
        "tool": name,
        "status": "ok",
        "error": None,
        "latency_ms": 0,
        "attempts": 1,
        **finished,
    }


# One turn of 1000 ms: the decision until 100, the acknowledgement 100–120, appointments
# 120–420 and billing 120–720 (two attempts, then unavailable), the answer 800–1000.
TIMED_TURN = [
    ev(0, type="turn.started", message_id=None),
    ev(100, type="ack.delta", round=1, text="Sure, I'll look up your appointments"),
    ev(120, type="ack.done", round=1, text="Sure, I'll look up your appointments."),
    ev(
        120,
        type="tool.started",
        round=1,
        call_id="c1",
        tool="crm.listUpcomingAppointments",
        arguments={},
    ),
    ev(120, type="tool.started", round=1, call_id="c2", tool="crm.getOpenInvoices", arguments={}),
    ev(420, **tool("c1", "crm.listUpcomingAppointments", latency_ms=300)),
    ev(
        720,
        **tool(
            "c2",
            "crm.getOpenInvoices",
            status="error",
            attempts=2,
            latency_ms=600,
            error={"code": "unavailable", "message": "billing is down"},
        ),
    ),
    ev(800, type="answer.delta", text="You have one appointment. "),
    ev(1000, type="answer.done", text="You have one appointment. I couldn't reach billing."),
    ev(
        1000,
        type="turn.done",
        status="partial",
        tool_calls=[],
        truncated_calls=0,
        awaiting_confirmation=None,
        timings_ms={},
        trace_id="ab" * 16,
    ),
]


def write_recording(path: Path) -> None:
    header = Header(
        backend="embedded", catalog_digest="x", customer=None, started_at="2026-11-22T00:00:00Z"
    )
    records = [header, UserRecord(turn=1, text="My appointments and my bill"), *TIMED_TURN]
    path.write_text("".join(dump_record(r) + "\n" for r in records))


def draw(tmp_path: Path, *recordings: Path) -> Path:
    out = tmp_path / "timeline.html"
    args = argparse.Namespace(
        paths=[str(p) for p in recordings],
        html=str(out),
        config=None,
        update=False,
        models="recorded",
    )
    assert replay(args) == 0
    return out


def span_of(bar: Locator, track: Locator) -> tuple[float, float]:
    """The bar's start and end as fractions of its track's width."""
    outer, inner = track.bounding_box(), bar.bounding_box()
    assert outer is not None and inner is not None
    start = (inner["x"] - outer["x"]) / outer["width"]
    return start, start + inner["width"] / outer["width"]


def test_bars_follow_the_recorded_times(page: Page, tmp_path: Path, artifacts: Path) -> None:
    """Each bar starts and ends at its event times' share of the turn; the two calls
    overlap; the failed, retried billing call is marked so."""
    source = tmp_path / "timed.jsonl"
    write_recording(source)
    page.goto(draw(tmp_path, source).as_uri())
    bars = page.locator(".bar")
    expected = [
        ("decision", 0.0, 0.1),
        ("acknowledgement", 0.1, 0.12),
        ("crm.getOpenInvoices", 0.12, 0.72),
        ("crm.listUpcomingAppointments", 0.12, 0.42),
        ("decision", 0.72, 0.8),
        ("narration", 0.8, 1.0),
    ]
    seen = []
    for index in range(bars.count()):
        bar = bars.nth(index)
        seen.append((bar.get_attribute("data-label"), *span_of(bar, bar.locator(".."))))
    seen.sort(key=lambda item: (round(item[1], 2), item[0]))
    assert [label for label, _, _ in seen] == [label for label, _, _ in expected]
    for (label, got_start, got_end), (_, start, end) in zip(seen, expected, strict=True):
        # Within 1% of the track (a pixel or so); the acknowledgement is 3 px at least.
        assert abs(got_start - start) < 0.01, label
        assert abs(got_end - end) < 0.01 or (label == "acknowledgement" and got_end > start)
    billing = page.locator('.bar[data-label="crm.getOpenInvoices"]')
    expect(billing).to_have_class("bar tool error retried")
    expect(billing).to_contain_text("↻ 2 attempts ✕ unavailable")
    expect(page.locator(".turn")).to_contain_text("My appointments and my bill")
    expect(page.locator(".turn")).to_contain_text("I couldn't reach billing.")
    page.screenshot(path=str(artifacts / "timeline-timed.png"), full_page=True)


def test_old_recordings_overlap_the_calls_of_a_round(page: Page, tmp_path: Path) -> None:
    """A shipped recording (no event times) draws its two concurrent calls from one
    start, each as long as its recorded latency, and says the times are estimated."""
    page.goto(draw(tmp_path, RECORDINGS / "two_intents.jsonl").as_uri())
    turn = page.locator(".turn").first
    expect(turn).to_contain_text("times estimated")
    tools = turn.locator(".bar.tool")
    expect(tools).to_have_count(2)
    starts = [float(tools.nth(i).get_attribute("data-start-ms") or -1) for i in range(2)]
    assert starts[0] == starts[1]
    lefts = [span_of(tools.nth(i), tools.nth(i).locator(".."))[0] for i in range(2)]
    assert abs(lefts[0] - lefts[1]) < 0.005


def test_demo_server_draws_the_turns_it_ran(page: Page, live: LiveStack) -> None:
    """After a chat turn, /v1/demo/timeline shows it: what was said, and the two calls
    as bars that overlap in time."""
    page.goto(live.url)
    expect(page.locator(".aw-status")).to_have_attribute("data-state", "ready")
    box = page.get_by_role("textbox", name="Message")
    box.fill("Show me my appointments and my billing")
    box.press("Enter")
    expect(page.locator(".aw-turn").last).to_have_attribute("data-state", "ok")
    page.goto(live.url.rstrip("/") + "/v1/demo/timeline")
    turn = page.locator(".turn").first
    expect(turn).to_contain_text("Show me my appointments and my billing")
    tools = turn.locator(".bar.tool")
    expect(tools).to_have_count(2)
    spans = [
        (
            float(tools.nth(i).get_attribute("data-start-ms") or 0),
            float(tools.nth(i).get_attribute("data-end-ms") or 0),
        )
        for i in range(2)
    ]
    (a_start, a_end), (b_start, b_end) = spans
    assert a_start < b_end and b_start < a_end  # overlapping intervals: concurrent
