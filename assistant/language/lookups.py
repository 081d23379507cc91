"""What a clause asks to see: every domain it names becomes a lookup, in the order named."""

from __future__ import annotations

from assistant.language import slots
from assistant.language.clause import (
    APPT_NOUN,
    TASK_NOUN,
    VISIT_BY_TIME,
    Clause,
    opens_with_a_verb,
)
from assistant.language.intent import Intent, IntentKind
from assistant.language.patterns import GatedPattern, Tried, rx

_NEXT = rx(
    r"\b(?:next|soonest|earliest) (?:\w+ )?(?:appointment|visit|booking|session|one|reservation"
    r"|haircut|cleaning|checkup|consultation|exam|therapy)\b"
    r"|\bwhen(?:'s| is| do i| am i| will i| i'm| i am| are you| do you| will you)\b.*\bnext\b"
    r"(?! week| month| year)"
    # "when am I seeing the dentist", "when am I due in": the next visit, said as a visit
    r"|\bwhen (?:am i|do i|will i|i'm|i am|are you) (?:\w+ )?(?:seeing|see|due (?:in|back)"
    r"|coming in|in next|booked in)\b"
    r"|\bwhen(?:'s| is) my (?:\w+ )?(?:appointment|visit|booking|haircut|cleaning|checkup"
    # ("when's my eye exam task due": the task named after the visit, not the visit)
    r"|consultation|exam)\b(?! (?:task|one|reminder|to-?do)\b)|\bnext appointment\b"
)
# A day or span said after "due": the to-dos falling due then, not a bill.
_DUE_WHEN = (
    r" (?:this|next|today|tomorrow|tonight|on(?! (?:my|the|your) account)|by|before|in the next"
    # ("and what's due wednesday": that day's to-dos, as "what's due on wednesday"; it was
    # answered with the bill)
    r"|over the|the \d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)"
)
_WHATS_DUE = (
    r"|\b(?:what(?:'s| is)|what else is|anything|is anything|whats) (?:still )?due" + _DUE_WHEN
)
# A visit already made: the planner reads it from the history (the appointments it names
# are the customer's own, even with no noun: "when did I last come in").
PAST_VISIT = (
    r"\bwhen (?:did )?i (?:last )?(?:came|come|was|been|visited) in\b"
    r"|\bwhen (?:was|were) (?:i|we) (?:last )?(?:in|here|seen)\b"
    r"|\bwhen did i last (?:come|visit|have)\b|\bhave i (?:ever )?had (?:a|an|my)\b"
    r"|\bhow many times have i been\b"
    # "when i came last time for hair cut", "when did i come last time for a haircut"
    r"|\bwhen (?:did )?i (?:came|come|went|go|had|have|was|visited|visit)\b[^.?!]*\blast time\b"
    # "any appointments I cancelled", "the visits I've missed": the ones gone by
    r"|\b(?:appointments?|visits?|bookings?) (?:that )?i(?:'ve| have)? (?:missed|cancell?ed)\b"
    # "which appointments are cancelled?", "so which ones got cancelled?", "my cancelled
    # visits": the ones cancelled, from the history (was: the upcoming ones read out, as
    # though they were the answer, or "I can't help with that")
    r"|\b(?:which|what) (?:appointments?|visits?|bookings?|ones?)(?: of mine)? (?:are|were"
    r"|have been|has been|got|is|did you) (?:now |just )?cancell?ed\b"
    r"|\b(?:my|any|the) cancell?ed (?:appointments?|visits?|bookings?|ones?)\b"
    # "what did I have last month?", "what did I have in december": the visits then
    r"|\bwhat (?:did|have) i (?:have|had|go (?:in )?for)(?: booked| on| in)?(?: back)?"
    r" (?:last (?:month|week|year)|earlier this (?:month|year)|in (?:jan|feb|mar|apr|may|jun|jul"
    r"|aug|sep|oct|nov|dec)[a-z]*)\b"
    r"|\bwhen (?:was )?my (?:last|previous) (?!(?:\w+ )?(?:invoices?|bills?|payments?|tickets?"
    r"|cases?|complaints?|tasks?)\b)\w+"
    # "show me my last 2 visits", "my past few appointments": a count of those gone by
    r"|\b(?:my|the) (?:last|previous|past) (?:\d{1,2}|two|three|four|five|few|couple(?: of)?)"
    r" (?:appointments|visits|bookings|haircuts|cleanings)\b"
)
READS: tuple[tuple[IntentKind, GatedPattern], ...] = (
    (
        "appointments",
        rx(
            rf"{APPT_NOUN.pattern}|{VISIT_BY_TIME.pattern}"
            r"|\b(?:have i got|do i have|is there|got|what have i got"
            # "whatever I have on the 7th, …": what is booked then, named by its day
            r"|whatever i have|whatever i've got|what i have|whatever's|whatever is"
            r"|what do i have|what's|what is|what else is|what else's)(?: anything| something)?"
            r"(?: else)?(?: on| scheduled"
            r"| booked| planned| going on| happening)?(?: for me| with you)? (?:for |on |in )?"
            r"(?:today|tomorrow|tonight"
            r"|(?:this|that) (?:week|weekend|month|morning|afternoon|evening)"
            r"|next (?:week|weekend|month|\w+day)|\w+day"
            # "have I got anything on the 23rd", "anything on january 23?": a date
            r"|(?:the )?\d{1,2}(?:st|nd|rd|th)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov"
            r"|dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?"
            # "…on the day after tomorrow", "…the first week of april", "…between the 20th
            # and the 25th": a day or a stretch of days said another way
            r"|the day after tomorrow|(?:the )?(?:first|second|third|fourth|last) week (?:of|in)"
            # "…the week of the 21st", "…the week after next": a week said by a day in it
            r"|(?:the )?week (?:of|starting|beginning|commencing|after next)"
            r"|between (?:the |now and )?\d{1,2}(?:st|nd|rd|th)?"
            r"|between (?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
            r"|(?<=in )(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b"
            r"|^anything (?:on |for )?(?:between )?(?:the )?\d{1,2}(?:st|nd|rd|th)\b"
            # "what did I book?", "what did we just book": what is booked (was: "I can't help")
            r"|\bwhat (?:did|have) (?:i|we) (?:just )?(?:book|booked|schedule|scheduled)\b"
            # "anything on friday afternoon", "anything tomorrow morning": a day said bare
            r"|^(?:(?:and|so|ok|okay|um|uh|hmm) )*anything (?:on |for |in |before |after )?"
            r"(?:today|tomorrow"
            r"|tonight|(?:this|next) (?:week|weekend|morning|afternoon|evening|\w+day)|\w+day"
            r"|(?:the )?week (?:of|starting|beginning|commencing|after next))\b"
            # "do I have anything before noon on wednesday", "…after 3 tomorrow": a part of
            # a day, by an hour ("do i have anything at four o'clock on friday": at the hour;
            # it was refused)
            r"|\b(?:have i got|do i have|is there|got) (?:anything|something)(?: booked| on"
            r"| scheduled)? (?:before|after|until|till|by|at|around) (?:noon|midday|lunch"
            r"|lunchtime|\d)"
            # "what do I have on during that time?", "what have I got on?": the calendar
            r"|\bwhat (?:do i have|have i got|i have|i've got) on(?: (?:during|in|over|for|at)"
            r" (?:that|this|those|these) (?:time|period|week|weekend|days|stretch|dates))?\??$"
            # "what's my busiest day this week", "which day am I most booked": the calendar,
            # read out (how many each day is told with it)
            r"|\b(?:busiest|most booked|most packed|fullest|quietest|least busy|freest)\b"
            r"(?! (?:time|times|hours?)\b)"
            # "anything next week after 4pm?", "anything tomorrow?": what is booked then
            r"|^anything (?:on |for |booked |scheduled )?(?:(?:this|next) (?:week|weekend|month)"
            r"|today|tomorrow|tonight|(?:this |next )?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
            # "when is the one downtown": one of the visits, told by where or what it is
            r"|\bwhen(?:'s| is) the (?:other )?one\b(?!.*\b(?:due|task|reminder|to-?do)\b)"
            # "what's on my plate this week", "anything on my agenda": the calendar (and the
            # to-dos, below); "what do I have after wednesday": the days on from it
            r"|^(?!.*\b(?:tasks?|to-?dos?|task-wise|reminders?)\b).*\bon my (?:plate|agenda"
            r"|schedule)\b"
            r"|\bwhat (?:do i have|have i got|i have|i've got)(?: on| booked| coming up)?"
            r" (?:after|before|from|until|till) (?:the )?(?:\w+day|\d|next|this)"
            # "what does my week look like now", "what's friday looking like": the calendar
            r"|\bwhat(?:'s| is| does| do) (?:my |the |next |this )?(?:\w+day|week|weekend|day"
            r"|schedule|calendar|diary)(?: \w+)? (?:look|looking) like\b"
            # "and I still have the wednesday one, right?"
            r"|\bthe (?:mon|tues|wednes|thurs|fri|satur|sun)day (?:one|visit|booking)\b"
            # "any slots friday?", "what's your availability": the narrator says open times
            # are not known here, and what the customer has booked
            r"|\b(?:slots?|openings?|availability)\b(?! (?:hours|times))"
            # "what time is free thursday?", "which times are open"
            r"|\b(?:what|which|any) times? (?:is |are )?(?:free|open|available)\b"
            # "am I free on friday?", "is wednesday clear for me?": what is booked then
            r"|\b(?:am i|are we|will i be|would i be) (?:free|busy|available|booked up|tied up"
            r"|clear)\b|\b(?:today|tomorrow|tonight|\w+day)(?: morning| afternoon| evening)?"
            r" (?:clear|free|open|busy) for me\b"
            # the visits before ("when did I last come in", "have I ever had a facial")
            rf"|{PAST_VISIT}"
        ),
    ),
    (
        "billing",
        rx(
            r"\b(?:invoices?|bills?|billing|balance|owe|owed|owing|payments?|outstanding|unpaid"
            r"|charges?|statements?|amount due|how much do i|how much i|pay|paid)\b"
            # "was I charged 150 for a cleaning?", "will I be charged for it?": asked (not
            # "you charged me for…": a complaint, answered as one)
            r"|\b(?:was|were|am|will|would|did|have|has) (?:i|we)(?: be| been| being| get| got)?"
            r" (?:over)?charged\b"
            # "what's due this week" asks about to-dos (_DUE_WHEN); "what's due" alone, a bill
            # ("what's due first, the insurance or the groceries": to-dos compared)
            rf"|\bwhat(?:'s| is) due\b(?!{_DUE_WHEN}| (?:first|sooner|soonest|earlier)\b)"
            r"|\bdue on my account\b|\bthe damage\b"
            # "has my bank transfer cleared yet", "did the money arrive": a payment asked after
            r"|\b(?:bank )?transfers? (?:has |have )?(?:cleared|arrived|gone through|come through"
            r"|landed|shown up|show(?:ed|n)? up)\b|\b(?:has|did) (?:my |the )?(?:transfer|deposit"
            r"|money) (?:clear|arrive|come through|go through|land|show up)\b"
            # "I sent the 150 by post on thursday, did you get it?": money sent, asked after
            r"|\b(?:sent|wired|transferred|mailed|posted) (?:you |in |over )?"
            r"(?:the |my |a |an |some |that |this )?(?:\$ ?\d"
            r"|\d[\d,.]*\b(?! (?:emails?|letters?|forms?|packages?|of))|money\b|cash\b|cheque\b)"
            # "…and how much have I spent", "…and how much was it": what it cost
            r"|\bhow much (?:have|did|do) i (?:spent|spend)\b"
            r"|\bhow much (?:was|is|were|did|does) (?:it|that|this)\b"
            # "sorry what was that, how much?": the sum asked again, said bare
            r"|\bhow much\W*$"
            # "the $150 on my account, what's that for?": a sum of money asked about
            r"|\$ ?\d"
            r"|\b(?:good standing|in arrears|in credit|all square|squared up|settled up"
            r"|in the red|in debt)\b"
            # "what's my tab", "how big is the tab": what is owed, said as a bar's tab
            r"|\b(?:my|the|our) (?:running )?tab\b(?! (?:key|button|bar|in|of the))"
        ),
    ),
    (
        "tasks",
        rx(
            rf"{TASK_NOUN.pattern}|\b(?:need|have|left) to do\b(?! (?:with|about))"
            # "do I still need to buy groceries?": a to-do asked after
            r"|^(?:(?:and|so|ok|okay|wait)\W+)*do i still (?:need|have) to\b"
            r"|\bon my plate\b"
            r"|\b(?:checked|ticked|crossed) off\b|\bwhat have i (?:done|completed|finished)\b"
            r"|\b(?:need to|have to|should|got to) (?:take care of|handle|get done|deal with)\b"
            r"|\b(?:what's|what is|anything|what else is|whats) (?:still )?pending\b"
            rf"{_WHATS_DUE}"
            # "which is due sooner, groceries or car insurance?": the to-dos compared
            r"|\b(?:which|what)(?: one)?(?:'s| is)? due (?:sooner|first|soonest|earlier|next)\b"
            # "when is the car insurance due": a task's due day (a bill says so); "what day
            # is the car insurance renewal due?" the same (was: "I can't help with that")
            r"|\b(?:when|(?:what|which) (?:day|date))(?:'s| is| was) (?:the |my )?"
            r"(?!(?:it|that|this|they|those)\b)"
            r"(?!(?:\w+ ){0,5}?(?:bills?|invoices?|payments?|balance|rent)\b)"
            r"[a-z][\w ]{0,40}? due\b"
        ),
    ),
    (
        "tickets",
        rx(
            r"\b(?:tickets?|support cases?|(?<!in )cases?|support requests?|complaints?|issues?"
            r"|support)\b"
            # "that portal thing I reported, is it fixed?", "…about my invoice, is that sorted
            # yet?": what was reported, asked after
            r"|\bi (?:reported|raised|logged|complained about)\b"
            # "when will they get back to me?", "when will I hear back": the case asked after
            r"|\bwhen (?:will|would|do|does|can|should) (?:i|they|someone|somebody|anyone"
            r"|the team|support|you guys) (?:get back to me|hear back|hear from (?:them|someone"
            r"|you|the team)|reply|respond|answer|call me back|follow up|get in touch)\b"
            # "i ask a question about my invoice last week, it is answered already?": a
            # question put to the team, asked after (said in the present: "i ask")
            r"|\bi (?:ask|asked|sent|send|raised|put in) (?:a |my |the )?(?:question|query)\b"
            r"|\b(?:is|has) (?:it|that|this)(?: one)?(?: been)? (?:sorted|resolved|fixed"
            r"|dealt with)(?: out)?(?: yet)?\W*$"
            # "did anyone look at my invoice question?": a question put to the team
            r"|\b(?:invoice|billing|bill|payment|charge|refund) (?:question|query)\b"
            r"|\bdid (?:anyone|anybody|someone|somebody|the team|they) (?:\w+ )?(?:look at"
            r"|look into|get back|reply|answer|respond)"
            # "how's the call about my invoice going", "any news on my request about the
            # charge": what was put to the team, asked after (the bill was read)
            r"|\b(?:how's|how is|hows|what's happening with|whats happening with|what happened"
            r" (?:to|with)|any (?:news|word|update) (?:on|about)|where are we with)"
            r" (?:the |my |that )(?:phone )?(?:call|question|query|request|email)"
            r" (?:i made |i sent |i had )?(?:about|regarding|re|over|on)\b"
            # "has anyone actually replied to that?" (after a call about the invoice told)
            r"|\b(?:has|have) (?:anyone|anybody|someone|somebody|the team|they) (?:\w+ )?"
            r"(?:looked (?:at|into)|got back|gotten back|replied|answered|responded)\b"
        ),
    ),
)
_SUMMARY = rx(
    r"\b(?:summary|summari[sz]e|progress|how am i doing|how i'm doing|how i am doing"
    r"|how am i getting on|stats|statistics|completion rate|how productive|how many .*"
    r"(?:done|completed|finished))\b"
)
_PROFILE = rx(
    r"\b(?:profile|on file|account details|account info(?:rmation)?|my details"
    r"|my info(?:rmation)?|personal (?:details|info(?:rmation)?)|contact (?:details|info"
    r"(?:rmation)?)|my name|tier|membership|what email|which email|my email|email address"
    r"|e-mail|phone number|my number|my phone|my address|my account|about me"
    r"|who am i(?! (?:speaking|talking|chatting) (?:to|with)\b)"
    r"|the account|what name|which name|time ?zone)\b"
)
# "that's fine, and the phone?" after the email was read out (apart: the pattern above is
# tried on every clause, and is skipped at once on a text holding none of its words).
_THE_OTHER_DETAIL = rx(
    r"(?:\b(?:and|what about|how about) |^)(?:the |my )?(?:phone|mobile|cell|e-?mail)"
    r"(?: number| address)?(?: too| as well)?[?.!]*$"
)
# "have you got my correct email?", "what mobile number do you have for me?", "whats the
# email you got for me"
_HELD = r"\b(?:have you got|do you have|you have|you've got|you got|you guys have|my)\b"
_CONTACT_WORD = r"\b(?:email|e-mail|phone|mobile|cell|number|address)\b"
_CONTACT_QUESTION = rx(f"{_HELD}.*{_CONTACT_WORD}|{_CONTACT_WORD}.*{_HELD}")
# "change my card on file", "renew my membership": a verb of its own with its object, not
# one that asks to be shown or told, asks to see nothing ("what's on file" is not asked).
_SHOW_VERB = rx(
    r"^(?:(?:please|can you|could you|also|and|then|just)\b[ ,]*)*(?:show|tell|give|get|check"
    r"|list|read|pull|see|find|look|send|confirm|verify|double-check|remind"
    # "could you let me know my email": asks to be told, as "tell me" does
    r"|let me (?:know|see|have|hear))\b"
)
# "sort out my account details": the details are still what to look at first.
_DETAILS = rx(
    r"\b(?:my|the) (?:account |contact |personal )?(?:details|info|information|profile)\b"
)
_EVERYTHING = rx(
    r"\b(?:everything|all of it|all my stuff|full picture|catch me up|rundown|overview"
    r"|the works|all my info)\b"
)
_EVERYTHING_DUE = rx(
    r"\b(?:everything|all|anything|all the stuff|all the things)(?: that's| that is| which is"
    r"| i have| i've got| i got)? (?:due|coming due)\b"
)
# "that's everything", "thanks for everything": a closing, not a request for it all.
_CLOSING = rx(r"\b(?:that's|that is|that'll be|that will be|for|is that) everything\b")
# "a good dentist", "recommend a physio": a kind of service, not an appointment on file.
_ANY_SERVICE = rx(
    r"\b(?:recommend|suggest|know (?:a|any)|nearest|near me|any good|a good|the best)\b"
    r"|\b(?:a|an|another|some) (?:\w+ )?(?:dentist|physio|optometrist|massage|facial)\b"
)
# "how many tasks have I got outstanding": tasks still to do, not an unpaid bill.
_TASKS_OUTSTANDING = rx(
    rf"(?:{TASK_NOUN.pattern})(?:\s\w+){{0,4}}?\s(?:still )?outstanding\b"
    r"|\boutstanding (?:tasks?|to-?dos?|jobs|reminders)\b"
)
# "my ticket about the invoice", "the billing ticket": the bill says what the case is
# about; it is not asked for.
_ABOUT_A_BILL = rx(
    r"\b(?:tickets?|cases?|complaints?|quer(?:y|ies)|questions?|(?<=the )calls?|requests?)"
    r" (?:about|regarding|re|on|for"
    r"|over) (?:the |my |a |an |this |that )?(?:\w+ )?(?:invoices?|bills?|billing|charges?"
    r"|payments?)\b|\b(?:billing|invoice|payment|charge) (?:tickets?|cases?|complaints?"
    r"|question|query)\b"
)
_PRIORITY_WORD = rx(r"\bpriorit(?:y|ies|i[sz]ed)\b")
# "do you do teeth whitening and how much (is it)": a service asked about, then its price.
_PRICE_OF_AN_OFFER = rx(
    r"\b(?:do|does|can) you (?:guys )?(?:do|offer|provide|have|sell|carry)\b.*\bhow much\b"
)
_BARE_HOW_MUCH = rx(
    r"(?:^|\band |\bso |\balso |, )how much(?: (?:is|does|would|will) (?:it|that|this|one)"
    r"(?: cost| be)?)?"
    r"(?: for (?:it|that|one))?\W*$"
)
_EVERYTHING_KINDS: tuple[IntentKind, ...] = ("appointments", "billing", "tasks", "tickets")


