"""Requests about a domain the assistant knows that ask for something it cannot do.

"Can you pay my invoice with my card?", "I want a refund", "do you take Apple Pay?",
"I need a receipt": billing words, but no tool takes a payment, gives money back or
sends paperwork. Such a clause asks for no tool (reading the
balance instead would answer a question nobody asked), and the planner says what it
can do instead. Questions about paying ("do I need to pay anything?", "when is my
bill due?") are still billing lookups.
"""

from __future__ import annotations

import re

from assistant.language.lexicon import OTHER_CHANGE_DOINGS, OTHER_CHANGE_VERBS
from assistant.language.patterns import rx
from assistant.language.text import normalize

_PAY = rx(
    r"\b(?:can you|could you|would you|can i|could i|i want to|i'd like to|i would like to"
    r"|want to|let me|i'll|i will|help me|how (?:do|can|would) i|please|go ahead and"
    r"|trying to|i'm trying to|i wanna)(?: \w+){0,2}? (?:pay|settle|clear)\b"
    r"|\b(?:make|take|process|put through|submit|schedule) (?:a |my |the )?payments?\b"
    # "ok pay it", "settle the balance please": said as the whole ask
    r"|^(?:(?:ok|okay|alright|right|then|so|great|fine|yes|yeah|sure|and)[ ,]+)*(?:please )?"
    r"(?:pay|settle|clear) (?:it|this|that|my \w+|the \w+|what i owe)(?: off)?"
    r"(?: please| now| for me)?[.!]?$"
    r"|\bcharge (?:my|it|the|this|that)\b|\bpay (?:it|this|that|my \w+|the \w+)"
    r" (?:with|by|using|on|online|now|today)\b"
    r"|\b(?:want|like|get|give me|need|request|issue|process|owe me|have|for) (?:a |my |me a"
    r" |me my |the |me )?(?:refund|money back)\b|\b(?:refund|reimburse) (?:me|my|the|it)\b"
    r"|\b(?:set up|sign me up for|start|put me on) (?:a |an )?(?:payment plan|auto-?pay"
    r"|direct debit)\b"
    # "put $50 toward it", "can you apply 20 dollars to my balance": a payment asked (the
    # balance was read out, and no word said that none can be taken)
    r"|^(?:(?:ok|okay|so|and|then|please|can you|could you|just)[ ,]+)*(?:put|apply|pay|take"
    r"|send) (?:\$ ?)?\d+(?:\.\d\d)?(?: dollars| bucks)? (?:toward|towards|to|on|off|against"
    r"|from) (?:it|that|this|my|the)\b"
)
# "where is my refund?", "what happened to my refund": no tool sees refunds, asked in
# any form.
_REFUND_ASKED = rx(
    r"\b(?:where(?:'s| is)|status of|what happen(?:ed)? to|still waiting (?:for|on))"
    r" (?:my |the |that )?(?:refund|money back)\b"
)
# Ways to pay and paperwork, asked about in any form ("do you take Apple Pay?").
_PAYMENT_MEANS = rx(
    r"\b(?:take|accept|use) (?:apple pay|google pay|paypal|venmo|zelle|cards?|credit cards?"
    r"|debit cards?|cash|checks?|cheques?|amex|visa|mastercard|bank transfers?)\b"
    r"|\bpay (?:by|with|via|using|over|through) \w+|\breceipts?\b|\bproof of payment\b"
)
# A to-do about paying is a task: "remind me to pay it", "add a reminder to pay the bill".
_REMINDER = rx(
    r"\b(?:remind me|reminders?|to-?dos?|tasks?|(?:don't|dont|do not) let me forget"
    # "i want to jot down pay the gardener": a to-do written down (it was "I can't take
    # payments")
    r"|remember|note to self|(?:jot|note|write|put) down|make a note)\b"
)
_REMINDED_AFTER = rx(
    r"[,.;!]\s*(?:(?:and|so|please|can you|could you|just)\s+)*(?:remind me|set (?:me )?a reminder"
    r"|(?:add|put) (?:it|that|a reminder|a task|a to-?do)\b)"
)
_REPORT = rx(r"\b(?:ticket|case|complaint|report|problem|issue)\b")
# A question about what is owed or when ("do I need to pay…", "when do I have to pay").
_ASKS_ABOUT_PAYING = rx(
    r"^(?:do|does|did|have|has|what|what's|when|when's|how much|is|are|am|which)\b"
)


