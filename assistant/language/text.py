"""A message made ready for the grammar: lower case, casual spellings and typos fixed.

Emails and phone numbers are lifted out first (placeholders stand in their place), so
that neither the typo corrector nor the clause splitter touches "jane.doe@example.com"
or "+1 415 555 0199"; the slot extractors get them back from `Normalized`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from assistant.language.address import IN_TEXT as EMAIL_IN_TEXT
from assistant.language.address import mail_can_reach
from assistant.language.lexicon import VOCABULARY, WORD_ENDINGS
from assistant.language.patterns import rx
from assistant.language.spelling import COMMON_WORDS, MISSPELT, SHORTHAND, SLANG, words
from assistant.language.spoken import written
from assistant.language.transcript import plain
from assistant.language.typos import TypoCorrector

# The placeholders that stand in for lifted-out emails and phone numbers, numbered
# ("emailaddress0") so a clause can tell which of the message's addresses it holds.
EMAIL_TOKEN = "emailaddress"
PHONE_TOKEN = "phonenumber"
_CORRECTOR = TypoCorrector(VOCABULARY, protected=COMMON_WORDS | set(SLANG))

# A phone number: optional +country, then groups of digits separated by space, dot,
# dash or brackets; at least 7 digits in all (checked by the slot extractor).
_PHONE = rx(r"(?<![\w:/])\+?\(?\d[\d\s().-]{5,}\d(?![\w:])")
_ISO_DATE = rx(r"\d{4}-\d{1,2}-\d{1,2}")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_MERIDIEM = rx(r"\b([ap])\.\s?m\b\.?")
# A part of a domain ("gmail" in "gmail.com") is not a word to correct: it became "email".
_WORD = rx(r"(?<![a-z0-9'@-])(?<![a-z0-9]\.)[a-z0-9][a-z0-9'-]*+(?!\.[a-z0-9])")
_SPACES = rx(r"[ \t\r\n]+")
# "move my haircut to 3, thanks": thanks said after a request is not part of it (a
# fragment read whole, "and what time", would otherwise be only a thank-you). Kept after
# a message that is only an answer or a remark ("no, thanks", "that's great, thanks").
_THANKS_TAIL = rx(
    r"\s*(?P<mark>[,.!?;])\s*(?:thanks|thank you|thank u|thx|cheers|many thanks|much appreciated)"
    r"(?: (?:so much|very much|a lot|a bunch|again|in advance))?[\s.!]*$"
)
_ONLY_REMARKS = words(
    """ok okay great lovely perfect brilliant cool nice fine good super excellent awesome
    right alright all sure wonderful yes yeah yep yup no nope that's thats that it is was
    hi hello hey so oh well got sounds noted understood and bye goodbye done helpful very
    really much still correct exactly works work everything set sorted ah wow amazing you
    you've you're have been a lot big help then now for your this"""
)
# Written out or contracted, the same words: the grammar reads the contraction ("I am
# going to be late", "do not delete…", "the page will not load"), as it reads "dont".
# ("it is" only before an address or a number given: "it is maria@…" is "it's maria@…",
# "leave it as it is" stays.)
_WRITTEN_OUT = rx(
    r"\b(?:do not|does not|did not|cannot|can not|will not|i am|that is"
    r"|it is(?=\s+(?:emailaddress|phonenumber)\d))\b"
)
_CONTRACTED = {
    "that is": "that's",
    "it is": "it's",
    "do not": "don't",
    "does not": "doesn't",
    "did not": "didn't",
    "cannot": "can't",
    "can not": "can't",
    "will not": "won't",
    "i am": "i'm",
}
# "&" and "+" between words mean "and"; "@" alone means "at".
_SYMBOLS = (
    (rx(r"(?:^|\s)&\s|\s\+\s"), " and "),
    (rx(r"\s@\s"), " at "),
    # A deadline's other words: "by close of business friday", "no later than wednesday",
    # "…friday at the latest" (kept in a title: "Send the forms no later than").
    (rx(r"\b(?:close|end) of business\b|(?<=\bby )(?:c\.?o\.?b|eob)\b"), "end of day"),
    (rx(r"\b(?:no|not) later than\b"), "by"),
    (rx(r",? at the (?:very )?latest\b"), ""),
    # A chat's hour, said where an hour goes: "tues 10a", "at 7:30p", "tomorrow 9a" (never
    # a gate's, a form's or a flat's letter: "go to gate 4a" made a to-do "Go to gate" at
    # 4 AM)
    (
        rx(
            r"\b(at|by|from|until|till|til|today|tomorrow|tonight|mon|monday|tue|tues|tuesday"
            r"|wed|weds|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday)"
            r" (1[0-2]|[1-9])(:[0-5]\d)?([ap])\b(?![-'])"
        ),
        r"\1 \2\3 \4m",
    ),
    # "at 3 of the afternoon", said as some languages put it: 3 in the afternoon
    # ("print 3 of the morning reports": a count, its words kept)
    (
        rx(
            r"\b(?:at )?(\d{1,2}(?::\d\d)?) of (?:the )?(morning|afternoon|evening|night)"
            r"(?= *(?:$|[,.!?]|on\b|please\b|pls\b|today\b|tomorrow\b|this\b|next\b))"
        ),
        r"\1 in the \2",
    ),
    # "remember me to call my sister": remind me to (it was not understood)
    (rx(r"\bremember me to\b"), "remind me to"),
)


# A day written short that is also a word ("sat", "sun", "wed", "tue", "thu"): the day
# only where a day goes, after "on", "for", "by"… or before an hour ("need a haircut sat
# 11am" was booked tomorrow, the day unread; "add … to my list for wed" had no due day).
# "I sat", "the sun", "we wed" stay words.
_SHORT_DAY = rx(r"\b(?:sat|sun|wed|tue|thu)\b(?!['-])")
_DAY_GOES_BEFORE = {"on", "for", "by", "this", "next", "till", "til", "until", "before"}
_DAY_GOES_BEFORE |= {"after", "from", "every", "and", "or", "to"}
_HOUR_AFTER = rx(r" (?:at |@ ?)?(?:\d|noon\b|(?:morning|afternoon|evening|night)\b)")
_SHORT_DAYS = {
    "sat": "saturday",
    "sun": "sunday",
    "wed": "wednesday",
    "tue": "tuesday",
    "thu": "thursday",
}


def _short_day(text: str) -> str:
    """`text` with each day written short where a day goes spelled out ("sat" →
    "saturday" in "on sat", "sat 11am")."""

    def day(match: re.Match[str]) -> str:
        before = text[: match.start()].split()
        after = text[match.end() :]
        if (before and before[-1].strip(",") in _DAY_GOES_BEFORE) or _HOUR_AFTER.match(after):
            return _SHORT_DAYS[match.group(0)]
        return match.group(0)

    return _SHORT_DAY.sub(day, text)


@dataclass(frozen=True, slots=True)
class Normalized:
    """`text` is what the grammar reads; `emails` and `phones` were lifted out of it."""

    original: str
    text: str
    emails: tuple[str, ...]
    phones: tuple[str, ...]


def only_remarks(lowered: str) -> bool:
    """`lowered` is an answer or a remark, no request ("no", "that's great")."""
    return _ONLY_REMARKS.issuperset(re.findall(r"[a-z']+", lowered))


def thanks_tail(lowered: str) -> re.Match[str] | None:
    """The thanks said after a request, or None (also after a remark: "no, thanks")."""
    tail = _THANKS_TAIL.search(lowered)
    if tail is None or only_remarks(lowered[: tail.start()]):
        return None
    return tail


def without_thanks(lowered: str) -> str:
    """`lowered` without the thanks said after a request ("…to 3, thanks"); "and the first
    one? thanks" is still a question."""
    tail = thanks_tail(lowered)
    if tail is None:
        return lowered
    return lowered[: tail.start()] + ("?" if tail.group("mark") == "?" else "")


