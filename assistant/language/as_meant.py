"""A message as the grammar reads it, in the customer's own words and case.

Said around a request, some words carry nothing of it: a recogniser's fillers and
restarts ("um, and the first one?"), the words that only open what is said next ("okay
so what do I owe?"), a greeting before a request ("hi there, cancel my haircut"), and
thanks or please after one ("move my haircut to 3, thanks", "and what time please").
They are taken off once a turn, for the planner and the narrator alike, so that every
rule (those reading the raw words too) reads the request as it would read it said
plainly. A yes to a question waiting for
one is heard before this, from the words as said (confirm.is_affirmative).

Asked politely, indirectly or with a hedge ("could you possibly…", "I was wondering if
you could…", "is it possible to…", "…, if you don't mind?"), the request is read as it
would be asked plainly. A word misspelt in a hurry is read as the word meant ("cancle my
apointment tommorow, soz": text.spelt_right), so that the rules reading the customer's
own words ("firday no saturday", "the twelfth", "acutally, undo that") read what was
meant.
"""

from __future__ import annotations

import re
from functools import lru_cache

from assistant.language.lexicon import HOUR_WORDS, MONTHS, WEEKDAYS
from assistant.language.pasted import as_pasted
from assistant.language.patterns import rx
from assistant.language.said_plainly import change_said_plainly, said_plainly
from assistant.language.slots import services_named
from assistant.language.text import only_remarks, spelt_right, thanks_tail
from assistant.language.transcript import plain

# "okay so what do I owe", "alright, and the week after?": words that only open what
# is said next ("now" stays: "now the insurance one" goes on from the last change; "ok
# then …" is said whole: "then" goes on from what was just said).
_OPENER = rx(
    # ("so yeah": a way in, not a yes; "yeah…" first may be the yes asked for; a laugh typed
    # first: "lol no the haircut", "haha ok what do I owe")
    r"(?:(?:okay|ok|alright|all right|right|so(?: yeah)?(?: like)?|well|anyway|anyways|lol"
    r"|haha+|lmao)\b(?![\s,]*then\b)[\s,.!;:-]*)+"
)
# What is left by itself means nothing ("alright then" is said whole).
_NOT_ON_THEIR_OWN = frozenset({"", "then", "now", "please", "thanks", "thank you", "then please"})
# "and what time please", "the third one is done please": "yes please" stays as said.
_PLEASE_TAIL = rx(r"[\s,]+please(?P<mark>[\s.!?]*)$")
# "hi there, cancel my haircut", "hi, don't delete the groceries task…": taken off before
# what follows (the planner greets back a message it then finds no request in: "hi, I need
# to sort a few things out").
_GREETING = rx(
    r"(?:(?:hi|hello|hey|hiya)(?: there| dear| love| hon| honey| sweetie| darling| mate)?\b"
    r"|good (?:morning|afternoon|evening)(?: dear| love| mate)?\b)[\s,.!;:-]*"
)


# A chat's correction of the last message: "*friday" (the star marks the word meant; a
# word between two stars is emphasis), "not 3, 4", "no, not thursday, friday": said as
# "sorry, I meant …", as the rules read it.
_STARRED = rx(r"^\*\s*(?P<x>[^*\s][^*]{0,40}?)\s*(?:sorry|oops|my bad)?[\s.!]*$", re.IGNORECASE)
_STARRED_AFTER = rx(r"[.!,]?\s+\*(?P<x>[^*\s][^*]{0,20}?)\s*(?:sorry|oops|my bad)?[\s.!]*$")
_JUST_ONE_OF_THEM = rx(
    r"^(?P<verb>.*?\b(?:cancel|delete|remove|move|push|reschedule|complete|mark|tick off))"
    r" (?P<both>[^,.;!?]+? and [^,.;!?]+?)[\s,.;!-]+(?:(?:no wait|wait|actually|sorry|lol|jk"
    r"|j/k|just kidding|oops|no|nah)\b[\s,.;!-]*)+(?:just|only) (?P<x>[a-z][a-z ]{2,40}?)[\s.!]*$",
    re.IGNORECASE,
)
_NTH_ONE = rx(
    r"\b(1st|2nd|3rd|4th|5th)(?= (?:one|task|to-?do|item|appointment|visit|reminder)\b)",
    re.IGNORECASE,
)
_NTH_WORDS = {"1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth"}
# A laugh typed after a request ("…is done lol", "cancel it haha"), something before it.
_LAUGH_TAIL = rx(r"(?<=\w)[\s,.!]+(?:lol|haha+|lmao|hehe)[\s.!]*$")
_WRONG_ONE = rx(
    r"^(?:(?:oops|whoops|sorry|ugh|no|lol)\b\W*)*(?:that's |thats |that was |you did |u did )?"
    r"(?:the )?wrong one\W+(?:it's |its |i meant |i mean |should be |it should be |it was )?"
    r"(?P<x>(?:the|my) [a-z][a-z ]{2,30}?)\W*$",
    re.IGNORECASE,
)
_A_VALUE = r"(?:\d{1,2}(?::\d\d)?(?: ?[ap]m)?|[a-z]+day|tomorrow|today|noon|morning|afternoon)"
_NOT_THIS_THAT = rx(
    rf"^(?:no,?\s+)?not (?:at |on |the )?(?P<a>{_A_VALUE})\s*[,;.-]?\s+(?:it's |its |but |i meant "
    rf"|make it |at |on |the )?(?P<b>{_A_VALUE})[\s.!]*$"
)


