"""Voice transcripts read as typed: fillers, restarts, misheard words, spoken ordinals."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from assistant.language import detect_intents, find_when, is_affirmative, is_negative, transcript
from assistant.language.confirm import taken_back
from assistant.language.text import normalize, restore_case
from assistant.language.transcript import plain
from tests.fixtures.phrasings import kept_phrasings

TZ = "America/Los_Angeles"
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZoneInfo(TZ))  # a Monday noon


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("um so i wanted to uh book a haircut", "so i wanted to book a haircut"),
        ("can you can you move my my haircut", "can you move my haircut"),
        ("the uh the dental one", "the dental one"),
        ("i i bought the groceries", "i bought the groceries"),
        ("can i get like a checkup at like ten", "can i get a checkup at 10"),
        ("it was really late you know it's not okay", "it was really late it's not okay"),
        ("remind me to call my mom to morrow", "remind me to call my mom tomorrow"),
        ("uh three o clock", "3:00"),  # the hour as the rules read it (said_numbers.py)
        ("add a task called like call grandma", "add a task called call grandma"),
        ("i want two book a haircut", "i want to book a haircut"),
        ("move my haircut two saturday", "move my haircut to saturday"),
        ("book a haircut at for p m", "book a haircut at four p m"),
        (
            "buy flowers on saturday and oh and what do i owe",
            "buy flowers on saturday and what do i owe",
        ),
    ],
)
def test_what_a_recogniser_adds_is_taken_out(said: str, read: str) -> None:
    """Fillers, restarts, split words and homophones are read as a typist would write them."""
    assert plain(said).strip() == read


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("i'd like a haircut", "i'd like a haircut"),
        ("it looks like the app is broken", "it looks like the app is broken"),
        ("do you know if the dentist is open", "do you know if the dentist is open"),
        ("book two haircuts", "book two haircuts"),
        # the hour, as a typist writes it (language/said_numbers.py), not "to"
        ("book a haircut at two tomorrow", "book a haircut at 2 tomorrow"),
        ("book a consultation for thirty minutes", "book a consultation for thirty minutes"),
    ],
)
def test_words_that_mean_something_are_kept(said: str, kept: str) -> None:
    """ "i'd like", "do you know", "two haircuts", "at two" keep their meaning."""
    assert plain(said) == kept


def test_digits_said_with_oh_stay_a_phone_number() -> None:
    """ "four one five oh one…" keeps its "oh" as a zero, not a filler."""
    assert normalize("call me on four one five five five five oh one four four").phones == (
        "4155550144",
    )


def test_the_last_digits_said_again_correct_the_number() -> None:
    """ "…zero one four four no wait zero one four seven" is the number ending 0147."""
    said = (
        "update my phone to four one five five five five zero one four four"
        " no wait zero one four seven"
    )
    assert normalize(said).phones == ("4155550147",)


@pytest.mark.parametrize(
    ("said", "day", "clock"),
    [
        ("a consultation for the twenty second at eleven", date(2030, 1, 22), time(11, 0)),
        ("a haircut for tuesday the twenty second at eleven a m", date(2030, 1, 22), time(11, 0)),
        ("an eye exam on the fifteenth at noon", date(2030, 1, 15), time(12, 0)),
    ],
)
def test_a_date_said_in_words_is_that_date(said: str, day: date, clock: time) -> None:
    """ "the twenty second" is the 22nd, not tomorrow nor the next Tuesday."""
    when = find_when(normalize(said).text, NOW)
    assert when is not None and (when.day, when.clock) == (day, clock)


def test_the_second_of_a_list_is_not_a_date() -> None:
    """ "the second one" still names the second item, not the 2nd of the month."""
    assert normalize("cancel the second one").text == "cancel the second one"


def test_a_title_keeps_its_words_without_the_fillers() -> None:
    """A task title read back from the customer's own words leaves the fillers out."""
    assert restore_case("buy flowers", "add a task to buy uh flowers") == "buy flowers"
    intents = detect_intents("add a reminder uh to call the bank on the fifteenth", NOW, TZ)
    assert [(i.kind, i.arguments.get("title")) for i in intents] == [("add_task", "Call the bank")]


@pytest.mark.parametrize("said", ["uh huh", "mm hmm", "uh huh that's right", "yep"])
def test_a_yes_without_words_is_a_yes(said: str) -> None:
    """ "uh huh" and "mm hmm" confirm what is held."""
    assert is_affirmative(said)