def unsupported(text: str) -> bool:
    """The message asks to pay or be refunded (see `asks_to_pay`)."""
    return asks_to_pay(normalize(text).text)


def asks_to_pay(said: str) -> bool:
    """The normalized clause asks to pay or be refunded, before any problem it reports.

    "Open a ticket, my refund never arrived" reports a problem: that is a support case.
    """
    match = _PAYMENT_MEANS.search(said) or _REFUND_ASKED.search(said)
    if match is None:
        match = _PAY.search(said)
        if match is None or _ASKS_ABOUT_PAYING.search(said):
            return False
    reminder = _REMINDER.search(said[: match.end()])
    if reminder is not None or _REMINDED_AFTER.search(said, match.end()):
        # "remind me to pay it on friday", "I'll pay the bill friday, remind me": a to-do
        # about paying (the second was refused as a payment)
        return False
    report = _REPORT.search(said)
    return report is None or report.start() > match.start()


_ADVICE_ASKED = (
    r"(?:would|do|could|can|will) you (?:advise|recommend|suggest)(?: (?:me|us))?(?: to| that"
    r" (?:i|we)(?: should)?| i| we)? (?:\w+ ){0,2}?(?:(?:cancel|mov|reschedul|chang|delet|book"
    r"|add|open|updat|mark|complet|remov)\w*|"
    + OTHER_CHANGE_VERBS
    + "|"
    + OTHER_CHANGE_DOINGS
    + r")"
    r"|is it (?:a good idea|wise|worth it|smart|better|sensible) (?:for me )?to"
    # "would it be smarter to shift the cleaning back half an hour?": the same, weighed
    # (the move was made)
    r"|(?:would|will|wouldn't|might) it (?:not )?be (?:a (?:good|better|smart|bad) idea|wiser"
    r"|wise|worth it|smarter|smart|better|best|sensible|easier) (?:for (?:me|us) )?to"
)
# "would marking the groceries done remove it from my list?", "does cancelling cost
# anything?": what a change does, asked, the change said as a thing (was: the task was
# marked done, and the "remove it" after it held for a yes)
_WHAT_IT_DOES = (
    r"(?:would|will|does|do|could|can|might|did|is) (?:cancell|cancel|mov|reschedul|chang"
    r"|delet|mark|complet|remov|book|updat|tick|cross)ing\b"
)
_ASKS_WHAT_IT_DOES = rx(r"^(?:so |and |but |um |uh |wait |hmm )*" + _WHAT_IT_DOES)


def asks_what_a_change_does(said: str) -> bool:
    """The normalized message opens by asking what a change would do ("would marking it
    done remove it?"): no change in it is asked for, the one after it included."""
    return "ing" in said and _ASKS_WHAT_IT_DOES.match(said) is not None


# "sure, delete everything, why not", "oh wonderful, just cancel my entire existence",
# "lol reschedule me to never": a change said in jest or anger, of everything with a shrug
# after it or of what no account holds; no change is asked (all three tasks were held for
# a yes to delete them).
_VENTED = rx(
    r"\b(?:my|the) (?:whole|entire) (?:life|existence|world)\b"
    r"|\bmy (?:life|existence|sanity)\b|\bme to never\b|\bto (?:never|the moon|mars)\b"
    r"|\b(?:everything|all of it|the (?:whole )?lot)\b.*(?:\bwhy not|\bwho cares|\bwhatever"
    r"|\bfor all i care|\blol|\bhaha\w*|\blmao|\bsmh|🙄)\W*$"
)
_MAY_VENT = re.compile(r"life|existence|world|sanity|never|moon|mars|every|all of|lot")