# Asked politely, indirectly or with a hedge, the request is the same: "could you possibly
# move my haircut to friday for me?", "I was wondering if you could…", "is it possible
# to…", "would it be ok to…", "I think I need to…", "sorry to bother you, but…", "…, if
# you don't mind?", "friday at 3 would be great, thanks", "I think the first one". Only a
# message holding one of these words is tried (most hold none).
_POLITE_WORDS = ("possibl", "wonder", "chance", "able to", "ok to", "okay to", "alright to",
                 "i think", "bother", "mind", "would be", "for me", "kindly", "grateful",
                 "appreciate it if",
                 "ask", "please c", "please w", " is for you", " is to ", " is that you",
                 " is you to", " is to have you", " is to get you")  # fmt: skip
_POLITE_OPENING = rx(
    r"(?:sorry to (?:bother|trouble) you(?:[\s,]+but)?|i was (?:just )?wondering"
    r"(?=[\s,]+(?:what|when|where|which|who|why|how|is|are|am|was|were|do|does|did|can|could"
    r"|have|has|should|shall|will|would|any)\b)"
    # An ask put as a question of whether it can be done: the request, no question.
    r"|(?P<asks>i was (?:just )?wondering (?:if|whether)(?= you | i )"
    r"|is there any (?:chance|way)(?: that)? you (?:could|can|might)"
    r"|(?:would|could) you (?:possibly|maybe|perhaps|kindly)?\s*be able to"
    r"|(?:could|can|would) you (?:possibly|perhaps|maybe|kindly)"
    r"|please (?:could|can|would) you|(?:could|can|may) i ask you to"
    r"|i(?:'d| would) be (?:very |really |most )?grateful if you could"
    # "I'd be ever so grateful if you'd cancel…", "I'd appreciate it if you would…" (the
    # cancel was only offered back: "Would you like me to cancel it?")
    r"|i(?:'d| would) (?:be (?:ever so |so |very |really |most |truly |eternally )?grateful"
    r"|(?:really )?appreciate it) if you(?:'d| would| could)?(?= [a-z])"
    r"|would it be (?:ok|okay|alright|all right|possible) (?:to|if you(?: could)?)"
    r"|is it (?:ok|okay|alright|all right|possible) (?:to|if you(?: could)?|for you to)"
    # "what I need is for you to tick off…", "all I want is to cancel…", "the thing we'd
    # like is for you to…": the ask said as what is wanted ("what…" read as a question)
    r"|(?:basically |really |honestly )?(?:what|all|the (?:only |one |main )?thing)"
    r" (?:i|we)(?:(?:'d| would)?(?: really| actually| just| basically)?"
    r" (?:need|want|like|wanted|needed)|(?:'m| am|'re| are) after)"
    r"(?: from you| of you)?(?: right now| now| today)? is"
    r" (?:for you to|that you|you to|to have you|to get you to|to))"
    r"|(?P<asked>(?:may|could|can) i ask)(?= (?:what|when|where|which|who|why|how|if|whether)\b)"
    r"|i think i (?:need|have|want|'d like|would like) to (?=[a-z])"
    r"|i think (?=(?:the|that|this|my|on|at|in|for|next|both|all|only|a|an|noon|tomorrow|today"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|evening|high|low|normal"
    r"|\d)\b[^.?!,;]{0,30}$))"
    r"[\s,.!:;-]*"
)
# Whoever asks "could you possibly…" asks it of "you": "i was wondering if you could" and
# "is there any chance you could" leave the request; "if you could" too.
_YOU_COULD = rx(r"(?:you (?:could|can|would|might)(?: possibly| please)?|i could)\s+")
_POLITE_TAIL = rx(
    r"[\s,]+(?:(?:if|when) you (?:don't|do not|dont) mind|if (?:that's|that is|thats|it's|it is)"
    r" (?:ok|okay|alright|all right|fine|possible)|(?P<for_me>for me(?:,? please)?)"
    r"|would be (?:great|lovely|perfect|brilliant|good|ideal)(?:,? thanks?(?: you)?)?)"
    r"(?P<mark>[\s.!?]*)$"
)


# Said before a polite ask, and kept: "and could you possibly…", "actually, would it be
# ok to…", "yeah is it possible to cancel it".
_LEAD = rx(
    r"(?:(?:and|also|oh|so|but|then|actually|yeah|yes|yep|no|hmm|well|ok|okay|right|now"
    r"|wait)\b[\s,.!]*)*"
)
_TELL_ME = rx(r"(?:tell|show|give|let) me\b")
# "check off the car insurance task, thanks so much. The remaining two as well": thanks
# said at the end of one sentence, before the next.
_THANKS_BETWEEN = rx(r"[\s,]+(?:thanks|thank you)(?: so much| very much| a lot)?(?=[.!]\s+\S)")
# The question mark that ends an ask put as a question: the request ends there.
_ASKED_END = rx(r"\?(?=\s|$)")