_READS_TRIED = Tried(READS)
# "show me my appointments and to-dos, but skip the billing", "everything except billing":
# what is named after these words is left out, not asked for (it was read out too; with
# "everything", it was all that was read)
_LEFT_OUT_READS = rx(
    r"\b(?:except(?: for)?|but not|other than|apart from|aside from|excluding|skip(?:ping)?"
    r"|leave out|leaving out|minus|without)\b|^(?:but |and |just )?not\b(?! sure| certain)"
)
_LEFT_OUT_CUES = (
    *("except", "but not", "other than", "apart", "aside", "excluding", "skip", "leav"),
    *("minus", "not", "without"),
)


def _left_out_reads(
    text: str, found: list[tuple[int, IntentKind]]
) -> tuple[list[tuple[int, IntentKind]], set[IntentKind], int] | None:
    """The reads said before the words that leave some out, those left out, and where
    the words start (None when nothing is left out)."""
    if not any(cue in text for cue in _LEFT_OUT_CUES):
        return None
    cut = _LEFT_OUT_READS.search(text)
    if cut is None:
        return None
    left_out = {kind for pos, kind in found if pos >= cut.start()}
    if not left_out:
        return None
    return [(pos, kind) for pos, kind in found if pos < cut.start()], left_out, cut.start()


