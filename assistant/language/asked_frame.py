"""Whether a change a write rule read is asked of the assistant, by who is said to do it.

The write rules find a change by its verb and its object anywhere in a clause. What comes
before the verb, in the same part of the clause, says who does it: no one named ("cancel
my haircut", "the 2:30 one, make it 4") or a request's own words ("can you…", "I need
to…", "I'd be grateful if you could…") ask it of the assistant; anyone else ("my
assistant is going to…", "the receptionist moved…", "who told you to…", "I used to…",
"I never asked you to…") tells of a change that is not asked. language/not_asked.py reads
the frames known by name; this reads any other, by its subject: a request is what is
listed here, and a person said before the verb in any other words is no request.
"""

from __future__ import annotations

from assistant.language.lexicon import CHANGE_DONE, CHANGE_VERBS
from assistant.language.others import PERSON
from assistant.language.patterns import rx

_WORDS = [w for w in CHANGE_VERBS.replace("(?! ?in\\b| on\\b| into\\b)", "").split("|")]
_E_STEMS = [w[:-1] for w in _WORDS if w.endswith("e") and " " not in w]
_MORE = "report|remind|complain|reserve"
# Every verb of a change, in any form ("cancel", "cancelled", "cancelling", "making"); a
# word after "the", "my", "that" is a noun ("that booking", "my change").
_VERB = rx(
    r"(?<!\bthe )(?<!\bmy )(?<!\bthat )(?<!\bthis )(?<!\ba )(?<!\ban )(?<!\byour )(?<!\bour )"
    rf"\b(?:(?:{CHANGE_VERBS}|{_MORE})(?:s|es|ed|d|ing|[bdglmnprt](?:ed|ing))?"
    rf"|(?:{'|'.join(_E_STEMS)})ing|{CHANGE_DONE})\b"
    r"(?! it (?:to (?!\d)|on time|in time|there|back|over)\b)"
)
# A person who may be the one doing it.
_PERSON_SAID = rx(
    r"\b(?:i|we|you|u|he|she|they|someone|somebody|anyone|anybody|everyone|everybody|nobody"
    r"|no one|i'm|i've|i'd|i'll|we're|we've|we'd|we'll|you're|you've|you'd|id|im|ive)\b"
)
# Where the part of a clause a change is in starts.
_PART_BREAK = rx(r"[,.;:!?—–]|\s-\s|\b(?:and|but|so|then|because|cause|since|plus|or)\b")
# "that task you mentioned", "the one you said": who named the thing, no doer of the change.
_NAMED_BY = rx(
    r"\b(?:that |which )?(?:you|u) (?:just )?(?:mentioned|said|listed|named|read out|told me"
    r"(?: about)?|gave me|showed me|found)\b"
)
# A write said without a verb of a change: "my new number is…", "the groceries are done".
_VERBLESS_WRITE = rx(
    r"\b(?:number|email|e-mail|phone|mobile|cell|address)(?: address)?\s+(?:is|'s|will be"
    r"|has changed)\b|\bnew (?:phone |mobile |cell |email |e-mail )?(?:number|email|e-mail"
    r"|address)\b|\b(?:is|are|'s|'re)\s+(?:now\s+|all\s+)?(?:done|finished|sorted|complete"
    r"|completed)\b"
)
_STAFF = (
    r"(?:receptionist|assistant|secretary|office|clinic|salon|doctor|dentist|stylist|barber"
    r"|hairdresser|front desk|therapist|nurse|manager|team|staff|practice|surgery|pa)"
)
# Someone named, first in the part (after when: "last week the salon"), then what they do:
# "the receptionist", "my sister always", "my assistant is going to" ("please get my
# haircut moved" names no doer).
_NAMED_DOER = rx(
    r"^(?:(?:so|and|but|well|um|uh|oh|ok|okay|apparently|actually|yesterday|today|earlier"
    r"|recently|once|(?:last|earlier this) \w+|the other (?:day|week)|(?:a|an|\w+) (?:day|week"
    r"|month|year|while|few days|few weeks|couple of weeks)s? ago)\s+)*"
    rf"(?:my|our|the|your|his|her|their)\s+(?:[\w'-]+\s+)?(?:{PERSON}|{_STAFF})"
    r"(?:\s+(?:always|already|never|just|also|usually|will|'ll|is|was|has|had|have|can|could"
    r"|keeps|kept|going to|gonna|about to|used to))*$"
)
_AUX_OR_ADVERB = rx(
    r"\s(?:always|already|never|just|also|usually|will|'ll|is|was|has|had|have|can|could"
    r"|keeps|kept|going to|gonna|about to|used to)$"
)
# A to-do said done by the customer: ticked off ("I finished the groceries task", "I've
# already completed it"), not "I used to complete it" nor "I keep trying to".
_SAID_DONE = rx(r"^(?:finish|complet|tick|cross|clear|mark|sort)\w*(?:ed)$|^done$")
_JUST_THE_SUBJECT = rx(
    r"(?:^|\s)(?:i|we)(?:'ve| have|'d| had)?(?:\s+(?:already|just|finally|actually|now))*$"
)
_ADV = (
    r"(?:(?:really|just|also|still|actually|now|kind of|kinda|definitely|probably|then"
    r"|urgently|please|kindly|possibly|quickly|maybe|perhaps|at least|like|um|uh)\s+)*"
)
_I = r"(?:i|we|id|i'd|i'm|im|i've|ive|we'd|we're|we've)"
_ASKED = rx(
    r"^(?:(?!(?:i|we|you|u|he|she|they|someone|somebody|anyone|anybody|i'm|i've|i'd|i'll"
    r"|id|im|ive|we're|we've|we'd|we'll|you're|you've|you'd)\b)[\w'-]+\s+)*?"
    r"(?:"
    # "i want to", "i need you to", "i'd like to", "we'd love you to", "i wanted to", "i wanna"
    rf"{_I}(?:\s+(?:would|will|do|'ll|'d))?\s+{_ADV}(?:want|wanted|need|needed|like|love|wanna"
    r"|gotta|must|prefer|would like|would love|'d like|'d love)\b"
    rf"|{_I}(?:\s+(?:have|had))?\s+{_ADV}(?:got|have) to\b"
    rf"|{_I}(?:\s+(?:am|are))?\s+{_ADV}(?:going|gonna) (?:to )?(?:need|have|want)\b"
    rf"|{_I}(?:\s+(?:am|are|was|were))?\s+{_ADV}(?:looking|calling|ringing|writing|phoning"
    r"|hoping|trying|wanting|needing|here)\b"
    rf"|{_I}(?:\s+(?:am|are|was|were))?\s+{_ADV}wonder(?:ing)? (?:if|whether)\b"
    rf"|{_I}\s+{_ADV}(?:hope|trust) (?:you|u)\b"
    # ("would you ever cancel it without asking?" asks what the assistant does, not for it)
    r"|(?:can|could|may|might|would|will|won't|wouldn't|shall)\s+(?:you|u|i|we|someone|somebody"
    r"|anyone|anybody)\b(?!\s+ever\b)"
    # "I've decided to cancel my haircut", "we've chosen to move it"
    rf"|{_I}(?:\s+(?:have|had))?\s+{_ADV}(?:decided|chosen|made up my mind) to\b"
    r"|(?:am|are) (?:i|we) able to\b"
    r"|(?:you|u)\s+(?:can|could|may|might as well|should|need to|have to|must|'ve got to|got to"
    r"|'d better|had better|couldn't|could not|wouldn't|would not)\b"
    r"|why (?:don't|dont|not|won't|can't) (?:you|u|we)\b"
    r"|(?:do|would|did) (?:you|u) (?:think|reckon|suppose|mind)\b"
    rf"|{_I}(?:\s+would)?\s+{_ADV}(?:appreciate|be (?:very |ever so |so |really )?(?:grateful|glad"
    r"|thankful|happy)|love it|have liked)\b"
    r"|(?:is|would|will) (?:it|there) (?:be )?(?:at all )?(?:possible|any way|a way|any chance)\b"
    r"|(?:any chance|is there (?:any )?chance) (?:you|u|i|we)\b"
    rf"|{_I}(?:\s+am)? afraid\b"
    rf"|{_I}(?:\s+would|\s+had)?\s+{_ADV}(?:rather|better|sooner)\b"
    # "if I could book a haircut…", "I don't know if you could mark it done": asked politely
    r"|(?:[\w']+\s+)*?if (?:you|u|i|we)(?:'d|\s+(?:could|can|would|will|might|may))\b"
    r"|when (?:you|u) (?:get|have) (?:a )?(?:chance|moment|minute|sec|second)\b"
    rf"|{_I} (?:think|guess|suppose|reckon) (?:i|we)\b"
    r")"
)
# "going to need you to…", "gonna want you to…": a request with its "I" left out.
_NEED_YOU = rx(
    r"^(?:(?:so|ok|okay|well|right|um|uh|just|really|honestly|basically)\s+)*"
    r"(?:(?:going to|gonna|will|gotta)\s+)?(?:need|want)\s+(?:you|u)\s+to$"
)
# "who in their right mind would…", "who'd ever…": asked who would do it, asked of no one.
_WHO_WOULD = rx(
    r"^who(?:'d|\b.*?\s(?:would|'d))(?:\s+(?:ever|even|actually|really|seriously|want to"
    r"|wanna|bother to|choose to))*$"
)
# A change said as done ("moved", "cancelled", "made"; not "set" nor "put", said alike).
_PAST = rx(rf"^(?:\w+ed|(?!set\b|put\b)(?:{CHANGE_DONE}))$")
_OWN_PLAN = rx(r"\b(?:i|we)(?:'ll| will|'m going to| am going to|'m gonna| am gonna)\b")


