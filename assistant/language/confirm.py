"""Yes and no, as people say them to "Are you sure…?", and an ask taken back as it is said.

"yes", "yeah go ahead", "sure, do it", "yep please", "confirm" are yes; "no", "nope,
keep it", "never mind", "wait" are no. A message with both ("yes… no, wait") is no:
a destructive action only goes ahead on a clear yes. "Ok, make it 2pm instead" changes
what was asked: it is not a yes either, nor is "yes, the other one" (another target).
"""

from __future__ import annotations

from assistant.language.aimed_at_system import pretends_a_yes, without_system_talk
from assistant.language.as_meant import as_meant
from assistant.language.patterns import rx
from assistant.language.read_once import read_once
from assistant.language.text import normalize

# ("if you don't mind" is no "don't": it asks nicely; "sure, why not" is no "not": it
# agrees, the question turned back)
_NEGATIVE = rx(
    r"\b(?:no|not(?<!do not(?= mind))(?<!why not(?=[\s.!?]*$))|(?:don't|dont)(?! mind)"
    r"|do not(?! mind)|never ?mind|stop|wait|hold on|hang on|keep it|leave it|forget it"
    r"|changed my mind|rather not|negative|abort"
    # "neither actually", asked which of two to change: no to both
    r"|neither|none of (?:them|those|these))\b"
)
_AFFIRMATIVE = rx(
    r"\b(?:yes|yeah|yep|yup|yea|sure|okay|alright|all right|confirm|confirmed|correct|right"
    r"|absolutely|definitely|certainly|affirmative|go ahead|do it|go for it|please do"
    r"|of course|sounds good|i'm sure|i am sure|proceed|fine|perfect|exactly|yes please"
    r"|please go ahead|that's right|that is right|do that|make it so|go on"
    # "that would be great", "that'd be lovely": a yes to what was offered
    r"|that(?: would|'d) be (?:great|lovely|perfect|brilliant|wonderful|fantastic|ideal|fine"
    r"|good|helpful)|sounds (?:great|perfect|fine|lovely)"
    # "sure, why not", "hmm, I guess", "I suppose so": a yes, if a slow one, when nothing
    # follows it ("I guess I'll keep it" says something else; "I guess?" asks)
    r"|why not(?=[\s.!?]*$)|i (?:guess|suppose)(?: so)?(?=[\s.!]*$)"
    # "y", typed alone: a yes (was: "I didn't catch that", the change left waiting)
    r"|^y(?=[\s.!]*$))\b"
)
# "ok, make it 2pm instead", "sure but thursday rather": the held action is changed,
# not agreed to (the change is planned as a request of its own).
_CHANGED = rx(
    r"\b(?:instead|rather)\b"
    # "yes but make it 4", "ok but move it to the 3rd": agreed to, with a change to it
    r"|\bbut (?:make|change|move|switch|put|set) it\b(?! so\b)"
    # "yes but use maria@example.net", "ok, but make that 415 555 0101": another value than
    # the one read back (the one read back was written)
    r"|\bbut\b.*\b(?:emailaddress|phonenumber)\d"
    r"|\b(?:use|make (?:it|that)|change (?:it|that) to|put) (?:emailaddress|phonenumber)\d"
    # "yes the other one", "sure, a different one": another target than the one asked about
    r"|\b(?:the|that|this) other\b|\b(?:a |the )?different (?:one|task|appointment|visit)\b"
    r"|\banother (?:one|task|appointment|visit)\b|\bwrong one\b"
)
# Asked of what is so, not agreed to: "so it's definitely cancelled?", "is that confirmed?".
_STATE_ASKED = rx(
    r"^(?:(?:so|and|but|wait|just to check|to be clear)[\s,]+)*(?:it's|it is|is it|was it"
    r"|that's|that is|is that|has it|it has|it's been|they're|they are|are they"
    # "and you only cancelled the haircut, yeah?": what was done, asked back, no yes to it
    r"|(?:you|you've|you have) (?:only |just |already |definitely )?(?:cancell?ed|deleted"
    r"|removed|changed|moved|booked|updated))\b"
)
# "hmm, what does that mean exactly?", "so how does that work, fine?": a question opened,
# whose later word a yes is made of ("exactly", "fine") is no yes to the change asked about.
_WH_OPENS = rx(
    r"^(?:(?:hmm+|um+|uh+|so|wait|oh|sorry|and|but|well)\b[\s,.!]*)*"
    r"(?:what|what's|whats|why|how|when|where|which|who)\b"
)
# Past this many words a "yes" is probably the start of a new request, not an answer.
_MAX_WORDS = 10
# Words that answer a question only when nothing follows them: said before something
# else ("okay so what do I owe?", "right, when's my haircut?", "fine, add milk to my
# list", "ok thanks") they open the next thing said or close the talk; they do not agree
# to the change asked about. After them, only a yes or a go-ahead is a yes.
# "yeah, one moment please": a moment asked for, the answer still to come.
_A_MOMENT = rx(r"\b(?:one|a|just a|give me a|gimme a) (?:sec(?:ond)?|moment|minute|mo)\b")
# "so yeah", "um yeah", "and yeah so": a filler before what is said, not a yes.
_YEAH_AS_FILLER = rx(
    r"^(?:(?:so|um+|uh+|erm|er|and|well|like)[\s,.]+)+yeah\b[\s,.]*(?:so\b[\s,.]*)?"
)
_ONLY_OPENS = rx(
    r"^(?:(?:okay|ok|alright|all right|right|fine|perfect|so|well|then|now|great|good|cool)"
    r"\b[\s,.!;:-]*)+"
)
_ONLY_OPENING_WORDS = frozenset({"okay", "ok", "alright", "all right", "right", "fine", "perfect"})
_GO_AHEAD_REST = rx(
    r"(?:(?:just|then|now|please)\s+)*(?:cancel|delete|remove|change|update|do) (?:it|that|them)"
    r"(?: one)?(?:[\s,.!]+(?:please|then|now|anyway|after all))*"
)


