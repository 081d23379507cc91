"""The turn timeline as one self-contained HTML page (no scripts, no external files).

Served by the demo server at `/v1/demo/timeline` and written by
`assistant replay --html OUT.html FILE…`. Each turn is a small Gantt chart: one row
per step, bars placed at their share of the turn's duration, so calls that ran
together overlap and the slowest one stands out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from assistant.timeline import Bar, TurnTimeline

_CSS = """
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6474; --line: #e3e7ee; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
  margin: 0; padding: 1.5rem; background: #f6f7fa; }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; color: var(--muted); }
.lede { color: var(--muted); margin: 0 0 1rem; }
.turn { background: #fff; border: 1px solid var(--line); border-radius: 10px;
  padding: 1rem 1.25rem; margin: 0 0 1rem; max-width: 72rem; }
.turn header { display: flex; gap: .75rem; align-items: baseline; flex-wrap: wrap; }
.turn header strong { font-size: 1rem; }
.status { font-size: .8rem; padding: .05rem .5rem; border-radius: 99px; background: #e8f5ec;
  color: #1d6b3a; }
.status.partial { background: #fff4dd; color: #8a5a00; }
.status.failed { background: #fde8e8; color: #a12222; }
.status.cancelled { background: #eceef2; color: #4a5263; }
.meta { color: var(--muted); font-size: .8rem; }
.said { margin: .5rem 0 .75rem; }
.said p { margin: .15rem 0; }
.said .who { display: inline-block; width: 9rem; color: var(--muted); font-size: .8rem; }
.chart { display: grid; grid-template-columns: 13rem 1fr; row-gap: 4px; }
.label { font-size: .8rem; color: var(--muted); white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; padding-right: .5rem; align-self: center; }
.track { position: relative; height: 20px; background: #f3f5f9; border-radius: 3px; }
.bar { position: absolute; top: 2px; bottom: 2px; min-width: 3px; border-radius: 3px;
  font-size: .7rem; line-height: 16px; color: #fff; padding: 0 4px; white-space: nowrap;
  overflow: visible; }
.bar.decision { background: #7b61c9; }
.bar.ack { background: #d4820f; }
.bar.tool { background: #2f7de1; }
.bar.answer { background: #1f9d6a; }
.bar.error { background: #d23c3c; }
.bar.skipped { background: repeating-linear-gradient(45deg, #a3aab8 0 4px, #c9ced8 4px 8px); }
.bar.retried { outline: 2px dashed #d4820f; outline-offset: 1px; }
.bar .mark { position: absolute; left: calc(100% + 4px); color: var(--ink); }
.axis { grid-column: 2; position: relative; height: 1.2rem; font-size: .7rem;
  color: var(--muted); }
.axis span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
.legend { display: flex; gap: 1rem; flex-wrap: wrap; font-size: .8rem; color: var(--muted);
  margin-bottom: 1rem; }
.legend i { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px;
  vertical-align: -1px; margin-right: .3rem; }
"""

_LEGEND = (
    '<div class="legend"><span><i style="background:#7b61c9"></i>decision</span>'
    '<span><i style="background:#d4820f"></i>acknowledgement</span>'
    '<span><i style="background:#2f7de1"></i>tool call</span>'
    '<span><i style="background:#d23c3c"></i>failed call</span>'
    '<span><i style="outline:2px dashed #d4820f"></i>retried</span>'
    '<span><i style="background:#1f9d6a"></i>narration</span></div>'
)


def render_page(
    sections: Sequence[tuple[str, Sequence[TurnTimeline]]], *, title: str = "Turn timeline"
) -> str:
    """The page: a heading per section (a recording, or the live server), its turns."""
    body = [f"<h1>{escape(title)}</h1>", _LEGEND]
    for heading, turns in sections:
        if heading:
            body.append(f"<h2>{escape(heading)}</h2>")
        if not turns:
            body.append('<p class="lede">No turns yet: say something in the chat.</p>')
        body.extend(render_turn(turn) for turn in turns)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>"
    )


def render_turn(turn: TurnTimeline) -> str:
    total = max(turn.total_ms, 1.0)
    meta = _ms(turn.total_ms)
    if turn.trace_id:
        meta += f" · trace {escape(turn.trace_id)}"
    if turn.estimated:
        meta += " · times estimated from the recorded latencies"
    status = escape(turn.status or "unfinished")
    said = [_said("Customer", turn.user_text)]
    said += [_said("Acknowledgement", text) for text in turn.ack_text]
    said.append(_said("Answer", turn.answer_text))
    rows = "".join(_row(bar, total) for bar in sorted(turn.bars, key=_order))
    return (
        f'<section class="turn" data-turn="{turn.number}" data-total-ms="{total:.3f}">'
        f"<header><strong>Turn {turn.number}</strong>"
        f'<span class="status {status}">{status}</span><span class="meta">{meta}</span></header>'
        f'<div class="said">{"".join(s for s in said if s)}</div>'
        f'<div class="chart">{rows}<div class="axis">{_axis(total)}</div></div></section>'
    )


def _order(bar: Bar) -> tuple[float, int]:
    return bar.start_ms, ("decision", "ack", "tool", "answer").index(bar.kind)


def _said(who: str, text: str) -> str:
    if not text:
        return ""
    return f'<p><span class="who">{who}</span>“{escape(text)}”</p>'


def _row(bar: Bar, total: float) -> str:
    left = 100 * bar.start_ms / total
    width = 100 * max(bar.end_ms - bar.start_ms, 0) / total
    classes = ["bar", bar.kind]
    if bar.status != "ok":
        classes.append(bar.status)
    marks = []
    if bar.attempts > 1:
        classes.append("retried")
        marks.append(f"↻ {bar.attempts} attempts")
    if bar.error_code:
        marks.append(f"✕ {bar.error_code}")
    duration = bar.end_ms - bar.start_ms
    label = bar.label + (f" (round {bar.round})" if bar.round and bar.kind != "tool" else "")
    tip = " · ".join([bar.label, f"{_ms(duration)} from {_ms(bar.start_ms)}", *marks])
    mark = f'<span class="mark">{escape(" ".join(marks))}</span>' if marks else ""
    return (
        f'<div class="label" title="{escape(label)}">{escape(label)}</div>'
        f'<div class="track"><div class="{" ".join(classes)}" title="{escape(tip)}" '
        f'data-kind="{bar.kind}" data-label="{escape(bar.label)}" '
        f'data-start-ms="{bar.start_ms:.3f}" data-end-ms="{bar.end_ms:.3f}" '
        f'style="left:{left:.4f}%;width:{width:.4f}%">{_inside(duration, total)}{mark}</div>'
        "</div>"
    )


def _inside(duration_ms: float, total: float) -> str:
    """The duration written on a bar wide enough to hold it."""
    return _ms(duration_ms) if duration_ms / total > 0.08 else ""


def _ms(value: float) -> str:
    return f"{value:.1f} ms" if value < 10 else f"{value:.0f} ms"


def _axis(total: float) -> str:
    step = _nice_step(total / 5)
    ticks = []
    for index in range(int(total // step) + 1):
        at = index * step
        ticks.append(f'<span style="left:{100 * at / total:.4f}%">{at:g} ms</span>')
    return "".join(ticks)


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least `raw`."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)
