"""The grammar's gated patterns answer as their regexes do, only sooner."""

from __future__ import annotations

import functools
import os
import re
import zlib

import pytest

import assistant.models.embedded.planner  # noqa: F401  (makes every pattern of the grammar)
from assistant.language.intents import _split
from assistant.language.patterns import (
    MADE,
    MADE_ANY,
    MADE_TRIED,
    GatedPattern,
    needs_of,
    seeker,
)
from assistant.language.text import normalize
from tests.fixtures.phrasings import kept_phrasings

# Every pattern against every kept text grows with each data set (12,000+ texts by 800
# patterns took most of a minute); the suite tries a fixed share (a twelfth, a thousand
# texts and more) chosen by a stable hash so a run is repeatable, and PATTERNS=ALL tries
# every one (before a change to patterns.py, or to look for a gate's miss).
_SHARE = 12
_EVERY = os.environ.get("PATTERNS") == "ALL"


@functools.cache
def _corpus() -> list[str]:
    """The phrasings the project keeps, as said, as the grammar reads it, and by clause:
    every one with PATTERNS=ALL, else the share whose stable hash falls to it."""
    said = kept_phrasings()
    texts = set(said)
    for text in said:
        read = normalize(text).text
        texts.add(read)
        texts.update(clause for _, clause, _ in _split(read))
    if not _EVERY:
        texts = {text for text in texts if zlib.crc32(text.encode()) % _SHARE == 0}
    return sorted(texts)


def test_the_sample_holds_texts_of_every_kind() -> None:
    """The share tried is large enough to hold the grammar's kinds of text: a thousand and
    more, with days, times, amounts and the words of each tool."""
    texts = _corpus()
    assert len(texts) > 1000
    for word in ("friday", "pm", "owe", "cancel", "task", "email", "invoice", "case"):
        assert any(word in text for text in texts), word


@pytest.mark.parametrize("half", [0, 1])
def test_a_gate_never_refuses_a_text_its_regex_matches(half: int) -> None:
    """Over every kept phrasing, each gated pattern's "cannot match" is the regex's own
    (in two halves of the patterns, which test workers run side by side)."""
    gated = [made for made in MADE if made.needs][half::2]
    assert len(gated) > 100, "the grammar's patterns are made with rx()"
    wrong = [
        (made.pattern, text)
        for text in _corpus()
        for made in gated
        if made.search(text) is None and made.regex.search(text) is not None
    ]
    assert wrong == []


def test_a_pattern_tried_only_at_the_start_finds_what_its_search_finds() -> None:
    """A pattern every match of which starts at the text's start is tried there only
    (`seeker`): over every kept phrasing, it finds what searching the text finds."""
    anchored = [made for made in MADE if made.seek == made.regex.match]
    assert len(anchored) > 50, "the grammar's '^…' patterns are tried at the start only"
    wrong = [
        (made.pattern, text)
        for text in _corpus()
        for made in anchored
        if _span(made.search(text)) != _span(made.regex.search(text))
    ]
    assert wrong == []


def _span(found: re.Match[str] | None) -> tuple[int, int] | None:
    return None if found is None else found.span()


@pytest.mark.parametrize(
    ("source", "anchored"),
    [
        (r"^(?:and |so )*cancel", True),
        (r"^cancel|^(?:please )?delete", True),
        (r"(?:^|, )cancel", False),  # also after a comma
        (r"(?m)^cancel", False),  # also after each newline
        (r"(?:please )?^cancel", False),  # not its first item: searched as written
        (r"\bcancel", False),
    ],
)
def test_what_is_tried_at_the_start_only(source: str, anchored: bool) -> None:
    regex = re.compile(source)
    assert (seeker(regex) == regex.match) is anchored


def test_one_of_several_is_found_as_by_their_alternation() -> None:
    """A set of patterns asked whether one is found answers as the one alternation of
    them would, over every kept phrasing."""
    assert MADE_ANY, "the complaint words are an any_of()"
    texts = _corpus()
    for several in MADE_ANY:
        joined = re.compile("|".join(part.pattern for part in several.parts))
        assert [t for t in texts if several.found_in(t) != bool(joined.search(t))] == []


