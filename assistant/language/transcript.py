"""A speech transcript made plain: fillers, restarts, split and misheard words, ordinals,
"uh huh", and questions asked the long way round ("can you tell me when X is due").

A caller's words reach us through a speech recogniser (Twilio ConversationRelay, Vapi,
Retell…), and read differently from typed chat: "um can you can you move my uh my
haircut two saturday", "remind me to call my mom to morrow", "book it for the twenty
second at for p m". This is the one step, at the front of the reading, that turns them
into what a typist would have written ("can you move my haircut to saturday", "…
tomorrow", "… the 22nd at four p m"), so that no rule downstream has to know about them.

Only what cannot be meant otherwise is rewritten: a number word is never taken for a
restart ("five five five"), "two" becomes "to" only before a verb or a day ("two
saturdays" stays), "like" and "you know" only where they carry nothing ("i'd like a
haircut", "do you know…" keep theirs), and "oh" is only a filler away from digits ("four
one oh five" is a phone number).
"""

from __future__ import annotations

import operator
import re

from assistant.language.heard_forms import as_heard
from assistant.language.heard_numbers import heard_as_said
from assistant.language.lexicon import HOUR_WORDS, NUMBER_WORDS, ORDINAL_WORDS, WEEKDAYS
from assistant.language.patterns import GatedPattern, rx
from assistant.language.read_once import read_once
from assistant.language.said_numbers import in_digits