def vents(said: str) -> bool:
    """The normalized message says a change in jest or anger, none asked (see _VENTED)."""
    return _MAY_VENT.search(said) is not None and _VENTED.search(said) is not None


# "what happens if I cancel my haircut?", "if I move it, will I be charged?": a question
# about an action, which asks for none (a yes to it must never cancel anything).
_HYPOTHETICAL = rx(
    r"^(?:so |and |but |um |uh )*(?:what (?:happens|would happen|will happen|if)"
    r"|what's the (?:fee|charge|penalty)|is there (?:a|any) (?:fee|charge|penalty)"
    r"|if (?:i|we)(?! (?:could|can|may|might)\b)"
    r"|(?:would|will|do) i (?:be charged|get charged|have to pay|lose|get (?:a refund|my money))"
    r"|would it cost|will it cost|"
    + _WHAT_IT_DOES
    # "how much would it cost to cancel the haircut?", "what would it cost to move it?": a
    # price asked (the cancel was held for a yes)
    + r"|(?:how much|what) (?:would|will|does|do|is) (?:it|that|they) (?:cost|charge|be)"
    r" (?:me )?(?:to|if)\b"
    # "can I cancel the cleaning without being charged?", "do you charge for cancelling?":
    # whether a change costs, asked (the cancel was held for a yes; the balance was read)
    r"|(?:can|could|may) (?:i|we) (?:still )?(?:cancel|move|reschedul|chang|delet)\w*"
    r" (?:[\w']+ ){0,4}?without (?:being charged|getting charged|paying|a (?:fee|charge"
    r"|penalty)|any (?:fee|charge|penalty))"
    r"|do you (?:charge|bill)(?: (?:a fee|anything|extra))? (?:for|to|if)"
    r" (?:i |we )?(?:cancel|mov|reschedul|chang|no-?show|miss)\w*"
    # "what's the latest I can cancel my cleaning?", "is it too late to move it?", "how
    # much notice do I need to cancel": a question of the deadline, not the change (the
    # cancel was held for a yes)
    r"|(?:what|when)(?:'s| is| was) the (?:latest|last (?:day|minute|time)|deadline|cut-?off)"
    r"(?: (?:time|day|date|point))?(?: (?:that|when|by which))? (?:i|we) (?:can|could|may|have to)"
    r"|(?:by when|until when|till when|how late|how long before|how far (?:ahead"
    r"|in advance)) (?:can|could|do|must|should|may) (?:i|we)(?: still)?"
    r" (?:(?:cancel|mov|reschedul|chang|delet|book|add|open|updat|mark|complet|remov)\w*|"
    + OTHER_CHANGE_VERBS
    + r")"
    + r"|(?:is|was) it (?:too late|still ok|still okay|still possible|possible still) to"
    r"|how much notice(?: do| would| must)?(?: i| we)?(?: need| have)?(?: to)?(?: give)?"
    # "should I delete the eye exam task or keep it?": asks for advice, not the change
    r"|should (?:i|we) (?:delete|cancel|mark|move|remove|reschedule|change|update|book|add"
    r"|tick|cross|complete|open|" + OTHER_CHANGE_VERBS + r")"
    # "maybe I should mark the groceries done", "do you think I should delete the insurance
    # task": advice asked, or a thought said aloud, not the change (it was made, or held)
    r"|(?:maybe|perhaps|(?:do|would) you (?:think|reckon|say)|you think|i (?:guess|wonder"
    r" (?:if|whether)|was wondering (?:if|whether))),? (?:i|we) (?:should|ought to)"
    r" (?:delete|cancel|mark|move|remove|reschedule|change|update|book|add|tick|cross"
    r"|complete|open|push|bump|shift|pull|bring|drop|make|set|put|get rid|switch|swap|clear"
    r"|finish|raise|lower|take)"
    # "would you advise me to cancel the cleaning?", "do you recommend moving it?", "is it a
    # good idea to delete the insurance task": advice asked of the assistant, any change
    r"|" + _ADVICE_ASKED + r")\b"
)