def _polite(plained: str, lowered: str) -> tuple[str, str]:
    """The request asked politely, as it would be asked plainly."""
    opened = False
    for _ in range(2):  # "hi there! could you possibly…", "sorry to bother you, but is it…"
        lead = _LEAD.match(lowered)
        start = lead.end() if lead is not None else 0
        opening = _POLITE_OPENING.match(lowered, start)
        if opening is None or opening.end() >= len(lowered):
            break
        end, opened = opening.end(), opened or opening.group("asks") is not None
        if (you := _YOU_COULD.match(lowered, end)) is not None:
            end = you.end()
        # "tell me where it is" is asked as "can you tell me where it is"
        ask = (
            "can you tell me "
            if opening.group("asked")
            else "can you "
            if _TELL_ME.match(lowered, end)
            else ""
        )
        plained = plained[:start] + ask + plained[end:]
        lowered = lowered[:start] + ask + lowered[end:]
        if opening.group("asks") is not None and (asked := _ASKED_END.search(lowered)):
            # "would you be able to cancel my haircut? sorry, I meant…": said, not asked
            stop = "" if asked.end() >= len(lowered.rstrip()) else "."
            plained = plained[: asked.start()] + stop + plained[asked.end() :]
            lowered = lowered[: asked.start()] + stop + lowered[asked.end() :]
    tail = _POLITE_TAIL.search(lowered)
    # ("for me" only after a polite ask: "is wednesday clear for me" asks about her day)
    if tail is not None and tail.start() > 0 and (opened or tail.group("for_me") is None):
        mark = "?" if "?" in tail.group("mark") else ""
        plained, lowered = plained[: tail.start()] + mark, lowered[: tail.start()] + mark
    return plained, lowered


# "the night before", "the evening before": the day before, said of its end; a bare hour
# said with it is an evening one.
_NIGHT_BEFORE = rx(r"(?i)\bthe (?:night|evening) before\b")
_BARE_EVENING_HOUR = rx(
    r"(?i)\b(?:at|around|by|for) (?:[1-9]|1[01])(?::[0-5]\d)?\b"
    r"(?! ?(?:[ap]\.? ?m\b|o'clock|hours?|minutes?|days?|weeks?|[:.]?\d))"
)
# "and the other one, where's that?", "the haircut, where is it again?": the thing named
# first, then where "that" is asked: asked of it ("and where's the other one?"). ("…,
# when's that" is read as said: a task's due day is asked so too.)
_NAMED_THEN_ASKED = rx(
    r"^(?P<lead>(?:and|so|also|now|then) )?(?P<x>(?:the|my) [a-z][a-z' ]{1,40}?),? "
    r"(?P<q>where(?:'s| is)) (?:that|it)(?: one)?(?P<more> again| at)?\s*\?*$"
)

# "and the car thing, when's that due?": the thing named first, then its due day asked of
# "that" (the one in view was told instead); "and the teeth one, when's that": a visit's.
_NAMED_THEN_WHEN = rx(
    r"^(?P<lead>(?:and|so|also|now|then) )?(?P<x>(?:the|my) [a-z][a-z' ]{1,40}?),? "
    r"when(?:'s| is) (?:that|it)(?: one)?(?P<due> due)?(?: again)?(?: for me)?\s*\?*$"
)
# "the one at studio nine", "the one on valencia street": a visit named by its place.
_ONE_BY_PLACE = rx(
    r"the one (?:at|on|in|by|over on|down on) [a-z]"
    r"|the [a-z]+(?: [a-z]+)? (?:street|st|avenue|ave|road|rd) one$"
)
# "and the shopping one is still tomorrow right": a day said back to be checked, a question
# (it was read as the change just made done again, to that day).
_STILL_SAID_BACK = rx(
    r"^(?P<lead>(?:and|so|but|also) )?(?P<x>(?:the|my) [a-z][a-z' ]{1,40}?)"
    r"(?: is still| is| 's still|'s still| still| stays| is staying)"
    r" (?:due |on |for |set for )?(?:tomorrow|today|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|the \d{1,2}(?:st|nd|rd|th)?)(?: (?:morning|afternoon|evening))?"
    r"(?: at \d{1,2}(?::\d\d)?(?: ?[ap]\.?m\.?)?)?"
    r"(?:,? (?:right|yeah|yes|correct|isn't it|is it|then|though|still))*\s*\?*$"
)


# "ugh sorry, friday was better after all", "actually 3pm would be better": the day or
# hour said as the better one, a change of mind to it ("actually, friday").
_SAID_BETTER = rx(
    r"^(?P<lead>(?:(?:ugh|oh|sorry|actually|no|nah|hmm|um|wait|hang on|on second thought)"
    r"[\s,.!]+)*)(?P<x>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow"
    r"|the \d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?::\d\d)? ?(?:am|pm|o'clock)?)"
    r"(?: at \d{1,2}(?::\d\d)? ?(?:am|pm|o'clock)?)?) (?:was|is|would be|'d be|will be"
    r"|works|worked|would work|suits me|suited me) (?:better|best)(?: after all)?"
    r"(?: actually| then| really)?[\s.!]*$"
)