# "uh huh", "mm hmm": a yes said without words; "uh-uh", "nuh uh": a no. Rewritten before
# the fillers go, which would otherwise leave a bare "huh".
_SPOKEN_YES = rx(r"\b(?:uh[- ]huh|mm[- ]?hmm|mhm+|mm[- ]?hm)\b", re.IGNORECASE)
_SPOKEN_NO = rx(r"\b(?:uh-uh|nuh[- ]uh)\b|^\s*uh uh\W*$", re.IGNORECASE)
_FILLER = rx(
    r"(?:^|(?<=[\s,.]))(?:u+m+|u+h+m*|e+r+m*|a+h+|h?m{2,}|hm+|e+h)(?:[\s,.!?]+|$)", re.IGNORECASE
)
# "oh and", "oh wait": a filler, unless it stands among digits ("four one oh five").
_DIGIT_WORDS = frozenset({"zero", "oh", *HOUR_WORDS[:9], "double", "triple"})
_OH = rx(r"\boh\b[,.]?\s*", re.IGNORECASE)
# "can i get like a checkup on friday at like ten": "like" before what it would measure.
# After these words it is a verb or a comparison ("i'd like a", "looks like the").
_LIKE = rx(
    r"\blike,?\s+(?=(?:a|an|the|really|just|maybe|next|this|tomorrow|today|so|very|super"
    r"|totally|pretty|literally|completely|\d+|"
    + "|".join(sorted({*WEEKDAYS, *(w for w in NUMBER_WORDS if w.isalpha() and len(w) > 2)}))
    + r")\b)",
    re.IGNORECASE,
)
_LIKE_KEPT_AFTER = frozenset(
    [
        "i",
        "i'd",
        "id",
        "we",
        "we'd",
        "you",
        "you'd",
        "they",
        "they'd",
        "he",
        "she",
        "would",
        "'d",
        "do",
        "don't",
        "dont",
        "did",
        "didn't",
        "didnt",
        "does",
        "doesn't",
        "feel",
        "feels",
        "look",
        "looks",
        "looked",
        "seem",
        "seems",
        "sound",
        "sounds",
        "something",
        "anything",
        "nothing",
        "more",
        "less",
        "just",
        "much",
        "not",
        "also",
        "really",
    ]
)
# "add a task called like call grandma": "like" after a word that introduces a quote.
_LIKE_QUOTING = rx(r"\b(called|named|titled|saying|says|to say) like\b", re.IGNORECASE)
# "…last time you know it's not okay": "you know" that asks nothing.
# ("you know what, make that 9:45": the whole opener, or "what" would be left to ask)
_YOU_KNOW = rx(
    r"(?:,\s*)?\byou know\b(?: what\b(?=,?\s+(?!(?:is|was|are|i|you|it|that|the|my)\b)\w))?"
    r"(?:,\s*|\s*$)?",
    re.IGNORECASE,
)
_YOU_KNOW_KEPT_AFTER = frozenset(
    [
        "do",
        "did",
        "does",
        "don't",
        "dont",
        "didn't",
        "if",
        "would",
        "will",
        "let",
        "whether",
        "how",
        "what",
        "when",
        "as",
    ]
)
_SPACES = rx(r"[ \t]{2,}")
# A contraction whose apostrophe a recogniser dropped ("whats", "thats", "youre", "dont"):
# written with it, as typed, so that every rule (those reading the words as said too)
# reads it. Not "its", "ill", "id", "well", "were", "lets": words of their own, except
# where the word could not stand ("ill" before a verb, "id" before "like", "its" before
# what no thing is: "its due date", "its title" stay).
_APOSTROPHE_DROPPED = {
    word.replace("'", ""): word
    for word in [
        "what's",
        "when's",
        "where's",
        "how's",
        "who's",
        "that's",
        "there's",
        "you're",
        "you've",
        "they're",
        "we've",
        "i'm",
        "i've",
        "don't",
        "doesn't",
        "didn't",
        "can't",
        "won't",
        "isn't",
        "aren't",
        "wasn't",
        "haven't",
        "hasn't",
        "couldn't",
        "wouldn't",
        "shouldn't",
    ]
}
_APOSTROPHE_GATE = frozenset({*_APOSTROPHE_DROPPED, "ill", "id", "its"})
_DROPPED_WORD = rx(r"\b(" + "|".join(_APOSTROPHE_DROPPED) + r")\b", re.IGNORECASE)
_DROPPED_BEFORE = rx(
    r"\b(ill)(?= (?:be|do|need|have|call|come|pay|probably|just|try|check|take|get|see|let"
    r"|make|book|wait|send|bring|go|keep|stop|give|ring|email|text|look)\b)"
    r"|\b(id)(?= (?:like|love|rather|prefer|want|need|be)\b)"
    r"|\b(its)(?= (?:not|been|just|still|already|too|so|very|really|a|an|the|my|your|on|at"
    r"|in|for|from|fine|ok|okay|going|gonna|done|booked|cancelled|paid|overdue|urgent"
    r"|important|time|due(?! date)|over|m|me|maria)\b)",
    re.IGNORECASE,
)
# "can you can you move my my haircut": a run of one to three words said again at once.
_RESTART = rx(r"\b([a-z']+(?: [a-z']+){0,2})(?:,? \1\b)+", re.IGNORECASE)
# Words a recogniser hears for others, only where nothing else could be meant: "my dennis
# appointment", "the dennis thing" (a dentist named by the kind of visit, never "call
# dennis"); "tomorrows schedule" (the apostrophe dropped).
_MISHEARD = (
    (
        rx(
            r"\bdennis(?= (?:appointment|appt|thing|one|visit|booking|cleaning|office)\b)",
            re.IGNORECASE,
        ),
        "dentist",
    ),
    (rx(r"\b(tomorrow|today|yesterday)s\b", re.IGNORECASE), r"\1's"),
    # "anything on tomorrow's schedule": that day's visits ("schedule" is no booking here)
    (
        rx(r"\b(?:on |for )?(?:my )?(tomorrow|today)'?s (?:schedule|calendar|diary)\b", re.I),
        r"\1",
    ),
)
_MISHEARD_WORDS = frozenset({"dennis", "tomorrows", "todays", "yesterdays", "schedule", "calendar"})
# "mark the tax by groceries as done", "delete the eye exam tax": "task" heard as "tax",
# where a to-do is done, moved or dropped and nothing of a bill is said ("the tax forms",
# "do my taxes", "the tax on my invoice" keep theirs).
_TASK_HEARD_AS_TAX = rx(
    r"\b((?:the|our|my|that|this|a|an) (?:[a-z]+ ){0,3}?)tax\b(?!es\b|"
    r" (?:return|returns|forms?|documents?|papers?|refund|bill|receipts?|software|prep\w*"
    r"|id|number|credit|office|appointment|advisor|man|guy|lady|person|accountant)\b)",
    re.IGNORECASE,
)
_TASK_CUES = frozenset(
    {"mark", "done", "delete", "remove", "due", "priority", "finished", "complete", "tick"}
)
_BILL_CUES = ("invoice", "bill", "charge", "owe", "paid", "pay", "refund", "$", "dollar", "irs")
# "hold on honey im on the phone yes cancel it": what the caller says to someone in the
# room, which the recogniser heard too; only the rest is said to us ("i'm on the phone
# with my bank…" says who with, and is kept).
_ASIDE_IN_THE_ROOM = rx(
    r"(?:\b(?:hold on|hang on|one sec(?:ond)?|just a (?:sec|second|minute|moment)|not now"
    r"|wait)\b[ ,]*)?(?:\b(?:honey|sweetie|sweetheart|babe|baby|dear|darling|mom|dad|kids"
    r"|guys|hon)\b[ ,]*)?\b(?:i'?m|i am) on the phone\b(?! (?:with|to|for|about)\b)[ ,.!-]*",
    re.IGNORECASE,
)
# "can you open a ticket or something", "buy milk or whatever": a hedge said after an ask,
# which names nothing (it was a case titled "Or something").
_HEDGE = rx(
    r",? or (?:something|whatever|anything)(?: like that| along those lines)?"
    r"(?=\s*(?:$|[,.!?]|about\b|for\b|on\b|at\b|by\b|please\b|thanks\b))",
    re.IGNORECASE,
)
# Words an engine splits in two: "to morrow", "after noon", "three o clock".
_SPLIT = (
    (rx(r"\bto morrow\b", re.IGNORECASE), "tomorrow"),
    (rx(r"\bafter noon\b", re.IGNORECASE), "afternoon"),
    (rx(r"\bweek end\b", re.IGNORECASE), "weekend"),
    (rx(r"\bo clock\b", re.IGNORECASE), "o'clock"),
)
# "two"/"too" heard for "to": before a verb of the trade, or before a single day ("move
# my haircut two saturday"), unless a time is being given ("at two tomorrow").
_TO_VERBS = (
    "book|move|cancel|change|update|add|delete|remove|pay|reschedule|schedule|see|know"
    "|make|get|open|report|mark|push|bring|ask|talk|speak|file|create|close|switch|renew"
)
_TO_HEARD_AS_TWO = rx(
    rf"(?<!\bat )(?<!\bby )(?<!\bfor )(?<!\bat about )(?<!\baround )(?<!\buntil )"
    rf"(?<!\btill )(?<!\bfrom )(?<!\bbefore )(?<!\bafter )"
    # "half past two tomorrow", "quarter to two friday", British "half two": an hour.
    rf"(?<!\bpast )(?<!\bhalf )(?<!\bquarter to )(?<!\bten to )(?<!\btwenty to )"
    rf"\b(?:two|too) (?=(?:{_TO_VERBS}|{'|'.join(WEEKDAYS)}|tomorrow|today|tonight)\b)",
    re.IGNORECASE,
)
# "at for", "for p m": "four" heard as "for" where only a number can stand.
_FOUR_HEARD_AS_FOR = (
    (rx(r"\bat for\b", re.IGNORECASE), "at four"),
    (rx(r"\bfor ([ap])\.? ?m\b", re.IGNORECASE), r"4\1m"),
    (rx(r"\bfor (?=o'? ?clock\b)", re.IGNORECASE), "four "),
    # "a checkup tomorrow for thirty": an hour and its minutes, after a day said
    (
        rx(
            r"(?<=day |row |day,|row,) ?for (?=(?:thirty|fifteen|forty[ -]five)\b"
            r"(?! (?:minutes?|mins?|dollars?|bucks|days?|weeks?|people|percent)\b))",
            re.IGNORECASE,
        ),
        "at four ",
    ),
    # "move the haircut to for fifteen": a time moved to, its hour heard as "for" (the move
    # was asked when)
    (
        rx(
            r"(?<=\bto )for (?=(?:thirty|fifteen|forty[ -]five)\b"
            r"(?! (?:minutes?|mins?|dollars?|bucks|days?|weeks?|people|percent)\b))",
            re.IGNORECASE,
        ),
        "four ",
    ),
)
# "the twenty second", "the fifteenth": the 13th to the 31st are dates; the first to the
# twelfth are also the second of a list ("the second one"), and are left as they are.
_DATE_ORDINALS = {word: n for word, n in ORDINAL_WORDS.items() if n >= 13}
_ORDINAL = rx(
    r"\b("
    + "|".join(sorted((w.replace(" ", "[ -]") for w in _DATE_ORDINALS), key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)

# "for the twelfth at eleven", "to the seventh at nine", "by the tenth", "friday the
# eighth": the first to the twelfth as a day, where only a day stands (it was left as a
# word, the date unread, and "book a consultation for the twelfth at eleven" was booked
# for tomorrow at 11). After a weekday or a word of a deadline, any of them; after "for",
# "to", "on"… the sixth to the twelfth with an hour or nothing after them, the first to
# the fifth only with an hour ("move the second one to the first at 4pm"; "yes to the
# first, no to the second" and "move it to the second" are places in a list).
_EARLY_ORDINALS = {word: n for word, n in ORDINAL_WORDS.items() if n <= 12}
_FIRST_FEW = "first|second|third|fourth|fifth"
_LATER = "sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
_AN_HOUR = r" (?:at|around|about) \w| in the (?:morning|afternoon|evening)\b"
_EARLY_DAY = rx(
    r"\b(?:(?:by|until|till|due|(?:mon|tues|wednes|thurs|fri|satur|sun)day) the "
    rf"(?P<any>{_FIRST_FEW}|{_LATER})\b"
    # "the twelfth at nine", said alone as the answer to "when would you like it?": the
    # sixth to the twelfth opening the message, as after "on"
    rf"|(?:(?:on|for|to|before|after|from) |^\s*)the (?P<later>{_LATER})\b"
    rf"(?={_AN_HOUR}|\s*[,.?!]*\s*$| (?:and|then|please|instead|if)\b)"
    rf"|(?:on|for|to|before|after|from) the (?P<few>{_FIRST_FEW})\b(?={_AN_HOUR}))",
    re.IGNORECASE,
)


# "…to the tenth i mean the eleventh at two", "…the fifth sorry the sixth": a day of the
# month said, put right, and said again, both in words. Both are days (written in digits,
# as the repair then reads them): the tenth alone was left a word and the eleventh not
# read, so the haircut was moved to its own day at 2 ("sorry") or to the 10th ("actually").
# Not places in a list ("the first no the second one").
_ORDINAL_ALTERNATION = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))
_DAY_WORD_PUT_RIGHT = rx(
    rf"\bthe (?P<a>{_ORDINAL_ALTERNATION}),? (?P<cue>(?:no,? )?(?:sorry|i mean|i meant|actually"
    rf"|wait|or rather)|no),? the (?P<b>{_ORDINAL_ALTERNATION})\b"
    r"(?! (?:one|task|item|appointment)s?\b)",
    re.IGNORECASE,
)
_DAY_WORD_CUES = ("sorry", "mean", "actually", "wait", "rather", " no")


