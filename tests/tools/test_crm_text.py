"""Text the CRM stores is read back without control characters and at a length a person
can hear; every script, emoji and line break stays (assistant/tools/crm_text.py)."""

from __future__ import annotations

import json

import orjson

from assistant.tools import crm_text


def _decoded(document: object, *, ascii_only: bool = True) -> object:
    raw = json.dumps(document, ensure_ascii=ascii_only).encode()
    return crm_text.clean(document) if crm_text.needs_cleaning(raw) else document


def test_control_characters_and_escape_sequences_are_removed() -> None:
    """NUL, bell, a terminal's clear-screen sequence, DEL and a C1 control go; the words
    stay, however the CRM wrote them (escaped or as UTF-8)."""
    title = "Pay\x00 rent\x1b[2J\x07 now\x7f\x85"
    for ascii_only in (True, False):
        cleaned = _decoded({"tasks": [{"title": title}]}, ascii_only=ascii_only)
        assert cleaned == {"tasks": [{"title": "Pay rent now"}]}


def test_letters_of_every_script_emoji_and_line_breaks_are_kept() -> None:
    """Hebrew with a direction mark, emoji, a tab and a line break: nothing to clean."""
    document = {"tickets": [{"subject": "\u202eלקנות חלב 🥛🛒\tand\nmore"}]}
    assert not crm_text.needs_cleaning(orjson.dumps(document))
    assert not crm_text.needs_cleaning(json.dumps(document).encode())
    assert crm_text.clean(document) == document


def test_an_overlong_text_is_cut_at_a_word_and_marked() -> None:
    """A 10,000-character title is cut before MAX_CHARS at a word, ending in '…'."""
    title = "Call " + "very " * 2000 + "long"
    cleaned = _decoded({"title": title, "id": "task_1"})
    assert isinstance(cleaned, dict)
    assert cleaned["id"] == "task_1"
    assert len(cleaned["title"]) <= crm_text.MAX_CHARS + 1
    assert cleaned["title"].endswith("very…")


def test_an_ordinary_listing_is_not_walked() -> None:
    """The gate: a listing of plain titles (with accents) needs no cleaning."""
    tasks = [{"id": f"task_{n}", "title": "Café run ☕", "status": "pending"} for n in range(50)]
    assert not crm_text.needs_cleaning(json.dumps({"tasks": tasks}).encode())
    assert not crm_text.needs_cleaning(orjson.dumps({"tasks": tasks}))


def test_speech_tags_and_markdown_marks_are_taken_out_words_kept() -> None:
    """(attacks15) SSML a speech engine would act on, and markdown it would read out, go;
    their words stay. A "<" that opens no tag, a "#1" and a snake_case name stay."""
    cases = {
        'Buy groceries <break time="10s"/> <prosody rate="x-slow">now</prosody>': (
            "Buy groceries now"
        ),
        '<speak>Main office<break time="10s"/><audio src="https://e.example/a.mp3"/></speak>': (
            "Main office"
        ),
        "**URGENT** # Renew car insurance [pay here](https://e.example) `now`": (
            "URGENT Renew car insurance pay here now"
        ),
        "Haircut\\u003cbreak time=\\u002210s\\u0022/>": "Haircut",
        "a < b and <3": "a < b and <3",
        "#1 priority": "#1 priority",
        "rename snake_case_name": "rename snake_case_name",
    }
    for said, kept in cases.items():
        said = json.loads(f'"{said}"') if "\\u" in said else said
        assert _decoded({"tasks": [{"title": said}]}) == {"tasks": [{"title": kept}]}, said


def test_a_label_is_cut_at_the_crms_own_limit_for_a_title() -> None:
    """(attacks15) A 10,000-character title is cut at 200 characters (it is read inside
    our sentences, often twice); a note keeps up to MAX_CHARS."""
    long = "Very important. " * 625
    cleaned = _decoded({"title": long, "notes": long})
    assert isinstance(cleaned, dict)
    assert len(cleaned["title"]) <= crm_text.MAX_LABEL_CHARS + 1
    assert crm_text.MAX_LABEL_CHARS < len(cleaned["notes"]) <= crm_text.MAX_CHARS + 1