_NOT_NOW_OR_ON_A_CONDITION = rx(
    r"\b(?:later|tomorrow|tonight|next (?:week|month)|in (?:a|an|\d+|a few|a couple of)"
    r" (?:bit|while|moment|hour|hours|minutes?|days?|weeks?)|after (?!all\b|that\b|this\b|it\b)\w+"
    r"|(?:once|when|before) (?:i|we|i've|we've|i'm|we're)\b|until|till"
    r"|only if|unless"
    r"|if (?!(?:you|u) (?:can|could|want|like|don't mind|do not mind|please)\b|possible\b"
    r"|(?:that's|that is|it's|it is) (?:ok|okay|fine|alright|all right|possible)\b))"
    r"|\bbut\b[^.!]*\?"
)
_DONE_ASKED = rx(
    r"\b(?:did|didn't|have|haven't|has|hasn't|had)\s+(?:you|u|it|that|this|we|i|they|anyone"
    r"|someone|somebody)\b"
)


@read_once
def is_affirmative(text: str) -> bool:
    """True when the message clearly means yes ("pretend I said yes" does not)."""
    if pretends_a_yes(text):
        return False
    said = normalize(without_system_talk(text)).text
    if "yeah" in said and (filler := _YEAH_AS_FILLER.match(said)) is not None:
        # "so yeah what do I owe", "um yeah, no keep it": a caller's way in, no yes; what
        # follows it is the answer (was: the delete held went through on "so yeah hmm what
        # do i owe"). "so yeah" alone answers nothing.
        said = said[filler.end() :]
        text = said
        if not said.strip(" ,.!?"):
            return False
    if _NEGATIVE.search(said) or _CHANGED.search(said) or _A_MOMENT.search(said):
        return False
    if _NOT_NOW_OR_ON_A_CONDITION.search(said):
        # "do it later", "go ahead tomorrow", "yes once I check with my wife", "yes if it's
        # free", "sure, but is it refundable?": no yes to the change now (each was made)
        return False
    match = _AFFIRMATIVE.search(said)
    if match is None:
        return False
    if match.start() > 0 and (asked := _WH_OPENS.match(said)) and asked.end() <= match.start():
        return False
    if (
        match.start() > 0
        and (done_asked := _DONE_ASKED.search(said)) is not None
        and done_asked.start() < match.start()
        and not any(mark in said[done_asked.end() : match.start()] for mark in "?.!")
    ):
        # "did you do it?", "the app said it was done, did you go ahead?": whether it was
        # done, asked (was: taken for a yes to the change offered, and it was made)
        return False
    if match.start() > 0 and "?" in text and _STATE_ASKED.search(said):
        # "so it's definitely cancelled?": the customer asks whether it is done, the word
        # a yes is made of said of the state (was: taken for a yes, and it cancelled).
        return False
    if match.start() == 0 and (opened := _ONLY_OPENS.match(said)) is not None:
        rest = said[opened.end() :].strip(" ,.!?")
        if (
            not rest
            or _AFFIRMATIVE.match(rest) is not None
            or _GO_AHEAD_REST.fullmatch(rest) is not None
        ):
            return True
        # "okay so let me think… yeah ok, do it": a yes said later in a short answer.
        return len(said.split()) <= _MAX_WORDS and any(
            found.group(0) not in _ONLY_OPENING_WORDS for found in _AFFIRMATIVE.finditer(rest)
        )
    return match.start() == 0 or len(said.split()) <= _MAX_WORDS