def _day_word_put_right(match: re.Match[str]) -> str:
    a, b = (ORDINAL_WORDS[match.group(name).lower()] for name in ("a", "b"))
    return f"the {a}{_suffix(a)} {match.group('cue')} the {b}{_suffix(b)}"


def _early_day(match: re.Match[str]) -> str:
    group = next(name for name in ("any", "later", "few") if match.group(name))
    n = _EARLY_ORDINALS[match.group(group).lower()]
    return f"{match.group(0)[: match.start(group) - match.start()]}{n}{_suffix(n)}"


def _suffix(n: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n // 10 != 1 else 0, "th")


def _ordinal(match: re.Match[str]) -> str:
    n = _DATE_ORDINALS[re.sub(r"[ -]", " ", match.group(1).lower())]
    return f"{n}{_suffix(n)}"


def _word_before(text: str, index: int) -> str:
    words = text[:index].rstrip(" ,").rsplit(None, 1)
    return words[-1].lower() if words else ""


def _word_after(text: str, index: int) -> str:
    words = text[index:].lstrip(" ,").split(None, 1)
    return words[0].lower().strip(",.!?") if words else ""


def _drop_oh(match: re.Match[str]) -> str:
    text = match.string
    around = (_word_before(text, match.start()), _word_after(text, match.end()))
    if any(word in _DIGIT_WORDS or word[:1].isdigit() for word in around):
        return match.group(0)
    return ""


def _drop_like(match: re.Match[str]) -> str:
    before = match.string[: match.start()].rstrip(" ")
    if _word_before(match.string, match.start()).strip(",") in _LIKE_KEPT_AFTER:
        return match.group(0)
    if before.endswith(",") and match.string[match.end() : match.end() + 1].isdigit():
        return match.group(0)  # "a bit later, like 11": an hour offered, read as such
    return ""


def _drop_you_know(match: re.Match[str]) -> str:
    if _word_before(match.string, match.start()).strip(",") in _YOU_KNOW_KEPT_AFTER:
        return match.group(0)
    # A clause follows ("you know it's not okay"), or the sentence ends: nothing asked.
    return " "


def _apostrophe(match: re.Match[str]) -> str:
    word = match.group(0)
    return f"{word[0]}'{word[1:]}" if word.lower() in ("ill", "id") else f"{word[:2]}'{word[2:]}"


def _with_case(said: str, word: str) -> str:
    """The contraction of `word` with the first letter as `said` ("Dont" → "Don't")."""
    written = _APOSTROPHE_DROPPED[word]
    return written[:1].upper() + written[1:] if said[:1].isupper() else written


def _said_once(match: re.Match[str]) -> str:
    words = match.group(1).lower().split()
    if all(word in _DIGIT_WORDS for word in words):
        return match.group(0)  # "five five five": digits said ("add two add two" is not)
    if any(len(word) == 1 and word not in ("i", "a") for word in words):
        return match.group(0)  # "a a r o n": letters said
    if words == ["a"] and _spelled_around(match):
        return match.group(0)  # "m a a r i a", "a a m": letters, not a restart
    if (
        words == ["next"]
        and match.group(0).lower() == "next next"
        and _WEEKDAY_NEXT.match(match.string, match.end())
    ):
        return match.group(0)  # "next next tuesday": the one after next tuesday
    return match.group(1)


_WEEKDAY_NEXT = re.compile(
    r" (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE
)


def _spelled_around(match: re.Match[str]) -> bool:
    """A single letter said right before or after the match: a word spelled out."""
    text = match.string
    before, after = _word_before(text, match.start()), _word_after(text, match.end())
    return len(before) == 1 or len(after) <= 1


# "can you tell me when the car insurance thing is due": the question asked the long way
# round, said as asked ("when is the car insurance thing due"). Only a question that ends
# on its verb and at most one word after it is turned; anything longer is left as said.
_INDIRECT = rx(
    r"^(?P<lead>(?:(?:so|and|hi|hello|yeah|okay|ok|um|uh|hey)\W+)*)"
    r"(?:(?:can|could|would) you (?:please )?(?:just )?tell me|do you know|do you happen to know"
    r"|i (?:want|wanna|would like|'d like|need) to know|i was wondering)\s+"
    r"(?P<wh>when|where|what time|what day|how much|how long|which|what)\s+"
    r"(?P<subject>(?:my|the|your|our|this|that|it)\b.*?)\s+(?P<verb>is|are|was|were)"
    r"(?P<tail>(?: [a-z']+)?)[?.!\s]*$",
    re.IGNORECASE,
)


def _direct(match: re.Match[str]) -> str:
    wh, verb, subject = match.group("wh"), match.group("verb"), match.group("subject")
    return f"{match.group('lead')}{wh} {verb} {subject}{match.group('tail')}"


# Cheap tests that let most messages skip a pattern: a decision reads many messages, and
# most typed ones have none of this (bench/decisions.py keeps the cost in view).
_FILLER_WORDS = frozenset(
    {"um", "umm", "ummm", "uh", "uhh", "uhhh", "uhm", "er", "err", "erm", "ah", "ahh", "hm"}
    | {"hmm", "hmmm", "mm", "mmm", "eh", "mhm", "huh"}
)
_WORDS = rx(r"[a-z']+")
# "…to the tenth um the eleventh at two", "…to thursday uh friday at ten": a day said, a
# filler, then another day with nothing joining them is the caller putting the day right
# (read as "…the tenth no the eleventh"; the filler gone, the first day was the one moved
# to, or no day was read at all). Days only: a filler between digits or hours may sit
# inside a number read out ("four one five um five five five…").
_A_DAY = (
    rf"(?:(?:the )?(?:{'|'.join(sorted(ORDINAL_WORDS, key=len, reverse=True))}"
    rf"|\d{{1,2}}(?:st|nd|rd|th))|{'|'.join(WEEKDAYS)}|today|tomorrow)"
)
_DAY_FILLER_DAY = rx(
    rf"\b(?P<day>{_A_DAY}) (?:u+m+|u+h+m*|e+r+m*|e+h)[,.]? (?:on )?(?={_A_DAY}\b)", re.IGNORECASE
)
# "…to the 10th the 11th at 2": two dates back to back, nothing joining them, are a date
# put right as the filler between them was dropped (the 10th was moved to).
_DATE_THEN_DATE = rx(r"\b(?P<day>the \d{1,2}(?:st|nd|rd|th)) (?=the \d{1,2}(?:st|nd|rd|th)\b)")
_SAID_ORDINAL = ("teenth", "twent", "thirt")


def _restarted(words: list[str]) -> bool:
    """Maybe one to three words said twice in a row: a word met again within three (a
    look much cheaper than the pattern, which then decides)."""
    return any(any(map(operator.eq, words, words[gap:])) for gap in (1, 2, 3))


# A transcript with no pause written in it: where the caller starts over, a typist would
# have put a comma ("…before my haircut actually forget the reminder just move the
# haircut…"). Only a mark of a restart followed by what restarts is taken for one.
_RESTARTED = rx(
    r"(?<=\w) (?=(?:actually|no wait|oh wait|wait|sorry|on second thought)\s+(?:forget"
    r"|never ?mind|scratch|skip|drop|don't|dont|do not|just|make it|change|move|cancel|i meant"
    r"|i mean|no)\b)",
    re.IGNORECASE,
)
# A day or an hour put right straight after it is a restart too ("…friday at 3pm actually
# an hour earlier", "…at 9 no wait 11", "…to monday sorry tuesday"): read as if written
# after a full stop (language/put_right.py applies it). Only after a day or an hour said:
# "I'm sorry tuesday is bad for me" is no correction.
_DAY_OR_HOUR_PUT_RIGHT = rx(
    r"(?:(?<=\d)|(?<=\dam)|(?<=\dpm)|(?<=\d am)|(?<=\d pm)|(?<=day)|(?<=tomorrow)"
    r"|(?<=noon)) (?:(?:hmm+|um+|uh+|erm|er|oh) )?"
    r"(?=(?:no actually|actually|no wait|oh wait|no sorry|sorry|no)\s+"
    r"(?:an? (?:hour|half hour|day|week)|half an hour|(?:half|quarter) (?:past|to) \d|\d+"
    r"|at \d+|the \d+|the next day"
    r"|i meant|i mean|(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow)\b)",
    re.IGNORECASE,
)
# The same after any value an ask ends on (a day, an hour, a priority, "my list"), with
# any word of a correction or a take-back: "…move my haircut to saturday actually undo
# that", "…at 3pm hmm never mind that", "…at 2pm make it 2:30", "…high priority oops low
# priority", "…to my list sorry oat milk not milk". Said without a pause these were each
# written as first said (put_right.py reads them only after a sentence's end).
_VALUE_PUT_RIGHT = rx(
    r"(?:(?<=\d)|(?<=\dam)|(?<=\dpm)|(?<=\d am)|(?<=\d pm)|(?<=day)|(?<=tomorrow)"
    r"|(?<=tonight)|(?<=noon)|(?<=priority)|(?<= list)|(?<=morning)|(?<=afternoon)"
    r"|(?<=evening)) (?:(?:hmm+|um+|uh+|erm|er|oh) )?"
    r"(?=(?:actually|sorry|oops|no wait|oh wait|wrong day|i meant|i mean|never ?mind"
    r"|forget (?:that|it|about it)|undo that|scratch that|(?:can|could) you make (?:it|that)"
    r"|make (?:it|that))\b)",
    re.IGNORECASE,
)
# "…at ten you know what make it eleven": a change of mind said before what puts it right
# (read as "actually"; "you know" alone is a filler, taken out later).
_CHANGE_OF_MIND = rx(
    r"(?<=\w),? you know what,?(?= (?:make|change|let'?s|can you|could you|just|do|go for|put"
    r"|move|book)\b)",
    re.IGNORECASE,
)
# "cancel my haircut sorry for the short notice": an apology after the ask is a remark.
_APOLOGY_AFTER = rx(r"(?<=\w) (?=(?:sorry|apologies) (?:for|about) )", re.IGNORECASE)
# "…still on if it is could I also get a haircut…": a condition said back to what was
# just asked, then the ask it holds for.
_CONDITION_SAID_BACK = rx(
    r"(?<=\w) (if (?:it is|it's|so|i do|they are|there is|there's|that's the case|not))"
    r" (?=(?:could|can|would|will|please|then|book|cancel|move|add|remind|get|put|make"
    r"|mark)\b)",
    re.IGNORECASE,
)
# "i'd rather not come in on wednesday would thursday at 9 work": another day or hour
# offered after the one refused, or for the day just said.
_HOUR_OFFERED = rx(
    # ("at like 9", "around like 9": the hour itself, said with a filler)
    r"(?<=\w)(?<!\bat)(?<!\bfor)(?<!\bby)(?<!\baround)(?<!\babout)(?<!\bto)(?<!\btill)"
    r"(?<!\buntil)(?<!\bbefore)(?<!\bafter)(?<!\bfrom)(?<!\bbe)"
    r" (?=(?:would|could|how about|what about) (?:monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday|tomorrow|next|the \d|\d)\b"
    # "…the morning of the 19th like 10": the hour offered for the day just said.
    r"|(?:like|say) \d{1,2}(?::\d\d)?(?: ?[ap]m)?$)",
    re.IGNORECASE,
)
# "…forget the reminder just move the haircut": the new ask after the one taken back.
_ASK_AFTER_TAKE_BACK = rx(
    r"\b((?:forget|never ?mind|scratch|skip|drop)(?: about)?(?: the| that| it| my)?"
    r"(?: \w+){0,2}?) (just (?:move|cancel|book|add|delete|mark|change|make|put|push|set)\b)",
    re.IGNORECASE,
)
# "the wednesday appointment move it to thursday", "my sunday 2:30 one can you make it 4",
# "the one with no date give it the 25th": the thing named first, then what to do to "it"
# (a pause before it, as "the wednesday 10am, push it to friday" is written).
_NAMED_FIRST = rx(
    r"(?:^|(?<=[.!?] ))((?:the|my|that|your) (?:(?!(?:move|push|bump|shift|reschedule|set"
    r"|give|make|change|cancel|delete|remove|mark|tick|put|is|are|was|do|can|could|please|and"
    r"|it)\b)[\w:']+ ){0,6}?"
    r"(?:appointment|booking|visit|task|reminder|one|thing|date|\d{1,2}(?::\d\d)?(?: ?[ap]m)?|[ap]m"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today))"
    r" (?=(?:(?:can|could) (?:you|we) |please )?(?:move|push|bump|shift|reschedule|set|give"
    r"|make|change|cancel|delete|remove|mark|tick|put) (?:it|that|this)\b"
    r"|(?:can|could) we do \d)",
    re.IGNORECASE,
)
# "i was charged twice for my cleaning can you open a ticket": what happened, then the ask
# to open a case about it (said with a pause, the case is about what was said first).
_CASE_ASKED_AFTER = rx(
    r"(?<=\w) (?=(?:so |and )?(?:can|could|would|will) you (?:like |please |just |maybe )?"
    r"(?:open|file|raise|log|create|start|make|submit|put in) (?:a|an|me a|up a) (?:support )?"
    r"(?:ticket|case|complaint|report)\b)",
    re.IGNORECASE,
)
# "book an eye exam monday the 21st at eleven remind me to bring my old glasses": a second
# ask begun straight after the day or the hour the first ends on (a typist would have put
# a stop there); each is then read as its own.
_SAID_HOUR_END = "".join(
    [*(f"|(?<=\\bat {word})" for word in HOUR_WORDS), "|(?<= thirty)|(?<= fifteen)"]
)
_ASK_AFTER_VALUE = rx(
    r"(?:(?<=\d)|(?<=\dam)|(?<=\dpm)|(?<=day)|(?<=tomorrow)|(?<=today)|(?<=noon)"
    r"|(?<=morning)|(?<=afternoon)|(?<=evening)|(?<=\dst)|(?<=\dnd)|(?<=\drd)|(?<=\dth)"
    + _SAID_HOUR_END
    + r") (?=(?:remind me|add (?:a|an) (?:task|reminder|to-?do)|book (?:me )?(?:a|an)\b"
    r"|(?:also |can you |could you )?(?:cancel|move) (?:my|the)\b))",
    re.IGNORECASE,
)
# "whats my balance i think i was overcharged can you open a case": a question, then what
# the speaker tells (a typist would have ended the question there).
_TOLD_AFTER_QUESTION = rx(
    r"^(?P<q>(?:what's|whats|what is|how much|when's|whens|when is|where's|wheres)\b[^,.?!]*?)"
    r" (?=i (?:think|believe|was|got|have been|'ve been|am pretty sure|'m pretty sure)\b)",
    re.IGNORECASE,
)
# "cross off the groceries i got them this morning": a to-do ticked off, then why, said in
# one breath (the why was read as part of the to-do's name: "groceries got them morning").
_DONE_TOLD_AFTER = rx(
    r"^(?P<ask>(?:(?:please|can you|could you|just) )*(?:cross|tick|check|mark|complete"
    r"|finish)\b[^,.?!]*?)"
    r" (?=i (?:(?:already|just|finally) )?(?:got|bought|did|picked|finished"
    r"|sorted|handled|paid|sent|made|booked|called|renewed)"
    # (what was done said with its object: "the task i made yesterday" names a to-do)
    r"(?: up)? (?:it|them|that|those|these|this|some|the|my|everything|all)\b)",
    re.IGNORECASE,
)
_WRITTEN_PAUSE = frozenset(",.;!?")


