"""A change named in a clause, but not asked of the assistant.

The write rules read a change by its verb and what it names, wherever they stand in the
clause. The words before the verb say whether it is asked: "cancel my haircut", "can you
cancel…", "I need to cancel…" ask it; "why did you cancel…", "my husband will cancel…
himself", "before I cancel…, what do I owe" do not. These frames are read here for every
verb of a change at once (lexicon.CHANGE_VERBS): a guard that named its own verbs let the
other words through ("did you push my haircut to saturday?" moved it, "hold off on
scheduling a massage" booked one), and most frames had no guard at all (736 said in a
probe of twenty frames: 230 changes made, 52 held for a yes).

Two answers: `not_asked` (nothing is offered: what the clause names is looked up, so the
answer can say how it stands) and `offered` (the customer wants it done and says they
could not, or wishes they could: the change is offered, and a yes makes it).
"""

from __future__ import annotations

from assistant.language.lexicon import CHANGE_DONE, CHANGE_VERBS
from assistant.language.others import PERSON
from assistant.language.patterns import rx

# What may open a clause before its frame ("so why did you…", "oh and my husband will…").
_LEAD = (
    r"^(?:(?:so|and|but|well|um|uh|oh|ok|okay|hey|hi|actually|wait|hmm|just|sorry|also|then"
    r"|yeah|yes|no|right|anyway|alright)[ ,]+)*"
)
_CHANGE = rf"(?:{CHANGE_VERBS})\w*"
_DONE = rf"(?:{CHANGE_DONE})"
# Someone who is neither the customer nor the assistant.
_SOMEONE = rf"(?:he|she|they|someone|somebody|(?:my|our) {PERSON})\b"

_NOT_ASKED = rx(
    # "did you push my haircut?", "why did you cancel it?", "have I booked…?", "why haven't
    # you moved it yet?": a question about what was done, answered from what is on file
    _LEAD + r"(?:(?:why|when|how come|how|where)\s+)?(?:did|didn't|have|haven't|has|hasn't"
    r"|had)\s+(?:i|you|u|we|someone|anyone|anybody|somebody|he|she|they|(?:my|our) \w+)"
    r"(?:\s+(?:already|ever|actually|just|really|definitely|even|not|also))*\s+"
    rf"(?:{_CHANGE}|{_DONE})\b"
    # "does my wife usually cancel it?", "do they ever move it?": a question of what another
    # does, none asked of the assistant
    rf"|{_LEAD}(?:(?:why|when|how come|how often|where)\s+)?(?:does|doesn't|do|don't)\s+"
    rf"{_SOMEONE}(?:\s+(?:usually|always|normally|often|ever|generally|typically|sometimes"
    rf"|still|even|also|actually|really))*\s+{_CHANGE}\b"
    # "who cancelled my haircut?", "has anyone moved it?"
    rf"|{_LEAD}who(?:'s| has| had)?\s+(?:already\s+)?{_DONE}\b"
    # "I've already booked a massage on saturday", "we already set up the cleaning": done
    # elsewhere (a to-do said finished is ticked off: CHANGE_DONE leaves those words out)
    rf"|{_LEAD}(?:i|we)(?:'ve|'d| have| had)?\s+(?:\w+\s+)?already\s+{_DONE}\b"
    # "my husband will cancel it himself", "she's going to move it": another's own plan
    rf"|{_LEAD}{_SOMEONE}(?:'ll|'s| will| can| could| is| are| was)?"
    r"(?:\s+(?:going to|gonna|about to|planning to|able to|probably|already|just|also))*"
    rf"\s+{_CHANGE}\b"
    # "I can cancel it myself later", "we'll move it online": the customer's own plan
    rf"|{_LEAD}(?:i|we)\s+(?:can|could)\s+(?:just\s+|also\s+|always\s+|easily\s+)?{_CHANGE}\b"
    rf"|{_LEAD}(?:i|we)(?:'ll|'m| will| am| are)?(?:\s+(?:going to|gonna|just|probably|also))*"
    rf"\s+{_CHANGE}\b.*\b(?:myself|ourselves|on my own|later on|online|on the (?:website|app"
    r"|portal|site))\b"
    # "so now I have to cancel it myself", "we'll need to move it ourselves": the customer's
    # own act, said as a need ("book a massage for myself" names who it is for)
    # (read wherever it stands: "great, so now I have to…" is read whole for a booking)
    r"|\b(?:i|we)(?:'ll| will|'d| would)?(?:\s+(?:now|just|still|also|then))*"
    r"\s+(?:have|'ve got|have got|got|need|'ll need|'ll have)\s+to\s+(?:\w+\s+)?"
    rf"{_CHANGE}\b.*(?<!\bfor )\b(?:myself|ourselves|on (?:my|our) own)\b"
    # "before I cancel my haircut, what do I owe": the customer's own act, to come
    rf"|{_LEAD}(?:before|after|once|when|whenever|until|till|by the time|in case)\s+(?:i|we)"
    rf"(?:\s+(?:just|actually|finally|eventually|do|go and))?\s+{_CHANGE}\b"
)