# A word as typed: letters only, not part of an email, a domain or a contraction.
_TYPED = rx(r"(?<![\w@.'-])[a-z]{2,}(?![\w@'-]|\.[a-z0-9])", re.IGNORECASE)


# What a word's ending adds to it ("emails", "booked", "cancelling"): the word, not a slip.
_INFLECTED = rx("|".join((*WORD_ENDINGS, "'s")))


def _put_right(match: re.Match[str]) -> str:
    typed = match.group(0)
    word = typed.lower()
    right = MISSPELT.get(word) or _CORRECTOR.correct(word)
    if right == word or (_INFLECTED.fullmatch(word[len(right) :]) and word.startswith(right)):
        # "emails" is "email" to the grammar, but the customer's own word in a title
        return typed
    return right.capitalize() if typed[0].isupper() else right


# Shorthand said between words of two letters or more: "n" and "u" are letters alone when
# spelled out ("j o h n"), and words only among words.
_SHORT = rx(
    r"(?:(?<=[a-z]{2} )|(?<=[.,!?;] )|^)(?:n|u|&)(?= [a-z]{2}| n [a-z]{2}|$)|^k(?= )"
    r"|(?<![\w@.'-])(?:b4|appts?|pls|plz|tmrw?|2moro|2morrow|2day|2nite)\b",
    re.IGNORECASE,
)