# Each pattern above, what it puts in, and the words it cannot match without (they ignore
# case, so `rx` reads none from them): a text holding none of a pattern's words skips it.
# Most messages with no pause written hold none, and each pattern looks behind at every
# position of the text (tests/language/test_pauses_written.py holds the words to them).
PAUSE_RULES: tuple[tuple[GatedPattern, str, tuple[str, ...]], ...] = (
    (_RESTARTED, ", ", ("actually", "wait", "sorry", "second thought")),
    (_DAY_OR_HOUR_PUT_RIGHT, ". ", ("actually", "wait", "sorry", " no")),
    (
        _VALUE_PUT_RIGHT,
        ". ",
        (
            *("actually", "sorry", "oops", "wait", "wrong day", "i mean", "never", "forget"),
            *("undo that", "scratch that", "make it", "make that"),
        ),
    ),
    (_APOLOGY_AFTER, ". ", ("sorry", "apologies")),
    (_CONDITION_SAID_BACK, r", \1, ", (" if",)),
    (_HOUR_OFFERED, ", ", ("would", "could", "about", "like", "say")),
    (_ASK_AFTER_TAKE_BACK, r"\1, \2", ("just",)),
    (_CASE_ASKED_AFTER, ", ", ("ticket", "case", "complaint", "report")),
    (_ASK_AFTER_VALUE, ". ", ("remind me", "add a", "add an", "book", "cancel", "move")),
    (_TOLD_AFTER_QUESTION, r"\g<q>? ", ("i think", "i was", "i got", "i believe", "i've been")),
    (_DONE_TOLD_AFTER, r"\g<ask>, ", (" i ",)),
)


