"""The widget's rough edges, as a new customer meets them: the empty conversation, chips
in plain words, a phone screen, a question left unanswered, a reload and a restart."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, WebSocket, expect

from tests.browser.live import LiveStack
from tests.browser.test_widget import ask, open_chat, turn_number

expect.set_options(timeout=15_000)


def test_empty_conversation_greets_and_an_example_sends_itself(
    page: Page, live: LiveStack, artifacts: Path
) -> None:
    """A new conversation greets Maria by name with three questions to try; clicking one
    sends it, it is answered, and the greeting makes way for the conversation."""
    open_chat(page, live)
    welcome = page.locator(".aw-welcome")
    expect(welcome).to_contain_text("Hi Maria!")
    examples = welcome.get_by_role("button")
    expect(examples).to_have_count(3)
    page.screenshot(path=str(artifacts / "widget-empty.png"))

    welcome.get_by_role("button", name="What do I owe?").click()
    turn = turn_number(page, 1)
    expect(turn.locator(".aw-msg-user")).to_have_text(re.compile("What do I owe?"))
    expect(turn).to_have_attribute("data-state", "ok")
    expect(turn.locator(".aw-answer-text")).to_contain_text("$")
    expect(welcome).to_be_hidden()


def test_chips_say_what_is_being_done_then_what_was(page: Page, live: LiveStack) -> None:
    """While billing is slow its chip reads "Checking your billing…"; then "Billing" with
    a tick, the milliseconds only in its tooltip."""
    slow = {"method": "GET", "path": "/v1/customers/*/invoices", "latency_ms": 1500}
    live.crm("POST", "/admin/faults", slow)
    box = open_chat(page, live)
    ask(box, "What do I owe?")
    chip = turn_number(page, 1).locator(".aw-chip")
    expect(chip).to_have_attribute("data-state", "running")
    expect(chip.locator(".aw-chip-doing")).to_be_visible()
    expect(chip.locator(".aw-chip-doing")).to_have_text("Checking your billing…")
    expect(chip.locator(".aw-chip-done")).to_be_hidden()

    expect(chip).to_have_attribute("data-state", "done")
    expect(chip.locator(".aw-chip-done")).to_be_visible()
    expect(chip.locator(".aw-chip-done")).to_have_text("Billing")
    expect(chip.locator(".aw-chip-doing")).to_be_hidden()
    expect(chip).to_have_attribute("title", re.compile(r"^Done in \d"))
    expect(chip).to_have_attribute("aria-label", "Billing: done")


def test_phone_width_keeps_the_header_small_and_splits_long_answers(
    page: Page, live: LiveStack, artifacts: Path
) -> None:
    """At 360 px the page title, customer picker, chat title and status take two short
    lines, and a long answer with two topics comes as separate paragraphs."""
    page.set_viewport_size({"width": 360, "height": 740})
    box = open_chat(page, live)
    headers = page.locator(".page-header").bounding_box(), page.locator(".aw-header").bounding_box()
    assert headers[0] is not None and headers[1] is not None
    assert headers[0]["height"] <= 48 and headers[1]["height"] <= 44, headers
    expect(page.get_by_role("combobox", name="Demo customer")).to_be_visible()

    ask(box, "Show me my appointments and my billing")
    turn = turn_number(page, 1)
    expect(turn).to_have_attribute("data-state", "ok")
    paragraphs = turn.locator(".aw-answer-text .aw-para")
    assert paragraphs.count() >= 2
    texts = paragraphs.all_text_contents()
    assert any("appointment" in text for text in texts[:1])
    assert "$" in texts[-1]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(artifacts / "widget-360px.png"))


def test_a_question_left_unanswered_says_what_was_not_done(
    page: Page, live: LiveStack, artifacts: Path
) -> None:
    """Asked to confirm a delete, the customer asks something else: the question's
    buttons read as expired and it says "I didn't delete the task 'Buy groceries'."."""
    box = open_chat(page, live)
    ask(box, "Delete the grocery task")
    asking = turn_number(page, 1)
    expect(asking.get_by_role("button", name="Yes")).to_be_enabled()

    ask(box, "What's my next appointment?")
    expect(turn_number(page, 2)).to_have_attribute("data-state", "ok")
    expect(asking.locator(".aw-note")).to_have_text("I didn't delete the task 'Buy groceries'.")
    expect(asking.locator(".aw-confirm")).to_contain_text("Expired")
    expect(asking.get_by_role("button", name="Yes")).to_be_disabled()
    expect(asking.get_by_role("button", name="No")).to_be_disabled()
    assert "Buy groceries" in live.task_titles("cust_001")
    page.screenshot(path=str(artifacts / "widget-question-expired.png"))


def test_a_yes_is_not_reported_as_not_done(page: Page, live: LiveStack) -> None:
    """Answering yes deletes the task and no "I didn't" note appears."""
    box = open_chat(page, live)
    ask(box, "Delete the grocery task")
    asking = turn_number(page, 1)
    asking.get_by_role("button", name="Yes").click()
    expect(turn_number(page, 2)).to_have_attribute("data-state", "ok")
    expect(asking.locator(".aw-note")).to_be_hidden()
    assert "Buy groceries" not in live.task_titles("cust_001")


def test_conversation_survives_a_reload(page: Page, live: LiveStack) -> None:
    """After a reload the turns are still on screen and the page resumes its session: one
    status line, and the server continues the conversation (a delete asked before the
    reload is done by a yes after it)."""
    first_frames: list[str] = []

    def watch(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: first_frames.append(str(payload)))

    box = open_chat(page, live)
    ask(box, "Delete the grocery task")
    expect(turn_number(page, 1)).to_have_attribute("data-state", "ok")
    answer = turn_number(page, 1).locator(".aw-answer-text").text_content()

    page.on("websocket", watch)
    page.reload()
    status = page.locator(".aw-status")
    expect(status).to_have_attribute("data-state", "ready")
    expect(status).to_have_text("Connected as Maria Garcia")
    expect(turn_number(page, 1).locator(".aw-answer-text")).to_have_text(answer or "")
    expect(page.locator(".aw-welcome")).to_be_hidden()
    kinds = [re.search(r'"type": ?"([a-z.]+)"', frame) for frame in first_frames]
    assert [k.group(1) for k in kinds if k][:1] == ["session.resume"]
    assert "Buy groceries" in live.task_titles("cust_001")
    ask(page.get_by_role("textbox", name="Message"), "yes")
    expect(turn_number(page, 2)).to_have_attribute("data-state", "ok")
    assert "Buy groceries" not in live.task_titles("cust_001")


def test_a_restart_keeps_the_conversation_on_screen(page: Page, live: LiveStack) -> None:
    """The server restarts: the turns stay, the status is one line, a question that was
    pending says it expired (the new session does not know it), and chatting goes on."""
    box = open_chat(page, live)
    ask(box, "Delete the grocery task")
    asking = turn_number(page, 1)
    expect(asking.get_by_role("button", name="Yes")).to_be_enabled()

    live.stop_assistant()
    expect(page.locator(".aw-status")).to_have_attribute("data-state", re.compile("down|connect"))
    live.start_assistant()
    status = page.locator(".aw-status")
    expect(status).to_have_attribute("data-state", "ready")
    expect(status).to_have_text("Connected as Maria Garcia · a new conversation")
    expect(asking.locator(".aw-answer-text")).to_contain_text("Buy groceries")
    expect(asking.locator(".aw-note")).to_contain_text("nothing was changed")
    expect(asking.get_by_role("button", name="Yes")).to_be_disabled()
    ask(box, "What do I owe?")
    expect(turn_number(page, 2)).to_have_attribute("data-state", "ok")
