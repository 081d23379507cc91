"""The widget after its connection drops mid-turn, in a real browser against the real
assistant and CRM stub: the conversation is resumed, and the turn that was cut off shows
what the server did with it (session.ready's `last_turn`) instead of "Please ask again",
which would have had the customer ask for a write that had already landed."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.live import LiveStack

expect.set_options(timeout=15_000)

# Keeps the page's websockets, so that a test can drop one as a flaky network would.
RECORD_SOCKETS = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};
"""


def test_a_write_cut_off_by_a_dropped_connection_is_shown_as_done(
    page: Page, live: LiveStack
) -> None:
    """The socket drops while the task is being added; once back, the turn shows the
    task added (its chip done, a note saying so), the task is in the CRM once, and the
    conversation carries on."""
    page.add_init_script(RECORD_SOCKETS)
    page.goto(live.url)
    status = page.locator(".aw-status")
    expect(status).to_have_attribute("data-state", "ready")
    slow = {"method": "POST", "path": "/v1/customers/*/tasks", "latency_ms": 1500}
    live.crm("POST", "/admin/faults", slow)

    box = page.get_by_role("textbox", name="Message")
    box.fill("add a task to buy stamps")
    box.press("Enter")
    turn = page.locator(".aw-turn").nth(0)
    expect(turn.locator(".aw-chip[data-state=running]")).to_have_count(1)
    page.evaluate("window.__sockets.at(-1).close()")

    expect(status).to_have_attribute("data-state", "ready")
    expect(turn.locator(".aw-note")).to_have_text(
        "The connection dropped; this is what had been done by then."
    )
    expect(turn.locator('.aw-chip[data-tool="crm.addTask"][data-state=done]')).to_have_count(1)
    expect(turn.locator(".aw-chip[data-state=running]")).to_have_count(0)
    expect(turn).to_have_attribute("data-state", "ok")
    assert live.task_titles("cust_001").count("Buy stamps") == 1

    live.crm("DELETE", "/admin/faults")
    box.fill("what are my tasks?")
    box.press("Enter")
    after = page.locator(".aw-turn").nth(1)
    expect(after).to_have_attribute("data-state", "ok")
    expect(after.locator(".aw-answer-text")).to_contain_text("Buy stamps")
    assert live.task_titles("cust_001").count("Buy stamps") == 1