# "what time did you put it at?", "when did you book me in for?", "what did you call
# it?": a question about the change just made, told again from what was done (the
# booking words in it ask for no booking).
_ASKS_WHAT_WAS_DONE = rx(
    r"\b(?:what|which) (?:time|day|date|hour)(?: and (?:time|day|date))? (?:did|have) you"
    r" (?:just )?(?:put|book|move|set|schedul|make|made|chang|get|got|pencil|switch)\w*"
    r" (?:it|that|this|me|them|us|my \w+|the \w+)\b"
    r"|\bwhen (?:did|have) you (?:just )?(?:put|book|move|set|schedul|make|made|chang|pencil"
    r"|switch)\w* (?:it|that|this|me|them|us)(?: (?:in )?(?:for|to|at|on))?\b"
    r"|\bwhat (?:did|have) you (?:just )?(?:call|name|title|put down|write down|write|save)\w*"
    r" (?:it|that|this|the task|the reminder)\b"
    r"|\bwhat (?:time|day|date) (?:is|was) (?:it|that) (?:booked|set|moved|scheduled|changed|put)"
    r" (?:for|to|at|on)\b"
    r"|\bwhat (?:did|have) you (?:just )?(?:do|done|change|changed)\b"
    # "wait, which one did you tick off?": the one just changed, by its kind
    r"|\b(?:what|which)(?: one| task| appointment| visit)? (?:did|have) you (?:just )?"
    r"(?:tick|mark|complet|cross|delet|remov|cancel|mov|book|add)\w*(?: (?:off|done))?\W*$"
    # "what changes did you just make?", "which changes have you made so far?"
    r"|\b(?:what|which) (?:changes?|updates?) (?:did|have) you (?:just )?(?:make|made|do|done)\b"
    # "what did I just book?", "what have we just changed?": the change just made
    r"|\bwhat (?:did|have) (?:i|we) just (?:book|booked|add|added|change|changed|move|moved"
    r"|schedul\w*|set up|put in|ask(?:ed)? for|report|reported|open|opened|raise|raised|log"
    r"|logged)\b"
    # "what did I book today?", "what did I ask you to do so far?", "did I ask you to cancel
    # anything?", "did I book anything today?": about this conversation, told from it
    r"|\bwhat (?:did|have) (?:i|we) (?:book|booked|add|added|move|moved|cancel\w*"
    r"|ask(?:ed)? (?:you )?(?:to do|for))(?: (?:today|so far|just now|in this (?:call|chat"
    r"|conversation)))+\W*$"
    r"|\bwhat (?:did|have) (?:i|we) ask(?:ed)? (?:you )?(?:to do|for)\W*$"
    r"|^(?:(?:so|and|ok|okay|wait|sorry)\W+)*what (?:did|have) (?:i|we|you) (?:just )?"
    r"(?:cancel|cancelled|canceled|move|moved|delete|deleted|add|added)\W*$"
    r"|^(?:(?:so|and|ok|okay|wait|hang on|sorry)\W+)*(?:did|have) (?:i|we) (?:ask(?:ed)?"
    r" (?:you )?to |just )?(?:book|cancel|move|add|delete|remove)\w* (?:anything|something)"
    r"(?: (?:today|so far|else|yet))?\W*$"
    # "did you cancel my appointment?", "have you moved anything?", "did you delete any
    # tasks?": no one named, what this conversation did of that kind (was: the visits read
    # out, with no word of whether any was cancelled)
    r"|^(?:(?:so|and|ok|okay|wait|hang on|sorry|um|uh)\W+)*(?:did|have) you(?: already| actually"
    r"| just| really)? (?:book|cancel|move|add|delete|remove)\w* (?:anything|something|(?:my|any)"
    r" (?:appointments?|bookings?|visits?|tasks?|reminders?))(?: (?:today|so far|else|yet))?"
    r"(?: or not)?\W*$"
)