# "ok, go ahead with the delete", "yes, cancel it after all": a yes that names the action
# asked about before the customer moved on to something else (a bare "yes" never does).
_NAMED_GO_AHEAD = rx(
    r"^(?:(?:ok|okay|yes|yeah|yep|alright|all right|right|sure|fine|actually|then|so|now"
    r"|please|on second thought)\b[\s,.!]*)*"
    # ("ok yes, go ahead with that email change": the change held, named as that one)
    r"(?:(?:go ahead|proceed|carry on|continue|go on)(?: and| with)?(?: the| that| this)?"
    r"|(?:do|you can do|please do|let's do) the|you can|let's)\s+"
    r"(?P<verb>delete|deletion|deleting|remove|removal|cancel|cancellation|cancelling|canceling"
    # "ok yes go ahead and change it" (a held change of the phone or email: only those are
    # held among changes, and the tool must be the one held)
    r"|change|update|switch"
    # "ok, go ahead with the email": the change of the detail held, named by it
    r"|(?:new )?(?P<detail>email|e-mail|email address|phone|phone number|number)(?: change)?)"
    r"(?: (?:it|that|them|then|after all|now|please|anyway|thanks))*[\s.!]*$"
    r"|^(?:(?:ok|okay|yes|yeah|actually|fine|alright|all right)\b[\s,.!]*)*"
    r"(?P<verb2>delete|remove|cancel|change|update) (?:it|that|them) (?:after all|anyway|then)"
    r"[\s.!]*$"
    # "yes delete it", "yeah ok cancel it please": a yes said with the verb asked about.
    r"|^(?:(?:ok|okay|actually|so|well|oh)\b[\s,.!]*)*(?:yes|yeah|yep|yup|sure)\b[\s,.!]*"
    r"(?:(?:ok|okay|please|just|then)\b[\s,.!]*)*"
    r"(?P<verb3>delete|remove|cancel) (?:it|that|them)(?: please| then| now| anyway)*[\s.!]*$"
    # "the cancel, yes", "yes, the delete": the change held, named by its kind, and a yes
    r"|^(?:(?:ok|okay)\b[\s,.!]*)*(?:yes|yeah|yep|sure)\b[\s,.!]*the"
    r" (?P<verb4>delete|deletion|cancel|cancellation)(?:[\s,.!]+(?:please|go ahead|do it))*"
    r"[\s.!]*$"
    r"|^(?:(?:ok|okay)\b[\s,.!]*)*the (?P<verb5>delete|deletion|cancel|cancellation)[\s,.!]+"
    r"(?:yes|yeah|yep)(?:[\s,.!]+(?:please|go ahead|do it))*[\s.!]*$"
)
_VERB_TOOL = {
    "del": "crm.deleteTask",
    "rem": "crm.deleteTask",
    "can": "crm.cancelAppointment",
    "cha": "crm.updateContactInfo",
    "upd": "crm.updateContactInfo",
    "swi": "crm.updateContactInfo",
    "ema": "crm.updateContactInfo",
    "e-m": "crm.updateContactInfo",
    "pho": "crm.updateContactInfo",
    "num": "crm.updateContactInfo",
}