def _pauses_written(text: str) -> str:
    """`text` with a comma where a caller started over, if no pause is written in it."""
    if " it" in text or " that" in text or " we do " in text:
        # (a sentence of its own: "what's on my list. The low priority one give it…")
        text = _NAMED_FIRST.sub(r"\1, ", text)
    # Pauses written only around the ask ("…sorry i mean normal.", "um, …", "…, thanks")
    # are not pauses within it, and what is said around it is no part of it: its restarts
    # are read as if nothing were written around it (was: "…nine no ten no actually nine,
    # thanks" booked 10, "…no actually just tell me my open tickets." opened a case).
    head, body, tail = _around_the_ask(text)
    if not _WRITTEN_PAUSE.isdisjoint(body):
        return text
    return head + _pauses_put_in(body) + tail


def _pauses_put_in(text: str) -> str:
    # Read once: the commas and stops put in only part words, never join them, so a word
    # not in the text as said is not in it after.
    lower = text.lower()
    for pattern, put_in, words in PAUSE_RULES:
        for word in words:
            if word in lower:
                text = pattern.sub(put_in, text)
                break
    return text


# Written before and after the ask: a greeting or filler and its comma; a full stop, a
# thanks or a please after it.
_BEFORE_THE_ASK = re.compile(
    r"^\s*(?:(?:hi|hello|hey|hiya|um+|uh+|er+|erm|ok|okay|so|well|right|yeah)"
    r"(?: there)?\s*[,.!]\s*)+",
    re.IGNORECASE,
)
_AFTER_THE_ASK = re.compile(
    r"(?:\s*[,.!]?\s*(?:thanks|thank you|thank u|thx|cheers|please|pls|for me)"
    r"(?: (?:so much|very much|a lot|again|in advance))?)?[\s.!?]*$",
    re.IGNORECASE,
)
# Words one of which `_AFTER_THE_ASK` needs before the stops and spaces that end a text.
_AFTER_THE_ASK_WORDS = ("thank", "thx", "cheers", "please", "pls", "for me")