# "…and if not, book a haircut for Tuesday", "move it to Friday if I've nothing on":
# a change said on a condition the customer has not seen settled. It is asked about
# after the lookups ("Should I go ahead…?"), never made on the strength of the "if";
# "if possible", "if you can", "if that's okay" are only polite.
_POLITE_IF = (
    r"(?: (?:possible|you can|you could|you (?:don't|do not) mind|(?:that's|that is|it's|it is)"
    r" (?:ok|okay|alright|all right|fine|possible|not too much|not too late)|at all possible"
    r"|convenient"
    r"|you please)\b)"
)
_ON_A_CONDITION = rx(
    # "see if you can move it" asks for the move; "if possible" is only polite
    # (each a whole word: "delete the groceries task if it's due today" is on a condition,
    # though "task" ends in "ask")
    r"(?<!\bsee )(?<!\bcheck )(?<!\bchecking )(?<!\bwonder )(?<!\bwondering )(?<!\bknow )"
    r"(?<!\bask )(?<!\basking )"
    rf"\b(?:if|unless|only if|provided|as long as)\b(?!{_POLITE_IF})"
)


# "move the haircut to saturday, if it's not too much trouble, around 1 o'clock": a polite
# "if" said between commas is no clause of its own (split there, the hour after it was
# lost and the move kept the old hour).
_POLITE_ASIDE = rx(rf",\s*[Ii]f{_POLITE_IF}(?: (?:trouble|of course|for you))?\s*(?P<end>,|$)")


# "if it's not too late, I'd like to cancel the haircut": the same, said first.
_POLITE_FIRST = rx(rf"^[Ii]f{_POLITE_IF}(?: (?:trouble|of course|for you))?\s*,\s*")


def without_polite_aside(text: str) -> str:
    """The message without a polite "if…" said between commas or first (read as if
    unsaid)."""
    text = _POLITE_FIRST.sub("", text)
    return _POLITE_ASIDE.sub(lambda m: " " if m.group("end") else "", text)


# "delete the eye exam one, not need anymore": why it is asked, said after the ask (in a
# hurry, the "I don't" left out). Read with the ask, it negated it ("Okay, I won't change
# anything"); it names nothing to act on.
# Said in one breath ("delete the insurance task i don't need it anymore", "… because i
# don't need it no more"), the same reason closes the ask.
_NOT_NEEDED_NOW = rx(
    r"(?:[,.;] ?(?:(?:because|since|as|cause|coz) )?|(?<=\w) (?:(?:because|since|as|cause|coz) )?"
    r"(?=(?:i|we) ))(?:(?:i|we) )?(?:(?:do|does|did) )?(?:not|no|don't|dont|do not) (?:need|needed"
    r"|want|wanted|required|necessary)(?: (?:it|that|this|them|one))? (?:anymore|any more"
    r"|any longer)(?: thanks| thank you| please)?[.!]?$",
    re.IGNORECASE,
)


def without_reason_told(text: str) -> str:
    """The message without a closing "…, not need anymore" (the reason for the ask)."""
    return _NOT_NEEDED_NOW.sub("", text)


