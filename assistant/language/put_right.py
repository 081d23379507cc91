"""A change put right in the same message: "book a facial on Thursday at 10am. Actually,
make it 11.", "move my cleaning to Tuesday. Wrong day, I meant Thursday.", "add buy milk
to my list. Sorry, oat milk not milk", "move my haircut to Saturday. Actually, undo that".

Said in two turns, the second is a correction of the change just made (the planner's
corrections). Said in one message, nothing has been made yet: the correction is applied
to the words of the ask it corrects before anything reads them, so that what is written
is what the customer settled on, once ("book a facial on thursday at 11am"), and nothing
of the correction lands in a title or a day. A correction this module cannot place
leaves the message as said (the rules then read it as they always have).

Only a sentence or clause of its own after an ask that changes something is read as a
correction, and only when what it says is a time, a day, a priority, a shift ("half an
hour later", "the next day"), one thing for another ("oat milk not milk") or taking the
ask back ("undo that", "never mind that"): "sorry to be a pain!" and "actually I have
another question" are not.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from functools import lru_cache

from assistant.language.confirm import what_was_taken_back
from assistant.language.dates import When, find_when
from assistant.language.patterns import rx
from assistant.language.said_again import said_again

Span = tuple[int, int]

# Most messages correct nothing: one search says whether to look further.
_MAYBE = rx(
    r"[.,!?;:]\s+(?:[a-z']+[,!]?\s+){0,3}?(?:actually|sorry|oops|whoops|wait|no|nope|hang on"
    r"|hold on|my bad|my mistake|correction|scratch that|on second thought|wrong|i meant"
    r"|i mean|make (?:it|that|this)|(?:can|could) (?:you|we)|undo|put it back|never ?mind"
    r"|forget (?:it|that)|same (?:day|time))\b"
)
# The ask corrected changes something (a question or a remark is not put right).
_CHANGES = rx(
    r"\b(?:book|schedule|move|reschedule|push|pull|bring|change|put|add|remind|create|set"
    r"|make|mark|complete|tick|update|pencil|get me|i need|i'd like|i want|can i get)\b"
)
_BOUNDARY = r"(?:[.!?;]+\s+|,\s+|\s+-+\s+|\s*—\s*)"
_FILLERS = (
    r"(?:(?:oh|ah|ugh|hmm+|um+|uh+|er|erm|well|ok|okay|and|shoot|darn|dang|gosh|geez|jeez"
    r"|crap|just)[,!.]?\s+)*"
)
_CUES = (
    r"(?:actually|sorry|oops|whoops|no wait|wait|oh no|no no|no|nope|hang on|hold on|my bad"
    r"|my mistake|correction|scratch that|on second thought|wrong (?:day|time|date|one))"
)
# What introduces the value put right ("make it 11", "can you make that 2:30?", "I
# meant Thursday"): said with or without a cue before it.
_LEAD = (
    r"(?:(?:can|could|would) (?:you|we) )?(?:make|change|push|move|do|put)"
    r" (?:it|that|this|(?:the|my) (?P<thing>[a-z]+(?: [a-z]+)?))"
    r"(?: one)?(?: to| for| into| at| on)?\s+|i meant\s+(?:to say\s+)?|i mean\s+"
    r"|it should be\s+|let'?s (?:say|do|make it)\s+|how about\s+|what about\s+"
    # "…at 4. Actually can we do 5": the value offered as a question
    r"|(?:can|could|would) (?:you|we) (?:do|go for|say)\s+"
    # "…. Oh wait, the cake is for sunday not saturday": the thing said, then its value
    r"|(?:the|my) (?P<subject>[a-z]+(?: [a-z]+)?) (?:is|should be|'s)(?: for| on| due)?\s+"
    # "…friday at 10. Same time but on saturday", "…. same day, but at 4": the one part
    # said again, the other put right (was: the first kept, the second sentence unread)
    r"|(?:the )?same (?:day|time)(?:,? but)?\s+(?=(?:at|on|for|\d|noon|midday|(?:mon|tues"
    r"|wednes|thurs|fri|satur|sun)day|tomorrow|next)\b)"
)
_CORRECTION = rx(
    rf"{_BOUNDARY}{_FILLERS}(?:(?P<cue>{_CUES})(?:[,!.]?\s+{_CUES})*[,!.]?\s+)?"
    rf"(?P<lead>{_LEAD})?(?P<body>[^.!?;]+?)\s*(?=[.!?;]|$)"
)
_TAKE_BACK = rx(
    r"(?:undo|reverse) (?:that|it)|put it back(?: where it was| as it was)?"
    r"|leave it(?: where it was| as it was)?|never ?mind(?: that| about that)?|forget (?:it|that)"
    r"|scratch that|don'?t (?:do that|bother)|cancel that"
)
_SWAP = (
    rx(r"(?P<new>.+?),? (?:not|instead of|rather than) (?P<old>.+)"),
    rx(r"not (?P<old>.+?),? (?:but )?(?P<new>.+)"),
)
_PRIORITY = rx(r"(?:(?:a |an )?(?P<p>high|low|normal|medium|urgent)(?: priority| one)?)")
# "the groceries one", "my eye exam task": a task named by its words.
_ONE_NAMED = rx(r"\b(?:the|my) (?P<words>[a-z][a-z' ]*?) (?:one|task|reminder|to-?do)\b")
_TASK_NOUN = rx(r"\b(?:a|an|the|my) (?P<noun>task|reminder|to-?do|note)\b")
_PRIORITY_SAID = rx(r"\b(?:(?:a |an )?(?:high|low|normal|medium|urgent)(?: priority)?)\b")
_SHIFT = rx(
    r"(?:(?:a |an |one )?(?P<half>half (?:an )?)?(?P<n>\d+|an?|one|two|three|a couple of)?\s*"
    r"(?P<unit>hours?|minutes?|mins?|days?)\s+(?P<dir>later|earlier|after|before|sooner))"
)
_NEXT_DAY = rx(
    r"(?:the )?(?:next|following) day|the day after|a day later"
    r"|(?:the )?(?:previous|day before)|the day before|a day earlier"
)
# Said of the value, not a value: "thursday is better", "11 instead", "same time".
_AROUND = rx(
    r"(?:,?\s*(?:please|instead|then|thanks|actually|is better|works better|would be better|is fine"
    r"|would work|works|(?:at |,\s*)?(?:the )?same time|if (?:you can|possible)))+$"
)
# A task added in the sentence put right: its day said as "due …" is the day put right.
_A_TASK_ADDED = rx(r"\b(?:add|put|remind|create|set up)\b")
_NUMBER = rx(
    r"(?:\d{1,2}(?::\d{2})?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
)
_DOTTED_MERIDIEM = rx(r"\b([ap])\.m\.")
_MERIDIEM = rx(r"\b(?:am|pm|a\.m\.|p\.m\.|morning|afternoon|evening|tonight|noon|midday)\b")
_PREPOSITION = rx(r"(?:on|at|for|by) ")
# Said with no "on" before it ("…on friday. no sorry, tomorrow": tomorrow).
_STANDS_ALONE = rx(r"(?:today|tomorrow|tonight|next|this|in|the day after)\b")
_PREPOSITION_BEFORE = rx(r"\b(?:on|at|for|by|to)\s+$")
_WORD = rx(r"[A-Za-z][\w'-]*")
_SENTENCE_START = rx(r"(?:^|[.!?]\s+)\W*$")
_WORDS_LEFT = frozenset({"at", "on", "for", "the", "in", "by", "and", "to", ""})


# "…. Actually put the cleaning back where it was": one thing of the message, by its name,
# left as it was (the change that named it is taken back, the rest stands).
_THING_LEFT = rx(
    r"(?:^|[.!?;]\s+)(?:(?:actually|no|wait|sorry|oh|hmm|on second thought)[,!.]?\s+)*"
    r"(?:just |please )?(?:put|leave|keep|move) (?:(?:the|my) )?(?P<thing>[a-z][a-z ]*?)"
    r"(?: one| task| appointment)?(?: back)? (?:where (?:it|they) (?:was|were|is|are)"
    r"|as (?:it|they) (?:was|were|is|are))(?: then| please)?[.!]*\s*$"
)
_ASK_APART = rx(r"[.!?;]\s+|,?\s+and\s+(?:then\s+|also\s+)?")


_UNSAID_PAUSE_CUES = ("sorry", "actually", "wait", "oops", "my bad", "i mean", "make that", " no ")
_UNSAID_PAUSE = rx(
    r"(?P<end>\d(?: ?[ap]\.?m\.?)?|\b(?:noon|today|tomorrow|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday|morning|afternoon|evening))\s+"
    r"(?P<cue>sorry|actually|no wait|oops|whoops|my bad|i mean|i meant"
    # "…at 4 make that 5": an hour put right by another
    r"|make that(?= \d)"
    # "…thursday at 9 no friday": a day or an hour said over another with a bare "no"
    r"|no(?= (?:\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow)\b))\b"
    r"(?!,? (?:i|it|that|the|this|my)\b)"
)


def _thing_left_as_it_was(text: str) -> str | None:
    """The message without the ask that changed the thing a last sentence leaves as it was
    ("…to friday at 9am. And add a task to buy floss. Actually put the cleaning back where
    it was": the add only); None when no ask before names it."""
    left = _THING_LEFT.search(text)
    if left is None or left.start() == 0:
        return None
    words = [w for w in left.group("thing").split() if len(w) > 3] or left.group("thing").split()
    before = text[: left.start()]
    asks = [a.strip(" ,") for a in _ASK_APART.split(before) if a.strip(" ,")]
    named = [a for a in asks if any(re.search(rf"\b{re.escape(w)}\b", a) for w in words)]
    if len(named) != 1 or len(asks) < 2:
        return None  # nothing or several of it named, or nothing else asked: as it was
    kept = [_JOINER_LEAD.sub("", a) for a in asks if a is not named[0]]
    verb = _VERB_LEAD.match(named[0])
    if verb is not None and not _VERB_LEAD.match(kept[0]) and _THING_LEAD.match(kept[0]):
        # "move groceries to thursday. And the eye exam one to friday…": its verb, unsaid
        kept[0] = f"{verb.group(0)} {kept[0]}"
    return " and ".join(kept)


_JOINER_LEAD = rx(r"^(?:and|then|also|plus)\b[, ]*")
_VERB_LEAD = rx(
    r"(?:move|push|reschedule|shift|set|make|change|put|bring|postpone|book|mark|complete"
    r"|cancel|add|delete|remove)\b"
)
_THING_LEAD = rx(r"(?:the|my) ")
# A sentence that only says why the ask will not do ("hmm actually that's too early in the
# week."), with a sentence after it.
_REASON_BETWEEN = rx(
    r"[.!?]\s+(?:(?:hmm+|oh|ah|um+|actually|no|wait|sorry|well)[,!.]?\s+)*(?:that's|that is"
    r"|thats|it's|it is|its) (?:too|a bit|not|no good|bad|a little)\b[^.!?]*[.!?]\s+(?=\w)"
)


# "buy dog food no cat food", "cancel the haircut one no sorry the cleaning": a thing said
# over in the same breath, with "no" and no pause: the second is the one meant. Only the
# same kind of thing: two words ending in the same word, or one visit, service or task
# named by "the", "my" or "a" for another ("is the haircut no longer on" is no such pair).
_REPAIR = r"no,? (?:(?:sorry|wait|i mean|i meant|actually)[,]? )*"
_SAID_OVER = (
    rx(
        r"(?i)\b(?!(?:the|a|an|my|no|to|and)\b)[a-z']+ (?P<head>[a-z']{3,}) "
        + _REPAIR
        + r"(?P<new>(?!(?:the|a|an|my|no|more|longer)\b)[a-z']+ (?P=head))\b"
    ),
    rx(
        r"(?i)\b(?:the|my|an?) (?:(?!(?:no|one)\b)[a-z']+ ){0,2}?(?!(?:no|one)\b)[a-z']+"
        r"(?: one| appointment| task| thing)?,? " + _REPAIR + r"(?P<new>(?:the|my|an?) [a-z])"
    ),
)


_SAID_OVER_ASK = rx(rf"{_CHANGES.pattern}|\b(?:cancel|delete|remove)\b")


def said_over(message: str) -> str:
    """`message` with a thing said over in the same breath read as the second one."""
    lowered = message.lower()
    if (" no " not in lowered and " no, " not in lowered) or not _SAID_OVER_ASK.search(lowered):
        return message
    for pattern in _SAID_OVER:
        message = pattern.sub(lambda found: found.group("new"), message)
    return message


# "book me a checkup tomorrow at 4:30. and remind me to fast the day before": the day
# before the day said first in the message (read alone, it had no day to count from).
_DAY_FROM_NOTHING = rx(
    r"\bthe day (?P<dir>after|before)\b"
    r"(?! (?:my|the|that|this|it|your|next|tomorrow|today|\w+day|yesterday)\b)"
)


def _day_from_the_day_said(message: str, now: datetime) -> str:
    lowered = message.lower()
    if "the day " not in lowered:
        return message
    said = _DAY_FROM_NOTHING.search(lowered)
    if said is None or said.start() == 0:
        return message
    when = find_when(message[: said.start()], now)
    if when is None or when.day is None or when.day_implied or when.vague_day:
        return message
    day = when.day + timedelta(days=1 if said.group("dir") == "after" else -1)
    before = message[: said.start()]
    meant = f"{day.strftime('%B')} {day.day}".lower()
    if not _PREPOSITION_BEFORE.search(before):
        meant = f"on {meant}"  # ("…to the day after": to january 19)
    return f"{before}{meant}{message[said.end() :]}"


# "…, no wait, don't, I still need to go": a reason after the words that take an ask back.
_REASON_AFTER_DONT = rx(
    r"\b(?:don't|dont|do not)[\s,.!;]+(?:i|we|it|i'm|it's) (?:still|haven't|have not|am still"
    r"|is still|didn't|did not)\b"
)


@lru_cache(maxsize=512)
def put_right(message: str, now: datetime) -> str:
    """`message` with a correction said in it applied to the ask it corrects (see the
    module's docstring); `now` is the customer's (a day put right is read from it)."""
    if _REASON_AFTER_DONT.search(message.lower()) and what_was_taken_back(message) is not None:
        # "mark the groceries task done, no wait, don't, I still need to go": the ask is
        # taken back whole, not put right by the reason after it (read as the ask).
        return message
    if (again := said_again(message.lower())) != message.lower():
        # "book a massage for, uh, make it a facial": the service said instead
        message = _in_its_case(again, message)
    message = _day_from_the_day_said(said_over(message), now)
    said, lowered = message, message.lower()
    if (" was" in lowered or " were" in lowered) and (kept := _thing_left_as_it_was(lowered)):
        return kept
    if any(cue in lowered for cue in _UNSAID_PAUSE_CUES):
        # "move the dentist to thursday at 9am sorry friday at 10": said without a pause,
        # the correction after a day or an hour is read as after a full stop.
        paused = _UNSAID_PAUSE.sub(r"\g<end>. \g<cue>", lowered)
        if paused != lowered:
            message, lowered = _in_its_case(paused, message), paused
    if len(lowered) != len(message) or not _MAYBE.search(lowered):
        return said
    if "that" in lowered or "it" in lowered:
        # "…tuesday at 9. hmm actually that's too early. what about thursday then": the
        # reason said between an ask and what puts it right is no ask of its own.
        lowered = _REASON_BETWEEN.sub(". actually, ", lowered)
    # "10 a.m.. actually, quarter past 10": the dots of a.m. are no full stops.
    lowered = _DOTTED_MERIDIEM.sub(r"\1m", lowered) if ".m." in lowered else lowered
    for _ in range(2):  # "…at 2. sorry, 3. no wait, 4"
        corrected = _put_right_once(lowered, now)
        if corrected is None:
            break
        lowered = corrected
    # (a pause read in where nothing was put right is not kept)
    return said if lowered == message.lower() else _in_its_case(lowered, message)


def _in_its_case(corrected: str, message: str) -> str:
    """`corrected` with the words the customer capitalised inside a sentence as they were
    ("call John", "the ClearView one"): a title keeps them."""
    cased: dict[str, str] = {}
    for found in _WORD.finditer(message):
        word = found.group(0)
        if word != word.lower() and not _SENTENCE_START.search(message[: found.start()]):
            cased[word.lower()] = word  # ("Can you…", "Actually, …": cased for their place)
    if not cased:
        return corrected
    return _WORD.sub(lambda found: cased.get(found.group(0), found.group(0)), corrected)


def _put_right_once(text: str, now: datetime) -> str | None:
    start = ended = 0
    # Each place a correction may start is tried ("ok and the cleaning, move it to friday
    # at 11, no, thursday at 11": the clause after the first comma, read as a correction
    # of "ok and the cleaning", corrected nothing; the "no, thursday" after it is one). One
    # inside what a match before it read must be cued ("no", "actually", "sorry"…): "I
    # need to reschedule, the haircut, can we do next sunday instead" puts nothing right.
    while (match := _CORRECTION.search(text, start)) is not None:
        start = match.start() + 1
        inside, ended = match.start() < ended, max(ended, match.end())
        if inside and not match.group("cue"):
            continue
        before = text[: match.start()]
        # The ask put right is the sentence just before ("mark it done then. and the exam i
        # booked earlier, can you make it 3 instead" puts right no change of this message).
        last = before[_last_sentence_start(before) :]
        if (
            not _CHANGES.search(last)
            and not _a_time_given(last, now)
            and not (
                # "when is my haircut and cancel the dental cleaning, actually forget it": the
                # cancel taken back, the question kept
                _TAKE_BACK.fullmatch(
                    f"{match.group('lead') or ''}{match.group('body').strip(' ,')}"
                )
                and _JOINED_ASK.search(last)
            )
        ):
            continue
        after = text[match.end() :].lstrip(".!?; ")
        body = match.group("body").strip(" ,")
        thing = match.group("thing") or match.group("subject")
        if thing is not None and thing not in before:
            continue  # "make the receipt out to me": nothing said before was named
        # Put right in what was said from the thing named on ("…add pick up dry cleaning
        # for friday. Actually make the dry cleaning saturday").
        head = before[: before.rfind(thing)] if thing is not None else ""
        before = before[len(head) :]
        if _TAKE_BACK.fullmatch(f"{match.group('lead') or ''}{body}"):
            body = "undo that"  # "…, actually put it back where it was": "put it" leads nothing
        fixed = _applied(before, body, bool(match.group("cue") or match.group("lead")), now)
        if fixed is None:
            continue
        fixed = head + fixed
        rest = after.strip()
        if not fixed.strip():
            return rest or "never mind"
        return f"{fixed.rstrip(' ,')}. {rest}" if rest else fixed.rstrip(" ,")
    return None


def _applied(before: str, body: str, marked: bool, now: datetime) -> str | None:
    """`before` put right by `body`; None when the body is not a correction of it."""
    if _TAKE_BACK.fullmatch(body):
        return _without_last_sentence(before)
    for swap in _SWAP:
        if (found := swap.fullmatch(body)) is not None:
            old, new = found.group("old").strip(), found.group("new").strip()
            if "," not in body and swap is _SWAP[1]:
                old, new = _two_times(f"{old} {new}", now) or (old, new)
            if (swapped := _swapped(before, old, new, now)) is not None:
                return swapped
    if not marked:
        return None  # a bare "friday" after an ask is a remark, not a correction
    value = _AROUND.sub("", body).strip(" ,")
    if "," in value and (parts := _values_said(value, now)) is not None:
        # "no, sunday is fine, just make it 3", "wait, monday works better, at 1": a day
        # and an hour put right in turn, the last said of each kept
        retimed: str | None = before
        for part in parts:
            retimed = _retimed(retimed, part, now) if retimed is not None else None
        if retimed is not None:
            return retimed
    if "," in value and not _classified(value, now):
        # "sorry, normal priority, it's not that urgent": the value, then why.
        value = value.split(",", 1)[0].strip()
    if (priority := _PRIORITY.fullmatch(value)) is not None:
        return _with_priority(before, priority.group("p"))
    if " and " in value and _A_TASK_ADDED.search(before):
        # "add a task to water the plants. actually make that due tomorrow and high
        # priority": each of the details put right in turn
        fixed: str | None = before
        for part in value.split(" and "):
            part = part.strip(" ,").removeprefix("due ").removeprefix("by ")
            if fixed is None or not part:
                return None
            if (priority := _PRIORITY.fullmatch(part)) is not None:
                fixed = _with_priority(fixed, priority.group("p"))
            else:
                fixed = _retimed(fixed, part, now)
        return fixed
    if value.startswith(("due ", "by ")) and _A_TASK_ADDED.search(before):
        value = value.split(" ", 1)[1]  # "…. actually make it due friday": the task's day
    if (shift := _SHIFT.fullmatch(value)) is not None:
        return _shifted(before, shift, now)
    if _NEXT_DAY.fullmatch(value):
        days = -1 if "before" in value or "previous" in value or "earlier" in value else 1
        return _day_moved(before, days, now)
    return _retimed(before, value, now) or _retargeted(before, value)


# What leads a second value said after a comma ("…, just make it 3", "…, and at 1").
_PART_LEAD = rx(r"^(?:(?:just|and|then|so|but|actually|or)\s+)*(?:(?:make|do|put) (?:it|that)\s+)?")


def _values_said(value: str, now: datetime) -> list[str] | None:
    """The days and hours said one after another, parted by commas ("sunday is fine, just
    make it 3": "sunday", "3"); None unless each part is one."""
    parts = [_PART_LEAD.sub("", _AROUND.sub("", part).strip(" ,")) for part in value.split(",")]
    parts = [part for part in parts if part]
    if len(parts) < 2 or not all(_classified(part, now) for part in parts):
        return None
    return parts


def _retargeted(before: str, value: str) -> str | None:
    """ "tick off the eye exam task. Sorry, i meant the groceries one": the groceries task."""
    new = _ONE_NAMED.fullmatch(value)
    if new is None:
        return None
    named = list(_ONE_NAMED.finditer(before))
    if not named:
        return None
    old = named[-1]
    return f"{before[: old.start('words')]}{new.group('words')}{before[old.end('words') :]}"


def _classified(value: str, now: datetime) -> bool:
    """The value is one this module puts right with."""
    return bool(
        _PRIORITY.fullmatch(value)
        or _SHIFT.fullmatch(value)
        or _NEXT_DAY.fullmatch(value)
        or find_when(value, now)
        or _at_hour(value, now)
    )


def _last_sentence_start(text: str) -> int:
    return max(text.rfind(mark) for mark in ".?!;") + 1


def _without_last_sentence(text: str) -> str:
    """ "What do I owe? And book me a facial…" taken back: "What do I owe?"; "how much do i
    owe and push my cleaning to thursday", taken back, keeps the question: a take-back
    takes back only the ask it follows, though joined to another by "and"."""
    cut = max(text.rfind(mark) for mark in ".?!;")
    kept, last = (text[: cut + 1], text[cut + 1 :]) if cut >= 0 else ("", text)
    if " and " in last or " then " in last or " also " in last:
        joins = list(_JOINED_ASK.finditer(last))
        if joins and last[: joins[-1].start()].strip(" ,"):
            return kept + last[: joins[-1].start()].rstrip(" ,")
    return kept


# "…and push my cleaning to thursday": another ask joined on, its verb its own.
_JOINED_ASK = rx(
    r"(?:,\s*|\s+)(?:and then|and also|and|then|also|plus)\s+(?=(?:please |can you |could you )?"
    r"(?:book|schedule|move|reschedule|push|pull|bring|change|put|add|remind|create|set|make"
    r"|mark|complete|tick|update|cancel|delete|remove)\b)"
)


def _two_times(words: str, now: datetime) -> tuple[str, str] | None:
    """ "two thirty three thirty" said with no pause: "two thirty", "three thirty"."""
    said = words.split()
    for cut in range(len(said) - 1, 0, -1):
        old, new = " ".join(said[:cut]), " ".join(said[cut:])
        if _is_time(old, now) and _is_time(new, now):
            return old, new
    return None


def _at_hour(words: str, now: datetime) -> When | None:
    """`words` read as an hour said after "at"; a number of three digits or more is none
    here ("…0162 oops i mean 1426": a phone number's digits put right, not a 24-hour
    clock, which "at 1426" said whole is)."""
    if words.isdigit() and len(words) > 2:
        return None
    return find_when(f"at {words}", now)


def _is_time(words: str, now: datetime) -> bool:
    when = _at_hour(words, now)
    return when is not None and when.clock is not None and _only_when(f"at {words}", when)


def _swapped(before: str, old: str, new: str, now: datetime) -> str | None:
    """ "…at 2. sorry, 3 not 2", "…buy milk. sorry, oat milk not milk"."""
    if _NUMBER.fullmatch(old) and _NUMBER.fullmatch(new):
        return _retimed(before, new, now)
    spot = None
    for found in re.finditer(rf"\b{re.escape(old)}\b", before):
        spot = found
    if spot is None:
        return _retimed(before, new, now) if _at_hour(new, now) else None
    return before[: spot.start()] + new + before[spot.end() :]


def _with_priority(before: str, priority: str) -> str:
    said = list(_PRIORITY_SAID.finditer(before))
    if not said:
        # "…put a reminder in to pay it": "a high priority reminder" (said after the ask
        # as a clause of its own, it is read as a new ask's words).
        nouns = list(_TASK_NOUN.finditer(before))
        if not nouns:
            return f"{before.rstrip(' ,.')}, {priority} priority"
        spot = nouns[-1].start("noun")
        return f"{before[:spot]}{priority} priority {before[spot:]}"
    last = said[-1]
    return f"{before[: last.start()]}{priority} priority{before[last.end() :]}"


def _spans(text: str, now: datetime) -> tuple[When | None, list[Span], list[Span]]:
    """The day and the time said in `text`, with where each was said."""
    when = find_when(text, now)
    days: list[Span] = []
    times: list[Span] = []
    for start, end in when.spans if when else ():
        part = find_when(text[start:end], now)
        if part is None:
            continue
        if part.clock is not None and (part.day_implied or part.day is None):
            times.append((start, end))
        elif part.day is not None and part.clock is None:
            days.append((start, end))
        else:
            times.append((start, end))  # said as one ("tomorrow at 9"): put right whole
    return when, days, times


def _retimed(before: str, value: str, now: datetime) -> str | None:
    """ "…thursday at 10am" put right by "11", "friday", "friday at 10", "the 21st"."""
    said = value if find_when(value, now) is not None else f"at {value}"
    when = find_when(value, now) if said == value else _at_hour(value, now)
    if when is None or not _only_when(said, when):
        return None
    old, days, times = _spans(before, now)
    day_said = when.day is not None and not when.day_implied
    clock_said = when.clock is not None
    if (
        when.clock is not None
        and not _MERIDIEM.search(said)
        and old is not None
        and old.clock is not None
    ):
        # "friday at 10" after "…at 9am": the hour in the half of the day it puts right.
        _, _, clock_spans = _spans(said, now)
        if clock_spans:
            start, end = clock_spans[-1]
            said = f"{said[:start]}{_at(_same_half(when.clock, old.clock))}{said[end:]}"
    if day_said and clock_said:
        return _replaced(before, days + times, said)
    if clock_said:
        return _replaced(before, times, said if said.startswith("at ") else f"at {said}")
    if day_said:
        return _replaced(before, days, said)
    return None


# "yes, 3pm please" (to "what time?"): a reply that gives only a day or an hour.
_REPLY_WORDS = frozenset(
    {"yes", "yeah", "yep", "ok", "okay", "sure", "please", "then", "how", "sorry", "oh"}
)


def _a_time_given(sentence: str, now: datetime) -> bool:
    """The sentence only gives a day or an hour (a reply to "what time?"), so what puts it
    right ("…. Actually make it 4 instead") puts right the time given."""
    said = sentence.strip(" ,.!?")
    if not said or len(said.split()) > 6:
        return False
    when = find_when(said, now)
    if when is None or (when.clock is None and when.day is None):
        return False
    left = said
    for start, end in sorted(when.spans, reverse=True):
        left = left[:start] + " " + left[end:]
    return all(w in _WORDS_LEFT or w in _REPLY_WORDS for w in left.replace(",", " ").split())


def _only_when(said: str, when: When) -> bool:
    """Nothing but the day and the time is said ("at 11", "on friday", not "at 11 and
    what do I owe")."""
    left = said
    for start, end in sorted(when.spans, reverse=True):
        left = left[:start] + " " + left[end:]
    return all(word in _WORDS_LEFT for word in left.replace(",", " ").split())


def _replaced(before: str, spans: list[Span], said: str) -> str:
    """`before` with its last run of `spans` replaced by `said` (added when none)."""
    if not spans:
        return f"{before.rstrip(' ,.')} {said}"
    spans = sorted(spans)
    run = [spans[-1]]
    for span in reversed(spans[:-1]):
        if run[0][0] - span[1] > 4:  # "on thursday at 9": one run; two asks' are two
            break
        run.insert(0, span)
    start, end = run[0][0], run[-1][1]
    # "…on wednesday" put right by "thursday": on thursday (the word before it kept).
    lead = _PREPOSITION.match(before, start)
    if lead is not None and not _PREPOSITION.match(said) and not _STANDS_ALONE.match(said):
        said = f"{lead.group(0)}{said}"
    elif lead is None and _PREPOSITION.match(said) and _PREPOSITION_BEFORE.search(before[:start]):
        said = _PREPOSITION.sub("", said, count=1)  # "…to at 10am" is not said
    return f"{before[:start]}{said}{before[end:]}"


def _same_half(new: time, old: time) -> time:
    """ "11am… no wait, 1" is 1pm; "4pm… sorry, 5" is 5pm: a bare hour is in the half of
    the day of the one it puts right; one before a morning hour is read as said alone."""
    hour = new.hour % 12
    half = 12 if old.hour >= 12 else 0
    if half == 12 and hour + half >= 21 and old.hour < 18:
        # "1pm… make it 11": not 11 at night (an evening hour put right stays in the
        # evening: "8pm… no wait, 9"); read as a bare hour is read
        return new
    if half == 0 and hour < old.hour % 12:
        # "11am… no wait, 1" (1pm), "10am… no, 9" (9am, not 9pm): an hour before it in the
        # morning is read as a bare hour is read (the business's day decides)
        return new
    return new.replace(hour=hour + half)


def _at(clock: time) -> str:
    hour = clock.hour % 12 or 12
    minutes = f":{clock.minute:02d}" if clock.minute else ""
    return f"at {hour}{minutes}{'am' if clock.hour < 12 else 'pm'}"


def _shifted(before: str, shift: re.Match[str], now: datetime) -> str | None:
    """ "…at 1pm. can you make it half an hour later?": at 1:30pm."""
    unit = shift.group("unit")
    count = shift.group("n") or "a"
    amount = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "a couple of": 2}.get(count)
    number: float = amount if amount is not None else int(count)
    if shift.group("half"):
        number = 0.5 if shift.group("n") in (None, "a", "an") else number + 0.5
    sign = -1 if shift.group("dir") in ("earlier", "before", "sooner") else 1
    if unit.startswith("day"):
        return _day_moved(before, int(sign * number), now)
    minutes = number * (60 if unit.startswith("hour") else 1)
    old, _, times = _spans(before, now)
    if old is None or old.clock is None or not times:
        return None
    moved = datetime.combine(now.date(), old.clock) + timedelta(minutes=sign * minutes)
    return _replaced(before, times, _at(moved.time()))


def _day_moved(before: str, days: int, now: datetime) -> str | None:
    """ "…on tuesday at 9am. actually the next day, same time": on wednesday the 16th."""
    old, spans, _ = _spans(before, now)
    if old is None or old.day is None or not spans:
        return None
    day: date = old.day + timedelta(days=days)
    return _replaced(before, spans, f"on {day.strftime('%B')} {day.day}".lower())


__all__ = ["put_right"]