# "when's the groceries thing due, and the insurance one?": the second thing asked the
# same, its question left unsaid ("…, and when's the insurance one due?").
_AND_THE_OTHER = rx(
    r"^(?P<q>(?:and |so )?(?P<w>when(?:'s| is)) (?:the|my) [a-z][a-z' -]{1,40}? due),?"
    r" and (?:what about |how about )?(?P<y>(?:the|my) [a-z][a-z' -]{1,40}?)[\s.!?]*$"
)


_NAMES_A_KIND = frozenset({"task", "one", "reminder", "to-do", "todo", "thing"})
# "the first thing you mentioned", "the last item you read out": the first (last) one heard.
_NTH_THING_SAID = rx(
    r"\bthe (?P<o>first|second|third|last) (?:thing|item) (?:that )?(?:you|u) (?:just )?"
    r"(?:mentioned|said|told me(?: about)?|named|listed|read out|gave me|brought up)\b"
)
# "the one you mentioned first", "the one you said last": the first (last) one heard.
_ONE_SAID_NTH = rx(
    r"\bthe one (?:you|u) (?:mentioned|said|told me(?: about)?|named|listed|read out|gave me"
    r"|brought up)(?: to me)? (?P<o>first|second|third|last)\b"
)


# "late morning, say 11", "afternoon, maybe 3": the part of the day, then the hour in it.
# "the renewal thing is finished, tick it off": a to-do named done, then marked so as "it".
_DONE_THEN_TICK_IT = rx(
    r"^(?P<x>(?:(?:and|so|also|oh|ok|okay) )?(?:the|my) [a-z][a-z' ]{1,40}?)"
    r" (?:is|'s|has been|was) (?:finished|done|complete|completed|sorted|taken care of)[,.;]?"
    r" (?:so |you can |can you |please )?(?:tick|mark|check|cross) (?:it|that)"
    r"(?: off| done| as done| complete| as complete)?(?: please| too| now)?[\s.!]*$"
)
# "my weekend one", "the weekend appointment": the visit this weekend.
_WEEKEND_ONE = rx(r"\b(?P<d>my|the) weekend (?P<n>one|appointment|visit|booking)\b")
# "…, since it's booked", "… now that I've done it": why, said after a change asked for.
_REASON_TAIL = rx(
    r",? (?:since|because|now that) (?:it's|its|it is|that's|thats|it has been|it's been"
    r"|i've|i have|i did|we've) [a-z' ]{1,30}?[\s.!]*$"
)
_PART_THEN_HOUR = rx(
    r"^(?:(?:early|late|mid)[ -]?)?(?P<part>morning|afternoon|evening)[\s,.-]+(?:say|maybe"
    r"|like|around|about|at|ideally|perhaps)\s+(?P<h>\d{1,2}(?::\d\d)?)(?:ish)?[\s.!]*$"
)


# "…, what I owe and whatever's due this week": what is due, asked beside the rest (not in
# a change: "delete whatever is due tomorrow" is read by its own rule).
# "when do the groceries need doing", "when does the car insurance need to be done by": a
# to-do's due day asked without "due" (read as "when is the groceries due"; "done" had the
# completed ones read out). A visit named is asked of as it was ("my haircut need doing").
_NEEDS_DOING = rx(
    r"^(?P<lead>(?:(?:and|so|ok|okay|oh|um|right)\W+)*)when (?:do|does) (?P<x>(?:the |my )?"
    r"(?!(?:i|we|you|it|that|this|they)\b)[a-z][a-z' -]{1,40}?) (?:need|have) (?:doing|done"
    r"|finishing|sorting|to be (?:done|finished|sorted|paid))(?: by)?(?P<mark>\W*)$"
)
# "when was my last haircut and when is the next one?": the next of the one service named
# before in the message (was: the next visit of any kind), asked only.
_NEXT_OF_IT = rx(
    r"\b(?P<d>the|my) (?:next|upcoming)(?: one)?(?=\W*$)|\b(?P<e>the|my) (?:next|upcoming) one\b"
)
_ASKS_WHEN_ONLY = rx(r"\b(?:when|what (?:day|date|time)|how long)\b")
_CHANGES_A_VISIT = rx(
    r"\b(?:mov|book|cancel|chang|push|reschedul|delet|remov|shift|bump|updat|set|put|add"
    r"|make|schedul|arrang)"
)
_WHATEVER_DUE = rx(r"(?:^|(?<=\band )|(?<=, ))whatever(?:'s| is)(?= due\b)")
_A_CHANGE = rx(
    r"\b(?:delete|remove|cancel|complete|mark|tick|move|push|clear|drop|change|set|make|bump"
    r"|finish|done)\b"
)


