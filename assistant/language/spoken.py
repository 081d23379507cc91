"""What speech-to-text makes of a request: spelled-out addresses, digits, corrections.

A phone transcript says "john dot smith at example dot com", "four one five, five five
five, zero one nine nine" and "tomorrow's... sorry, Monday's". These are rewritten into
the written forms the rest of the grammar reads ("john.smith@example.com",
"4155550199", "Monday's") before anything else looks at the message.
"""

from __future__ import annotations

import re

from assistant.language.lexicon import HOUR_WORDS
from assistant.language.patterns import rx

_DIGITS = {
    "zero": "0",
    "oh": "0",
    "o": "0",  # "five five five o one nine nine"
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS: tuple[str, ...] = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")
_TEENS += ("sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
# A group read as one number: "four fifteen", "oh one twenty three".
_GROUPS = {word: str(n) for n, word in enumerate(_TEENS, 10)}
_GROUPS.update({word: str(n) for n, word in zip(range(20, 100, 10), _TENS, strict=True)})
_DIGIT_WORD = (
    rf"(?:zero|oh|o(?!['’])|{'|'.join(_UNITS)}|\d{{1,4}}"
    rf"|(?:{'|'.join(_GROUPS)})(?: (?:{'|'.join(_UNITS)})\b)?)"
)
# "double five", "triple zero": how people read out repeated digits.
_DIGIT_TOKEN = rf"(?:(?:double|triple) )?{_DIGIT_WORD}"
# (Three tokens at least: "415 555 oh one four two" holds its ten digits in six tokens;
# a run of fewer than seven digits is left as said, see _spoken_digits.)
_DIGIT_RUN = rx(rf"\b(?:plus )?{_DIGIT_TOKEN}(?:[ ,.-]+{_DIGIT_TOKEN}){{2,}}\b", re.IGNORECASE)
# Fewer than seven digits is a time, a date or a count ("two two-thirty"), not a number.
_MIN_PHONE_DIGITS = 7

_TLD = r"(?:com|org|net|edu|gov|io|co|us|uk|ca|de|fr|es|it|nl|au|info|biz|me|app|dev)"
_DOT = r"(?: dot |\.)"
# Written separators (".", "_", "-") are part of a word, spoken ones stand apart: no
# string can be read two ways, so a near miss ("a-a-a-… at nothing") fails fast.
# A part may be spelled out letter by letter ("j o h n"), read from its first letter.
# Not from the s of "it's" on ("it's m a r y a dot …" is marya, not smarya).
_PART = r"(?:(?<!(?<!['’])\b[a-z0-9] )(?<!['’])(?:[a-z0-9] )+[a-z0-9]\b|[a-z0-9_%+.-]+)"
# "m garcia at icloud dot com", "maria at garcia home dot com": an initial said before the
# name is the address's first letter, and a domain said in two words is one word (no
# address holds a space; the initial alone was dropped, "garcia home" unread).
_INITIAL = r"(?<!['’])\b(?![ai]\b)[a-z] [a-z]{2,}\b"
_DOMAIN_WORD = r"[a-z0-9-]+(?: (?!(?:dot|the|my|a|an|at|and|or)\b)[a-z0-9-]+)?"
# "maria g at gmail dot com": an initial said after the name is its last letter (only the
# initial was taken, "g@gmail.com" written). Not after a word of the sentence ("to g at…").
_TRAILING_INITIAL = (
    r"(?<!['’])\b(?!(?:is|it|its|me|to|was|now|new|my|be|email|address|mail|one|mine|that"
    r"|change|update|use|at|dot|and|or|the|of|for|on|in|from|sorry|no|mean|meant|actually"
    r"|wait|rather|so|yes|yeah|ok|okay|an)\b)[a-z]{2,} (?![ai]\b)[a-z]\b"
)
_SPOKEN_EMAIL = rx(
    rf"\b(?P<local>(?:{_INITIAL}|{_TRAILING_INITIAL}|{_PART})"
    rf"(?:(?: dot | underscore | dash | hyphen ){_PART})*)"
    rf" at (?P<domain>{_DOMAIN_WORD}(?:{_DOT}[a-z0-9-]+)*{_DOT}{_TLD})\b",
    re.IGNORECASE,
)
_SEPARATORS = {" dot ": ".", " underscore ": "_", " dash ": "-", " hyphen ": "-"}

# "tomorrow's... sorry, Monday's": the word before the marker is taken back. A word is
# a whole token, so "…@yahoo.com no wait …@hotmail.com" takes back the whole address.
_STRONG = (
    r"(?:no,? )?sorry,? (?:no,? )?i mean(?:t)?|(?:no,? )?i mean(?:t)?|no wait|wait no"
    r"|or rather|correction|(?:no,? )?sorry(?:,? no)?"
)
# Words that may also just be talk ("I actually need…", "hang on a sec"): they take a
# word back only when the next one is of the same kind ("at 10 no hang on 11", "on the
# 20th actually the 22nd", "thursday actually friday", a bare "at two no three").
_WEAK = r"no,? hang on|hang on|no,? hold on|hold on|no,? actually|actually|no"
_REPAIR = rx(
    r"(?<![a-z0-9':@._+-])(?P<bad>\+?[a-z0-9'][a-z0-9':@._+-]*?)"
    r"(?:\s*(?:\.\.\.|…|,|--?)\s*|\s+)"
    rf"(?:(?P<strong>{_STRONG})(?:,? actually)?|(?P<weak>{_WEAK}))"
    r"(?:\s*[,:]\s*|\s+)(?P<article>the )?(?P<next>[a-z0-9]\S*)",
    re.IGNORECASE,
)
# "on sunday the 20th actually tuesday the 22nd": a day said with its date, taken back by
# another day said with its date (the weak marks take back one word of the same kind).
_WEEKDAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_DATED_DAY_REPAIR = rx(
    rf"\b(?:{_WEEKDAY}),? the \d{{1,2}}(?:st|nd|rd|th)(?:\s*(?:\.\.\.|…|,|--?)\s*|\s+)"
    rf"(?:{_STRONG}|{_WEAK})(?:,? actually)?(?:\s*[,:]\s*|\s+)"
    rf"(?P<day>{_WEEKDAY}),? the (?P<date>\d{{1,2}}(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
_MARKER = rx(
    r"\b(?:sorry|i mean|no wait|wait no|or rather|correction|hang on|hold on|actually|no"
    r"|make that|make it)\b",
    re.IGNORECASE,
)
# "sorry to bother you", "sorry I missed it": an apology, not a correction; "…wait no,
# actually don't": the whole ask is taken back (confirm.taken_back), not one word of it.
_APOLOGY_NEXT = frozenset({"to", "about", "for", "if", "but", "i", "i'm", "im", "that", "again"})
_TAKING_BACK_NEXT = frozenset(
    {"don't", "dont", "do", "never", "nevermind", "forget", "scratch", "leave", "not", "hold"}
)
_DAY_WORDS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tomorrow",
        "tonight",
    ]
)
_NUMBER_WORDS = frozenset([*HOUR_WORDS, "noon", "midnight"])


def _kind(word: str) -> str | None:
    """What a word names, for the weak markers: a day, a number or time, an address."""
    # "monday's" is a day; stripping "'s" as characters made "saturday" "aturday".
    word = word.lower().strip(",.;:!?").removesuffix("'s")
    if "@" in word:
        return "address"
    if word in _DAY_WORDS:
        return "day"
    if word[:1].isdigit() or word in _NUMBER_WORDS:
        return "number"
    return None


_RUN_WORDS = frozenset(_DIGITS) | frozenset(_GROUPS)
_LEAST_RUN_TOKENS = 7  # _DIGIT_RUN: seven digits, each said or a group's
_RUN_TOKEN = re.compile(r"[a-z0-9]+")


def _may_hold_digit_run(text: str) -> bool:
    """Seven number words or digit groups at least: the run's pattern is dear to try
    (most messages hold none), and each of its tokens holds one of these."""
    found = 0
    for word in _RUN_TOKEN.findall(text.lower()):
        if word in _RUN_WORDS or word.isdigit():
            found += len(word) if word.isdigit() else 1  # "415" is three digits said
            if found >= _LEAST_RUN_TOKENS:
                return True
    return False


def _spoken_digits(match: re.Match[str]) -> str:
    raw = match.group(0).lower()
    if not any(word in raw for word in _DIGITS):
        return match.group(0)  # written digits: the phone reader already knows them
    out = "+" if raw.startswith("plus") else ""
    repeat = 1
    tokens = re.findall(r"[a-z]+|\d+", raw)
    for index, token in enumerate(tokens):
        if token in ("double", "triple"):
            repeat = 2 if token == "double" else 3
        elif token in _GROUPS:
            # "twenty three" is 23: the unit after a tens word belongs to it.
            out += _GROUPS[token]
            if token in _TENS and index + 1 < len(tokens) and tokens[index + 1] in _DIGITS:
                out = out[:-1]
        elif token != "plus":
            out += (_DIGITS.get(token) or token) * repeat
            repeat = 1
    if sum(ch.isdigit() for ch in out) < _MIN_PHONE_DIGITS or not out.strip("+").isdigit():
        return match.group(0)
    return f" {out} "


# "my email is at gmail.com", "send it to me at …": the word before "at" is talk, not an
# address's local part (it made "is@gmail.com", offered as the new email).
_NOT_LOCAL = frozenset(
    {"is", "it", "me", "to", "was", "email", "address", "one", "mine", "now", "be", "that"}
    # "…at gmail dot com sorry at yahoo dot com": a correction of the domain, no address
    # of its own (it was "sorry@yahoo.com", offered as the new email)
    | {"sorry", "wait", "actually", "meant", "mean", "rather", "correction", "no"}
)


# Words a sentence says before an address ("change it to …", "it's …", "please use …").
_BEFORE_AN_ADDRESS = frozenset(
    {
        "is",
        "it",
        "its",
        "it's",
        "me",
        "to",
        "was",
        "now",
        "new",
        "my",
        "be",
        "email",
        "e-mail",
        "address",
        "mail",
        "one",
        "mine",
        "that",
        "change",
        "update",
        "use",
        "at",
        "and",
        "or",
        "the",
        "of",
        "for",
        "on",
        "in",
        "from",
        "sorry",
        "no",
        "mean",
        "meant",
        "actually",
        "wait",
        "rather",
        "so",
        "yes",
        "yeah",
        "ok",
        "okay",
        "an",
        "please",
        "thanks",
        "just",
        "also",
        "here",
        "try",
        "set",
        "put",
        "make",
        "as",
        "with",
        "um",
        "uh",
        "er",
        "oh",
        "hi",
        "hello",
        "hey",
        "should",
        "would",
        "instead",
        "correct",
        "right",
        "like",
        "then",
        "into",
        "via",
        "say",
        "says",
        "reads",
    }
)
_WORD_BEFORE = rx(r"(?:^|[\s,:;(\"'])(?P<w>[a-z][a-z'-]*)\s+$")


def _spoken_email(match: re.Match[str]) -> str:
    local, domain = match.group("local"), match.group("domain")
    if local.lower() in _NOT_LOCAL:
        return match.group(0)
    if (
        local.isalpha()
        and (before := _WORD_BEFORE.search(match.string, 0, match.start())) is not None
        and before.group("w").lower() not in _BEFORE_AN_ADDRESS
    ):
        # "change my email to mary jones at gmail dot com": two words before the "at", as
        # no address is written (it was "jones@gmail.com", the first one dropped); which
        # address is meant is asked, not guessed
        return match.group(0)
    for spoken, written in _SEPARATORS.items():
        local = local.replace(spoken, written)
        domain = domain.replace(spoken, written)
    return f"{local}@{domain}".replace(" ", "")


def _repair(match: re.Match[str]) -> str:
    bad, following = match.group("bad"), match.group("next")
    if following.lower().strip(",.") in _APOLOGY_NEXT | _TAKING_BACK_NEXT:
        return match.group(0)
    if match.group("weak") and (_kind(bad) is None or _kind(bad) != _kind(following)):
        return match.group(0)
    # "the 20th actually the 22nd": the article said again is not said twice.
    before = match.string[: match.start()].lower()
    article = "" if before.endswith("the ") else (match.group("article") or "")
    return article + following


# "maria.lopez @ gmail.com": an address typed with spaces round its @ is one address.
_SPACED_AT = rx(rf"(?<=[a-z0-9_])\s+@\s*(?=[a-z0-9-]+(?:\.[a-z0-9-]+)*\.{_TLD}\b)", re.IGNORECASE)
# "…@gmial.com, sorry, gmail.com": the domain said again replaces the address's domain;
# said aloud too ("…at outlook dot com, no sorry, at hotmail dot com": was the whole
# address taken back, and the domain alone no address).
_DOMAIN_REPAIR = rx(
    rf"(?P<local>[a-z0-9_%+.-]+)@[a-z0-9.-]+\.{_TLD}(?:\s*(?:\.\.\.|…|,|--?)\s*|\s+)"
    rf"(?:{_STRONG}|{_WEAK})(?:\s*[,:]\s*|\s+)(?:@|at )?"
    rf"(?P<domain>[a-z0-9-]+(?:{_DOT}[a-z0-9-]+)*{_DOT}{_TLD})\b(?!@| at )",
    re.IGNORECASE,
)


def _domain_repair(match: re.Match[str]) -> str:
    return f"{match.group('local')}@{match.group('domain').replace(' dot ', '.')}"


# "…at gmail dot com, no, hotmail": a mail provider said alone after the address puts
# right its name, the ending kept (the correction was not heard: the address taken back
# was offered).
_PROVIDER_REPAIR = rx(
    rf"(?P<local>[a-z0-9_%+.-]+)@[a-z0-9-]+(?P<end>(?:\.[a-z0-9-]+)*\.{_TLD})"
    rf"(?:\s*(?:\.\.\.|…|,|--?)\s*|\s+)(?:{_STRONG}|{_WEAK})(?:\s*[,:]\s*|\s+)(?:at |@)?"
    r"(?P<new>gmail|googlemail|hotmail|yahoo|outlook|icloud|aol|protonmail|comcast)"
    r"\b(?!\.| dot | at |@)",
    re.IGNORECASE,
)


# "maria, m-a-r-i-a, underscore garcia at …": a word spelled out after it is said once;
# a word spelled with dashes is its letters; a pause before a spoken separator is none.
_SPELLED_AGAIN = rx(
    r"\b(?P<word>[a-z]{2,})?(?:[,:]?\s+(?:that's |that is |spelled |spelt )?)"
    r"(?P<letters>(?:[a-z]-){2,}[a-z])\b,?(?=\s)",
    re.IGNORECASE,
)
_PAUSED_SEPARATOR = rx(r",\s+(?=(?:underscore|dot|dash|hyphen) [a-z0-9])", re.IGNORECASE)


def _spelled_again(match: re.Match[str]) -> str:
    letters = match.group("letters").replace("-", "")
    word = match.group("word")
    if word is None:
        return f" {letters}"
    if word.lower() == letters.lower():
        return word
    return f"{word} {letters}"


def written(text: str) -> str:
    """`text` with spoken addresses and digit runs written out, corrections applied."""
    if "@" in text:
        text = _SPACED_AT.sub("@", text)
    if " at " in text.lower():
        if "-" in text:
            text = _SPELLED_AGAIN.sub(_spelled_again, text)
        if "," in text:
            text = _PAUSED_SEPARATOR.sub(" ", text)
        if " dot " in text.lower():
            text = _EMAIL_NUMBER.sub(_email_number, text)
        text = _SPOKEN_EMAIL.sub(_spoken_email, text)
    if _may_hold_digit_run(text):
        text = _DIGIT_RUN.sub(_spoken_digits, text)
    if _MARKER.search(text) is None:
        return text
    # "415 555 0123, sorry, 415 555 0132": the whole number is taken back, not its last group.
    text = _GROUPED_NUMBER.sub(_one_token, text)
    text = _TAIL_REPAIR.sub(_tail_repair, text)
    text = _DOMAIN_REPAIR.sub(_domain_repair, text)
    if "@" in text:
        text = _PROVIDER_REPAIR.sub(r"\g<local>@\g<new>\g<end>", text)
    text = _echo_repair(text)
    if " the " in text:
        text = _DATED_DAY_REPAIR.sub(r"\g<day> the \g<date>", text)
    return _REPAIR.sub(_repair, text)


# A number written in groups ("415 555 0123", "+1 (415) 555-0123"), seven digits or more.
_GROUPED_NUMBER = rx(r"(?<![\w:/])\+?\(?\d{1,4}\)?(?:[ .-]+\(?\d{2,4}\)?){2,}(?![\w:])")


def _one_token(match: re.Match[str]) -> str:
    number = match.group(0)
    if sum(ch.isdigit() for ch in number) < _MIN_PHONE_DIGITS:
        return number
    return re.sub(r"[ ().-]", "", number)


# "415 555 0144, no wait, 0147": the digits said after the marker replace as many of the
# number's last ones (the whole number said again is taken back by _REPAIR). The tail ends
# the sentence or a clause, so "…0144, sorry, 2 more things" is not read as a correction.
# Said after a pause or none, a full stop written where none was heard ("…0178. no sorry
# 0187"), and with "make that" or "oops, I mean" ("…0190 actually make that 0199").
_TAIL_MARK = (
    rf"(?:(?:oops|whoops|actually|sorry),? )?(?:make (?:it|that)|i mean(?:t)?)|{_STRONG}|{_WEAK}"
)
_TAIL_REPAIR = rx(
    rf"(?P<number>\+?\d{{7,}})(?:\s*(?:\.\.\.|…|[.,]|--?)\s*|\s+)(?:{_TAIL_MARK})"
    rf"(?:\s*[,:]\s*|\s+)(?P<tail>{_DIGIT_TOKEN}(?:[ ,.-]+{_DIGIT_TOKEN}){{0,5}})"
    r"(?=\s*(?:[.,!?;]|$|(?:please|thanks|thank you|instead|and|that's|thats|yes)\b))",
    re.IGNORECASE,
)


def _tail_repair(match: re.Match[str]) -> str:
    number, tail = match.group("number"), ""
    repeat = 1
    for token in re.findall(r"[a-z]+|\d+", match.group("tail").lower()):
        if token in ("double", "triple"):
            repeat = 2 if token == "double" else 3
        else:
            tail += (_DIGITS.get(token) or token) * repeat
            repeat = 1
    if not 2 <= len(tail) < sum(ch.isdigit() for ch in number):
        return match.group(0)
    return number[: len(number) - len(tail)] + tail


# "j dot lee eighty one at yahoo dot com": a number said in words inside an address is
# written in digits and joined to the word before it ("j.lee81@yahoo.com"), as the
# address would have been typed; otherwise only its last word would be the address.
_NUMBER_WORD = rf"(?:zero|oh|{'|'.join(_UNITS + _TEENS + _TENS)})"
_EMAIL_NUMBER = rx(
    rf"\b(?P<word>[a-z0-9]+)(?P<number>(?: {_NUMBER_WORD})+| \d{{1,4}})"
    rf"(?= (?:dot |underscore )?[a-z0-9]*(?: dot [a-z0-9]+)* ?at [a-z0-9-]+(?: dot |\.){_TLD}\b)",
    re.IGNORECASE,
)


def _number_digits(words: list[str]) -> str:
    digits = ""
    index = 0
    while index < len(words):
        word = words[index]
        if word in _TENS:
            tens = (_TENS.index(word) + 2) * 10
            if index + 1 < len(words) and words[index + 1] in _UNITS:
                index += 1
                tens += _UNITS.index(words[index]) + 1
            digits += str(tens)
        elif word in _TEENS:
            digits += str(_TEENS.index(word) + 10)
        elif word.isdigit():  # "mary dash jones 99 at …": digits typed, joined as said
            digits += word
        else:
            digits += _DIGITS[word]
        index += 1
    return digits


# Words no number said in an address is joined to ("mary underscore 99": mary_99).
_NOT_BEFORE_A_NUMBER = frozenset(
    {"at", "dot", "is", "to", "email", "address", "underscore", "dash", "hyphen"}
)


def _email_number(match: re.Match[str]) -> str:
    word = match.group("word")
    if word.lower() in _NOT_BEFORE_A_NUMBER:
        return match.group(0)
    return word + _number_digits(match.group("number").lower().split())


# "an hour earlier, no wait, two hours earlier", "the car insurance one sorry the groceries
# one": a correction that ends on the word the words taken back end on replaces as many of
# them as it has (not only the last one). "tomorrow no sorry the day after" is the day
# after the one taken back.
_STRONG_MARK = rx(
    rf"(?:\s*(?:\.\.\.|…|,|--?)\s*|\s+)(?:{_STRONG})(?:,? actually)?(?:\s*[,:]\s*|\s+)",
    re.IGNORECASE,
)
_ARTICLES = frozenset({"the", "a", "an", "my"})
_LEADS = frozenset({"to", "at", "on", "for", "by", "from", "until", "till", "before", "after"})
_LONGEST_ECHO = 6
_DAY_AFTER = {"today": "tomorrow", "tomorrow": "the day after tomorrow"}


def _echo_repair(text: str) -> str:
    mark = _STRONG_MARK.search(text)
    if mark is None:
        return text
    before = text[: mark.start()].split()
    after = text[mark.end() :].split()
    if not before or not after:
        return text
    last = before[-1].lower().strip(",.")
    day_after = " ".join(after[:3]).lower().strip(",.") == "the day after"
    if day_after and last in _DAY_AFTER and (len(after) == 3 or after[3] not in _DAY_AFTER):
        return " ".join([*before[:-1], _DAY_AFTER[last], *after[3:]])
    lead = after[0].lower()
    if lead in _LEADS and len(after) > 1 and lead in (w.lower() for w in before[-4:]):
        # "to tomorrow no wait to wednesday", "at 10 sorry at 11": from the same little
        # word on, when what follows it is of the same kind (not "to move it, sorry to…").
        at = len(before) - 1 - [w.lower() for w in before][::-1].index(lead)
        said = before[at + 1] if at + 1 < len(before) else ""
        if _kind(said) is not None and _kind(said) == _kind(after[1]):
            return " ".join([*before[:at], *after])
    for size in range(2, min(_LONGEST_ECHO, len(after), len(before)) + 1):
        if after[size - 1].lower().strip(",.") != last:
            continue
        kept = before[:-size]
        if kept and after[0].lower() in _ARTICLES and kept[-1].lower() == after[0].lower():
            kept = kept[:-1]  # "the car insurance one … the groceries one": "the" said once
        return " ".join([*kept, *after])
    return text