# A chat's "ok": a thumbs up (any skin tone), an OK hand, a tick.
_THUMBS_UP = re.compile(
    "(?:\U0001f44d|\U0001f44c|\U0001f197|\u2705|\u2714)[\U0001f3fb-\U0001f3ff\ufe0f]?"
)


# "can you remind me the address", "remind me of the time again": a detail asked for, as
# "what's the address" is (it was a to-do titled "The address"). "Remind me the day before
# to…" is a to-do, and stays one.
_REMIND_ME_OF = rx(
    r"\b(?:(?:can|could|would) you (?:please )?)?remind me (?:again )?(?:of |what )?(?:the|my) "
    r"(?=(?:address|location|place|time|date|day|number|name|amount|balance|price|details?"
    r"|email|phone)\b(?! before| after))"
)


def spelt_right(text: str) -> str:
    """`text` with each word misspelt in a hurry ("cancle my apointment tommorow, soz")
    written as the word meant, in the customer's case: only the words the grammar keys on
    (the vocabulary, lexicon.py) and the misspellings no other word could be (spelling.py);
    any other word is left as typed."""
    if " " in text and (
        any(mark in text for mark in (" n ", "u", "&", "2", "b4", "ppt", "pl", "tmr"))
        or text[:2] in ("n ", "N ", "k ", "K ")
    ):
        for _ in range(2):  # "…on saturday n n what do i owe": the second after the first
            text = _SHORT.sub(lambda m: SHORTHAND[m.group(0).lower()], text)
    return _TYPED.sub(_put_right, text)


def _looks_like_phone(match: re.Match[str]) -> bool:
    """Ten digits, or a '+' and eight: not a date ("2025-03-15") nor an amount."""
    raw = match.group(0).strip()
    digits = sum(ch.isdigit() for ch in raw)
    if _ISO_DATE.fullmatch(raw):
        return False
    return digits >= 10 or (raw.startswith("+") and digits >= 8)


def _fix_word(match: re.Match[str]) -> str:
    word = match.group(0)
    if word in SLANG:
        return SLANG[word]
    if "-" in word or "'" in word or not word.isalpha():
        return word
    return _CORRECTOR.correct(word)


def _numbered(text: str) -> str:
    """ "1. mark the eye exam done 2. add a task…": each ask said after its number, read as
    asks one after another (the "1" was read as words of nothing, and said not caught).
    Only numbers counting up from 1, each before a word."""
    parts = re.split(r"(?:^|(?<=\s))(\d)\.\s+(?=[A-Za-z])", text.lstrip())
    if len(parts) < 5 or parts[0].strip():
        return text
    numbers, asks = parts[1::2], parts[2::2]
    if numbers != [str(n) for n in range(1, len(numbers) + 1)]:
        return text
    return ". ".join(ask.strip().rstrip(".;,") for ask in asks)