# "move the groceries to January 20, high priority", "put the call on friday. And make it
# high priority": a priority is a to-do's, so the thing moved is one ("the groceries task").
_MOVED_WITH_PRIORITY = rx(
    r"^(?P<head>(?:move|push|put|set|bring|change|shift) (?:the|my) (?P<x>[a-z][a-z' ]{1,30}?))"
    r"(?P<tail> (?:to|on|for|till|until) [^,.]{2,40}?(?:,|\.)\s*(?:and\s+)?(?:make (?:it|that)"
    r" |set (?:it|that) (?:to )?|give (?:it|that) )?(?:high|low|normal|medium|urgent)"
    r" priority[.!]?)$"
)


# "going back to the insurance, …", "back to the bill: …", "back to the list. the
# insurance one, …": a topic come back to, then what is asked of it.
_BACK_TO = rx(
    r"^(?:(?:and|so|now)\W+)*(?:(?:going|getting|coming|jumping|let's go|let's get|let me go)"
    r" )?back to (?P<x>(?:the |my |that )?[a-z][a-z' ]{1,30}?)(?: (?:thing|one|for a sec"
    r"|for a second|then))?\s*(?:,|:| -|\.(?= ))\s*"
)


_SPACES = rx(r"[ \t]{2,}")
# "it's gone?", "that's all set then?", "it's done, right": "it" or "that" said to be so,
# with a question mark or a "right" after it
_SAID_AS_SO = rx(
    r"^(?:(?:so|ok|okay|and|right|oh|wait|um+|uh+|hmm+|well|yeah|so yeah)[, ]+)*"
    r"(?P<it>it|that|this)(?:'s| is) (?P<rest>(?:still |all |now |really |definitely )?"
    r"(?:gone|on|off|done|set|sorted|booked|cancell?ed|deleted|removed|moved|changed|updated"
    r"|added|saved|fine|good|ok|okay|through|in)(?: (?:then|now|too|already))?)"
    r"(?:(?P<right>,? right)|,? (?:yeah|yes))?(?P<mark>\?*)$",
    re.IGNORECASE,
)
_FOR_ME_TAIL = rx(r"(?<=\w)[\s,]+for me(?P<mark>[\s.!?]*)$")
_TAIL_WORDS = ("hank", "please", "cheers", "thx", "appreciated")
_SAID_OF_ME = frozenset(
    [
        "clear",
        "free",
        "open",
        "available",
        "good",
        "ok",
        "okay",
        "fine",
        "busy",
        "booked",
        "possible",
        "convenient",
        "best",
        "better",
        "worse",
        "work",
        "works",
        "there",
        "anything",
        "something",
        "nothing",
        "everything",
        "due",
        "left",
    ]
)


def without_greeting(message: str) -> str:
    """`message` without the greeting it opens with, when more is said after it ("hi
    there, yes" is "yes", "um, hello? yes" too; "hi" alone stays)."""
    lowered = message.lower()
    start = filler.end() if (filler := _FILLER_FIRST.match(lowered)) is not None else 0
    end = start
    while (greeting := _GREETING.match(lowered, end)) is not None and greeting.end() > end:
        end = greeting.end()
    if end == start or not message[end:].strip(" ,.!?"):
        return message
    return message[end:].lstrip(" ,.!?;:-")


# The sounds and fillers said before a greeting: "um, hi there", "so yeah hello".
_FILLER_FIRST = rx(r"(?:(?:um+|uh+|erm|er|oh|so yeah|so|ok|okay|yeah)[\s,.!]+)+")


# A day and an hour alone, said before the ask and a comma.
_WHEN_WORD = (
    r"(?:on|at|for|by|this|next|tomorrow|today|tonight|the|in|morning|afternoon|evening"
    r"|noon|midday|half|past|quarter|o'clock|oclock|am|pm|a\.m\.|p\.m\.|\d{1,2}(?::\d\d)?"
    r"(?:am|pm|st|nd|rd|th)?|\d{1,2}/\d{1,2}(?:/\d{2,4})?|"
    + "|".join((*WEEKDAYS, *MONTHS, *(word for word in HOUR_WORDS if word != "one")))
    + r"|thirty"
    r"|fifteen|forty-five|forty five)"
)
# (not "the 2:30 one on sunday, make it 4pm", "the wednesday 10am, push it to friday": a
# visit named by its day and hour, then what to do with "it"; nor "afternoon, maybe 3")
_WHEN_FIRST = re.compile(
    rf"^(?!the\b)(?P<when>(?:{_WHEN_WORD}\b[ ]?)+?),\s+"
    r"(?P<ask>(?:please |can you |could you |would you |i'd like to |i want to |i need to "
    r"|would it be possible to |i need )?"
    r"(?:book|move|reschedule|push|cancel|add|remind|put|schedule|set|change|shift|bump"
    r"|mark|delete|create|open|pencil|slot|squeeze|get|make|bring|note|jot|my)\b"
    r"(?!.*\b(?:it|that|this|them|those)\b).*)$",
    re.IGNORECASE,
)
_TO_DO = re.compile(r"\bto-?do(?P<s>s)?\b(?! ?lists?\b)", re.IGNORECASE)


