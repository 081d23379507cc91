"""Speech-to-text forms and quick typing: what a phone transcript or a hurried chat says."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents
from assistant.language.spoken import written
from assistant.language.text import normalize

TZ = "America/New_York"
NOW = datetime(2025, 3, 1, 12, 0, tzinfo=ZoneInfo(TZ))  # a Saturday


def only(text: str) -> tuple[str, dict[str, object]]:
    intents = detect_intents(text, NOW, TZ)
    assert len(intents) == 1, intents
    return intents[0].kind, dict(intents[0].arguments)


@pytest.mark.parametrize(
    ("text", "email"),
    [
        ("my email is now john dot smith at example dot com", "john.smith@example.com"),
        ("change my email to maria underscore g at example dot org", "maria_g@example.org"),
        ("update my email to j.lee at example.net", "j.lee@example.net"),
    ],
)
def test_a_spoken_email_address_is_written_out(text: str, email: str) -> None:
    """ "john dot smith at example dot com" updates the email to john.smith@example.com."""
    assert only(text) == ("update_contact", {"email": email})


def test_a_phone_number_read_out_digit_by_digit_becomes_e164() -> None:
    """ "four one five five five five zero one nine nine" is +14155550199."""
    text = "update my phone number to four one five five five five zero one nine nine"
    assert only(text) == ("update_contact", {"phone": "+14155550199"})


def test_double_and_oh_are_read_as_digits() -> None:
    """ "four one five, double five five, oh one nine nine" is the same number."""
    text = "my new number is four one five, double five five, oh one nine nine"
    assert only(text) == ("update_contact", {"phone": "+14155550199"})


def test_few_number_words_stay_words() -> None:
    """Times and counts ("at two thirty", "three tasks") are not taken for phone numbers."""
    assert written("book a haircut at two thirty on the fifth") == (
        "book a haircut at two thirty on the fifth"
    )


def test_a_corrected_word_is_replaced_by_the_correction() -> None:
    """ "tomorrow's... sorry monday's dental appointment" moves Monday's appointment."""
    intents = detect_intents(
        "please reschedule tomorrow's... sorry monday's dental appointment to tuesday at noon",
        NOW,
        TZ,
    )
    assert [i.kind for i in intents] == ["reschedule_appointment"]
    target = intents[0].target
    assert target is not None and target.weekday == 0
    assert intents[0].arguments == {"starts_at": "2025-03-04T12:00:00-05:00"}


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("book a cleaning for the 22nd no sorry the 23rd at 9", "the 23rd at 9"),
        ("a haircut on tuesday no sorry wednesday at 3", "on wednesday at 3"),
        ("move it to 3 no i mean 4", "move it to 4"),
        ("friday, sorry no, saturday", "saturday"),
    ],
)
def test_a_day_taken_back_in_the_same_breath_is_replaced(said: str, meant: str) -> None:
    """ "the 22nd no sorry the 23rd": the 23rd is meant (the 22nd was booked)."""
    assert meant in written(said)
    assert "22nd" not in written(said) and "tuesday" not in written(said)


def test_an_apology_is_not_a_correction() -> None:
    """ "sorry to bother you" keeps every word of the request after it."""
    assert written("sorry to bother you, what's my balance") == (
        "sorry to bother you, what's my balance"
    )


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("tsks", "tasks"), ("tckts", "tickets"), ("blnce", "balance"), ("cncl", "cancel")],
)
def test_words_typed_without_vowels_are_understood(typed: str, meant: str) -> None:
    """Vowels dropped in a hurry ("tckts", "blnce") still name the word meant."""
    assert normalize(f"my {typed}").text == f"my {meant}"


@pytest.mark.parametrize("word", ["sturdy", "why", "gym", "rhythm", "psst"])
def test_real_words_without_many_vowels_are_left_alone(word: str) -> None:
    """Everyday words that merely lack vowels are not turned into vocabulary words."""
    assert normalize(word).text == word


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("calander", "calendar"), ("balence", "balance"), ("apointmint", "appointment")],
)
def test_mistyped_vowels_are_understood(typed: str, meant: str) -> None:
    """A vowel or two typed wrong ("calander", "balence") still names the word meant."""
    assert normalize(typed).text == meant


