"""Words of a message that ask for something no rule read: said back, never dropped.

"Move my haircut to friday at 3pm and also sort out the thing with my card": the move is
read and made; "sort out the thing with my card" asks for nothing any rule knows. Left
unsaid, the customer hears the move and believes the card was seen to as well. So the
clauses of a message that ask for something and got no decision of their own are kept
with its intents (`Intent.unheard`), and the answer names them as not understood.

Only a clause shaped like an ask counts: a verb said to the assistant ("fix my card",
"can you do my taxes", "blorf the zamble"), or a thing named with nothing said of it
("the other thing", "the blue thing"). What is said around an ask is not one: thanks,
greetings and fillers ("that's great", "perfect"), what the speaker says of themselves or
of things ("I'm running late today", "my account is acting up", "that's the 18th"), a
reason or a condition ("because I'm sick", "if that's alright", "for my mum"), a day or an
hour on its own (`intents` tests that), what is not to change ("leave my tasks alone",
"don't open a ticket"), a question (the question rules read it), and a thing the grammar
knows named as the topic ("the 10 o'clock one on wednesday", "the one before that"). The
test reads the first words of the clause only, and runs only on the few clauses that
asked for nothing.
"""

from __future__ import annotations

from datetime import datetime

from assistant.language.clause import APPT_NOUN, CONTACT_NOUN, TASK_NOUN
from assistant.language.dates import find_when
from assistant.language.patterns import rx
from assistant.language.slots import services_named

# Words that lead into an ask without being part of it, taken off before the ask is read
# and before it is said back ("also can you do my taxes" → "do my taxes").
_LEAD = rx(
    r"^(?:(?:and|also|plus|then|so|but|oh|um|uh|er|erm|hmm|well|now|just|only|please|pls"
    r"|actually|anyway|and then|as well as|after that|can you|could you|would you|will you"
    r"|can u|could u|you can|you could|maybe|perhaps|if you can|if you could"
    r"|i was wondering if you could|do you think you could|first|firstly|second|secondly"
    r"|third|thirdly|next|lastly|finally)\b[ ,]*)+"
)
_TAIL = rx(r"(?:[ ,]+(?:too|as well|also|please|for me|thanks|thank you|if you can))+$")