@lru_cache(maxsize=1024)
def normalize(text: str) -> Normalized:
    """Lower-case `text`, lift out emails and phones, expand slang, fix small typos.

    Spoken forms ("john dot smith at example dot com", "four one five…", "Tuesday,
    sorry, Wednesday") are written out first (spoken.py), after a recogniser's fillers,
    restarts and misheard words are taken out (transcript.py).
    """
    original = text
    if not text.isascii() and _THUMBS_UP.search(text):
        # "👍" to "Are you sure…?" is a yes; beside a sentence of its own ("groceries done
        # ✔", "✅ car insurance renewed") it marks that sentence, which says what it means
        # (read as "ok", it made "groceries done" a yes with nothing waiting).
        rest = _THUMBS_UP.sub(" ", text)
        text = rest if len(rest.split()) >= 2 else _THUMBS_UP.sub(" ok ", text)
    if text.lstrip()[:2] == "1." and " 2." in text:
        text = _numbered(text)
    text = written(plain(text.translate(_QUOTES)))
    emails = (
        tuple(
            match.group(0)
            for match in EMAIL_IN_TEXT.finditer(text)
            if mail_can_reach(match.group(0))
        )
        if "@" in text
        else ()
    )
    for index, email in enumerate(emails):
        text = text.replace(email, f" {EMAIL_TOKEN}{index} ", 1)
    phones = tuple(
        match.group(0).strip() for match in _PHONE.finditer(text) if _looks_like_phone(match)
    )
    for index, phone in enumerate(phones):
        text = text.replace(phone, f" {PHONE_TOKEN}{index} ", 1)
    text = without_thanks(text.lower())
    text = _WRITTEN_OUT.sub(lambda m: _CONTRACTED[m.group(0)], text)
    text = _MERIDIEM.sub(lambda m: f"{m.group(1)}m", text)
    if any(short in text for short in _SHORT_DAYS):
        text = _short_day(text)
    for pattern, replacement in _SYMBOLS:
        text = pattern.sub(replacement, text)
    text = _WORD.sub(_fix_word, text)
    if "remind me" in text:
        text = _REMIND_ME_OF.sub("what's the ", text)
    text = _SPACES.sub(" ", text).strip()
    return Normalized(original=original, text=text, emails=emails, phones=phones)


def _token_words(token: str) -> list[str]:
    """One original token as normalize() reads it (slang may make it two words)."""
    lowered = _MERIDIEM.sub(lambda m: f"{m.group(1)}m", plain(token).lower())
    return _WORD.sub(_fix_word, lowered).strip(' ,.;:!?"()').split()


def restore_case(fragment: str, original: str) -> str:
    """`fragment` (from the normalized text) in the customer's own words and case.

    A plain search finds most fragments; when slang or a corrected typo changed the
    words, the original tokens are walked in step with the fragment's words instead,
    so "send the signed contract" keeps "contract" even if a vocabulary word is near.
    """
    fragment = fragment.strip()
    if not fragment:
        return fragment
    translated = original.translate(_QUOTES)
    lowered = translated.lower()
    start = lowered.find(fragment)
    while start >= 0:
        # Whole words only: "delete old email" (a typo fix of "emails") is not the start
        # of "delete old emails"; the walk below gives the customer's own word back.
        end = start + len(fragment)
        if not (start and lowered[start - 1].isalnum()) and not (
            end < len(lowered) and lowered[end].isalnum()
        ):
            return translated[start:end]
        start = lowered.find(fragment, start + 1)
    # Punctuation is compared without, as _token_words reads the original's tokens.
    wanted = [word for word in (w.strip(' ,.;:!?"()') for w in fragment.split()) if word]
    tokens = list(re.finditer(r"\S+", translated))
    for first in range(len(tokens)):
        matched, index, dropped = 0, first, []
        while matched < len(wanted) and index < len(tokens):
            words = _token_words(tokens[index].group(0))
            if not words and matched:
                # A filler ("buy uh flowers") the normalized text does not have.
                dropped.append(index)
                index += 1
                continue
            if not words or wanted[matched : matched + len(words)] != words:
                break
            matched += len(words)
            index += 1
        if matched == len(wanted):
            kept = [tokens[i].group(0) for i in range(first, index) if i not in dropped]
            return " ".join(kept).rstrip(" ,.;:!?")
    return fragment
