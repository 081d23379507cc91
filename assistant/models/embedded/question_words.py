"""The words that mark a qualified question (assistant.models.embedded.questions): a
complaint, what became of a visit, the past, a cost, paid or not, where, when, overdue,
urgent, due soon, done yet, a note, "the one after that", and an elided follow-up.
"""

from __future__ import annotations

from assistant.language.lexicon import MONTHS
from assistant.language.patterns import GatedPattern, any_of, rx


def _rx(pattern: str) -> GatedPattern:
    return rx(pattern)


ACTION = _rx(
    r"\b(?:book|cancel|move|reschedule|push|add|delete|remove|complete|mark|change|update"
    r"|rename|rebook|bring|put|set|open|create|make)\b"
)
# Asked only whether one of these is said: kept apart (not one alternation), each tried
# only on a text holding its own words (a long alternation tries every way at every
# position of every question; it was the planner's dearest search).
COMPLAINT = any_of(
    r"\bwhy (?:was|am|have|did|do|is|are)\b.*\b(?:charg|bill|owe|pay|invoice|balance)",
    r"\b(?:charged|billed)(?: me)? (?:twice|double)",
    r"\bdouble[- ]?(?:charged|billed)",
    r"\bover ?charg",
    r"\b(?:charge|bill|invoice|amount)s?\b.*\b(?:wrong|incorrect|mistake|too high|so high"
    r"|not right)\b",
    r"\bdispute\b",
    r"\bquoted\b",
    # "there's a $45 charge from december I don't recognise"
    r"\b(?:charges?|bills?|invoices?|payments?|amount)\b.*\b(?:don't|do not|dont|didn't)"
    r" recogni[sz]e\b",
    r"\bwhat(?: is|'s) (?:this|the|that) .*charge\b",
    r"\b(?:charged|billed)\b.*\b(?:cancell?ed|didn't have|never had|haven't had|never got)\b",
    r"\bcharged (?:me )?for (?:a |an |my )?(?:cancel|missed)",
    r"^(?:but )?why (?:so much|so high|is it so (?:much|high)|that much|is that)\b",
    r"\b(?:seems|that's|that is|thats|is)(?: like)? (?:a lot|too much|too high|expensive|steep"
    r"|a bit much)\b",
    r"^(?:but |so )?why (?:is|was) (?:it|that|this) (?:\$|so |\d)",
    r"\b(?:nobody|no one|no-one)\b.*\b(?:back|called|replied|answered)\b",
    r"\blook into (?:it|my bill|the charge|this)\b",
    r"\btold (?:me )?it would be\b",
    # "I was told the cleaning would be covered by my insurance"
    r"\b(?:told|said|promised)\b.*\b(?:would|should|was going to) be (?:covered|free"
    r"|included|cheaper|less)\b",
    r"\b(?:should|was supposed to|were supposed to) (?:have )?(?:be|been) covered\b",
    # "how come I'm being billed 150 bucks? my insurance was supposed to cover it"
    r"\bhow come\b.*\b(?:charg|bill|owe|pay|invoice|balance)",
    r"\b(?:was|were|is|are) supposed to (?:cover|pay for)\b",
    # "that's not right, they told me it was due end of january": the bill disputed
    r"^(?:no,? |but |well,? )?(?:that's|that is|thats) (?:not right|wrong|not correct)\b.*"
    r"\b(?:due|paid|charged?|bill|invoice|owe|amount|cost)\b",
    # "I already paid that", "I paid the dental bill this morning": a payment the account
    # may not show yet
    r"^(?:(?:but|well|so|um|uh|i mean)\b\W*)*(?:i|i've|i have|we|we've)(?: already| just)?"
    r" (?:paid|settled|payed) (?:it|that|this|(?:my |the |that )?(?:\w+ )?(?:bill|invoice"
    r"|balance))\b",
)
WAITING = _rx(r"\b(?:nobody|no one|no-one|never heard|still waiting)\b")
WHAT_HAPPENED = _rx(
    r"\b(?:what|whatever) happened (?:to|with) \b"
    r"|\bdid (?:i|you|we|someone|anyone|that|it|this) (?:already |ever |just |also )?cancel"
    r" (?:my|the) \w"
    # "did I already book a massage?": whether one is booked, not a booking
    r"|\b(?:did|have) (?:i|you|we) (?:already |ever |just )?(?:book|booked|schedule|scheduled)"
    r" (?:a|an|my|the|me a|me an) \w"
    r"|\b(?:did|was|has) (?:my|the) .+ (?:get |been )?cancell?ed\b"
    r"|\bis (?:my|the) .+ cancell?ed\b"
    # "my haircut isn't cancelled, is it?": asked the other way round
    r"|\b(?:my|the) [a-z ]+? (?:isn't|is not|wasn't|was not|hasn't been|has not been)"
    r" cancell?ed\b"
)
PAST = _rx(
    r"\bwhen (?:was|did i have|did i last) |\bmy last \w+ (?:was|appointment)\b"
    # "I'm trying to remember when I last had a haircut": the question, said as a thought
    r"|\bwhen (?:i|we) last (?:had|came|went|was|got)\b"
    # "when i came last time for hair cut", "when did i come last time for a haircut"
    r"|\bwhen (?:did )?(?:i|we) (?:came|come|went|go|had|have|was|got|get)\b.*\blast time\b"
)
RECENT = _rx(
    r"\b(?:had|have had|been to)\b.*\b(?:recently|lately|before|in the past|last month)\b"
    # ("my cancelled appointments" is not: the recent ones leave the cancelled out, and
    # they were said as the answer; the history read out tells which were cancelled)
    r"|\b(?:past|previous|earlier|old) (?:appointments|visits|bookings)\b"
    r"|\b(?:appointments|visits|bookings)\b.*\b(?:have i had|i've had|did i have)\b"
    r"|\bwhen was my last (?:visit|appointment|booking)\b"
    # "what appointment did I have most recently?", "what did I come in for last time?"
    r"|\b(?:did i (?:have|get|come in for|come in|book|see you for)|was i (?:in|there|seen) for"
    r"|i (?:had|came in for|was in for))\b.*\b(?:most recently|recently|(?:the )?last time)\b"
    r"|\bmost recent (?:appointment|visit|booking)\b"
    # "what was the last thing I came in for?"
    r"|\b(?:last|previous) (?:thing|service|treatment) (?:i (?:came in for|had|got|booked)"
    r"|you (?:did|saw me for))\b"
)
COST = _rx(r"\bhow much (?:was|did|were|is|does)\b|\bwhat did .+ cost\b")
PAID = _rx(
    r"\b(?:have|did|has) i (?:paid|settled|pay|settle)\b|\bpaid (?:for|off)\b|\bsettled\b"
    # "were both of them paid", "was that one paid"
    r"|\b(?:was|were|is|are) (?:it|that|they|both|both of them|those|these|that one|this one)"
    r" (?:all |both |already )?paid\b"
    r"|\blast month'?s (?:invoice|bill)\b|\bpaid invoices\b|\bwas it paid\b|\bis it paid\b"
    # "is my haircut paid?", "has the dental bill been paid": a named one
    r"|\b(?:is|was|has) (?:my|the) (?!(?:balance|bills?|invoices?|account|total)\b)"
    r"(?:[a-z]+ ){1,3}?(?:been |all |already )?paid\b"
)
# "how much was my last invoice", "is my latest bill paid": the one issued last, not the
# balance of what is open.
LAST_INVOICE = _rx(r"\b(?:my|the) (?:last|latest|most recent|newest) (?:invoice|bill)\b")
WHERE = _rx(
    r"\bwhere(?:'s| is| are| was)?\b|\baddress\b|\blocation\b|\bhow do i get to\b"
    r"|\bsame (?:place|address|location|clinic|salon|studio)\b"
    # "is that downtown", "is that the place on howard street": where, said as a guess
    r"|\b(?:is|was) (?:it|that)(?: one)? (?:downtown|uptown|the (?:place|clinic|salon|studio"
    r"|office) (?:on|at|in|near|by))\b"
    r"|\b(?:is|was) (?:it|that)(?: one)? (?:on|at|in|near|by) [a-z0-9 ]{2,30}? (?:street|st"
    r"|avenue|ave|road|rd|boulevard|blvd)\b"
    # "and it's still at the downtown place right": where, checked after a move
    r"|\b(?:(?:is|was) (?:it|that)|it's|it is|that's)(?: one)?(?: still)? (?:downtown|uptown"
    r"|at the (?:[a-z]+ )?(?:place|clinic|salon|studio|office|location|branch))\b"
)
WHEN = _rx(
    r"\bwhen(?:'s| is| are)?\b|\bwhat time\b|\bwhat day\b|\btell me about\b|\bdetails\b"
    # "what's the date of my dental cleaning?", "what date is my haircut?": when it is (was:
    # every visit read out)
    r"|\bwhat date\b|\bwhat(?:'s| is) the (?:date|day) of\b"
    r"|\bstill on\b|\bstill (?:happening|booked|going ahead)\b|\bgoing ahead\b"
    r"|\bis (?:my|the) .+ (?:booked|confirmed)\b"
    # "did the facial get booked?", "was my massage booked?": the same, asked in the past
    # (was: every visit read out, and no word of the facial)
    r"|\b(?:did|was|has) (?:my|the) (?!(?:booking|cancellation|change|move|request|case"
    r"|ticket|appointment|visit|one|task)\b)[a-z][a-z ]{0,30}? (?:get |got |been )?"
    r"(?:booked|confirmed)\b"
)
# "how long will it take", "how long is my haircut", "when does it finish": its length.
# "who is my haircut with?", "which dentist am I seeing?": who does the visit, which no
# appointment holds.
WHO_WITH = _rx(
    r"\bwho(?:'s| is| am i| will i| do i)? .{0,30}\b(?:with|seeing|doing it|doing my)\b"
    r"|\b(?:which|what) (?:stylist|dentist|doctor|therapist|hygienist|barber|practitioner)\b"
    r"|\bwith whom\b|\bwho(?:'s| is) (?:doing|seeing me|taking)\b"
)
LENGTH = _rx(
    r"\bhow long (?:is|will|does|would|'s|do)\b|\bhow many (?:minutes|hours)\b|\bduration\b"
    r"|\b(?:when|what time) (?:does|will) (?:it|that|my \w+|the \w+) (?:end|finish|be over)\b"
)
OVERDUE = _rx(r"\boverdue\b|\bpast due\b|\blate\b")
HIGH = _rx(r"\b(?:high[- ]priority|urgent|important|top priority)\b")
LOW = _rx(r"\blow[- ]priority\b|\bnot urgent\b")
DUE_SOON = _rx(
    r"\bdue (?:this week|soonest|soon|next|first|today|tomorrow)\b"
    r"|\bdue (?:in |during )?the week (?:of|starting|beginning|commencing|after next)\b"
    r"|\bwhat'?s due (?:on my (?:list|to))"
)
LEFT = _rx(
    # ("what else is left?" after one was ticked off)
    r"^(?:so |and |ok |okay )?what(?:'?s|(?: else| still)? is)(?: still)? left"
    r"(?: to do| on my (?:list|to-?do list))?\W*$"
)
NOTES = _rx(
    r"\b(?:do i need to |should i )?(?:bring|prepare|know before)\b|\bany (?:notes|instructions)\b"
    r"|\b(?:need|have) to know (?:for|about|before) (?:it|that|the)\b"
    # "is there anything I should do before I come in?"
    r"|\banything (?:i|we) (?:should|need to|have to|must|ought to) (?:do|know|bring)"
    r" (?:before|for)\b"
)
DONE_YET = _rx(
    r"\b(?:done|finished|completed|complete|ticked off) yet\b|\b(?:is|are) (?:my|the) .+ done\b"
    r"|\b(?:have|did) i (?:already )?(?:finished|done|completed|ticked off) (?:my|the) \w"
    r"|\bdid i (?:already |ever )?(?:finish|complete|tick off) (?:my|the) \w"
    # "check whether the groceries are done", "let me know if the groceries one is done"
    r"|\b(?:if|whether) (?:my|the) .+ (?:is|are|was|were|has been) (?:already )?"
    r"(?:done|finished|completed|ticked off)\b"
)
FINISHED = _rx(
    r"\bwhat (?:have i|did i|i've) (?:already )?(?:finished|done|completed|ticked off)\b"
    r"|\b(?:finished|completed|done) tasks\b"
)
CLOSED = _rx(
    # ("my closed support tickets": a word or two may qualify what was closed)
    r"\bclosed (?:\w+ ){0,2}?(?:ones|cases|tickets|requests|complaints)\b|\bany closed\b"
    r"|\b(?:old|past|previous|earlier) (?:support )?(?:cases?|tickets?)\b"
    # "which of my tickets have been resolved" (one ticket "resolved yet?" is the open ones)
    r"|\b(?:tickets|cases|complaints)\b.*\b(?:been|got|were) (?:resolved|closed|sorted)\b"
    # "have any of my tickets been closed", "the old one about the portal, is that closed"
    r"|\b(?:tickets?|cases?|support requests?|(?:old|other|previous|earlier) one)\b.*\bclosed\b"
)
# "every support ticket I've ever opened", "my invoice history", "paid and unpaid":
# the whole history, not only what is open.
TICKET_HISTORY = _rx(
    r"\b(?:all|every|each)\b.*\b(?:tickets?|support cases?|complaints?)\b.*\b(?:ever|opened"
    r"|raised|made|logged)\b|\b(?:ticket|support|case) history\b"
)
INVOICE_HISTORY = _rx(
    r"\bpaid invoices\b|\b(?:billing|invoice|payment) history\b|\bpaid and unpaid\b"
    r"|\b(?:all|every one) of my (?:invoices|bills)\b|\ball my (?:invoices|bills)\b"
    r"|\b(?:past|previous|old) (?:invoices|bills|payments)\b"
    # "what have I paid you so far this year", "how much did I spend last month": the past
    r"|\b(?:what|how much) (?:have|did) i (?:paid|pay|spent|spend)\b"
    # "what's the total of everything I've paid so far": all paid, added up
    r"|\b(?:everything|all|the total) (?:that )?i(?:'ve| have) (?:ever )?(?:paid|spent)\b"
    # "which invoices i have paid?", "the bills I've already paid": those paid, as said
    r"|\b(?:invoices?|bills?) (?:that )?(?:i|i've|i have|i had|have i|did i)(?: have)?"
    r"(?: already)? (?:paid|pay|settled)\b"
    # "every invoice I've ever had", "each bill you ever sent me": as the tickets are
    r"|\b(?:all|every|each)\b.*\b(?:invoices?|bills?)\b.*\bever\b"
)
AFTER = _rx(r"\b(?:the )?one after (?:that|it)\b|\bafter that one\b")
# ("what day is that due", "which date is it due": the day asked in other words)
DUE_IT = _rx(
    r"\b(?:when|what day|what date|which day|which date)(?:'s| is| was) (?:it|that)"
    r"(?: one| task)? due\b"
    r"|\bwhen its due\b|\bwhen it's due\b"
    # "what's it due now" just after its due day was changed: the same question
    r"|\bwhat(?:'s| is) (?:it|that)(?: one| task)? due\b"
)
ELLIPSIS = _rx(r"^(?:and|what about|how about|also)\b|^(?:any|and) \w+ ones\b")
# The words a question about the one in focus may open with: "perfect, and where is that",
# "thanks so much, what day is that now" (an acknowledgement, then the question).
_FOCUS_LEAD = (
    r"^(?:(?:and|so|ok|okay|great|thanks|thank you|thanks so much|cool|right|sorry|perfect"
    r"|lovely|brilliant|awesome|nice|wonderful|excellent|cheers|got it|the first one"
    r"|the second one|wait|hang on|hold on|um|uh|oh|sorry"
    # "keep it, what's the address there": after a change declined, of the same one.
    r"|(?:no|nah|fine|ok|okay)?,? ?(?:keep|leave) it(?: then| as it is| booked)?)[,.!]? )*"
)
FOCUS_QUESTION = _rx(
    # "and it's still at the downtown place right" just after a move: where it is
    r"\b(?:(?:is|was) (?:it|that)|it's|it is|that's)(?: one)?(?: still)? (?:downtown|uptown"
    r"|at the (?:[a-z]+ )?(?:place|clinic|salon|studio|office|location|branch))\b|"
    + _FOCUS_LEAD
    # ("and what day" just after its time was told: its day; was "I can't help with that")
    + r"(?:what time|when|where(?:abouts)?|what day|which day|what date)"
    # ("and when's that exactly" just after a booking was moved: the same question)
    r"(?:'s| is| was)?(?: (?:it|that|that one))?(?: at| on)?(?: again| now| then| exactly)?\??$"
    r"|\bwhat time (?:is|was) (?:it|that)\b|\bwhere(?:abouts)? is it\b"
    r"|\bhow much did (?:it|that) cost\b"
    # "so that's thursday at ten, yes?": the day and time of the one in focus, said back
    r"|" + _FOCUS_LEAD + r"(?:so )?(?:that's|that is|it's|it is) (?:on |for )?"
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow"
    # "and that's the same day as the cleaning, right?", read with that visit's date
    r"|(?:" + "|".join(MONTHS) + r") \d{1,2})(?: at [a-z0-9: ]{1,12}?)?,?"
    r" (?:yes|yeah|right|correct|isn't it|is it)\b"
    # "so its monday now" just after it was moved: its day, said back to be checked
    r"|" + _FOCUS_LEAD + r"(?:so )?(?:that's|thats|it's|its) (?:on )?"
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow) (?:now|then)\??$"
    # "where do I go for that?": where the one in focus is
    r"|\bwhere (?:do|should|shall|must|would) (?:i|we) (?:go|head)(?: (?:for|to) (?:it|that|this))?"
    r"\??$"
    # "could you say the time once more": the time of the one in focus, again
    r"|\b(?:say|repeat|tell me|give me) the (?:time|day|date)(?: and (?:time|day|date))?"
    r" (?:once more|again|one more time)\b|\brepeat the (?:time|day|date)\b"
    # "where is the place please?": where the one in focus is
    r"|\bwhere(?:'s| is) (?:the|that) (?:place|salon|clinic|studio|office)\b"
    # "what time should I get there?": the time of the one in focus
    r"|\b(?:what time|when) (?:should|do|must|shall) (?:i|we) (?:need to |have to )?(?:get|be"
    r"|arrive|come|turn up|show up|head)(?: there| in| over)?(?: for (?:it|that))?\??$"
    # "and what time do I see them" after the dentist was asked about: the time of that one
    r"|" + _FOCUS_LEAD + r"(?:what time|when) (?:do|will|shall|am) (?:i|we) (?:see|seeing|meet)"
    r" (?:them|him|her)(?: again)?\??$"
    r"|" + _FOCUS_LEAD + r"(?:is it |it's |at )?(?:the )?same (?:place|address|location)"
    r"(?: as before)?\??$"
    r"|" + _FOCUS_LEAD + r"what(?:'s| is) the (?:address|location)"
    r"(?: (?:for|of) (?:it|that|that one|those|them)| there| of the place)?(?: again)?\??$"
    # "so where does that leave it?" after a change: when (and where) it is now
    r"|" + _FOCUS_LEAD + r"(?:so )?where does (?:that|this) leave (?:it|me|us|things)"
    r"(?: now| then)?\??$"
    # "so it's on again?", "is it back on now?" after it was booked again: when it is
    r"|" + _FOCUS_LEAD + r"(?:so )?(?:it's|it is|is it|that's|that is|is that) (?:back )?on"
    r" (?:again|now)(?: then)?,?(?: (?:right|yeah|yes))?\??$"
    # "what day is that now" after a move: the day of the one just changed.
    r"|" + _FOCUS_LEAD + r"what day(?: is| was|'s) (?:it|that)(?: on)?"
    r"(?: now)?\??$"
    r"|\bhow much was (?:it|that)\b"
    # "same time yeah?" after a move: the time of the one just changed, said back
    r"|" + _FOCUS_LEAD + r"(?:is it |at )?(?:the )?same (?:time|place)"
    r"(?: (?:right|yeah|yes|then|still|as before))?\??$"
    r"|^(?:(?:and|so|ok|okay|great|thanks|perfect)[,.!]? )*how long (?:will|does|would|is)"
    r" (?:it|that|the (?:session|appointment|visit|treatment)|that (?:session|appointment"
    r"|visit))(?: take| last| be)?(?: for)?(?: again)?\??$"
    r"|\b(?:is|was) (?:it|that) (?:still )?(?:at|in) the same (?:place|address|location)\b"
    # "ok and is that downtown or where", "sorry is that the place on howard street"
    r"|" + _FOCUS_LEAD + r"(?:is|was) (?:it|that)(?: one)? (?:downtown|uptown|the (?:place|clinic"
    r"|salon|studio|office) (?:on|at|in|near|by) [a-z0-9 ]{2,30}?|(?:on|at|in|near|by)"
    r" [a-z0-9 ]{2,30}? (?:street|st|avenue|ave|road|rd|boulevard|blvd))(?: or where| or not"
    r"| right| yeah)?\??$"
)
# The day of the one just changed, asked other ways: "which day is that on?", "what date
# is it now", "what day of the week is that?", "is that a thursday?" (apart from the
# pattern above: with these, too many words for the quick look that skips most texts).
FOCUS_DAY = _rx(
    _FOCUS_LEAD + r"(?:(?:what|which) (?:day|date|day of the week)(?: and time)?"
    r"(?: is| was|'s) (?:it|that|that one|this)(?: on| for| booked for)?(?: now| again| then)?"
    r"|(?:is|was|so) (?:that|it|that one)(?: on)? a (?:monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday|weekday|weekend))\??$"
)
# "so it's definitely cancelled?", "is that cancelled now?" just after a cancel: what
# became of the one in focus, read again from the CRM.
CANCELLED_ASKED = _rx(
    _FOCUS_LEAD + r"(?:it's|it is|is it|is that|that's|that is|was it|has it been|it's been"
    r"|it has been|did it get|did that get|so that's)"
    r"(?: (?:definitely|really|now|all|properly|actually|already))? (?:been )?cancell?ed"
    r"(?: now| then| for sure| right| yeah| yes)?\??$"
    # "did you cancel it?" just after a cancel: asked, not asked for
    r"|" + _FOCUS_LEAD + r"(?:so )?(?:did|have) you (?:definitely |really |actually |already )?"
    r"cancell?(?:ed)? (?:it|that|that one)(?: then| now| already| for sure| right| yeah)?\??$"
    # "and you only cancelled the haircut, yeah?": what the cancel was of, asked back
    r"|" + _FOCUS_LEAD + r"(?:so )?you(?: have|'ve)? (?:only |just |definitely |really )?"
    r"cancell?ed (?:the|my) (?P<s>[a-z]+(?: [a-z]+)?)(?: (?:then|only|now))?,?"
    r"(?: (?:yeah|right|yes|correct|didn't you|right\?|is that right))?\??$"
)
# "is my cleaning still on?": yes or no, from what the CRM holds of it.
STILL_ON = _rx(
    r"\bstill (?:on|happening|booked|going ahead|scheduled)\b"
    r"(?! (?:my |the |your )?(?:list|to-?do|to do|tasks?)\b)"
)
# "is the eye exam task still on my list?": a task, pending or not (or none such).
ON_LIST = _rx(
    # "what's the car thing on my list": the one named so, looked for
    r"^(?:(?:and|so|ok|okay|um|uh)\W+)*what(?:'s| is) (?:the|that) (?P<w>[a-z]+(?: [a-z]+)?)"
    r" (?:thing|one|item) on (?:my|the) (?:list|to-?do list)\W*$"
    r"|\b(?:is|are) (?:my|the) (?P<t>[a-z]+(?: (?!and\b|still\b)[a-z]+){0,3}?)"
    r"(?: tasks?| ones?| reminders?| to-?dos?)?"
    r" (?:still )?on (?:my|the) (?:list|to-?do list|tasks|task list)\b"
    # "and the insurance one is still open?", "is the groceries task still pending?"
    r"|^(?:(?:and|so|ok|okay|wait)\W+)*(?:is )?(?:my|the) (?P<o>(?!(?:case|ticket|issue|complaint"
    r"|invoice|bill)\b)[a-z]+(?: [a-z]+)?) (?:one|task|reminder|to-?do)(?: is)? still"
    r" (?:open|pending|to do|there|on)\W*$"
    # "do I still need to buy groceries?": that to-do, as the list holds it now (was: "I
    # can't help with that")
    r"|^(?:(?:and|so|ok|okay|wait)\W+)*do i still (?:need|have) to"
    r" (?P<n>[a-z]+(?: [a-z]+){0,3}?)\W*$"
)
# "the groceries are almost sorted", "i'm nearly done with the insurance": a to-do told not
# done yet (nothing is marked; the list says where it stands). Cheap: only read when
# "almost", "nearly" or "just about" is said.
NEARLY_DONE = _rx(
    r"^(?:(?:and|so|ok|okay|well|oh|yeah|yes|right)\W+)*(?:the |my )?(?P<t>[a-z]+(?: (?!is\b"
    r"|are\b)[a-z]+){0,3}?)(?: tasks?| ones?| reminders?| to-?dos?)?(?: is| are|'s|'re)?"
    r" (?:almost|nearly|just about|pretty much|mostly) (?:done|sorted|finished|complete|completed"
    r"|taken care of|dealt with|there)\b"
    r"|\b(?:i'm|i am|im|we're|we are|i've|we've) (?:almost|nearly|just about|mostly)"
    r" (?:done|finished|through|sorted)(?: with)? (?:the |my )?(?P<w>[a-z]+(?: [a-z]+){0,3}?)"
    r"(?: tasks?| ones?| reminders?| to-?dos?)?(?: now| already)?\W*$"
)
# "so is the eye exam deleted?", "did the eye exam task get removed?", "is the groceries task
# gone?": whether a to-do was deleted, from what the task list holds now (a delete that
# failed is still there). "gone" only of a task said as one (a visit is cancelled).
DELETED = _rx(
    r"\b(?:is|was|has|have) (?:my|the) (?P<t>[a-z]+(?: (?!and\b|been\b)[a-z]+){0,3}?)"
    r"(?: tasks?| to-?dos?| reminders?)? (?:been |now |already |actually |really )?"
    r"(?:deleted|removed|taken off)\b"
    r"|\bdid (?:my|the) (?P<u>[a-z]+(?: (?!and\b)[a-z]+){0,3}?)(?: tasks?| to-?dos?| reminders?)?"
    r" (?:actually |really )?get (?:deleted|removed)\b"
    r"|\b(?:is|are) (?:my|the) (?P<v>[a-z]+(?: (?!and\b)[a-z]+){0,3}?)"
    r" (?:tasks?|to-?dos?|reminders?) (?:now |already |really )?gone\b"
    r"|\bdid you (?:actually |really |already |definitely )?(?:delete|remove) (?:my |the )"
    r"(?P<w>[a-z]+(?: (?!and\b)[a-z]+){0,3}?)(?: tasks?| to-?dos?| reminders?)?(?: then)?\??$"
)
# "did the flowers task get added?", "was the plumber one added": whether a to-do is on the
# list now, as "is the … task on my list?" asks.
ADDED = _rx(
    r"\b(?:did|was|has|have|were) (?:my|the) (?P<t>[a-z]+(?: (?!and\b|been\b)[a-z]+){0,3}?)"
    r"(?: tasks?| ones?| to-?dos?| reminders?)? (?:actually |really |already )?(?:get |been )?"
    r"(?:added|created)\b"
)
# "which is earlier, the haircut or the cleaning?": two visits, one before the other.
EARLIER = _rx(
    r"\bwhich(?: one)?(?: is|'s| comes| will be| happens)? (?P<w>earlier|first|sooner|later)\b"
    # "is my haircut before or after my cleaning?", "is the cleaning before my haircut?": the
    # two compared, as "which is first" compares them (was: every visit read out)
    r"|\b(?:is|are|does|do) (?:my|the) [a-z' ]{2,30}? (?:come )?(?P<b>before|after|earlier than"
    r"|later than)(?: or (?:before|after))? (?:my|the)\b"
)
# "when was I last in?", "when did I last come in": the latest visit had, alone.
LAST_IN = _rx(
    r"\bwhen (?:was|were) (?:i|we) (?:last )?(?:in|here|there|seen|by)(?: last)?\??$"
    r"|\bwhen did (?:i|we) (?:last )?(?:come|pop|drop) (?:in|by)(?: last)?\??$"
)
TASK_WORDS = _rx(r"\b(?:task|tasks|list|to-?dos?|to do)\b")