def go_ahead_named(text: str) -> str | None:
    """The destructive tool a yes names by its verb ("go ahead with the delete"), or None."""
    # (read as meant: "yes, would you be able to delete it?" is "yes delete it")
    match = _NAMED_GO_AHEAD.search(normalize(as_meant(text)).text)
    if match is None:
        return None
    verb = (
        match.group("verb")
        or match.group("verb2")
        or match.group("verb3")
        or match.group("verb4")
        or match.group("verb5")
    )
    return _VERB_TOOL.get(verb[:3])


def detail_named(text: str) -> str | None:
    """The contact detail a yes names ("go ahead with the email": "email"), or None."""
    match = _NAMED_GO_AHEAD.search(normalize(as_meant(text)).text)
    detail = match.group("detail") if match is not None else None
    if detail is None:
        return None
    return "email" if detail.startswith("e") else "phone"


# "ok yes cancel the haircut", "right, yes, go ahead and cancel the cleaning": a yes said
# with the verb asked about and the thing it was asked of, by name.
_YES_NAMING = rx(
    r"^(?:(?:ok|okay|right|alright|all right|actually|so|well|oh)\b[\s,.!]*)*"
    r"(?:yes|yeah|yep|yup|sure)\b[\s,.!]*(?:(?:ok|okay|please|just|then)\b[\s,.!]*)*"
    r"(?:(?:go ahead|proceed)(?: and)?\s+)?(?:please\s+)?"
    r"(?P<verb>delete|remove|cancel)\s+(?:the|my)\s+(?P<what>[a-z][a-z' ]*?)"
    r"(?:\s+(?:please|then|now|anyway|after all))*[\s.!]*$"
)
_NOT_A_NAME = frozenset({"task", "appointment", "one", "visit", "booking", "to-do", "todo"})