# "I'm thinking of booking a massage on friday", "we're considering moving the haircut":
# a change the customer leans to, not yet asked for. It is asked about ("Shall I…?"),
# never made on these words (nor read as only a look, which lost the booking wanted).
_LEANS_TO = rx(
    r"\b(?:i'm|im|i am|we're|we are) (?:just |still |really |actually )?(?:thinking|considering)"
    r"(?: (?:about|of))? \w+ing\b"
    # "thinking about squeezing in a facial friday at 11": the same, said without the "I'm"
    # (it was booked)
    r"|^(?:(?:so|and|but|um|uh|well|oh|just|hmm|also)[ ,]+)*(?:thinking|considering)"
    r" (?:about|of) \w+ing\b"
    # "can you tell me whether I can move my cleaning to saturday", "let me know if I can
    # cancel it": whether it can be done, asked (the change is offered: a yes makes it)
    r"|\b(?:tell me|let me know|find out|wondering|want to know|like to know|wonder)"
    r" (?:whether|if) (?:i|we) (?:can|could|may|am able to|are able to)\b"
)
_LEANS_WORDS = ("thinking", "considering", "whether", " if ")


def leans_to(said: str) -> bool:
    """The normalized clause tells of a change the customer is thinking of making, or asks
    whether they can make it."""
    return any(word in said for word in _LEANS_WORDS) and bool(_LEANS_TO.search(said))


def on_a_condition(said: str) -> bool:
    """The normalized clause asks for a change only if something holds."""
    return bool(_ON_A_CONDITION.search(said))


def asks_what_was_done(said: str) -> bool:
    """The normalized clause asks what the change just made was, not for a change."""
    return bool(_ASKS_WHAT_WAS_DONE.search(said))


# "did I cancel my haircut?", "have you deleted the groceries task?": a question about a
# change, answered from what is on file; it asks for no change (a yes must not make it).
_ASKS_IF_DONE = rx(
    r"^(?:(?:so|and|but|um|uh|hey|hi|ok|okay|sorry|wait|hang on|just checking)[,.!]? )*"
    r"(?:did|have|has|had) (?:i|you|we|someone|anyone|anybody|somebody|that|it|this)"
    r"(?: (?:already|ever|actually|just|really|definitely|even))? "
    r"(?:cancel|delete|remove|book|move|reschedul|mark|tick|complet|add|chang|updat|open"
    r"|creat|rais|log|finish|cross|renam)\w*\b"
)


# "I wonder whether I should mark the insurance task done", "I hope I don't have to
# cancel Friday", "not sure if I'll keep the haircut": the change is being weighed, not
# asked for. The clause reads what it names, so the answer can help the customer decide.
_DELIBERATES = rx(
    r"\b(?:(?:wonder(?:ing)?|not sure|unsure|undecided|debating|(?:can't|cannot|trying to)"
    r" decide|deciding|(?:don't|dont|do not) know|think(?:ing)? about|thinking)"
    r" (?:whether|if)|(?:i|i'm|im|i am) (?:hope|hoping)|hopefully|in case"
    r"|(?:might|may) (?:have|need) to"
    # "I might cancel the cleaning later, not now": a change the customer may make, not one
    # asked for (its cancel was held for a yes)
    r"|(?<![a-z'])(?:i|we) (?:might|may)(?: (?:well|possibly|perhaps|end up|eventually))?"
    # "I could probably bump the haircut to 4", "we can maybe move it": the same (moved)
    r"|(?<![a-z'])(?:i|we) (?:could|can) (?:probably|maybe|possibly|perhaps))\b"
    # "I hope you can move it", "I was wondering if I could book…": asked politely.
    r"(?! (?:you|u|ya|someone|somebody|anyone|anybody|(?:i|we) (?:could|can))\b)"
    r"(?: [\w']+){0,5}? (?:(?:cancel|delete|remove|book|move|reschedul|mark|tick|complet|add"
    r"|chang|updat|open|creat|finish|cross|drop|push)\w*|"
    + OTHER_CHANGE_DOINGS
    + "|"
    + OTHER_CHANGE_VERBS
    + r")\b"
)


# "do I need to file a complaint to get a refund?", "do I have to cancel a day ahead?":
# a question about what is required, answered from what is on file; it asks for nothing.
_ASKS_IF_NEEDED = rx(
    r"^(?:so |and |but |um |uh |ok |okay |sorry |wait )*(?:(?:do|would|will) (?:i|we)"
    r" (?:need|have|got) to|is it (?:necessary|required|mandatory) to)\b"
)


