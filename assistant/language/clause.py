"""One clause as the rules read it, and the words every rule listens for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from assistant.language import slots
from assistant.language.lexicon import CHANGE_VERBS, OTHER_CHANGE_DOINGS, OTHER_CHANGE_VERBS
from assistant.language.patterns import rx
from assistant.language.text import Normalized


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a message: its normalized words, and the message it came from."""

    text: str
    norm: Normalized
    now: datetime  # aware, in the customer's timezone
    timezone: str
    # The clause ended its sentence with "?": "the groceries task is done?" asks.
    asked: bool = False

    @property
    def original(self) -> str:
        return self.norm.original


# "and the haircut is that still on", "the cleaning, is it still booked": a visit or to-do
# named first and then asked about, said without a question mark (a recogniser's words): a
# question of its own, not one more item for the change held or asked about.
ASKED_OF_IT = rx(
    r"\b(?:is|are|was|were|does|did|has|have)\s+(?:it|that|this|they|those)\b"
    r"|\bstill (?:on|booked|happening|scheduled|going ahead)\b"
)
# A question asks to see, even when it names an action ("did I complete…?").

QUESTION_START = rx(
    r"^(?:is|are|was|were|did|has|have|what|what's|which|how|who|when|where|do you|do i"
    r"|does)\b"
)
# A negation scopes over the clause it is in: "don't cancel anything", "no need to
# book", "I'm not asking about my bill". One word may come between ("don't go
# cancelling", "not really interested"). "why don't you…" is a request; "I don't owe
# anything, do I?" and "the portal does not open" name no request, so they are read.
# The doings a negation before them refuses ("I'm not scheduling…"): not "making" nor
# "updating" ("I'm not making it to the cleaning, cancel it", "my address is not updating,
# open a case" ask for something).
_GUARDED_DOINGS = "|".join(
    doing for doing in OTHER_CHANGE_DOINGS.split("|") if doing not in ("making", "updating")
)
NEGATED = rx(
    r"^(?:not |no need\b|never ?mind\b|(?:forget|skip|ignore)(?: about)? (?:it|that|the|my)\b)"
    # "no ticket please, I only want to know…": the thing refused, alone in its clause
    r"|^no (?:new |more )?(?:tickets?|cases?|support cases?|reminders?|tasks?|to-?dos?|bookings?"
    r"|appointments?)(?: (?:please|thanks|thank you|for now|needed|necessary|today))*$"
    # "leave the haircut where it is", "leave my tasks alone"
    r"|^(?:just |please )?leave (?:\w+ ){1,3}?(?:where (?:it is|it's|they are)|as (?:it is|it's"
    r"|they are|is)|alone)\b"
    # "…, but keep the cleaning": the thing named stays as it is
    r"|^(?:but )?(?:please |just )?keep (?:the|my|that|this|our)\b"
    # "…but I want to keep it": the thing named before stays as it is
    r"|^(?:i (?:really |actually )?(?:want|would like|'d like|wanna|need|plan|intend) to "
    r"|i(?:'d| would) (?:rather|prefer to) |i'm |i am |i'll |i will )keep(?:ing)? (?:it|that"
    r"|this|them)\b"
    r"|(?<!why )\b(?:don't|do not|no need to|never|no point|not) (?:\w+ )?(?:need|want|care"
    r"|bother|worry|ask|asking|interested|calling about|looking for|cancelling|canceling"
    r"|after|fussed|bothered|concerned|worried"
    r"|booking|deleting|rescheduling|moving|changing|adding|" + _GUARDED_DOINGS + r")\b"
    # …but the customer's own "making"/"updating" of a thing refuses it ("I'm not making a
    # massage appointment", "we're not updating my phone number to…"): said by "I" or "we",
    # with a new thing made ("a", "any") or a thing of theirs updated; "not making it to
    # the cleaning" (not going) and "my address is not updating" (a fault) still ask
    r"|\b(?:i'm|im|i am|we're|we are|i'll|i will|we'll|we will) not (?:\w+ )?(?:making (?:a|an"
    r"|any|another|new)|updating (?:my|our|the|it|that|this|them|anything|any))\b"
    # "I'd rather you didn't cancel it", "I'd prefer not to move it", "could you not move
    # the haircut" ("could you not just cancel it?" asks for it)
    # (the verb is part of the negation: an ask said after it starts a clause of its own)
    r"|\b(?:rather|prefer)(?: it)?(?: if)? (?:you )?(?:not|didn't|did not|don't|wouldn't)"
    r"(?: to)? \w+"
    r"|\b(?:can|could|would|will) you (?:please |kindly )?not (?!just\b|only\b|also\b|even\b)\w+"
    # "let's not move my haircut", "let's not bother booking it": a change refused (not
    # "let's not forget to book it", which asks for it)
    r"|\b(?:let's|lets|let us) not (?:(?:just|even|bother|bother to) )?(?:" + CHANGE_VERBS + r")"
    # "cancel nothing", "change none of them"
    r"|^(?:please |just )?(?:cancel|delete|remove|move|change|book|add|touch|reschedule)"
    r" (?:nothing|none of (?:them|it|those|these|that))\b"
    r"|(?<!why )\b(?:don't|do not|no need to|never|no point in) (?:\w+ )?(?:show|tell|check"
    r"|add|book|cancel|delete|remove|change|move|reschedule|touch|mark|complete|create|open"
    r"|raise|log|file|submit|make|set|update|edit|rename|push|shift|bring|tick|cross|remind"
    r"|schedule|put|" + OTHER_CHANGE_VERBS + r")\b"
    # "I wasn't planning to cancel the cleaning", "I'm not going to move it": no ask ("I'm
    # not going to make it to my haircut, cancel it" asks the cancel)
    r"|\b(?:wasn't|was not|weren't|were not|not|never) (?:really |actually )?(?:planning"
    r"|intending|meaning|going|trying|looking)(?: on)? to (?!make it\b)(?:\w+ )?(?:cancel|move"
    r"|reschedule|book|delete|remove|change|update|add|mark|complete|open|create|raise|log|"
    + OTHER_CHANGE_VERBS
    + r")\b"
    # "you don't have to cancel my haircut", "you needn't bother moving it": any verb
    r"|\byou (?:don't|do not|dont|needn't|need not|shouldn't|should not|won't|will not)"
    r" (?:have to|need to|bother|bother to|need)\b"
    # "hold off on scheduling a massage", "hold fire on the cleaning": not yet, any verb
    r"|\bhold (?:off|fire)(?: on| with)? (?:\w+ing|it|that|them|the|my|any)\b"
    # "don't you dare cancel my cleaning", "don't even think of moving it"
    # (the verb after "dare" is part of the negation, so no clause is split off there)
    r"|\b(?:don't|do not) (?:you )?(?:dare|even think(?: of| about)?) \w+"
)
# A negation after this belongs to a problem being reported ("open a ticket, the app
# does not load"), not to the request.
REPORT_FIRST = rx(r"\b(?:ticket|case|complaint|report|problem|issue)\b")
TASK_NOUN = rx(
    r"\b(?:tasks?|to-dos?|to dos|reminders?|to-do list|to do list|my list|checklist"
    r"|to[- ]do items?|action items?)\b"
)
APPT_NOUN = rx(
    r"\b(?:appointments?|bookings?|visits?|reservations?|sessions?|booked|scheduled"
    r"|calendar|diary|agenda|coming up|my schedule)\b"
)
CONTACT_NOUN = rx(r"\b(?:email|e-mail|phone|number|cell|mobile|contact (?:info|details))\b")