def frame_of(said: str) -> str:
    """'asked', 'offered' (the customer's own plan: "maybe later I'll book a massage") or
    'not asked', for the most asked of the changes the normalized clause names."""
    best = None
    start = 0
    for verb in _VERB.finditer(said):
        part = said[start : verb.start()]
        start = verb.end()
        breaks = list(_PART_BREAK.finditer(part))
        lead = part[breaks[-1].end() :] if breaks else part
        lead = " ".join(_NAMED_BY.sub(" ", lead).split())
        frame = _frame(lead, verb.group(0))
        if frame == "asked":
            return "asked"
        if frame == "offered" or best is None:
            best = frame
    if best is None or _VERBLESS_WRITE.search(said):
        return "asked"
    return best


# The word a doer's verb follows ("…will cancel", "…used to cancel", "…you cancel"); after
# any other ("i renewed the insurance tick it off") the change starts an ask of its own.
_GOVERNS = rx(
    r"(?:^|\s)(?:to|will|'ll|can|could|would|should|might|may|must|shall|did|do|does|didn't"
    r"|don't|never|always|already|just|also|not|gonna|wanna|gotta|usually|then|even|ever"
    r"|actually|really|probably|maybe|i|we|you|u|he|she|they|someone|somebody|anyone|anybody"
    r"|nobody|i'd|i'll|i've|we've|we'll|we'd|you'll|you'd|he'll|she'll|they'll|cannot|can't"
    r"|won't|wouldn't|couldn't|shouldn't|have|has|had|kept|keep|keeps|is|are|was|were|am"
    r"|i'm|we're|they're|he's|she's|finally|once|when|before|after|nearly|almost"
    r"|accidentally|mistakenly|lot|guys)$"
)