def go_ahead_naming(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The destructive tool a yes names by its verb, and the words it names its thing by
    ("ok yes cancel the haircut": cancel, ("haircut",)); None for any other message."""
    # (read as meant, as `go_ahead_named`: "ok yes call off the haircut" names a cancel)
    said = normalize(as_meant(text)).text
    if not said.startswith(("o", "y", "r", "a", "s", "w")):
        return None
    match = _YES_NAMING.search(said)
    if match is None:
        return None
    words = tuple(w for w in match.group("what").split() if w not in _NOT_A_NAME)
    tool = _VERB_TOOL.get(match.group("verb")[:3])
    return (tool, words) if tool and words else None


def is_negative(text: str) -> bool:
    """True when the message means no (or "wait"): the pending action must not run."""
    return bool(_NEGATIVE.search(normalize(text).text))


# The yes itself, and the words that lead from it into another request.
_YES_LEAD = rx(
    rf"^(?:(?:{_AFFIRMATIVE.pattern}|please|thanks|thank you|then|and|also|but|too|as well|so|well"
    r"|cancel it|delete it|do that|oh|one more thing|another thing|while you're at it"
    r"|by the way|btw)[\s,.!;:-]*)+"
)


def request_after_yes(text: str) -> str | None:
    """ "yes, and also add a task to buy shampoo": the request said after the yes, or None.

    Only for a message that `is_affirmative`: the pending calls run, and the rest is
    planned like any message (PROTOCOL.md: a yes executes them all; nothing said after
    it is lost).
    """
    # (read as meant: "yes n also, could you possibly add…" is "yes and also add…")
    said = normalize(as_meant(text)).text
    rest = _YES_LEAD.sub("", said).strip(" ,.!")
    return rest if rest and rest != said else None


# "cancel my haircut, oh wait, no, actually don't": an ask taken back before it ends. The
# words that take it back must end the message, and "don't", "leave it", "not yet" count
# only after a "wait", "no", "actually"… ("if there's no slot, leave it" asks something).
_BACK_MARK = r"(?:oh |well )?(?:no|wait|actually|sorry|hang on|hold on|on second thought)"
_TAKEN_BACK = rx(
    rf"(?:[\s,.!;]+{_BACK_MARK})+[\s,.!;]+(?:don't|do not|dont|leave it|not yet|hold off)"
    rf"(?: do it| do that)?"
    # "mark the groceries task done, no wait, don't, I still need to go": a reason after
    # the words that take it back (what the customer still has to do, not an ask of ours)
    r"(?:[\s,.!;]+(?:i|we|it|i'm|it's) (?:still|haven't|have not|am still|is still|didn't"
    r"|did not)\b[^.!?;]{0,60})?"
    # "delete the eye exam task, oh wait, I haven't booked it yet, keep it": a reason
    # between the mark and the words that keep it.
    # ("…, no wait, keep it": with no reason between)
    rf"|\s*[,.!;]\s*{_BACK_MARK}(?:[\s,]+{_BACK_MARK})*\s*[,.!;]\s*(?:[^.!?;]{{3,80}}?[\s,.!;]+)?"
    r"(?:so |then |just |please )?"
    r"(?:keep it|leave it|keep that|leave that|don't do it|don't bother)"
    r"(?: then| for now| after all| as it is| as is| where it is| where it was| please"
    r"| thanks)*[\s.!?]*$"
    # "cancel my haircut no, keep it", "…no keep it": a recogniser's words, no stop
    # before the mark (was: the cancel asked about, and the caller's next yes made it)
    rf"|\s+{_BACK_MARK}(?:[\s,]+{_BACK_MARK})*[\s,.!;]+(?:so |then |just |please )?"
    r"(?:keep it|leave it|keep that|leave that|don't do it|don't bother)"
    r"(?: then| for now| after all| as it is| as is| where it is| where it was| please"
    r"| thanks)*[\s.!?]*$"
    rf"|(?:[\s,.!;]+{_BACK_MARK})*[\s,.!;]+(?:never ?mind|forget (?:it|that|about it)"
    r"|scratch that)(?: then| for now| after all| please| thanks)*[\s.!?]*$"
    # "move my haircut to saturday actually undo that": said unpunctuated, after a mark
    rf"|(?:[\s,.!;]+{_BACK_MARK})+[\s,.!;]+(?:undo (?:that|it)|take (?:that|it) back)"
    r"(?: then| please| thanks)*[\s.!?]*$"
    # "my husband said to cancel the dentist but I want to keep it": the thing asked about
    # is kept ("…but keep the haircut" names another thing: the ask before it stands).
    r"|[\s,.!;]+(?:but|though|however)[\s,]+(?:i (?:really |actually )?(?:want|would like|'d like"
    r"|wanna|need|plan|intend|am going|'m going) to |i(?:'d| would) (?:rather|prefer to) "
    r"|i(?:'ll| will| am| 'm|'m) |i (?:want|need|would like|'d like) )?keep(?:ing)? (?:it|that|this"
    r"|them|that one|this one)(?: for now| as it is| as is| after all)?[\s.!?]*$"
    # "I was going to move my cleaning but actually it's fine where it is": it stays
    rf"|(?:[\s,.!;]+(?:but|though|{_BACK_MARK}))+[\s,.!;]+(?:it's|it is|that's|that is"
    r"|it'll be|it will be) (?:fine|ok|okay|alright|all right|good)(?: where it is| as it is"
    r"| as is| the way it is| how it is| actually| after all| then| thanks)*[\s.!?]*$"
)


_ONLY_LEADS = rx(r"[\s,.!;]*(?:(?:oh|oops|no|nope|wait|actually|sorry|um|hmm)[\s,.!;]*)*")
_BACK_WORDS = (
    "don",
    "do not",
    "leave it",
    "not yet",
    "hold off",
    "mind",
    "forget",
    "scratch",
    "keep",
    "undo",
    "take",
    "fine",
    "okay",
    " ok",
    "alright",
    "all right",
    "good",
)


def taken_back(text: str) -> bool:
    """True when the message asks for something and takes it back at its end."""
    return what_was_taken_back(text) is not None


def what_was_taken_back(text: str) -> str | None:
    """What the message asked before taking it back at its end ("move my haircut to
    saturday" of "…, oh wait, no, actually don't"); None when it takes nothing back."""
    said = normalize(text).text
    if not any(word in said for word in _BACK_WORDS):
        return None  # most messages: the pattern need not be tried
    match = _TAKEN_BACK.search(said)
    if match is None or match.start() == 0 or said[match.end() :].strip(" .!?") != "":
        return None
    if _ONLY_LEADS.fullmatch(said[: match.start()]):
        # "no wait, scratch that": nothing asked before it in this message, so "that" is
        # the change just made (undone as "undo that" is), not a request of this one.
        return None
    return said[: match.start()]