# Any verb, known or not, shows by its object right after it ("sort out the thing with
# my card", "tell the manager…", "walk my dog"): a thing named ("the pharmacy one", "car
# insurance") never opens with a word and then "the" or "my".
_VERB_AND_OBJECT = rx(
    r"^(?:(?:and|also|plus|then|so|oh|um|uh|just|please|can you|could you|would you)\b[ ,]*)*"
    r"(?!(?:either|both|all|each|only|just|maybe|perhaps|probably|also|even|especially|not"
    r"|and|or|plus|like|same|what|which|when|where|how|who|is|are|was|were|of|for|with|at|on"
    r"|in|to|by|from|about|after|before|than|then|but|so|if|would|could|can|will|should"
    r"|shall|may|might|must|does|did|has|have|had|am|be|been)\b)"
    r"[a-z']+(?: (?:out|up|off|over|on|in|back|down|through|round|around|away))?"
    # (not "it", "that", "them": those point back at what was named before)
    r" (?:the|my|me|a|an|your|our|his|her|their|him|us|these|some)\b"
)


# "…, can you check", "…, could you see": the customer asks to be told, which names no
# target (was: "I bought the groceries, can you check" also completed a task "check");
# "can you check it off" still ticks.
_ASKS_TO_LOOK = rx(
    r"^(?:(?:so|and|then|but|ok|okay)[ ,]+)*(?:(?:can|could|would|will) (?:you|u)"
    r"(?: please| just| quickly| also)?|please) (?:check|look|see|confirm|verify|find out"
    r"|double[- ]check|tell me|let me know)\b(?! (?:it |that |them |those |this )?off\b)"
)


