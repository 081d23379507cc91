"""Small-typo correction for the words the planner listens for.

Only the vocabulary the grammar depends on is corrected ("apointment", "invocies",
"taks", "tomorow"); any other word is left alone, so a task title keeps its words.
Candidates come from a symmetric-delete index (the SymSpell idea): every word one or
two deletions away shares a key with its neighbours, so a lookup costs a handful of
dict probes instead of an edit-distance against the whole vocabulary, and results are
cached because people reuse their words.

Quick typing also drops vowels ("tsks", "tckts", "blnce", "rschdl"): a token with no
vowel after its first letter (a final "e" aside) is matched against the vocabulary's
words with all, or two or more, of their vowels left out, which no edit distance this small
would reach. Real words rarely look like that ("sturdy" keeps its "u", so it is not
"saturday"). Vowels are also confused ("calander", "seperate"): a word of five letters
or more whose consonants all stand where a vocabulary word's do, with at most two
vowels different, is that word.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import lru_cache

from assistant.language.lexicon import OTHER_FORM_ENDINGS
from assistant.language.patterns import rx

_VOWELS = frozenset("aeiou")
# A token typed without its vowels: any first letter, then consonants (a final "e" kept).
_UNVOWELLED = rx(r"[a-z][b-df-hj-np-tv-z]+e?")


# Vowel confusions are only trusted on words this long: "tell"/"tall", "list"/"last".
_MIN_VOWEL_SLIP_LENGTH = 5
_MAX_VOWEL_SLIPS = 2


def _vowel_mask(word: str) -> str:
    return "".join("*" if ch in _VOWELS else ch for ch in word)


def _unvowelled(word: str) -> set[str]:
    """`word` with all, or at least two, of its vowels (not its first letter) left out."""
    places = [i for i, ch in enumerate(word) if i > 0 and ch in _VOWELS]
    forms: set[str] = set()
    for count in range(min(2, len(places)), len(places) + 1):
        for dropped in itertools.combinations(places, count):
            forms.add("".join(ch for i, ch in enumerate(word) if i not in dropped))
    return {form for form in forms if len(form) >= 3 and _UNVOWELLED.fullmatch(form)}


def _deletes(word: str, depth: int) -> set[str]:
    """Every string made by removing up to `depth` characters from `word`."""
    found = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1 :] for w in frontier for i in range(len(w))}
        found |= frontier
    return found


def _allowed_distance(length: int) -> int:
    """Longer words tolerate more slips; short ones only a swapped pair (see `_close`)."""
    if length >= 9:
        return 2
    return 1


def damerau(a: str, b: str) -> int:
    """Optimal-string-alignment distance: edits counting a swap of neighbours as one."""
    if a == b:
        return 0
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _inflected(vocabulary: Iterable[str]) -> set[str]:
    """Each vocabulary word's other forms: "I accidentally removed the eye exam task" must
    not be read as "remove", nor "I completely forgot" as "completed". (A plural is still
    read as its word, "haircuts" as "haircut", as the rules expect; a plural that is a word
    of its own, "changes" not "charges", is among the common words.)"""
    forms: set[str] = set()
    for word in vocabulary:
        for ending in OTHER_FORM_ENDINGS:
            # "remove": "removed", "removing", "remover" (its "e" not said twice)
            stem = word[:-1] if word.endswith("e") and ending[0] in "ei" else word
            forms.add(stem + ending)
    return forms


class TypoCorrector:
    """Maps a misspelt vocabulary word to the word meant; anything else is returned as is."""

    def __init__(self, vocabulary: Iterable[str], protected: Iterable[str] = ()) -> None:
        self._vocabulary = tuple(dict.fromkeys(word.lower() for word in vocabulary))
        self._rank = {word: index for index, word in enumerate(self._vocabulary)}
        self._protected = (
            frozenset(protected) | set(self._vocabulary) | _inflected(self._vocabulary)
        )
        self._index: dict[str, list[str]] = {}
        # A token much longer than any word cannot be a slip of one (and its deletes
        # would be many: "aaaa…" pasted in must not cost a second).
        self._longest = max((len(word) for word in self._vocabulary), default=0) + 2
        self._skeletons: dict[str, str] = {}
        for word in self._vocabulary:
            for form in _unvowelled(word):
                self._skeletons.setdefault(form, word)  # vocabulary order breaks ties
        # "bil", "tel": a doubled letter typed once, the slip short words do get.
        self._undoubled: dict[str, str] = {}
        for word in self._vocabulary:
            for i in range(1, len(word)):
                if word[i] == word[i - 1] and len(word) <= _MIN_VOWEL_SLIP_LENGTH:
                    self._undoubled.setdefault(word[:i] + word[i + 1 :], word)
        self._masks: dict[str, str] = {}
        for word in self._vocabulary:
            if len(word) >= _MIN_VOWEL_SLIP_LENGTH:
                self._masks.setdefault(_vowel_mask(word), word)
        for word in self._vocabulary:
            if len(word) < 4:
                continue
            for key in _deletes(word, _allowed_distance(len(word))):
                self._index.setdefault(key, []).append(word)
        self.correct = lru_cache(maxsize=4096)(self._correct)

    def _correct(self, token: str) -> str:
        if len(token) < 3 or token in self._protected or not token.isalpha():
            return token
        if token in self._skeletons:
            return self._skeletons[token]
        if token in self._undoubled:
            return self._undoubled[token]
        if len(token) < 4 or len(token) > self._longest:
            return token
        depth = _allowed_distance(len(token))
        candidates: set[str] = set()
        for key in _deletes(token, depth):
            candidates.update(self._index.get(key, ()))
        best: tuple[int, bool, int, str] | None = None
        for word in candidates:
            distance = damerau(token, word)
            if not self._close(token, word, distance):
                continue
            # Prefer the nearest, then one keeping the first letter, then vocabulary order.
            ranked = (distance, word[0] != token[0], self._rank[word], word)
            if best is None or ranked < best:
                best = ranked
        if best is not None:
            return best[3]
        return self._vowel_slip(token) or token

    def _vowel_slip(self, token: str) -> str | None:
        """The vocabulary word `token` is, with a vowel or two mistyped ("calander")."""
        if len(token) < _MIN_VOWEL_SLIP_LENGTH:
            return None
        word = self._masks.get(_vowel_mask(token))
        if word is None or word[0] != token[0]:
            return None
        slips = sum(a != b for a, b in zip(word, token, strict=True))
        return word if slips <= _MAX_VOWEL_SLIPS else None

    @staticmethod
    def _close(token: str, word: str, distance: int) -> bool:
        if distance == 0:
            return True
        shortest = min(len(token), len(word))
        if shortest <= 4:
            # Four letters leave too little to go on: only a swapped pair ("taks").
            return distance == 1 and len(token) == len(word) and sorted(token) == sorted(word)
        return distance <= _allowed_distance(shortest)
