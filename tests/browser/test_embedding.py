"""The widget outside demo mode: embedded in another site, or opened with a token."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.live import LiveStack

expect.set_options(timeout=15_000)


def test_widget_embedded_in_another_site_speaks_for_its_signed_in_customer(
    page: Page, embedded: LiveStack
) -> None:
    """The README snippet on another origin: the site's token decides who is served."""
    balance_cents = embedded.crm("GET", "/v1/customers/cust_002/invoices")["balance_cents"]
    assert balance_cents > 0
    page.goto(embedded.site_url)
    expect(page.locator(".aw-status")).to_have_attribute("data-state", "ready")

    box = page.get_by_role("textbox", name="Message")
    box.fill("What do I owe?")
    box.press("Enter")
    turn = page.locator(".aw-turn").first
    expect(turn).to_have_attribute("data-state", "ok")
    expect(turn.locator(".aw-answer-text")).to_contain_text(f"{balance_cents // 100:,}")


def test_widget_mounts_itself_on_an_element_with_a_data_token(
    page: Page, embedded: LiveStack
) -> None:
    """`<div data-assistant-widget data-token=…>` plus the script tag is a working chat."""
    page.goto(f"{embedded.site_url}by-attribute")
    expect(page.locator(".aw-status")).to_have_attribute("data-state", "ready")
    box = page.get_by_role("textbox", name="Message")
    box.fill("Show me my appointments")
    box.press("Enter")
    turn = page.locator(".aw-turn").first
    expect(turn).to_have_attribute("data-state", "ok")
    expect(turn.locator(".aw-chip")).to_have_text(re.compile("Appointments"))


def test_page_without_demo_mode_asks_for_a_token(page: Page, embedded: LiveStack) -> None:
    """Outside demo mode GET / explains how to get a token instead of a dead chat."""
    page.goto(embedded.url)
    expect(page.get_by_role("alert")).to_contain_text("needs a session token")
    expect(page.get_by_role("combobox", name="Demo customer")).to_be_hidden()


def test_token_in_the_address_fragment_signs_in_and_leaves_the_address_bar(
    page: Page, embedded: LiveStack
) -> None:
    """/#token=… connects as that token's customer, and the token vanishes from the URL."""
    balance_cents = embedded.crm("GET", "/v1/customers/cust_005/invoices")["balance_cents"]
    assert balance_cents > 0
    page.goto(f"{embedded.url}#token={embedded.token('cust_005')}")
    expect(page.locator(".aw-status")).to_have_attribute("data-state", "ready")
    assert "token" not in page.url

    box = page.get_by_role("textbox", name="Message")
    box.fill("What do I owe?")
    box.press("Enter")
    answer = page.locator(".aw-turn").first.locator(".aw-answer-text")
    expect(answer).to_contain_text(f"{balance_cents // 100:,}")


def test_a_refused_token_says_the_session_has_ended(page: Page, embedded: LiveStack) -> None:
    """A forged token is refused; the page says so in plain words and stops retrying."""
    page.goto(f"{embedded.url}#token=not-a-real-token")
    status = page.locator(".aw-status")
    expect(status).to_have_attribute("data-state", "failed")
    expect(status).to_have_text(re.compile("session has ended", re.I))
    expect(page.get_by_role("button", name="Send")).to_be_disabled()


# Records every text the status line shows, so a passing state is not missed.
RECORD_STATUS = """
window.__statuses = [];
new MutationObserver(() => {
  const status = document.querySelector(".aw-status");
  const text = status && status.firstChild && status.firstChild.nodeValue;
  if (text && window.__statuses[window.__statuses.length - 1] !== text) {
    window.__statuses.push(text);
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_an_expired_session_reconnects_with_a_fresh_token(page: Page, embedded: LiveStack) -> None:
    """The site's first token expires: the widget says so, gets a new one and goes on."""
    embedded.first_site_token_ttl_s = 2
    page.add_init_script(RECORD_STATUS)
    page.goto(embedded.site_url)
    page.wait_for_function(
        "window.__statuses.includes('Your session expired. Reconnecting…')", timeout=10_000
    )
    expect(page.locator(".aw-status")).to_have_attribute("data-state", "ready")
    assert embedded.site_tokens_minted >= 2  # a fresh token for the new session

    box = page.get_by_role("textbox", name="Message")
    box.fill("Show me my appointments")
    box.press("Enter")
    turn = page.locator(".aw-turn").first
    expect(turn).to_have_attribute("data-state", "ok")
