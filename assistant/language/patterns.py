"""The grammar's compiled patterns, which skip the regex engine when a text cannot match.

A message is read by a few hundred patterns, and most of them fail: "cancel my haircut"
is tried by every rule for adding a task, opening a case or changing an email. A failed
search still walks the whole text, position by position (a pattern that starts with
`\\b` or `.+?` gives the engine no first character to look for). So each pattern is read
once, at import, for the words any match of it must contain ("remind me", or one of
"done", "finished", "complete"...), and a text holding none of them is answered "no
match" after a substring test or two. A pattern with no such words (or one that ignores
case) runs as it is. The answers are the regex's own: a gate only ever says "cannot
match" where the pattern could not (tests/test_patterns.py holds every pattern of the
grammar to that over the phrasings we keep).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

# The regex module's own parser (the one `re.compile` uses): the tree it gives is how the
# engine itself reads the pattern, so what it says a match must contain holds.
_parser: Any = importlib.import_module("re._parser")
_const: Any = importlib.import_module("re._constants")

# More words than this and testing them costs about what the search would.
_MAX_NEEDS = 16
_REPEATS = (_const.MAX_REPEAT, _const.MIN_REPEAT, getattr(_const, "POSSESSIVE_REPEAT", None))

Needs = frozenset[str]
Name = TypeVar("Name")


def _best(candidates: list[Needs]) -> Needs | None:
    """The most telling of several sets that each hold: longest shortest word, then fewest."""
    if not candidates:
        return None
    return max(candidates, key=lambda words: (min(map(len, words)), -len(words)))


def _sequence(items: Any) -> Needs | None:
    """Words a match of this sequence must contain (one of the set), or None."""
    candidates: list[Needs] = []
    run = ""
    for op, argument in items:
        if op is _const.LITERAL:
            run += chr(argument)
            continue
        if op is _const.AT:
            continue  # "^", "\b": zero-width, the letters on each side stay neighbours
        if run:
            candidates.append(frozenset({run}))
            run = ""
        if (needs := _item(op, argument)) is not None:
            candidates.append(needs)
    if run:
        candidates.append(frozenset({run}))
    return _best(candidates)


def _item(op: Any, argument: Any) -> Needs | None:
    if op is _const.SUBPATTERN:
        _group, add_flags, _del_flags, inner = argument
        return None if add_flags & re.IGNORECASE else _sequence(inner)
    if op is getattr(_const, "ATOMIC_GROUP", None):
        return _sequence(argument)
    if op is _const.BRANCH:
        words: set[str] = set()
        for branch in argument[1]:
            needs = _sequence(branch)
            if needs is None:
                return None  # one way to match needs nothing in particular
            words |= needs
        return frozenset(words)
    if op in _REPEATS:
        least, _most, inner = argument
        return _sequence(inner) if least >= 1 else None
    if op is _const.ASSERT:
        # A lookahead or lookbehind that must hold: what it matches is in the text too.
        _direction, inner = argument
        return _sequence(inner)
    if op is _const.IN and all(kind is _const.LITERAL for kind, _ in argument):
        return frozenset(chr(code) for _, code in argument) or None
    return None  # any character, a class, a lookaround, a back-reference: nothing sure


def _fewer(needs: Needs, cuts: tuple[int, ...] = (5, 4, 3, 2)) -> Needs | None:
    """At most `_MAX_NEEDS` words: cut to their first letters (a part of a word a match
    must contain is itself contained), or None when even that leaves too many."""
    for length in (None, *cuts):
        cut = frozenset(word[:length] for word in needs) if length else needs
        if len(cut) <= _MAX_NEEDS:
            return cut
    return None


def _starts_at_start(items: Any) -> bool:
    """Every match of this sequence starts where the text does (its first item is "^"
    or a group or alternation each of whose ways begins so)."""
    for op, argument in items:
        if op is _const.AT:
            return argument in (_const.AT_BEGINNING, _const.AT_BEGINNING_STRING)
        if op is _const.SUBPATTERN:
            _group, add_flags, _del_flags, inner = argument
            return not add_flags & re.MULTILINE and _starts_at_start(inner)
        if op is getattr(_const, "ATOMIC_GROUP", None):
            return _starts_at_start(argument)
        if op is _const.BRANCH:
            return all(_starts_at_start(branch) for branch in argument[1])
        return False
    return False


def _parsed(regex: re.Pattern[str]) -> Any:
    """The regex module's tree of `regex`. Parsing is most of what compiling the grammar
    costs at start-up (every worker and every server a test starts pays it), so a
    pattern is parsed here once for both readings below."""
    return _parser.parse(regex.pattern, regex.flags)


def seeker(regex: re.Pattern[str], tree: Any = None) -> Callable[..., re.Match[str] | None]:
    """`regex.search`, or its `match` when every match must start at the text's start: the
    same answer, but a search tries the pattern again at every position of a text it
    does not match ("^(?:and|so|ok|…)*…" took 20 µs on a sentence, its match 0.5).
    `tree`: the pattern already parsed, if it was."""
    if regex.flags & re.MULTILINE:
        return regex.search  # "^" also after each newline
    starts = _starts_at_start(_parsed(regex) if tree is None else tree)
    return regex.match if starts else regex.search


def _options(items: Any) -> list[Needs]:
    """Every set of words this sequence's matches must contain (one of each set), not
    only the most telling one: the ways of an alternation can then share words."""
    options: list[Needs] = []
    run = ""
    for op, argument in items:
        if op is _const.LITERAL:
            run += chr(argument)
            continue
        if op is _const.AT:
            continue
        if run:
            options.append(frozenset({run}))
            run = ""
        options.extend(_item_options(op, argument))
    if run:
        options.append(frozenset({run}))
    return options


def _item_options(op: Any, argument: Any) -> list[Needs]:
    if op is _const.SUBPATTERN:
        _group, add_flags, _del_flags, inner = argument
        return [] if add_flags & re.IGNORECASE else _options(inner)
    if op is getattr(_const, "ATOMIC_GROUP", None):
        return _options(argument)
    if op is _const.BRANCH:
        ways = [_options(branch) for branch in argument[1]]
        if not all(ways):
            return []  # one way to match needs nothing in particular
        return [_fewest(ways)]
    if op in _REPEATS:
        least, _most, inner = argument
        return _options(inner) if least >= 1 else []
    if op is _const.ASSERT:
        _direction, inner = argument
        return _options(inner)
    found = _item(op, argument)
    return [] if found is None else [found]


def _covered(word: str, words: set[str]) -> bool:
    """A text holding `word` holds one of `words` (one of them is part of it)."""
    return any(other in word for other in words)


def _telling(words: Needs) -> bool:
    return all(len(word.strip()) >= 2 for word in words)


def _fewest(ways: list[list[Needs]]) -> Needs:
    """Words one of which every way of an alternation holds, a set of words chosen for
    each way so that the ways share them where they can ("not", "n't", "no"…): the ways
    with the fewest choices first, then each one's set that adds the fewest new words."""
    chosen: set[str] = set()
    for options in sorted(ways, key=len):
        best = min(
            # (a space, a comma or one letter is in nearly every text: no gate at all)
            [words for words in options if _telling(words)] or options,
            key=lambda words: (
                sum(not _covered(word, chosen) for word in words),
                -min(map(len, words)),
            ),
        )
        chosen |= {word for word in best if not _covered(word, chosen)}
    # A word holding another is never needed beside it.
    return frozenset(word for word in chosen if not _covered(word, chosen - {word}))