def asks_if_needed(said: str) -> bool:
    """The normalized clause asks whether something is required, not for it."""
    return bool(_ASKS_IF_NEEDED.search(said))


# "…, I'm not sure yet", "…, I haven't decided": the message asks nothing settled yet.
_UNDECIDED_TAIL = re.compile(
    # ("…to saturday? eh, probably not": asked, then taken back as said; it was moved)
    r"[\s,;.!?-]*(?:(?:eh|hmm|um|uh|nah|well|actually)[\s,]+)*(?:but |though |although )?"
    r"(?:(?:i'm|i am|im) not (?:sure|certain)(?: yet)?"
    r"|not sure yet|i (?:haven't|have not) decided(?: yet)?|i don't know yet|still deciding"
    r"|still thinking about it"
    # "maybe jot down call the plumber, or maybe not, I'll think about it": taken back as
    # said (the to-do was added, titled with the words)
    r"|(?:or )?maybe not(?:[\s,;.!-]+(?:i'll|ill|i will|let me) (?:think about it|see))?"
    r"|(?:i'll|ill|i will|let me) think about it|probably not|maybe not"
    # "…cancel the haircut we'll see", "…i dunno": said of the ask, not settled
    r"|(?<!\band )(?:i guess )?(?:we'll|well|we will) see|i dunno|dunno)[.!]*\s*$",
    re.IGNORECASE,
)


_UNDECIDED_WORDS = ("sure", "decid", "know yet", "think", " not", " see", "dunno")


def undecided(said: str) -> bool:
    """The message (lower case) ends by saying the customer has not decided."""
    return any(word in said for word in _UNDECIDED_WORDS) and bool(_UNDECIDED_TAIL.search(said))


def without_undecided(text: str) -> str:
    """The message without a closing "I'm not sure yet" (which names nothing to act on)."""
    return _UNDECIDED_TAIL.sub("", text)


# "I probably need to cancel the dentist", "I may want to move it": the same, said apart
# (with the words above, too many for the quick look that skips most clauses).
_PROBABLY = rx(
    # ("probably gonna have to cancel the haircut we'll see": held the cancel for a yes)
    r"\b(?:probably (?:going to )?(?:have|need|want) to|(?:might|may) want to)"
    r"(?: [\w']+){0,5}? (?:cancel"
    r"|delete|remove|book|move|reschedul|mark|complet|chang|updat|drop|push)\w*\b"
)


def deliberates(said: str) -> bool:
    """The normalized clause weighs a change ("I wonder whether I should…"), not asks it."""
    return bool(
        _DELIBERATES.search(said)
        or (("probably" in said or "want to" in said) and _PROBABLY.search(said))
    )


# "I cancelled my haircut yesterday on the phone", "I moved my dentist to thursday last
# week, right?": what the customer says was done elsewhere. It is checked against what is
# on file, never done again (nor its day read as one asked for).
_DONE_ELSEWHERE = rx(
    r"^(?:but |so |well |um |uh |oh |actually |ok |okay |just so you know,? |fyi,? )*(?:i|we)"
    r"(?:'ve|'d)? (?:(?:already|just|actually|have|had) )*(?:cancell?ed|moved|rescheduled"
    r"|booked|called off|postponed|pushed|brought forward|changed|rebooked"
    # "i've already reschedule it" (the ending lost in typing): past after "already", "have"
    r"|(?:(?<=already )|(?<=have )|(?<=had )|(?<='ve )|(?<='d ))(?:reschedule|rebook))"
    r" (?:my|the|our|that|this|it)\b"
    # "i've changed my phone number": the customer's number is another now (asked for)
    r"(?! (?:\w+ )?(?:phone|number|email|e-mail|mobile|cell)\b)"
)