# The customer alone before a verb in its plain form: "I cancel the haircut" asks it.
_BARE_SUBJECT = rx(
    r"(?:(?:ok|okay|so|and|then|now|yes|yeah|um|uh)\s+)*(?:i|we)(?:\s+(?:just|also|now|then))?"
)
_BASE_FORM = rx(rf"(?:{CHANGE_VERBS}|{_MORE})")


# Words after which "you can…" is told of, not asked: "I never said you could", "I heard".
_TOLD_OF = rx(
    r"(?:said|say|says|heard|hear|told|tell|think|thought|know|knew|believe|guess|suppose"
    r"|read|saw|see|mean|meant|that|if|whether|hope|wish|assumed|figured|claimed)\s"
)


def _asked_last(lead: str) -> bool:
    """The request said last before the verb, after words of another kind ("I've bought
    the groceries you can cross that off"): from the last person said, or the word before
    it ("…can you")."""
    people = list(_PERSON_SAID.finditer(lead))
    if len(people) < 2 and (not people or people[0].start() == 0):
        return False
    last = people[-1].start()
    before = lead.rfind(" ", 0, max(0, last - 1))
    if _TOLD_OF.match(lead[before + 1 : last]):
        return False  # "I never said you could…", "I heard you can…": words of another
    return bool(_ASKED.match(lead[last:]) or _ASKED.match(lead[before + 1 :]))


def _frame(lead: str, verb: str) -> str:
    if lead.startswith("who") and _WHO_WOULD.match(lead):
        return "not asked"
    subject = _PERSON_SAID.search(lead)
    if subject is None:
        named = _NAMED_DOER.match(lead)
        if named is not None and (_AUX_OR_ADVERB.search(lead) or _PAST.match(verb)):
            return "not asked"  # "the receptionist moved it", "my sister will book it"
        return "asked"
    if (
        # (a plain form after other words starts an ask; "you lot booked…", "thinking about
        # booking…" are a doer's)
        (not _GOVERNS.search(lead) and _BASE_FORM.fullmatch(verb))
        or _ASKED.match(lead)
        or _asked_last(lead)
        or (("need" in lead or "want" in lead) and _NEED_YOU.match(lead))
    ):
        return "asked"
    if _BARE_SUBJECT.fullmatch(lead) and _BASE_FORM.fullmatch(verb):
        return "asked"  # "I cancel my haircut", "we move it to friday": asked as said
    if _SAID_DONE.match(verb) and _JUST_THE_SUBJECT.search(lead):
        return "asked"
    if _OWN_PLAN.search(lead):
        return "offered"
    return "not asked"