def needs_of(regex: re.Pattern[str], tree: Any = None) -> tuple[str, ...]:
    """Words one of which every match of `regex` contains; () when nothing is sure.
    `tree`: the pattern already parsed, if it was."""
    if regex.flags & re.IGNORECASE:
        return ()
    tree = _parsed(regex) if tree is None else tree
    needs = _sequence(tree)
    if needs is None or not (needs := _fewer(needs)):
        # Too many words, each way of an alternation read for its most telling ones: read
        # again for words the ways share ("not" for "not", "let's not", "you … not").
        # (not cut to two letters: that many two-letter words pass nearly every text)
        shared = [
            cut for words in _options(tree) if (cut := _fewer(words, (5, 4, 3))) and _telling(cut)
        ]
        if not (needs := _best(shared)):
            return ()
    return tuple(sorted(needs, key=len, reverse=True))


class GatedPattern:
    """A compiled pattern with `re.Pattern`'s methods, each answering "no match" at once
    for a text that lacks every one of `needs` (and otherwise the regex's own answer)."""

    __slots__ = (
        "findall",
        "finditer",
        "fullmatch",
        "match",
        "needs",
        "pattern",
        "regex",
        "search",
        "seek",
        "split",
        "sub",
        "subn",
    )
    search: Callable[..., re.Match[str] | None]
    match: Callable[..., re.Match[str] | None]
    fullmatch: Callable[..., re.Match[str] | None]
    finditer: Callable[..., Iterator[re.Match[str]]]
    findall: Callable[..., list[Any]]
    sub: Callable[..., str]
    subn: Callable[..., tuple[str, int]]
    split: Callable[..., list[str | Any]]
    # The regex's search, or its match where that is the same answer (`seeker`).
    seek: Callable[..., re.Match[str] | None]

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self.pattern = regex.pattern
        tree = _parsed(regex)
        self.needs = needs_of(regex, tree)
        self.seek = seeker(regex, tree)
        if not self.needs:
            # Nothing to test first: the regex's own methods, no call in between.
            self.search, self.match, self.fullmatch = self.seek, regex.match, regex.fullmatch
            self.finditer, self.findall = regex.finditer, regex.findall
            self.sub, self.subn, self.split = regex.sub, regex.subn, regex.split
            return
        needs = self.needs

        def may_match(text: str) -> bool:
            for word in needs:  # noqa: SIM110 (a loop: any() with a generator costs more)
                if word in text:
                    return True
            return False

        self.search = _searcher(self.seek, needs)
        self.match = _searcher(regex.match, needs)
        self.fullmatch = _searcher(regex.fullmatch, needs)

        def finditer(text: str, *args: Any) -> Iterator[re.Match[str]]:
            return regex.finditer(text, *args) if may_match(text) else iter(())

        def findall(text: str, *args: Any) -> list[Any]:
            return regex.findall(text, *args) if may_match(text) else []

        def split(text: str, maxsplit: int = 0) -> list[str | Any]:
            return regex.split(text, maxsplit) if may_match(text) else [text]

        def sub(repl: Any, text: str, count: int = 0) -> str:
            return regex.sub(repl, text, count) if may_match(text) else text

        def subn(repl: Any, text: str, count: int = 0) -> tuple[str, int]:
            return regex.subn(repl, text, count) if may_match(text) else (text, 0)

        self.finditer, self.findall, self.split = finditer, findall, split
        self.sub, self.subn = sub, subn

    def __repr__(self) -> str:
        return f"GatedPattern({self.pattern!r}, needs={self.needs!r})"