PREVIOUS = _rx(
    r"\b(?:one|invoice|bill) before (?:that|it|this)\b"
    r"|\b(?:previous|last but one) (?:one|invoice|bill)\b"
)
MONTH = _rx(r"\b(?:" + "|".join(MONTHS) + r")\b")

# "what priority is the eye exam one(?)": a task named by its words (only tasks have one).
TASK_PRIORITY = _rx(
    r"\bwhat(?:'s| is)? (?:the )?priority (?:is |of |on |for )?(?:the |my )?"
    r"(?!(?:it|that|this)\b)(?P<t>[a-z][a-z ]{1,40}?)(?: one| task| reminder)?(?: now)?[?.!\s]*$"
)
# "and the groceries one, when's that": the task named first, its due day asked after.
NAMED_THEN_WHEN = _rx(
    r"^(?:and |what about |how about )?the (?P<t>[a-z][a-z ]{1,40}?) (?:one|task|reminder),?"
    r" when(?:'s| is) (?:that|it)(?: due)?$"
)

# "what's the status of it", "any update on that": about the case just opened.
CASE_STATUS = _rx(
    r"\b(?:status|any (?:news|update|progress)|still open|been (?:looked at|answered)"
    # "has anyone looked at it yet?" just after it was opened
    r"|(?:has|have) (?:anyone|someone|anybody|somebody|they|the team) (?:looked at|answered"
    r"|replied to|got back to me about)"
    # "did you open it?", "is it open now?" just after it was opened
    r"|(?:did|have) you (?:actually |really )?(?:open|opened|log|logged|file|filed|raise"
    r"|raised)|is (?:it|that|this)(?: one)? (?:open|opened|logged)"
    r"|(?:it|that|this)(?: one)? is (?:open|opened|logged)(?= right| yes)"
    r")\b"
    r"(?=.*\b(?:it|that|this|the case|the ticket|my case|my ticket)\b|\W*$)"
)


__all__ = [
    "ACTION",
    "AFTER",
    "CASE_STATUS",
    "CLOSED",
    "COMPLAINT",
    "COST",
    "DONE_YET",
    "DUE_IT",
    "DUE_SOON",
    "EARLIER",
    "ELLIPSIS",
    "FINISHED",
    "FOCUS_DAY",
    "FOCUS_QUESTION",
    "HIGH",
    "INVOICE_HISTORY",
    "LAST_IN",
    "LAST_INVOICE",
    "LEFT",
    "LENGTH",
    "LOW",
    "MONTH",
    "NAMED_THEN_WHEN",
    "NOTES",
    "ON_LIST",
    "OVERDUE",
    "PAID",
    "PAST",
    "PREVIOUS",
    "RECENT",
    "STILL_ON",
    "TASK_PRIORITY",
    "TASK_WORDS",
    "TICKET_HISTORY",
    "WAITING",
    "WHAT_HAPPENED",
    "WHEN",
    "WHERE",
    "WHO_WITH",
]