def _around_the_ask(text: str) -> tuple[str, str, str]:
    """`text` as what is written before the ask, the ask, and what is written after."""
    head = _BEFORE_THE_ASK.match(text)
    start = head.end() if head is not None else 0
    lowered = text.lower()
    # (outside ASCII a letter may match one of the words when case is ignored: the Kelvin
    # sign matches "k")
    if text.isascii() and not _thanks_may_be_in(lowered):
        # Without those words, what it finds is the stops and spaces the text ends with,
        # found here from the end rather than tried at every position of the text.
        end = len(text)
        while end > start and (text[end - 1] in ".!?" or text[end - 1].isspace()):
            end -= 1
    else:
        tail = _AFTER_THE_ASK.search(text, start)
        end = tail.start() if tail is not None else len(text)
    return text[:start], text[start:end], text[end:]


def _thanks_may_be_in(lowered: str) -> bool:
    for word in _AFTER_THE_ASK_WORDS:  # noqa: SIM110 (a loop: any() with a generator costs more)
        if word in lowered:
            return True
    return False


@read_once
def plain(text: str) -> str:
    """`text` as a typist would have written it: the recogniser's habits taken out."""
    if "on the phone" in text.lower():
        text = _ASIDE_IN_THE_ROOM.sub(" ", text).strip() or text
    if "you know what" in text.lower():
        text = _CHANGE_OF_MIND.sub(" actually", text)
    text = _pauses_written(text)
    lower = text.lower()
    words = _WORDS.findall(lower)
    if _FILLER_WORDS.intersection(words) or "uh-uh" in lower:
        if "day" in lower or "th" in lower or "tomorrow" in lower:
            text = _DAY_FILLER_DAY.sub(r"\g<day> no ", text)
        text = _SPOKEN_NO.sub("no", _SPOKEN_YES.sub("yes", text))
        text = _SPACES.sub(" ", _FILLER.sub(" ", text))
    if "oh" in words:
        text = _OH.sub(_drop_oh, text)
    # (A restart before "two" is read as "to": "add two add two tasks" is said once.)
    if _restarted(words):
        text = _RESTART.sub(_said_once, text)
    if "morrow" in lower or "noon" in lower or "week end" in lower or "o clock" in lower:
        for pattern, word in _SPLIT:
            text = pattern.sub(word, text)
    if not _MISHEARD_WORDS.isdisjoint(words):
        for pattern, word in _MISHEARD:
            text = pattern.sub(word, text)
    if (
        "tax" in words
        and not _TASK_CUES.isdisjoint(words)
        and not any(cue in lower for cue in _BILL_CUES)
    ):
        text = _TASK_HEARD_AS_TAX.sub(r"\1task", text)
    if " or something" in lower or " or whatever" in lower or " or anything" in lower:
        text = _HEDGE.sub("", text)
    text = heard_as_said(as_heard(text, words, lower), words, lower)
    if (digits := in_digits(text, words)) != text and _WRITTEN_PAUSE.isdisjoint(
        _around_the_ask(text)[1]
    ):
        # "…at nine no ten no actually nine": an hour put right is read once it is in
        # digits, as "…at 9 no 10" is
        digits = _pauses_written(digits)
    text = digits
    # (After the hours are written in digits: "to like three", "a bit later, like eleven".)
    if "like" in words:
        text = _LIKE_QUOTING.sub(r"\1", _LIKE.sub(_drop_like, text))
    if "you know" in lower:
        text = _YOU_KNOW.sub(_drop_you_know, text)
    if not _APOSTROPHE_GATE.isdisjoint(words):
        text = _DROPPED_WORD.sub(lambda m: _with_case(m.group(0), m.group(0).lower()), text)
        text = _DROPPED_BEFORE.sub(_apostrophe, text)
    if "two" in words or "too" in words:
        text = _TO_HEARD_AS_TWO.sub("to ", text)
    if "for" in words:
        for pattern, word in _FOUR_HEARD_AS_FOR:
            text = pattern.sub(word, text)
    if " know" in lower or " tell me" in lower or "wondering" in lower:
        text = _INDIRECT.sub(_direct, text)
    if any(part in lower for part in _SAID_ORDINAL):
        text = _ORDINAL.sub(_ordinal, text)
    if " the " in lower and any(cue in lower for cue in _DAY_WORD_CUES) and "th" in lower:
        text = _DAY_WORD_PUT_RIGHT.sub(_day_word_put_right, text)
    if "the " in lower and any(word in lower for word in _EARLY_ORDINALS):
        text = _EARLY_DAY.sub(_early_day, text)
    if " the " in text:
        text = _DATE_THEN_DATE.sub(r"\g<day> no ", text)
    return _SPACES.sub(" ", text) if "  " in text else text