def test_uh_uh_is_a_no() -> None:
    """ "uh-uh" refuses what is held."""
    assert is_negative("uh-uh") and not is_affirmative("uh-uh")


@pytest.mark.parametrize(
    "said",
    [
        "cancel my haircut oh wait no actually don't",
        "delete the groceries task actually no forget it",
        "cancel my haircut. never mind",
    ],
)
def test_an_ask_taken_back_as_it_is_said_is_no_ask(said: str) -> None:
    """A request whose end takes it back ("…wait no, actually don't") asks for nothing."""
    assert taken_back(said)


@pytest.mark.parametrize(
    "said", ["if there is no slot on friday, leave it", "never mind", "book a haircut friday"]
)
def test_an_ask_that_stands_is_not_taken_back(said: str) -> None:
    """A condition ending in "leave it", or a bare "never mind", is not a request withdrawn."""
    assert not taken_back(said)


@pytest.mark.parametrize(
    ("said", "email"),
    [
        ("my email is j dot lee eighty one at yahoo dot com", "j.lee81@yahoo.com"),
        ("it's mgarcia nineteen eighty four at gmail dot com", "mgarcia1984@gmail.com"),
    ],
)
def test_a_number_said_inside_an_address_is_part_of_it(said: str, email: str) -> None:
    """ "lee eighty one at yahoo dot com" is lee81@yahoo.com, not one@yahoo.com."""
    assert normalize(said).emails == (email,)


@pytest.mark.parametrize(
    ("said", "read"),
    [
        (
            "can you tell me when the car insurance thing is due",
            "when is the car insurance thing due",
        ),
        ("do you know what time my dentist appointment is", "what time is my dentist appointment"),
        ("can you tell me how much i owe", "can you tell me how much i owe"),
    ],
)
def test_a_question_asked_the_long_way_round_is_the_question(said: str, read: str) -> None:
    """ "can you tell me when X is due" is read as "when is X due"; others are left as said."""
    assert plain(said) == read


@pytest.mark.parametrize(
    ("said", "clock"),
    [("book a haircut on thursday at two no three p m", time(15, 0)), ("at 10 no 11", time(11, 0))],
)
def test_a_bare_no_between_two_times_keeps_the_second(said: str, clock: time) -> None:
    """ "at two no three p m" is 3 PM: the "no" takes the first hour back."""
    when = find_when(normalize(said).text, NOW)
    assert when is not None and when.clock == clock


def test_a_no_that_is_not_between_two_alike_words_stays() -> None:
    """ "book 2 no problem" and "i have no idea" are not corrections."""
    assert normalize("book 2 no problem").text == "book 2 no problem"
    assert normalize("i have no idea").text == "i have no idea"


@pytest.mark.parametrize(
    ("said", "read"),
    [
        (
            "move my haircut an hour earlier no wait two hours earlier",
            "move my haircut two hours earlier",
        ),
        (
            "mark the car insurance one no wait the groceries one done",
            "mark the groceries one done",
        ),
        ("book a haircut at two no wait a consultation at two", "book a consultation at 2"),
        ("book it at ten tomorrow no sorry the day after", "book it at 10 the day after tomorrow"),
        ("change the task to um to tomorrow no wait to wednesday", "change the task to wednesday"),
        ("i need to move it sorry to be a pain", "i need to move it sorry to be a pain"),
    ],
)
def test_a_correction_replaces_the_words_it_echoes(said: str, read: str) -> None:
    """A correction ending on the word taken back replaces the whole phrase, not one word."""
    assert normalize(said).text == read


def test_the_ask_is_cut_where_the_search_for_what_follows_it_cuts() -> None:
    """What is written after the ask, found from the end when no thanks or please is in
    the text, is what the pattern's search finds (every kept phrasing, as said and with
    a thanks, in capitals, and letters outside ASCII)."""

    def searched(text: str) -> tuple[str, str, str]:
        head = transcript._BEFORE_THE_ASK.match(text)
        start = head.end() if head is not None else 0
        tail = transcript._AFTER_THE_ASK.search(text, start)
        end = tail.start() if tail is not None else len(text)
        return text[:start], text[start:end], text[end:]

    said = kept_phrasings()
    texts = [*said, *(f"{text}, thanks!" for text in said[::7]), *(t.upper() for t in said[::7])]
    texts += ["ok, THANKS so much!!", "thank u\n", "done \u212a", "so \u017fo", "x  \n", "...", ""]
    assert [text for text in texts if transcript._around_the_ask(text) != searched(text)] == []
