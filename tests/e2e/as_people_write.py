"""The customer's words as people write them to a business, meaning the same: asked
politely, indirectly or with hedges ("could you possibly move my haircut to friday for
me?", "I think I need to cancel my haircut", "sounds good"), or typed in a hurry into a
chat widget ("pls cancle my apointment tommorow", "whats my ballance").

Each rewrite keeps the meaning exactly, so a written conversation's checks stand for it
unchanged. A turn is rewritten one of several ways, chosen by a stable hash of the case
and the turn (so the same case always reads the same). What a hurried rewrite leaves alone:
words in quotes, an email, a phone number, times and ids (anything with a digit), and the
values the checks look for (a title's words, a service's name, an answer's words).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from typing import Any

from tests.e2e.said_aloud import aloud, kept_words


def _words(text: str) -> list[str]:
    """A word list written as running text."""
    return text.split()


def stable(key: str) -> int:
    """A number for `key` that is the same on every run and machine."""
    return int(hashlib.sha1(key.encode()).hexdigest()[:12], 16)


def _pick(options: Sequence[str], key: str) -> str:
    return options[stable(key) % len(options)]


# A turn's rewrite is told what it needs of the case: the turn's place and whether the
# turn before left a change awaiting a yes.
class Turn:
    def __init__(self, key: str, first: bool, after_question: bool) -> None:
        self.key = key
        self.first = first
        self.after_question = after_question


# ---------------------------------------------------------------------------------------
# Said politely, indirectly or with hedges.

_YES = re.compile(
    r"(?i)(?:yes|yeah|yep|yup|sure|ok|okay|yes please|go ahead|yes go ahead|do it|yes do it"
    r"|confirm|confirmed|correct|yes that's right)"
)
_NO = re.compile(r"(?i)(?:no|nope|nah|no thanks)")
_REMARK = re.compile(
    r"(?i)(?:thanks?|thank you|thx|ta|cheers|great|lovely|perfect|cool|nice|brilliant|fine"
    r"|awesome|good|good morning|hello|hi|hey|bye|goodbye|great,? thanks|ok,? thanks"
    r"|lovely,? thanks|perfect,? thanks|thanks,? bye|that's all|that's it|nothing else)"
)
# Words said before a request that are no part of it ("ok so", "and", "actually").
_MARKER = (
    r"(?:ok(?:ay)?|so|and|also|then|oh|right|alright|great|actually|wait|hmm+|um+|uh+|yes"
    r"|yeah|yep|no|sorry|well|fine|perfect|cool|now|but|hey|oops|ugh|thanks)"
)
_MARKERS = re.compile(rf"(?i)^((?:{_MARKER}\b[,.!]?\s+)*)")
# An ask that is already one, reduced to the request it asks for.
_ASKING = re.compile(
    r"(?i)^(?:please,?\s+|pls\s+|(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?"
    r"|i\s+(?:need|want|would like|'d like|wanna)\s+(?:you\s+)?to\s+|i\s+wanna\s+)+"
)
_TRAILING_PLEASE = re.compile(r"(?i),?\s+(?:please|pls)(?=[.!?]*$)")
# Requests the customer makes of the business ("I'd like to move…" reads).
_CHANGE_VERBS = _words(
    "do move push pull bring reschedule rebook change update cancel book add delete remove"
    " mark tick set put schedule create open close complete finish make bump postpone"
    " shift drop clear swap switch edit rename note log raise file reopen undo take fix"
    " sort pay"
)
# Requests that ask the business to do something for the customer ("tell me…").
_ASK_VERBS = _words("tell show give list check find send remind read text email look help get")
_VERB = re.compile(
    rf"(?i)^(?:just\s+)?({'|'.join(_CHANGE_VERBS + _ASK_VERBS)})\b"
    r"(?<!do(?=\s(?:i|you|we|they|my)\b))(\s+(?:me|us)\b)?"
)
# Verbs that take a title after them: "for me" said after it would be the title's.
_TITLED = {"add", "remind", "note", "create", "put", "log", "set", "make", "raise", "file", "open"}
_QUESTION_WORD = re.compile(
    r"(?i)^(?:what|what's|whats|when|when's|whens|where|where's|which|who|why|how"
    r"|(?:do|does|did)\s+(?:i|you|we|my|the|it|they|that|this)|is|are|am|was|have|has|can"
    r"|could|should|will|would|any)\b"
)
_INDIRECT = re.compile(r"(?i)^(what|when|where)(?:'s|\s+is)\s+((?:my|the)\s+[a-z][a-z ]*?)\s*\??$")
_NOT_INDIRECT = re.compile(
    r"(?i)\b(?:due|now|again|then|left|like|look|looks|on|in|at|for|going|coming|up|there|it"
    r"|this|that|and|or|of|to)\b"
)
_OWE = re.compile(r"(?i)^how much do i owe(?: you)?\s*\??$")
_FRAGMENT_NOT = re.compile(
    r"(?i)\b(?:is|are|was|were|'s|do|does|did|have|has|want|need|can|will|would|not|no|never"
    r"|sorry|actually|wait|instead|but|or|oh|and|i|i'm|it's|that's)\b"
)
# A reply that is a thing named, a day or a time ("the insurance one", "friday at 3").
_FRAGMENT = re.compile(
    r"(?i)^(?:the|my|this|that one|on|at|in|for|next|tomorrow|today|both|all|only|a|an|noon"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|evening|high|low|urgent"
    r"|\d)\b"
)
_THANKED = re.compile(r"(?i)\b(?:thanks|thank you|cheers|thx|ta)\b")
_SENTENCE = re.compile(r"(?<![ap]\.m)(?<=[.?!])\s+(?=\S)")
_END = re.compile(r"[\s.!?,]+$")


def _request(core: str, turn: Turn, markers: str, thanked: bool) -> str:
    """A request said politely ("could you possibly move it to friday for me?")."""
    verb = _VERB.match(core)
    assert verb
    plain = _END.sub("", core)
    titled = verb.group(1).lower() in _TITLED
    forms = [
        "could you possibly {r}?",
        "I was wondering if you could {r}",
        "is there any chance you could {r}?",
        "would you be able to {r}?",
        "{r}, thanks so much",
    ]
    if not titled and not re.search(r"(?i)\b(?:me|and|for)\b", plain):
        forms.append("could you {r} for me, please?")
    if verb.group(2) is None and verb.group(1).lower() in _CHANGE_VERBS:
        forms += [
            "would it be ok to {r}?",
            "I think I need to {r}",
            "I'd like to {r}",
            "is it possible to {r}?",
        ]
    if thanked:
        forms = [form for form in forms if "thank" not in form]
    said = _pick(forms, turn.key).format(r=plain)
    if turn.first and not markers:
        said = f"hi there! {said}"
    return said


def _question(question: str, turn: Turn, markers: str, thanked: bool) -> str:
    plain = _END.sub("", question)
    indirect = _INDIRECT.match(plain)
    forms = ["{q}, if you don't mind?"]
    if indirect and not _NOT_INDIRECT.search(indirect.group(2)):
        forms.append(f"could you tell me {indirect.group(1).lower()} {indirect.group(2)} is?")
    elif _OWE.match(plain):
        forms.append("could you tell me how much I owe?")
    if not markers:
        forms += ["sorry to bother you, but {q}?", "I was just wondering, {q}?"]
        if turn.first and not thanked:
            forms.append("hi there! {q}? thanks so much")
    return _pick(forms, turn.key).format(q=plain)


def _lower_first(text: str) -> str:
    return text if text[:2] == "I " or text[:2] == "I'" else text[:1].lower() + text[1:]


def politely(text: str, turn: Turn) -> str:
    """One turn said politely, indirectly or with hedges; a yes as "sounds good"."""
    bare = _END.sub("", text.strip())
    if _YES.fullmatch(bare):
        if turn.after_question:
            return _pick(
                ["yes please go ahead", "that would be great", "sounds good", "yes please, thanks"],
                turn.key,
            )
        return _pick(["yes please", "yes, thank you"], turn.key)
    if _NO.fullmatch(bare):
        return _pick(["no thank you", "no, not really", "no, I don't think so"], turn.key)
    if _REMARK.fullmatch(bare):
        return text
    # Thanks said once: "thanks so much" is not added to a turn that thanks already.
    thanked = _THANKED.search(text) is not None
    first, *rest = _SENTENCE.split(text.strip(), maxsplit=1)
    markers = _MARKERS.match(first)
    lead = markers.group(1) if markers else ""
    body = first[len(lead) :]
    core = _TRAILING_PLEASE.sub("", body)
    asked = _ASKING.match(core)
    if asked:
        core = core[asked.end() :]
    said: str | None = None
    if (_VERB.match(core) and not core.rstrip().endswith("?")) or (asked and _VERB.match(core)):
        said = _request(_lower_first(core), turn, lead, thanked)
    elif (body.rstrip().endswith("?") or _QUESTION_WORD.match(body)) and len(body.split()) > 1:
        # (a word alone, "help?", is no question to wonder about: corrected after the
        # first run)
        said = _question(_lower_first(body) if not lead else body, turn, lead, thanked)
    elif (
        not lead
        and not rest
        and len(body.split()) <= 5
        and _FRAGMENT.match(body)
        and not _FRAGMENT_NOT.search(body)
    ):
        plain = _END.sub("", body)
        said = _pick(
            ["{f} please", "{f} if that's ok", "I think {f}", "{f} would be great, thanks"],
            turn.key,
        ).format(f=plain)
    elif turn.first and not lead:
        said = f"hi there! {_lower_first(body)}"
    if said is None:
        return text
    if rest and not said.endswith(("?", ".", "!")):
        # More follows: the sentence ends as it did (corrected after the first try: a
        # correction after it was read into it).
        end = re.search(r"[.?!]+$", first.rstrip())
        said += end.group(0) if end else "."
    return " ".join([f"{lead}{said}", *rest])


# ---------------------------------------------------------------------------------------
# Typed in a hurry: lower case, apostrophes left out, the misspellings people make, and a
# letter doubled or dropped in a longer word.

MISSPELT: dict[str, tuple[str, ...]] = {
    "tomorrow": ("tommorow", "tomorow", "tommorrow"),
    "appointment": ("apointment", "appointmnet", "appoitment"),
    "appointments": ("apointments", "appointmnets"),
    "appt": ("apt",),
    "cancel": ("cancle", "cancell"),
    "wednesday": ("wendesday", "wensday", "wednsday"),
    "thursday": ("thrusday", "thurday"),
    "friday": ("firday", "fridya"),
    "tuesday": ("tuesay", "teusday"),
    "saturday": ("saturady", "satruday"),
    "receive": ("recieve",),
    "received": ("recieved",),
    "schedule": ("schedual", "shedule"),
    "reschedule": ("reschedual", "reshedule"),
    "please": ("pls", "plz", "pleas"),
    "thanks": ("thx", "thnks"),
    "address": ("adress",),
    "calendar": ("calender",),
    "definitely": ("definately",),
    "until": ("untill",),
    "balance": ("ballance", "balence"),
    "priority": ("priorty", "prority"),
    "delete": ("delte", "delet"),
    "available": ("availible", "avaliable"),
    "tonight": ("tonite",),
    "because": ("becuase", "cuz"),
    "which": ("whcih", "wich"),
    "reminder": ("remider", "reminer"),
    "instead": ("insted", "instaed"),
    "morning": ("mornign", "moring"),
    "afternoon": ("afternon", "aftenoon"),
    "actually": ("actualy", "acutally"),
    "already": ("allready", "alredy"),
    "again": ("agian",),
    "would": ("woudl",),
    "could": ("coudl",),
    "anything": ("anythign",),
    "something": ("somthing",),
    "sorry": ("sry", "soz"),
    # (The commonest words are misspelt only some of the times they are typed.)
    "the": ("teh", "the", "the"),
    "you": ("u", "you"),
    "your": ("ur", "yuor", "your"),
}
# Contractions whose apostrophe dropped leaves another word a customer would mean
# ("we'll" as "well") are typed with it.
_KEEPS_APOSTROPHE = {"we'll", "we're", "he'll", "she'll", "she'd", "he'd", "we'd"}
_CONTRACTED = re.compile(r"(?i)\b[a-z]+'[a-z]+\b")
_WORD = re.compile(r"(?<![\w@.'-])[a-z]{6,}(?![\w@'-])")
_NUMBER_WORDS = set(
    _words(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty hundred"
        " first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
        " twentieth thirtieth"
    )
)
# Words whose meaning is the whole of a turn's sense; a slip in them may be another word.
# Days, months, holidays and spans of time are dates, left as typed but for the misspellings
# above.
_NEVER_SLIPPED = set(
    _words(
        "never cannot nothing other either monday tuesday wednesday thursday friday saturday"
        " sunday january february march april june july august september october november"
        " december christmas thanksgiving easter fortnight midweek weekend weekday weekdays"
        " tonight morning afternoon evening midnight minutes months boxing halloween valentine"
        " oclock underscore hyphen morrow"
    )
)
_MISSPELLINGS = {spelt for spelt_ in MISSPELT.values() for spelt in spelt_}


def _slips(word: str) -> list[str]:
    """A letter dropped from a doubled pair, a vowel dropped inside, or a consonant
    doubled: the slips a hurried hand makes in `word`."""
    slips = []
    for i in range(1, len(word) - 1):
        if word[i] == word[i - 1]:
            slips.append(word[:i] + word[i + 1 :])
    for i in range(2, len(word) - 2):
        if word[i] in "aeiou" and word[i - 1] not in "aeiou" and word[i + 1] not in "aeiou":
            slips.append(word[:i] + word[i + 1 :])
    for i in range(2, len(word) - 1):
        if word[i] in "lnrst" and word[i + 1] in "aeiou" and word[i - 1] in "aeiou":
            slips.append(word[:i] + word[i] + word[i:])
    return slips


def hurried(text: str, turn: Turn, known: frozenset[str]) -> str:
    """One turn typed in a hurry: lower case, no apostrophes, misspelt ("cancle my
    apointment tommorow pls"), one longer word with a letter doubled or dropped."""
    text = text.lower()
    text = _CONTRACTED.sub(
        lambda m: m[0] if m[0] in _KEEPS_APOSTROPHE else m[0].replace("'", ""), text
    )

    def misspelt(match: re.Match[str]) -> str:
        word = match.group(0)
        return _pick(MISSPELT[word], f"{turn.key}/{word}/{match.start()}")

    text = re.sub(
        r"(?<![\w@.'-])(" + "|".join(sorted(MISSPELT, key=len, reverse=True)) + r")(?![\w@'-])",
        misspelt,
        text,
    )
    candidates = [
        m
        for m in _WORD.finditer(text)
        if m[0] not in _NUMBER_WORDS
        and m[0] not in _NEVER_SLIPPED
        and m[0] not in _MISSPELLINGS
        and m[0][:5] not in _VALUE_STEMS
        and m[0] in known
        and any(slip not in known for slip in _slips(m[0]))
    ]
    if not candidates:
        return text
    chosen = candidates[stable(turn.key + "/slip") % len(candidates)]
    slips = [slip for slip in _slips(chosen[0]) if slip not in known]
    slip = _pick(slips, turn.key + "/which")
    return text[: chosen.start()] + slip + text[chosen.end() :]


# The values the checks look for, besides the turn's own: the seeded customer's titles and
# services, and every service a set books (filled in by `values_from`).
_VALUES: set[str] = set(
    _words(
        "groceries insurance renew exam schedule dental cleaning haircut checkup consultation"
        " physical therapy pharmacy invoice portal massage facial physio downtown market valencia"
        " studio bayview clinic embarcadero center clearview optometry geary movewell howard"
        " office street"
    )
)
# A word sharing its first five letters with a value names it too ("renewal", "renew").
_VALUE_STEMS: set[str] = set()


def values_from(cases: list[dict[str, Any]]) -> None:
    """Every word of a service or title any case's checks name is a value, never slipped."""
    for case in cases:
        for turn in case["turns"]:
            for check in turn.get("crm", []):
                for key in ("appt", "task", "task_like"):
                    if key in check:
                        _VALUES.update(re.findall(r"[a-z]+", check[key].lower()))
            for wanted in [*turn.get("has", []), *turn.get("not", [])]:
                for option in [wanted] if isinstance(wanted, str) else wanted:
                    _VALUES.update(re.findall(r"[a-z]+", option.lower()))
    _VALUE_STEMS.update(value[:5] for value in _VALUES if len(value) >= 5)


def _turn_keep(turn: dict[str, Any]) -> list[str]:
    """What a hurried turn keeps as written: the words its checks look for."""
    keep = set(kept_words(turn))
    said = set(re.findall(r"[\w']+", turn["say"].lower()))
    for wanted in [*turn.get("has", []), *turn.get("not", [])]:
        for option in [wanted] if isinstance(wanted, str) else wanted:
            keep.update(w for w in re.findall(r"[\w']+", option.lower()) if w in said)
    # Times, ids and amounts: anything holding a digit.
    keep.update(t for t in re.findall(r"[\w:.$#-]*\d[\w:.$#-]*", turn["say"]) if t)
    return sorted(keep)


Way = Callable[[dict[str, Any], frozenset[str]], dict[str, Any]]


def _rewritten(
    case: dict[str, Any], one: Callable[[str, Turn], str], keep: bool, name: str
) -> dict[str, Any]:
    turns = []
    waiting = False
    for number, turn in enumerate(case["turns"]):
        key = f"{name}/{case['id']}/{number}"
        told = Turn(key, first=number == 0, after_question=waiting)
        if keep:
            say = aloud(turn["say"], lambda t, told=told: one(t, told), _turn_keep(turn))
        else:
            say = one(turn["say"], told)
        turns.append({**turn, "say": say})
        waiting = bool(turn.get("confirm")) and turn.get("confirm") != "*"
    return {**case, "id": f"{case['id']} [{name}]", "turns": turns}


def said_politely(case: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return _rewritten(case, politely, keep=False, name="politely")


def typed_hurriedly(case: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return _rewritten(
        case, lambda text, turn: hurried(text, turn, known), keep=True, name="hurried"
    )


WAYS: dict[str, Way] = {"politely": said_politely, "hurried": typed_hurriedly}


# ---------------------------------------------------------------------------------------
# Written after the rules were fixed for the ways above, and not tuned on (their first run
# is in tests/e2e/test_as_people_write.py): a formal letter's wording, and a phone's
# texting shorthand.


def formally(text: str, turn: Turn) -> str:
    """ "I would be grateful if you could move my haircut to friday.", "Yes, please
    proceed.", "May I ask what my balance is?"."""
    bare = _END.sub("", text.strip())
    if _YES.fullmatch(bare):
        if turn.after_question:
            return _pick(["Yes, please proceed.", "That is fine, please go ahead."], turn.key)
        return text
    if _NO.fullmatch(bare):
        return "No, thank you."
    if _REMARK.fullmatch(bare):
        return text
    first, *rest = _SENTENCE.split(text.strip(), maxsplit=1)
    markers = _MARKERS.match(first)
    lead = markers.group(1) if markers else ""
    body = first[len(lead) :]
    core = _TRAILING_PLEASE.sub("", body)
    asked = _ASKING.match(core)
    if asked:
        core = core[asked.end() :]
    said: str | None = None
    if _VERB.match(core) and (asked or not core.rstrip().endswith("?")):
        plain = _END.sub("", _lower_first(core))
        forms = ["I would be grateful if you could {r}."]
        if "," not in plain:
            # (a request said in parts, "delete it, oh wait, keep it", is not asked as one
            # question: corrected after the first run)
            forms += ["Would you kindly {r}?", "Please could you {r}?", "Could I ask you to {r}?"]
        said = _pick(forms, turn.key).format(r=plain)
    elif (
        not lead
        and (body.rstrip().endswith("?") or _QUESTION_WORD.match(body))
        and len(body.split()) > 1
        and not _THANKED.search(text)
    ):
        # (a word alone, "help?", is no question, and thanks are said once: corrected after
        # the first run)
        plain = _END.sub("", body)
        indirect = _INDIRECT.match(plain)
        if indirect and not _NOT_INDIRECT.search(indirect.group(2)):
            said = f"May I ask {indirect.group(1).lower()} {indirect.group(2)} is?"
        else:
            said = f"{plain[:1].upper()}{plain[1:]}? Many thanks."
    if said is None:
        return text
    if turn.first and not lead:
        said = (
            f"Good morning, {said[:1].lower()}{said[1:]}"
            if said[:2] != "I "
            else (f"Good morning, {said}")
        )
    if lead:
        said = _lower_first(said)
    if rest and not said.endswith(("?", ".", "!")):
        said += "."
    return " ".join([f"{lead}{said}", *rest])


# A phone's shorthand, typed in lower case with no full stop at the end.
SHORTHAND: dict[str, tuple[str, ...]] = {
    "can you": ("cn u", "can u"),
    "could you": ("cud u", "could u"),
    "would you": ("wud u",),
    "tomorrow": ("tmrw", "2moro"),
    "please": ("pls", "plz"),
    "thanks": ("thx", "ty"),
    "thank you": ("ty", "thank u"),
    "appointment": ("appt",),
    "appointments": ("appts",),
    "before": ("b4",),
    "tonight": ("2nite",),
    "minutes": ("mins",),
    "because": ("bc", "cos"),
    "you": ("u",),
    "your": ("ur",),
    "are": ("r",),
    "and": ("&", "n"),
    "okay": ("k", "ok"),
}
_SHORTHAND = re.compile(
    r"(?<![\w@.'-])(" + "|".join(sorted(SHORTHAND, key=len, reverse=True)) + r")(?![\w@'-])"
)


def texted(text: str, turn: Turn) -> str:
    """ "cn u move my appt 2 friday pls", "whats my balance thx": a phone's shorthand."""
    text = text.lower().rstrip(" .")
    text = _CONTRACTED.sub(
        lambda m: m[0] if m[0] in _KEEPS_APOSTROPHE else m[0].replace("'", ""), text
    )
    return _SHORTHAND.sub(
        lambda m: _pick(SHORTHAND[m.group(1)], f"{turn.key}/{m.group(1)}/{m.start()}"), text
    )


def said_formally(case: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return _rewritten(case, formally, keep=False, name="formally")


def texted_shorthand(case: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return _rewritten(case, texted, keep=True, name="texted")


WRITTEN_LATER: dict[str, Way] = {"formally": said_formally, "texted": texted_shorthand}
