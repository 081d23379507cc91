"""The chat widget in a real browser against the real assistant and CRM stub."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.live import LiveStack

expect.set_options(timeout=15_000)

# Records, in the page, the order in which parts of a turn first became visible, so
# that a test can prove the acknowledgement came before the answer by order, not time.
RECORD_ORDER = """
window.__seen = [];
new MutationObserver(() => {
  for (const [name, selector] of [["ack", ".aw-ack"], ["chip", ".aw-chip"],
                                  ["answer", ".aw-answer-text"]]) {
    const node = document.querySelector(selector);
    if (node && node.textContent.trim() && !node.hidden && !window.__seen.includes(name)) {
      window.__seen.push(name);
    }
  }
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""

# The browser's own record of unexpected layout shifts (the Layout Instability API;
# shifts right after the person typed or clicked are expected and not recorded).
RECORD_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__shifts.push({at: entry.startTime, value: entry.value,
                         moved: entry.sources.map((s) => s.node && s.node.className)});
  }
}).observe({type: "layout-shift", buffered: true});
"""


def open_chat(page: Page, live: LiveStack) -> Locator:
    """Opens the page as the first demo customer; the message box once connected."""
    page.goto(live.url)
    expect(page.locator(".aw-status")).to_have_attribute("data-state", "ready")
    return page.get_by_role("textbox", name="Message")


def last_turn(page: Page) -> Locator:
    return page.locator(".aw-turn").last


def turn_number(page: Page, n: int) -> Locator:
    """The n-th turn (from 1), pinned: `.last` would move on to later turns."""
    return page.locator(".aw-turn").nth(n - 1)


def ask(box: Locator, text: str) -> None:
    box.fill(text)
    box.press("Enter")


def test_acknowledgement_comes_first_then_two_chips_and_the_answer(
    page: Page, live: LiveStack, artifacts: Path
) -> None:
    """Appointments and billing: the lighter acknowledgement shows before the answer, with
    one finished chip per lookup, and the answer names the appointment and the balance."""
    upcoming = live.crm("GET", "/v1/customers/cust_001/appointments")["appointments"]
    balance_cents = live.crm("GET", "/v1/customers/cust_001/invoices")["balance_cents"]
    assert upcoming
    assert balance_cents > 0
    page.add_init_script(RECORD_ORDER)
    box = open_chat(page, live)
    expect(page.locator(".aw-status")).to_contain_text("Connected as")

    ask(box, "Show me my appointments and my billing")

    turn = last_turn(page)
    expect(turn).to_have_attribute("data-state", "ok")
    expect(turn.locator(".aw-ack")).to_contain_text("Sure")
    chips = turn.locator(".aw-chip")
    expect(chips).to_have_count(2)
    expect(chips.filter(has_text="Appointments")).to_have_attribute("data-state", "done")
    expect(chips.filter(has_text="Billing")).to_have_attribute("data-state", "done")
    # The time is in the tooltip, not in the chip's text.
    expect(chips.first).to_have_attribute("title", re.compile(r"^Done in (\d+ ms|\d\.\d s)$"))
    expect(chips.first).not_to_contain_text(re.compile(r"\d+ ms"))
    answer = page.locator("[aria-live] .aw-answer-text").last
    expect(answer).to_contain_text(re.compile(upcoming[0]["service"], re.IGNORECASE))
    dollars = f"{balance_cents // 100:,}"
    expect(answer).to_contain_text(dollars)
    seen = page.evaluate("window.__seen")
    assert seen.index("ack") < seen.index("answer"), seen
    assert seen.index("chip") < seen.index("answer"), seen
    assert box.input_value() == ""
    page.screenshot(path=str(artifacts / "chat-widget.png"))


def test_delete_asks_yes_or_no_and_yes_deletes_the_task(
    page: Page, live: LiveStack, artifacts: Path
) -> None:
    """ "Delete the grocery task" asks first (nothing deleted yet); Yes, reached and pressed
    with the keyboard alone, deletes it from the CRM and the answer says so."""
    assert "Buy groceries" in live.task_titles("cust_001")
    box = open_chat(page, live)
    box.focus()
    page.keyboard.type("Delete the grocery task")
    page.keyboard.press("Enter")

    turn = turn_number(page, 1)
    expect(turn).to_have_attribute("data-state", "ok")
    yes = turn.get_by_role("button", name="Yes")
    expect(yes).to_be_visible()
    expect(turn.get_by_role("button", name="No")).to_be_visible()
    assert "Buy groceries" in live.task_titles("cust_001")

    for _ in range(6):  # back from the text box to the Yes button, as a keyboard user would
        if yes.evaluate("node => node === document.activeElement"):
            break
        page.keyboard.press("Shift+Tab")
    expect(yes).to_be_focused()
    page.keyboard.press("Enter")

    expect(yes).to_be_disabled()
    confirmed = turn_number(page, 2)
    expect(confirmed.locator(".aw-msg-user")).to_contain_text("Yes")
    expect(confirmed).to_have_attribute("data-state", "ok")
    expect(confirmed.locator(".aw-chip").filter(has_text="Task deleted")).to_have_attribute(
        "data-state", "done"
    )
    expect(confirmed.locator(".aw-answer-text")).to_contain_text(re.compile("delet", re.I))
    assert "Buy groceries" not in live.task_titles("cust_001")
    expect(box).to_be_focused()
    page.screenshot(path=str(artifacts / "chat-widget-confirmation.png"))


def test_customer_picker_switches_who_the_chat_speaks_for(page: Page, live: LiveStack) -> None:
    """Picking another demo customer reconnects as them: their name, their balance."""
    profile = live.crm("GET", "/v1/customers/cust_004")
    balance_cents = live.crm("GET", "/v1/customers/cust_004/invoices")["balance_cents"]
    assert balance_cents > 0
    open_chat(page, live)
    picker = page.get_by_role("combobox", name="Demo customer")
    expect(picker.locator("option")).to_have_count(20)

    picker.select_option("cust_004")

    status = page.locator(".aw-status")
    expect(status).to_have_text(f"Connected as {profile['name']}")
    assert "customer=cust_004" in page.url
    ask(page.get_by_role("textbox", name="Message"), "What do I owe?")
    answer = turn_number(page, 1).locator(".aw-answer-text")
    expect(answer).to_contain_text(f"{balance_cents // 100:,}")


def test_a_failed_lookup_shows_its_reason_in_plain_words(page: Page, live: LiveStack) -> None:
    """With billing down, its chip says it was not reachable, appointments still answer,
    and the turn is marked as partly answered."""
    billing_down = {"method": "GET", "path": "/v1/customers/*/invoices", "status": 503}
    live.crm("POST", "/admin/faults", billing_down)
    box = open_chat(page, live)
    ask(box, "Show me my appointments and my billing")

    turn = turn_number(page, 1)
    expect(turn).to_have_attribute("data-state", "partial")
    billing = turn.locator(".aw-chip").filter(has_text="Billing")
    expect(billing).to_have_attribute("data-state", "failed")
    expect(billing.locator(".aw-chip-detail")).to_have_text("not reachable right now")
    expect(turn.locator(".aw-chip").filter(has_text="Appointments")).to_have_attribute(
        "data-state", "done"
    )
    expect(turn.locator(".aw-note")).to_contain_text("couldn't be retrieved")
    expect(turn.locator(".aw-answer-text")).not_to_be_empty()


def test_stop_cancels_a_slow_turn_and_the_chat_goes_on(page: Page, live: LiveStack) -> None:
    """With the CRM slowed down, Stop ends the turn as cancelled; the next question works."""
    live.crm(
        "POST",
        "/admin/faults",
        {"method": "GET", "path": "/v1/customers/*/appointments", "latency_ms": 30_000},
    )
    box = open_chat(page, live)
    stop = page.get_by_role("button", name="Stop")
    expect(stop).to_be_hidden()

    ask(box, "Show me my appointments")
    turn = turn_number(page, 1)
    expect(turn.locator(".aw-chip")).to_have_attribute("data-state", "running")
    stop.click()

    expect(turn).to_have_attribute("data-state", "cancelled")
    expect(turn.locator(".aw-note")).to_have_text("Stopped.")
    expect(stop).to_be_hidden()

    live.crm("DELETE", "/admin/faults")
    ask(box, "What do I owe?")
    after = turn_number(page, 2)
    expect(after).to_have_attribute("data-state", "ok")
    expect(after.locator(".aw-answer-text")).not_to_be_empty()


def test_page_reconnects_by_itself_after_a_server_restart(page: Page, live: LiveStack) -> None:
    """When the service restarts the page says the connection is down, comes back on its
    own (with a new token) and answers the next question."""
    box = open_chat(page, live)
    status = page.locator(".aw-status")
    send = page.get_by_role("button", name="Send")

    live.stop_assistant()
    expect(status).to_have_attribute("data-state", re.compile("down|connecting"))
    expect(status).to_contain_text(re.compile("Connection lost|Reconnecting"))
    expect(send).to_be_disabled()

    live.start_assistant()
    expect(status).to_have_attribute("data-state", "ready")
    # One status line, not "Reconnected. Connected as …".
    expect(status).to_have_text("Connected as Maria Garcia")
    ask(box, "What do I owe?")
    turn = last_turn(page)
    expect(turn).to_have_attribute("data-state", "ok")
    expect(turn.locator(".aw-answer-text")).not_to_be_empty()


@pytest.mark.parametrize("width", [960, 320])
def test_nothing_moves_while_chips_finish_and_the_answer_streams(
    page: Page, live: LiveStack, width: int
) -> None:
    """With the CRM a little slow, chips finishing and the answer streaming in move nothing
    already on screen: the browser records no unexpected layout shift."""
    page.set_viewport_size({"width": width, "height": 700})
    page.add_init_script(RECORD_SHIFTS)
    box = open_chat(page, live)
    # The page has settled before the turn: its final status line, fonts, two frames.
    # (A shift while the page itself finishes loading is not the turn's doing.)
    expect(page.locator(".aw-status")).to_have_text("Connected as Maria Garcia")
    page.evaluate(
        "document.fonts.ready.then(() => new Promise((done) =>"
        " requestAnimationFrame(() => requestAnimationFrame(done))))"
    )
    # Later than the half second after a key press in which the browser expects changes.
    slow = {"method": "GET", "path": "/v1/customers/*/appointments", "latency_ms": 900}
    live.crm("POST", "/admin/faults", slow)
    since = page.evaluate("performance.now()")

    box.press_sequentially("Show me my appointments and my billing")
    box.press("Enter")

    turn = turn_number(page, 1)
    expect(turn).to_have_attribute("data-state", "ok")
    expect(turn.locator(".aw-answer-text")).to_contain_text("appointment")
    shifts = page.evaluate(f"window.__shifts.filter((shift) => shift.at > {since})")
    assert shifts == []


def test_readable_at_320_pixels(page: Page, live: LiveStack, artifacts: Path) -> None:
    """On a 320 px wide phone nothing scrolls sideways and a whole answer is on screen."""
    page.set_viewport_size({"width": 320, "height": 640})
    box = open_chat(page, live)
    ask(box, "Show me my appointments and my billing")
    expect(last_turn(page)).to_have_attribute("data-state", "ok")

    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    for part in (box, page.get_by_role("button", name="Send"), last_turn(page)):
        bounds = part.bounding_box()
        assert bounds is not None
        assert bounds["x"] >= 0
        assert bounds["x"] + bounds["width"] <= 320
    page.screenshot(path=str(artifacts / "chat-widget-320px.png"))


# Notes, in the page, whether the answer said what is still being done while a chip
# was still running: the progressive answer shows as it is spoken, by structure.
RECORD_PROGRESS = """
window.__progress = false;
new MutationObserver(() => {
  const answer = document.querySelector(".aw-answer-text");
  const running = document.querySelector(".aw-chip[data-state=running]");
  if (answer && running && answer.textContent.includes("still checking your billing")) {
    window.__progress = true;
  }
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_a_slow_lookup_shows_what_is_ready_then_completes_the_answer(
    page: Page, live: LiveStack
) -> None:
    """With billing slow (past the 1.5 s default), the answer shows the appointments and
    "still checking your billing" while its chip runs, then the balance: one answer."""
    slow_billing = {"method": "GET", "path": "/v1/customers/*/invoices", "latency_ms": 2500}
    live.crm("POST", "/admin/faults", slow_billing)
    page.add_init_script(RECORD_PROGRESS)
    box = open_chat(page, live)
    ask(box, "Show me my appointments and my billing")

    turn = turn_number(page, 1)
    expect(turn).to_have_attribute("data-state", "ok")
    answer = turn.locator(".aw-answer-text")
    expect(answer).to_contain_text("Your balance is $150.00")
    text = answer.inner_text()
    assert text.count("I'm still checking your billing.") == 1
    assert text.index("two upcoming appointments") < text.index("still checking")
    assert text.index("still checking") < text.index("Your balance is")
    assert page.evaluate("window.__progress") is True
    assert turn.locator(".aw-answer-text").count() == 1