def reads(c: Clause) -> list[Intent]:
    text = c.text
    found = [(match.start(), kind) for kind, match in _READS_TRIED.every(text)]
    if (left := _left_out_reads(text, found)) is not None:
        found, left_out, cut = left
        if not found and _EVERYTHING.search(text[:cut]) and not _CLOSING.search(text):
            rest = [kind for kind in _EVERYTHING_KINDS if kind not in left_out]
            return [Intent(kind, clause=text) for kind in rest]
        if not found:
            return []
    if (
        "outstanding" in text
        and _TASKS_OUTSTANDING.search(text)
        and not READS[1][1].search(text.replace("outstanding", ""))
    ):
        found = [(pos, kind) for pos, kind in found if kind != "billing"]
    if (
        any(kind == "tickets" for _, kind in found)
        and (about := _ABOUT_A_BILL.search(text))
        and not READS[1][1].search(text[: about.start()] + text[about.end() :])
    ):
        found = [(pos, kind) for pos, kind in found if kind != "billing"]
    if (
        "how much" in text
        and "do you" in c.norm.text
        and _PRICE_OF_AN_OFFER.search(c.norm.text)
        and _BARE_HOW_MUCH.search(text)
    ):
        # "do you do teeth whitening and how much": the price of what is offered (no tool
        # knows one), not the customer's balance.
        found = [(pos, kind) for pos, kind in found if kind != "billing"]
    if not found and slots.service(text, c.original) and not _ANY_SERVICE.search(text):
        found.append((0, "appointments"))  # "is my haircut still on?"
    if _PRIORITY_WORD.search(text):
        # "what priority is the eye exam one": only a task has a priority.
        kinds = {kind for _, kind in found}
        found = [(pos, kind) for pos, kind in found if kind != "appointments"]
        if "appointments" in kinds and "tasks" not in kinds:
            found.append((0, "tasks"))
    if next_match := _NEXT.search(text):
        found = [(pos, kind) for pos, kind in found if kind != "appointments"]
        found.append((next_match.start(), "next_appointment"))
    if summary := _SUMMARY.search(text):
        others = [kind for _, kind in found if kind not in ("tasks",)]
        if any(kind == "tasks" for _, kind in found) or not others:
            found = [(pos, kind) for pos, kind in found if kind != "tasks"]
            found.append((summary.start(), "task_summary"))
    if (
        not found
        and (
            profile := _PROFILE.search(text)
            or _CONTACT_QUESTION.search(text)
            or _THE_OTHER_DETAIL.search(text)
        )
        and not (
            opens_with_a_verb(text) and not _SHOW_VERB.match(text) and not _DETAILS.search(text)
        )
    ):
        found.append((profile.start(), "profile"))
    if not found and "due" in text and (due := _EVERYTHING_DUE.search(text)) is not None:
        # "show me everything due this week": what is due, as "what's due this week" reads
        # (not every kind of thing on the account)
        found.append((due.start(), "tasks"))
    if not found and _EVERYTHING.search(text) and not _CLOSING.search(text):
        return [Intent(kind, clause=text) for kind in _EVERYTHING_KINDS]
    return [Intent(kind, clause=text) for _, kind in sorted(found)]