def _searcher(
    method: Callable[..., re.Match[str] | None], needs: tuple[str, ...]
) -> Callable[..., re.Match[str] | None]:
    """`method` (search, match, fullmatch), run only when the text holds one of `needs`:
    a loop, not any(), since it runs hundreds of times a message and a generator would
    cost more than the test saves."""
    if len(needs) == 1:
        (word,) = needs

        def search_one(text: str, *args: Any) -> re.Match[str] | None:
            return method(text, *args) if word in text else None

        return search_one

    def search(text: str, *args: Any) -> re.Match[str] | None:
        for word in needs:
            if word in text:
                return method(text, *args)
        return None

    return search


# Every pattern made here, for the test that holds each gate to its regex's answers.
MADE: list[GatedPattern] = []
MADE_ANY: list[AnyOf] = []
MADE_TRIED: list[Tried[Any]] = []


def rx(source: str, flags: int = 0) -> GatedPattern:
    """Compile `source` once, at import (a decision only runs it)."""
    made = GatedPattern(re.compile(source, flags))
    MADE.append(made)
    return made


class AnyOf:
    """Several patterns asked only whether one of them is found. Kept apart rather than
    joined in one alternation: each is tried only on a text holding its own words, where
    an alternation tries every one of its ways at every position of every text."""

    __slots__ = ("_tries", "parts")

    def __init__(self, parts: tuple[GatedPattern, ...]) -> None:
        self.parts = parts
        # The words and the regex of each, tested here in one loop: a call per part
        # would cost more than most of the tests it makes.
        self._tries = tuple((part.needs or ("",), part.seek) for part in parts)

    def found_in(self, text: str) -> bool:
        for needs, search in self._tries:
            for word in needs:
                if word in text:
                    if search(text) is not None:
                        return True
                    break
        return False