# A clause that opens with these tells, thanks, greets or gives a reason: no ask.
_REMARK_START = rx(
    r"^(?:"
    # the speaker or a thing, then what is said of it
    r"i|i'm|im|i've|i'd|i'll|i was|me|we|we're|we've|we'll|us|it|it's|its|it'll|it was|that"
    r"|that's|thats|this|this is|there|there's|theres|they|they're|he|he's|she|she's|you"
    r"|you're|you've|you'll|nothing|everything|everyone|someone|somebody"
    # a reason, a condition, a time said around the ask
    r"|because|cause|'cause|cos|coz|since|as|so that|if|unless|when|whenever|while|though"
    r"|although|even|otherwise|in case|once|until|till|before|after"
    # said around it: where, for whom, with whom
    r"|for|with|at|on|in|to|by|from|about|like|except|without|near|around|instead"
    # thanks, greetings, fillers, goodbyes
    r"|thanks|thank|thx|ty|cheers|hi|hello|hey|hiya|morning|good|great|perfect|lovely"
    r"|awesome|cool|nice|brilliant|wonderful|fantastic|excellent|amazing|super|sweet|fine"
    r"|ok|okay|alright|all right|right|sure|yes|yeah|yep|yup|no|nope|not|sorry|bye|goodbye"
    r"|see you|talk soon|take care|have a (?:good|nice|great|lovely)|hope|glad|appreciate"
    r"|love|no rush|no worries|no problem|asap|any time|anytime|whatever|either way"
    r"|in any case|anyway|by the way|btw|haha|lol|wow|oops|ah|oh well|ha|hah|heh|hehe|phew"
    r"|gosh|busy|crazy|what a"
    # "ok back to the first thing I asked about": the thread taken up again, not an ask
    r"|back to|going back to|coming back to"
    # what is not to change is done by changing nothing ("leave my tasks alone", "keep the
    # email as it is", "never mind", "hold on")
    r"|don't|dont|do not|no need|never|never ?mind|forget|skip|ignore|scratch that|leave"
    r"|keep|wait|hold on|hang on|one sec|one moment|same|let me|let's|lemme|start over"
    r"|start again|from the top|go ahead|go on|carry on|proceed|another thing|one more thing"
    r"|one other thing|something else"
    # how, not what: a time offered, a participle ("say 1", "keeping the time")
    r"|say|how about|what about|ideally|preferably|[a-z]{3,}ing"
    # a lookup's verb: what it asks is read by the lookups and the questions, or by the
    # condition it sets ("check if I have anything next week and if not…")
    r"|check|look|see|find|show|list|read|pull"
    # "what do I owe, and pay... no, just tell me": the question before is the ask
    r"|tell me|just tell me"
    # a question, or a question's tag ("…, did you?", "could I…"): read by the questions
    r"|what|what's|whats|when|when's|where|where's|which|who|who's|why|how|how's|any"
    r"|anything|anyone|isn't|aren't|didn't"
    r"|(?:is|are|was|were) (?:i|you|we|they|he|she|it|there|that|this|my|the|your|our)"
    # ("do my taxes" is an order: only a pronoun after makes it a question)
    r"|(?:did|do|does|has|have|had|can|could|would|will|should|shall|may|might|am)"
    r" (?:i|you|we|they|he|she|it|there|someone|somebody|anyone|anybody)"
    r")\b"
)
# "I need you to fix my card", "I'd like you to call my mom": a speaker's ask after all.
# ("I want to make sure I'm up to date" is a reason: the speaker's own doing.)
_SPEAKER_ASKS = rx(
    r"^i (?:really |just |also |still )?(?:want|need|would like|'d like|wanna) you to\b"
)
# "the one before that", "the other one": one the conversation points back to.
_ONE = rx(r"\bones?\b")
# A thing named: "the other thing", "my card", with nothing done to or said of it.
_NAMED_START = rx(r"^(?:the|my|a|an|that|this|those|these|our|your|some|one|other|another)\b")
# Something said of what was named ("my account is acting up"): a remark.
_SAID_OF_IT = rx(
    r"\b(?:is|isn't|are|aren't|was|wasn't|were|weren't|has|hasn't|have|haven't|had|does"
    r"|doesn't|did|didn't|won't|can't|keeps|kept|seems|looks|went|got|gets|needs|needed"
    r"|broke|stopped|works|worked|said|says)\b|'s\b"
)
# Words the grammar knows a thing by: named as the topic of what else is said.
_KNOWN_THING = rx(
    r"\b(?:invoices?|bills?|balance|payments?|charges?|tickets?|cases?|complaints?"
    r"|profile|account|address|name)\b"
)
_PLACEHOLDER = rx(r"\b(?:emailaddress|phonenumber)\d+\b")


def as_said(clause: str) -> str:
    """The clause without the words that lead into an ask or trail it ("also can you…")."""
    return _TAIL.sub("", _LEAD.sub("", clause.strip(" ,.?!;:"))).strip(" ,.?!;:")


def asks_something(clause: str, now: datetime) -> bool:
    """The clause (normalized, read by no rule) asks for something, rather than telling,
    thanking or giving a reason (see the module docstring)."""
    said = as_said(clause)
    if not said or _PLACEHOLDER.search(said):
        return False
    if _SPEAKER_ASKS.match(said):
        return True
    if _REMARK_START.match(said):
        return False
    if _NAMED_START.match(said):
        if _SAID_OF_IT.search(said):
            return False  # "my account is acting up"
        known = (
            APPT_NOUN.search(said)
            or TASK_NOUN.search(said)
            or CONTACT_NOUN.search(said)
            or _KNOWN_THING.search(said)
            or _ONE.search(said)
            or services_named(said)
            or find_when(said, now) is not None
        )
        # "the 10 o'clock one on wednesday" names the topic; "the other thing" asks
        return not known
    return True


def opens_as_remark(clause: str) -> bool:
    """The clause opens as a remark, thanks or a reason does ("thanks", "ok so", "I'm…"),
    not with a thing named."""
    return bool(_REMARK_START.match(as_said(clause)))


# Told, not asked: the speaker or a thing, and what is said of it.
_STATEMENT = rx(
    r"^(?:it's|it is|its|that's|that is|thats|this is|i'm|i am|im|i've|i have|i was|we're"
    r"|we are|we've|she's|he's|they're|they are|there's|there is)\b"
)


def tells(clause: str) -> bool:
    """The clause tells something of the speaker or of a thing ("it's for my mum", "my
    account is acting up"), asking nothing."""
    said = as_said(clause)
    return bool(_STATEMENT.match(said) or (_NAMED_START.match(said) and _SAID_OF_IT.search(said)))