# The same question, said alone and of the assistant ("did you cancel it or not?", "have you
# marked it done?", "did you delete it?"): whether it was done is asked, nothing more.
_ASKED_IF_YOU_DID = rx(
    _LEAD + r"(?:did|didn't|have|haven't|has|hasn't)\s+(?:you|u)"
    r"(?:\s+(?:already|ever|actually|just|really|definitely|even|not|also))*\s+"
    rf"(?:{_CHANGE}|{_DONE})\b[^.!?;]*[.!?]*$"
)

_OFFERED = rx(
    # "I wish I could move my haircut", "if only I could cancel it"
    r"\b(?:(?:i|we) wish(?:ed)? (?:i|we|you)|if only (?:i|we|you))\s+(?:could|can|would|had"
    rf" time to)\s+(?:\w+\s+)?{_CHANGE}\b"
    # "I tried to book a massage on the website", "I've been trying to cancel it"
    r"|\b(?:i|we)(?:'ve| have| had)?\s+(?:been\s+)?(?:tried|trying|attempted|attempting)\s+"
    rf"(?:to\s+)?(?:\w+\s+)?{_CHANGE}\b"
    # "the app won't let me cancel it", "I can't seem to move it", "I don't know how to…"
    r"|\b(?:won't|wouldn't|doesn't|didn't|does not|did not|will not) let (?:me|us)\s+"
    rf"(?:\w+\s+)?{_CHANGE}\b"
    r"|\b(?:i|we) (?:can't|cannot|couldn't|could not) (?:seem to|figure out how to|work out how"
    rf" to|find (?:how|where) to)\s+{_CHANGE}\b"
    rf"|\b(?:i|we) (?:don't|do not|didn't|did not) know how to\s+{_CHANGE}\b"
    # "how do I move my haircut?", "how can we cancel it?": the way asked, the change offered
    rf"|{_LEAD}how\s+(?:do|can|could|would|should|will)\s+(?:i|we)\s+(?:go about\s+)?"
    rf"{_CHANGE}\b"
    # "do you know if I can cancel it?"
    r"|\b(?:do|does) (?:you|anyone|anybody) know (?:if|whether) (?:i|we) (?:can|could|may)\b"
)
# A word one of the frames above has; most clauses have none, and skip the patterns.
_QUICK = rx(
    r"\b(?:did|didn't|have|haven't|has|hasn't|had|who|who's|already|will|'ll|can|could"
    r"|going|gonna|about|planning|able|before|after|once|when|whenever|until|till|time|case"
    r"|wish|wished|only|tried|trying|attempted|attempting|let|how|know|he|she|they|someone"
    r"|somebody|my|our|myself|ourselves)\b"
)


def not_asked(said: str) -> bool:
    """The normalized clause names a change someone did or will do, or asks whether it
    was done: none is asked of the assistant."""
    return _QUICK.search(said) is not None and _NOT_ASKED.search(said) is not None


def asked_if_you_did(said: str) -> bool:
    """The normalized message is only a question whether the assistant made a change
    ("did you cancel it or not?"): never a change of what "it" points at, however it ends
    ("…mark it done?"); a request after it ("did that work? book…") is read as said."""
    return said.startswith(_ASKED_LEADS) and _ASKED_IF_YOU_DID.search(said) is not None


# The words such a question opens with, after the words that may lead it.
_ASKED_LEADS = (
    "did",
    "didn't",
    "have",
    "haven't",
    "has",
    "hasn't",
    "so",
    "and",
    "but",
    "well",
    "um",
    "uh",
    "oh",
    "ok",
    "okay",
    "hey",
    "hi",
    "actually",
    "wait",
    "hmm",
    "just",
    "sorry",
    "also",
    "then",
    "yeah",
    "yes",
    "no",
    "right",
    "anyway",
    "alright",
)


def offered(said: str) -> bool:
    """The normalized clause tells of a change the customer wants and could not make, or
    asks how to make it: the change is offered, not made."""
    return _QUICK.search(said) is not None and _OFFERED.search(said) is not None


__all__ = ["asked_if_you_did", "not_asked", "offered"]