class Tried(Generic[Name]):
    """Named patterns tried over one text in one loop, each only where its words are, as
    `AnyOf` does: the first that finds, the earliest found, or all found. The grammar's
    hottest loops ("which day is said", "which kind of small talk") try a dozen or more
    patterns a text, most failing their words; a call per pattern cost more than that.
    The answers are those of trying each `GatedPattern` in turn (tests/test_patterns.py)."""

    __slots__ = ("_tries", "named")

    def __init__(self, named: Iterable[tuple[Name, GatedPattern]]) -> None:
        self.named = tuple(named)
        self._tries = tuple((name, part.needs or ("",), part.seek) for name, part in self.named)
        MADE_TRIED.append(self)

    def first(self, text: str) -> tuple[Name, re.Match[str]] | None:
        """The first pattern, in order, that finds something in `text`, and its match."""
        for name, needs, search in self._tries:
            for word in needs:
                if word in text:
                    if (match := search(text)) is not None:
                        return name, match
                    break
        return None

    def earliest(self, text: str) -> tuple[Name, re.Match[str]] | None:
        """The match that starts first (at one position, the pattern listed first)."""
        best: tuple[Name, re.Match[str]] | None = None
        for name, needs, search in self._tries:
            for word in needs:
                if word in text:
                    match = search(text)
                    if match and (best is None or match.start() < best[1].start()):
                        best = (name, match)
                    break
        return best

    def found(self, text: str) -> Iterator[tuple[Name, re.Match[str]]]:
        """Each pattern's match in `text` in the order listed, found as they are asked
        for (a loop that stops at the first match tries no more patterns)."""
        for name, needs, search in self._tries:
            for word in needs:
                if word in text:
                    if (match := search(text)) is not None:
                        yield name, match
                    break

    def every(self, text: str) -> list[tuple[Name, re.Match[str]]]:
        """Each pattern's match in `text`, in the order the patterns are listed."""
        found: list[tuple[Name, re.Match[str]]] = []
        for name, needs, search in self._tries:
            for word in needs:
                if word in text:
                    if (match := search(text)) is not None:
                        found.append((name, match))
                    break
        return found


def any_of(*sources: str) -> AnyOf:
    """`AnyOf` the patterns `sources`, each compiled once with `rx`."""
    made = AnyOf(tuple(rx(source) for source in sources))
    MADE_ANY.append(made)
    return made


__all__ = [
    "MADE",
    "MADE_ANY",
    "MADE_TRIED",
    "AnyOf",
    "GatedPattern",
    "Tried",
    "any_of",
    "needs_of",
    "rx",
    "seeker",
]
