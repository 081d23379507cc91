"""Speech cleanup: what a text-to-speech voice would read out literally is rewritten."""

from __future__ import annotations

import pytest

from assistant.transports.voice import short_url, speakable


@pytest.mark.parametrize(
    ("text", "heard"),
    [
        ("**Balance:** $150.00 & due *Friday*.", "Balance: $150.00 and due Friday."),
        ("- Buy groceries\n- Call mom\n1. Pay rent", "Buy groceries. Call mom. Pay rent"),
        ("## Your tasks\nYou have 3.", "Your tasks. You have 3."),
        ("Pay at https://www.example.com/pay?id=7 today.", "Pay at example.com today."),
        ("Use [the portal](https://portal.acme.io/x).", "Use the portal."),
        ("Ticket #123 is open — we're on it.", "Ticket number 123 is open. We're on it."),
        ("It's due soon (on Friday); pay early.", "It's due soon, on Friday. Pay early."),
        ("That's 50% off, e.g. for haircuts.", "That's 50 percent off, for example for haircuts."),
        ("Run `reset` now.", "Run reset now."),
        ("Dr. Lee at 2:30 PM.", "Dr. Lee at 2:30 PM."),
    ],
)
def test_markdown_and_symbols_become_plain_speech(text: str, heard: str) -> None:
    """Asterisks, bullets, headings, links and symbols never reach the caller's ear."""
    assert speakable(text) == heard


def test_surrounding_spaces_survive_so_streamed_pieces_still_join() -> None:
    """Pieces streamed one by one keep their spacing: " and check your billing."."""
    assert speakable(" and **check** your billing. ") == " and check your billing. "
    assert speakable("   ") == "   "
    assert speakable("**") == ""


def test_short_url_keeps_what_a_caller_can_remember() -> None:
    """A spoken link is just its site name."""
    assert short_url("https://www.Example.com:8443/a/b?c=d#e") == "example.com"
    assert short_url("www.acme.io.") == "acme.io"