def test_patterns_tried_in_one_loop_answer_as_each_tried_in_turn() -> None:
    """Named patterns tried in one loop find what trying each in turn finds: the first,
    the earliest and every match, over every kept phrasing."""
    assert len(MADE_TRIED) >= 10, "the day, time, small-talk and rule lists are Tried"
    texts = _corpus()
    for tried in MADE_TRIED:
        for text in texts:
            each = [(n, m) for n, p in tried.named if (m := p.regex.search(text)) is not None]
            spans = [(n, m.span()) for n, m in each]
            assert [(n, m.span()) for n, m in tried.every(text)] == spans, text
            assert [(n, m.span()) for n, m in tried.found(text)] == spans, text
            assert _said(tried.first(text)) == (spans[0] if spans else None), text
            earliest = min(each, key=lambda found: found[1].start(), default=None)
            assert _said(tried.earliest(text)) == _said(earliest), text


def _said(found: tuple[object, re.Match[str]] | None) -> tuple[object, tuple[int, int]] | None:
    return None if found is None else (found[0], found[1].span())


@pytest.mark.parametrize(
    ("source", "needs"),
    [
        (r"\bremind me (?!what|when)(?P<rest>.*)$", ("remind me ",)),
        (r"^(?P<t>.+?) (?:is|are)? ?(?:done|finished)\b", ("finished", "done")),
        (r"\b(?:add|put) (?P<rest>.+?) (?:to|on) my list\b", (" my list",)),
        (r"\b([ap])\.\s?m\b", (".",)),
        (r"(?:urgent|important)?\s*task", ("task",)),
        (r"\b\w+ing\b|now", ("ing", "now")),
        (r"\s(?=(?:tell|show) me\b)", ("tell", "show")),  # what a lookahead must see
    ],
)
def test_what_a_match_must_contain(source: str, needs: tuple[str, ...]) -> None:
    """The words read from a pattern are ones every match of it holds."""
    assert set(needs_of(re.compile(source))) == set(needs)


_SEVENTEEN = (
    "alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliet|kilo|lima|mike|november"
    "|oscar|papa|quebec"
)


@pytest.mark.parametrize(
    ("source", "needs"),
    [
        # each way's most telling words are too many together (17 ways of one word, cut to
        # two letters still 17): read again, the ways share "not"
        (rf"\b(?:{_SEVENTEEN}) not\b|\bnot \w+", (" not", "not ")),
        (rf"\b(?:{_SEVENTEEN}) (?:no|not)\b|\bno \w+|^(?:ok )*nope", (" no", "no ", "nope")),
        # no words shared but a space: nothing sure worth a gate
        (rf"\b(?:{_SEVENTEEN}) \w+|\bnot \w+", ()),
    ],
)
def test_words_shared_by_the_ways_of_an_alternation(source: str, needs: tuple[str, ...]) -> None:
    """A pattern whose ways together need too many words is read again for words they
    share; each set read is still one every match holds."""
    regex = re.compile(source)
    assert set(needs_of(regex)) == set(needs)
    for text in ("kilo not here", "not now", "papa no", "nope", "okay then", "mike is"):
        if regex.search(text) is not None:
            assert not needs or any(word in text for word in needs_of(regex)), text


@pytest.mark.parametrize(
    "source",
    [
        r"(?:please )?",  # may match nothing
        r"\b\w+day\b|\d+",  # one way ("12") needs no fixed word
        r"(?i)remind me",  # ignores case: "Remind" would not hold "remind"
        r"(?!.*done)\b\w+",  # a word it must not see
        r"[^,]+",
    ],
)
def test_nothing_is_sure(source: str) -> None:
    """A pattern that can match without any fixed word is never gated."""
    assert needs_of(re.compile(source)) == ()


def test_every_method_answers_as_the_regex_does() -> None:
    """search, match, fullmatch, finditer, findall, sub, subn and split, with and
    without the words the pattern needs."""
    source = r"\b(?:mark|tick) (?P<t>\w+) (?:done|off)\b"
    gated, regex = GatedPattern(re.compile(source)), re.compile(source)
    assert gated.needs
    for text in ("mark groceries done and tick milk off", "nothing here", "mark it", ""):
        assert repr(gated.search(text)) == repr(regex.search(text))
        assert repr(gated.match(text)) == repr(regex.match(text))
        assert repr(gated.fullmatch(text)) == repr(regex.fullmatch(text))
        assert [m.span() for m in gated.finditer(text)] == [m.span() for m in regex.finditer(text)]
        assert gated.findall(text) == regex.findall(text)
        assert gated.sub("X", text) == regex.sub("X", text)
        assert gated.subn("X", text, count=1) == regex.subn("X", text, count=1)
        assert gated.split(text) == regex.split(text)