def asks_to_look(text: str) -> bool:
    """ "can you check", "could you confirm": a look asked for, naming nothing."""
    return _ASKS_TO_LOOK.match(text) is not None


def opens_with_a_verb(text: str) -> bool:
    """The clause opens with a verb and its object ("tell the manager…"): an ask of its own,
    never a description of the thing the ask before named."""
    return _VERB_AND_OBJECT.match(text) is not None


# "…from my list", "…off my tasks": not part of the target's description.
LIST_TAIL = rx(r"\s*\b(?:from|off|on) (?:my |the )?(?:to-do |task |todo )?(?:list|tasks)\b.*$")


# "my 2:30", "the 10am", "my Sunday half two", "sunday's 2:30": an appointment named by the
# time it starts.
_HOUR_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
VISIT_BY_TIME = rx(
    r"\b(?:(?:my|the|our|your)(?: [a-z]+day(?:'s)?)?|(?:mon|tues|wednes|thurs|fri|satur|sun)day's)"
    r" (?:\d{1,2}[:.]\d{2}(?: ?[ap]m)?|\d{1,2} ?[ap]m"
    rf"|\d{{1,2}} o'?clock|half {_HOUR_WORD}"
    # said by a voice: "my two thirty", "the ten a m", "my ten o'clock"
    rf"|{_HOUR_WORD} (?:fifteen|thirty|forty[- ]five|o'?clock)|{_HOUR_WORD} ?[ap]m)"
    r"(?! (?:tasks?|reminders?|to-?dos?)\b)(?!\w)"
)


# "whatever I have on the 7th, move it to 4pm": what is booked, named by its day.
_BOOKED_THEN = rx(
    r"\b(?:whatever|what) (?:i have|i've got|i got|i'm booked for|is booked|i've booked)"
    r" (?:on|at|for) (?:the |this |next )?(?:\d|mon|tue|wed|thu|fri|sat|sun|tomorrow|today)"
)


def appointment_context(c: Clause) -> bool:
    """The clause is about an appointment: it says so, names a service, or names one by
    the time it starts ("move my 2:30 to 4pm") or by its day ("whatever I have on the 7th")."""
    return bool(
        APPT_NOUN.search(c.text)
        or slots.service(c.text, c.original)
        or VISIT_BY_TIME.search(c.text)
        or _BOOKED_THEN.search(c.text)
    )