# The customer as the subject, first: most clauses fail this at their first word, before
# the verbs above are looked for.
_SUBJECT_FIRST = re.compile(
    r"(?:(?:but|so|well|um|uh|oh|actually|ok|okay|just so you know,?|fyi,?) )*(?:i|we)\b"
)


def done_elsewhere(said: str) -> bool:
    """The normalized clause tells of a change the customer made, not one asked for."""
    return _SUBJECT_FIRST.match(said) is not None and bool(_DONE_ELSEWHERE.search(said))


def asks_if_done(said: str) -> bool:
    """The normalized clause asks whether a change was made, not for the change."""
    return bool(_ASKS_IF_DONE.search(said))


def hypothetical(said: str) -> bool:
    """The normalized clause asks what would happen if, not for the thing itself."""
    return bool(_HYPOTHETICAL.search(said))


# "could I move it to saturday if I wanted to? don't do it, I'm just asking": the change
# is asked about, and said not to be made (whatever rule reads a change in its words).
# Each is a part of the message of its own (cut at a stop or a comma): "don't do it" then
# says so of all of it; "don't do it until friday" is no part of this.
_ONLY_ASKING = rx(
    r"^(?:but |and |so )?(?:(?:i'm|i am|im) )?(?:just|only) (?:asking|curious)$"
    r"|\bif i (?:wanted|want) to$|^hypothetically\b"
)
_NOT_NOW = rx(
    r"^(?:but |and |so |just )?(?:don't|do not) (?:actually |really )?(?:do|change|make)"
    r" (?:it|that|anything|any changes?)(?: (?:yet|now|just yet|for now))?$"
)
_ONLY_ASKING_WORDS = ("asking", "curious", "don't", "do not", "wanted to", "want to", "hypothet")


def only_asking(said: str) -> bool:
    """The message asks about a change and says it is not to be made now ("…? don't do
    it, I'm just asking"; "could I move it if I wanted to?"): nothing is written,
    whatever its words would ask for."""
    low = said.lower()
    if not any(word in low for word in _ONLY_ASKING_WORDS):
        return False  # most messages: no word of it
    parts = [part.strip(" .?!") for part in re.split(r"[.?!,;]+\s*", low)]
    if any(_ONLY_ASKING.search(part) for part in parts if part):
        return True
    # "can I move it to friday? don't do it yet": a question, then not to do it
    return "?" in low and any(_NOT_NOW.search(part) for part in parts if part)


_ADVICE = rx(
    r"\b(?:should (?:i|we)|(?:i|we) (?:should|ought to)) \w+"
    r"|\b(?:would|do|could|can|will) you (?:advise|recommend|suggest)\b"
    r"|\bis it (?:a good idea|wise|worth it|smart|better|sensible) (?:for me )?to\b"
)


def asks_advice(said: str) -> bool:
    """The normalized clause asks whether to make a change ("should I cancel my
    dentist?"): what it names is read, so the answer can help decide; nothing changes."""
    return hypothetical(said) and bool(_ADVICE.search(said))


# The parts of a message: each may ask something of its own.
_PARTS = re.compile(r"\b(?:and|also|then|plus|but)\b|[.?!;,]")


def asks_to_pay_beside(said: str) -> bool:
    """A part of the normalized message asks to pay or be refunded, beside another part
    ("what do I owe, can I pay it now", "my last haircut was terrible, I want a refund")."""
    if "pay" not in said and "refund" not in said and "money" not in said:
        return False
    parts = [part.strip(" ,") for part in _PARTS.split(said)]
    return len(parts) > 1 and any(part and asks_to_pay(part) for part in parts)


__all__ = [
    "asks_advice",
    "asks_if_done",
    "asks_if_needed",
    "asks_to_pay",
    "asks_to_pay_beside",
    "asks_what_was_done",
    "deliberates",
    "done_elsewhere",
    "hypothetical",
    "leans_to",
    "on_a_condition",
    "only_asking",
    "undecided",
    "unsupported",
    "vents",
    "without_undecided",
]