def test_a_corrected_word_keeps_the_customers_spelling_in_a_ticket() -> None:
    """A ticket body says what the customer typed, commas and capitals included."""
    kind, arguments = only("open a ticket: the app logs me out, I think my remand is wrong")
    assert kind == "create_ticket"
    assert arguments["body"] == "The app logs me out, I think my remand is wrong."


@pytest.mark.parametrize(
    "text",
    ["a-" * 40 + " at nothing", "a" * 3000, "x" * 2000 + " sorry " + "y" * 2000, "q@" * 500],
)
def test_pasted_junk_is_read_as_nothing(text: str) -> None:
    """Near misses of an address or a correction, and pasted junk, come back (with nothing)."""
    assert detect_intents(text, NOW, TZ) == []


def test_an_email_spelled_letter_by_letter_is_written_whole() -> None:
    """ "j o h n at example dot com" is john@example.com, never a truncated n@example.com."""
    text = "my email is j o h n dot s m i t h at example dot com"
    assert only(text) == ("update_contact", {"email": "john.smith@example.com"})


def test_a_short_word_missing_its_double_letter_is_understood() -> None:
    """ "show my bil" asks for the bill."""
    assert only("show my bil") == ("billing", {})


def test_a_corrected_address_is_taken_back_whole() -> None:
    """ "…@yahoo.com no wait …@hotmail.com" keeps only the second address, not a blend."""
    text = "set my email to maria.garcia@yahoo.com no wait maria.garcia@hotmail.com"
    assert only(text) == ("update_contact", {"email": "maria.garcia@hotmail.com"})


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("book a haircut tomorrow at 10 no hang on 11", "book a haircut tomorrow at 11"),
        ("pay rent on the 20th actually the 22nd", "pay rent on the 22nd"),
        ("move it to thursday actually friday", "move it to friday"),
    ],
)
def test_hang_on_and_actually_take_back_a_word_of_the_same_kind(text: str, meant: str) -> None:
    """ "at 10 no hang on 11" means 11; a day, number or address is replaced by its like."""
    assert written(text) == meant


def test_actually_between_words_of_different_kinds_is_just_talk() -> None:
    """ "cancel the haircut actually the dental one" and "I actually need" are left as said."""
    for text in ("i actually need to cancel", "cancel the haircut actually the dental one"):
        assert written(text) == text


def test_a_spelled_email_after_its_is_not_given_the_s_of_its() -> None:
    """ "it's m a r y a dot g a r c i a at example dot com" is marya.garcia@…, not smarya."""
    said = "you have my email spelled wrong, it's m a r y a dot g a r c i a at example dot com"
    assert "it's marya.garcia@example.com" in written(said)


def test_an_email_typed_with_spaces_round_its_at_is_one_address() -> None:
    """ "maria.lopez @ gmail.com" updates the email to maria.lopez@gmail.com."""
    assert only("update my email to maria.lopez @ gmail.com") == (
        "update_contact",
        {"email": "maria.lopez@gmail.com"},
    )


def test_a_domain_said_again_after_sorry_replaces_the_addresss_domain() -> None:
    """ "maria.garcia@gmial.com, sorry, gmail.com" is maria.garcia@gmail.com."""
    assert only("change my email to maria.garcia@gmial.com, sorry, gmail.com") == (
        "update_contact",
        {"email": "maria.garcia@gmail.com"},
    )


def test_a_domain_is_not_corrected_as_a_typo() -> None:
    """ "gmail.com" said without a whole address stays gmail.com (it became email.com)."""
    assert "gmail.com" in normalize("my address is at gmail.com now").text


def test_the_word_before_at_is_not_taken_for_an_address() -> None:
    """ "my email is at gmail.com" holds no address: not "is@gmail.com"."""
    assert normalize("my email is at gmail.com").emails == ()