# "and a massage right after", "a facial just before": a visit said with no verb, beside
# another (the one in view).
_SERVICE_BESIDE = rx(
    r"^(?P<lead>(?:(?:and|also|plus|oh|then|ok|okay)\W+)*)(?P<what>(?:a|an) [a-z][a-z' ]{1,30}?)"
    r" (?P<rel>(?:right |straight |just |immediately )?(?:after|before))"
    r"(?P<it> (?:that|it|this))?\W*$",
    re.IGNORECASE,
)
# "whichever is sooner", "whichever one comes first", "whichever's later": one of two, by
# its time.
# Said alone, as the answer ("book … thursday or friday, whichever is later" is read where
# the two days are).
_WHICHEVER = rx(
    r"^(?:(?:ok|okay|um|uh|hmm|well|oh|just|either|i don't mind|doesn't matter),? )*"
    r"whichever(?:'s| one| of them| of the two)?(?: is| comes| one is)? (?P<w>sooner|soonest"
    r"|earlier|earliest|first|next|later|latest|last)(?: one)?(?: please| thanks)?\W*$",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def as_meant(message: str) -> str:
    """`message` without the words said around its request (see the module's docstring),
    and an ask said the long way round on the phone as typed (language/said_plainly.py)."""
    return said_plainly(_as_meant(message))


def _as_meant(message: str) -> str:
    if ("\n" in message or "—" in message or " | " in message) and (
        request := as_pasted(message)
    ) is not None:
        # a visit pasted from an email or a calendar, with the request: the request
        message = request
    if "  " in message:
        message = _SPACES.sub(" ", message)  # typed twice over, read once
    if message.isupper() and len(message) > 3:
        # TYPED IN CAPITALS: read as any other message (the rules read lower case; the
        # words kept as said, titles and notes, are then written as a sentence)
        message = message.lower()
    # "call off the cleaning and the haircut, actually just the cleaning": a cancel said
    # another way is read as one before any rule below reads where the cancel is
    message = change_said_plainly(message)
    if "to-do" in (lowered := message.lower()) or "todo" in lowered:
        # "the car insurance to-do", "delete the groceries one" after "the eye exam to-do":
        # a to-do is a task, read by every rule that reads "task" (a rule here and there
        # knew the word: one that did not took "the car insurance to-do" for the to-do just
        # added, and "the groceries one" for the eye exam to-do). "my to-do list" stays.
        message = _TO_DO.sub(lambda said: "tasks" if said.group("s") else "task", message)
    for _ in range(3):  # "…, thanks, thanks", "…, thanks for me": each said after the ask
        before = message
        if any(word in message for word in _TAIL_WORDS):
            # A thanks or please said after the ask goes first: the rules below read where
            # the ask ends ("…the cleaning and the haircut, actually just the cleaning,
            # thanks" held both to cancel).
            message = _without_tail(message, message.lower())[0]
        if (
            " for me" in message
            and (for_me := _FOR_ME_TAIL.search(message)) is not None
            # ("is wednesday clear for me", "is that ok for me": said of the customer)
            and message[: for_me.start()].rsplit(None, 1)[-1].lower() not in _SAID_OF_ME
        ):
            # "…no actually nine for me": said to the assistant, no part of the ask (its
            # last words put right were read as "nine for", and 10 booked)
            message = message[: for_me.start()] + for_me.group("mark")
        if message == before:
            break
    if message.endswith(".") and not message.endswith("..") and "." not in message[:-1]:
        # One sentence with its full stop: read as said without it ("Sorry i meant oat
        # milk.", "Change it to oat milk.": the rules that read a reply to its end did not
        # see the end, and the change was lost).
        message = message[:-1]
    stripped = message.strip()
    if stripped[:1] == "*" and (starred := _STARRED.match(stripped)) is not None:
        # "*friday", "*0198 sorry": the word typed wrong in the last message, put right
        message = f"sorry, I meant {starred.group('x')}"
    elif " *" in stripped and (late := _STARRED_AFTER.search(stripped)) is not None:
        # "move my haircut to sat at 2. *3": put right in the same message
        message = f"{stripped[: late.start()]}. sorry, I meant {late.group('x')}"
    elif "wrong one" in stripped.lower() and (wrong := _WRONG_ONE.match(stripped)) is not None:
        # "oops wrong one, the eye exam": the one meant instead of the one just changed
        message = f"sorry, I meant {wrong.group('x')}"
    elif (
        stripped[:4].lower() in ("not ", "no n", "no, ")
        and (swap := _NOT_THIS_THAT.match(stripped.lower())) is not None
    ):
        # "not 3, 4", "no not thursday friday": the value said last time, put right
        message = f"sorry, I meant {swap.group('b')}"
    if (
        (message.endswith("?") or message.lower().endswith("right"))
        and (said_so := _SAID_AS_SO.match(message)) is not None
        and (said_so.group("mark") or said_so.group("right"))
    ):
        # "so it's gone?", "it's still on?", "that's cancelled then?": a question said as a
        # statement, read as asked ("is it still on?"; was "I can't help with that")
        # ("it's done right?", "um, it's done right, thanks": the tag left off, "is it
        # done?"; "yeah it's done" with no mark and no "right" is said, not asked)
        message = f"is {said_so.group('it').lower()} {said_so.group('rest')}?"
    if " and " in message.lower() and (narrowed := _JUST_ONE_OF_THEM.match(message)) is not None:
        meant = narrowed.group("x").strip(" .!")
        if meant.lower() in narrowed.group("both").lower():
            # "cancel the cleaning and the haircut, actually just the cleaning": the one kept
            # (both were held for a yes, the haircut said not to be meant)
            message = f"{narrowed.group('verb')} {meant}"
    if (
        ("after" in message or "before" in message)
        and (beside := _SERVICE_BESIDE.match(message)) is not None
        and services_named(beside.group("what").lower())
    ):
        # "and a massage right after", just after a booking: a booking of its own, beside the
        # visit in view, as "book a massage right after it" is read (was: "I can't help")
        it = beside.group("it") or " it"
        message = f"{beside.group('lead')}book {beside.group('what')} {beside.group('rel')}{it}"
    if "whichever" in message.lower() and (which := _WHICHEVER.search(message)) is not None:
        # "whichever is sooner", asked which of two: the earlier one, as "the earlier one"
        # is read (was: not understood)
        later = which.group("w").lower() in ("later", "latest", "last")
        one = "the later one" if later else "the earlier one"
        message = f"{message[: which.start()]}{one}{message[which.end() :]}"
    if ("1st" in message or "2nd" in message or "3rd" in message or "th " in message) and (
        _NTH_ONE.search(message)
    ):
        # "the 2nd one is done": a place in the list, typed as a number (a day "the 2nd"
        # alone stays a day)
        message = _NTH_ONE.sub(lambda nth: _NTH_WORDS[nth.group(1).lower()], message)
    plained = spelt_right(plain(message).strip())
    if ", " in plained and (fronted := _WHEN_FIRST.match(plained)) is not None:
        # "at 3pm, move my cleaning to thursday", "tomorrow at 10, book me a haircut": the
        # day and hour said first, read where the ask ends (said first, the hour was lost
        # and the cleaning moved to Thursday at its own 10:00)
        plained = f"{fronted.group('ask').rstrip(' .!?')} {fronted.group('when')}" + (
            "?" if plained.rstrip().endswith("?") else ""
        )
    lowered = plained.lower()
    if len(lowered) != len(plained):
        return plained
    greeting = _GREETING.match(lowered)
    if greeting is not None and greeting.end() < len(lowered):
        plained, lowered = plained[greeting.end() :], lowered[greeting.end() :]
    if "thank" in lowered and (between := _THANKS_BETWEEN.search(lowered)) is not None:
        plained = plained[: between.start()] + plained[between.end() :]
        lowered = lowered[: between.start()] + lowered[between.end() :]
    polite = any(word in lowered for word in _POLITE_WORDS)
    if polite:
        plained, lowered = _polite(plained, lowered)
    opener = _OPENER.match(lowered)
    if opener is not None and lowered[opener.end() :].strip(" .!?") not in _NOT_ON_THEIR_OWN:
        plained, lowered = plained[opener.end() :], lowered[opener.end() :]
        if polite:
            plained, lowered = _polite(plained, lowered)
    if "back to" in lowered and (back := _BACK_TO.match(lowered)) is not None:
        # "going back to the insurance, make it due friday": the thing come back to named
        # ("back insurance" was looked for as a to-do's words)
        plained = f"about {plained[back.start('x') : back.end('x')]}, {plained[back.end() :]}"
        lowered = plained.lower()
    if "before" in lowered and _NIGHT_BEFORE.search(lowered) is not None:
        # "floss the night before": the day before it (no night of today, no title word).
        plained = _NIGHT_BEFORE.sub("the day before", plained)
        # "book a facial the evening before my cleaning at 6": a bare hour of that
        # evening is after noon (the evening lost, which half was asked)
        plained = _BARE_EVENING_HOUR.sub(r"\g<0>pm", plained)
        lowered = plained.lower()
    if ", where" in lowered and (asked := _NAMED_THEN_ASKED.match(lowered)) is not None:
        lead, more = asked.group("lead") or "", asked.group("more") or ""
        plained = f"{lead}{asked.group('q')} {asked.group('x')}{more}?"
        lowered = plained.lower()
    if (
        " when" in lowered
        and (asked_when := _NAMED_THEN_WHEN.match(lowered)) is not None
        and (
            asked_when.group("due")
            or services_named(asked_when.group("x"))
            or _ONE_BY_PLACE.match(asked_when.group("x"))
        )
    ):
        lead, due = asked_when.group("lead") or "", asked_when.group("due") or ""
        plained = f"{lead}when is {asked_when.group('x')}{due}?"
        lowered = plained.lower()
    if (
        ("still" in lowered or "stays" in lowered or "staying" in lowered)
        and (back := _STILL_SAID_BACK.match(lowered)) is not None
        and ("still" in back.group(0) or "right" in back.group(0) or "stay" in back.group(0))
    ):
        x = back.group("x")
        plained = f"when is {x}?" if services_named(x) else f"when is {x} due?"
        lowered = plained.lower()
    if ("better" in lowered or "best" in lowered) and (
        better := _SAID_BETTER.match(lowered)
    ) is not None:
        plained = f"actually, {plained[better.start('x') : better.end('x')]}"
        lowered = plained.lower()
    if ("ing" in lowered or "noon" in lowered) and (
        part := _PART_THEN_HOUR.match(lowered)
    ) is not None:
        hour = int(part.group("h").split(":")[0])
        noon = "pm" if part.group("part") != "morning" or hour == 12 else "am"
        if 1 <= hour <= 12:
            plained = f"{part.group('h')}{noon}"
            lowered = plained.lower()
    if (" next" in lowered or " upcoming" in lowered) and (
        nxt := _NEXT_OF_IT.search(lowered)
    ) is not None:
        named_before = services_named(lowered[: nxt.start()])
        if (
            len(named_before) == 1
            and nxt.start() > 0
            and not services_named(lowered[nxt.start() :])
            and _ASKS_WHEN_ONLY.search(lowered)
            and not _CHANGES_A_VISIT.search(lowered)
        ):
            service = next(iter(named_before)).lower()
            the = nxt.group("d") or nxt.group("e")
            plained = f"{plained[: nxt.start()]}{the} next {service}{plained[nxt.end() :]}"
            lowered = plained.lower()
    if (
        " need" in lowered
        and (doing := _NEEDS_DOING.match(lowered)) is not None
        and not services_named(doing.group("x"))
    ):
        x = plained[doing.start("x") : doing.end("x")]
        plained = f"{plained[: doing.end('lead')]}when is {x} due{doing.group('mark')}"
        lowered = plained.lower()
    if (
        "whatever" in lowered
        and (whatever := _WHATEVER_DUE.search(lowered)) is not None
        and _A_CHANGE.search(lowered) is None
    ):
        plained = f"{plained[: whatever.start()]}what's{plained[whatever.end() :]}"
        lowered = plained.lower()
    if (
        " priority" in lowered
        and (moved := _MOVED_WITH_PRIORITY.match(lowered)) is not None
        and moved.group("x").split()[-1] not in _NAMES_A_KIND
        and not services_named(moved.group("x"))
    ):
        plained = f"{plained[: moved.end('head')]} task{plained[moved.end('head') :]}"
        lowered = plained.lower()
    if (" thing " in lowered or " item " in lowered) and (
        thing := _NTH_THING_SAID.search(lowered)
    ) is not None:
        # "the first thing you mentioned": the first one read out, as "the first one you
        # mentioned" (was: looked for as a to-do titled "mentioned")
        plained = f"{plained[: thing.start()]}the {thing.group('o')} one{plained[thing.end() :]}"
        lowered = plained.lower()
    if "the one" in lowered and (nth := _ONE_SAID_NTH.search(lowered)) is not None:
        plained = f"{plained[: nth.start()]}the {nth.group('o')} one{plained[nth.end() :]}"
        lowered = plained.lower()
    if " due" in lowered and (other := _AND_THE_OTHER.match(lowered)) is not None:
        plained = f"{other.group('q')} and {other.group('w')} {other.group('y')} due?"
        lowered = plained.lower()
    if " it" in lowered and (done_it := _DONE_THEN_TICK_IT.match(lowered)) is not None:
        # "and the renewal thing is finished, tick it off": "it" is the one just named (was:
        # the to-do in view, another, marked done)
        plained = plained[: done_it.end("x")] + " is done"
        lowered = plained.lower()
    if "weekend " in lowered and (weekend := _WEEKEND_ONE.search(lowered)) is not None:
        # "push my weekend one back a day": the one this weekend (was: looked for as a visit
        # of a service called "weekend")
        said = f"{weekend.group('d')} {weekend.group('n')} this weekend"
        plained = f"{plained[: weekend.start()]}{said}{plained[weekend.end() :]}"
        lowered = plained.lower()
    if (
        (" since " in lowered or " because " in lowered or " now that " in lowered)
        and (why := _REASON_TAIL.search(lowered)) is not None
        and _A_CHANGE.search(lowered[: why.start()]) is not None
    ):
        # "tick off the optician one since it's booked": the reason said after a change is
        # no part of it (was: looked for as a to-do titled "optician since booked")
        plained, lowered = plained[: why.start()], lowered[: why.start()]
    if ("lol" in lowered or "haha" in lowered or "lmao" in lowered) and (
        laugh := _LAUGH_TAIL.search(lowered)
    ) is not None:
        # "the 2nd one is done lol": the laugh after it is no part of it
        plained, lowered = plained[: laugh.start()], lowered[: laugh.start()]
    return _without_tail(plained, lowered)[0]


def _without_tail(plained: str, lowered: str) -> tuple[str, str]:
    """The message without the thanks or please said after its ask (its question mark
    kept), as said and in lower case."""
    if (tail := thanks_tail(lowered)) is not None:
        plained = plained[: tail.start()] + ("?" if tail.group("mark") == "?" else "")
        return plained, plained.lower()
    if (please := _PLEASE_TAIL.search(lowered)) is not None and not only_remarks(
        lowered[: please.start()]
    ):
        plained = plained[: please.start()] + ("?" if "?" in please.group("mark") else "")
        return plained, plained.lower()
    return plained, lowered


__all__ = ["as_meant"]
