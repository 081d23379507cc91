"""The rules for the account: open a support case, change the email or phone on file."""

from __future__ import annotations

import re

from assistant.language import slots
from assistant.language.clause import CONTACT_NOUN, QUESTION_START, Clause
from assistant.language.intent import Intent
from assistant.language.patterns import Tried, rx

_CREATE_TICKET = (
    rx(
        r"\b(?:open|create|file|raise|submit|log|start|make|put in|lodge|report)(?: up)?"
        r" (?:a |an |new |another )+(?:support |help )?(?:case|ticket|request|complaint"
        r"|issue report|issue|query|dispute|concern)(?P<rest>.*)$"
    ),
    rx(
        r"\b(?:report|flag) (?:a |an |that )?(?:problem|issue|bug|error|fault|mistake)(?P<rest>.*)$"
    ),
    rx(r"\b(?:complain about|complain that|make a complaint about)(?P<rest>\s.+)$"),
    # "make complaint please: the hairdresser was rude", "open ticket pls, card charged
    # twice": asked in a hurry, the article left out (not "open tickets?": a listing)
    rx(
        r"^(?:please |can you |could you |i want to |i'd like to |i would like to |i need to )*"
        r"(?:open|create"
        r"|file|raise|submit|log|make|lodge)(?: new)? (?:support |help )?(?:case|ticket"
        r"|complaint|dispute)(?P<rest>(?: please)?\s*(?:[:,.-]|about |for |regarding |because )"
        r".+| please)$"
    ),
    rx(r"\breport that(?P<rest>\s.+)$"),
    # "…, I want to complain", "I'd like to complain": a complaint asked for, what about
    # said before it or asked next (it was "Sorry, I can't help with that")
    rx(
        r"^(?:(?:and|so|but|well|honestly)[ ,]+)*i(?: really)?(?: want| would like|'d like"
        r"| wish| need| have)(?: to)? (?:make a |file a |lodge a |put in a )?complain(?:t)?"
        r"(?P<rest>(?: ?[:,-] .+| (?:about|that|because|regarding) .+)?)(?: please)?[.!]*$"
    ),
    # "the app keeps crashing when I open my invoices, please report it": the problem said first.
    rx(
        r"^(?P<rest>.{12,}?)[\s,.]+(?:so |please |can you |could you |would you |and )*"
        r"(?:report|flag|log|raise) (?:it|this|that)(?: for me)?(?: please)?$"
    ),
)
_IMPLICIT_PROBLEM = (
    rx(
        r"\b(?:i have|i've got|i got|there's|there is|i'm having|i am having) (?:a |an |some )?"
        r"(?:problem|issue|trouble)s? (?:with )?(?P<rest>.+)$"
    ),
    # "your app keeps logging me out", "the website won't load": something of the
    # business's that does not work, told, not yet a case asked for.
    rx(
        r"(?P<rest>\b(?:the |your |my |this )?(?:app|website|web site|site|portal|login|log in"
        r"|online booking|booking page|password reset|link)\b"
        r".*\b(?:keeps|kept|won't|wont|doesn't|does not|isn't|is not|can't|cannot|not working"
        r"|broken|crash|crashes|crashing|crashed|freezes|freezing|down|error)\b.*)$"
    ),
    # "my invoice never arrived by email", "i never got my receipt": something the
    # business sends that did not come, told.
    rx(
        r"(?P<rest>\b(?:(?:the |your |my )(?:\w+ )?(?:invoice|bill|receipt|statement|refund"
        r"|confirmation|reminder|reset email|reset link|code)s? (?:\w+ )?(?:never|still hasn't"
        r"|hasn't|has not|didn't|did not|still has not) (?:arrived|came|come|come through"
        r"|shown up|showed up|got here)"
        r"|i (?:never|still haven't|haven't|have not|didn't|did not) (?:got|get|gotten|received"
        r"|receive) (?:my |the |your |a |an |any )(?:\w+ )?(?:invoice|bill|receipt|statement"
        r"|refund|confirmation|reminder|reset email|reset link|code)s?)\b.*)$"
    ),
    # "I can't log in", "and I can't sign in either": something of the business's the
    # customer cannot do, told (it was "Sorry, I can't help with that").
    rx(
        r"(?P<rest>\bi (?:can't|cant|cannot|can not|am unable to|'m unable to|couldn't)"
        r" (?:log ?in|sign ?in|login|access my account|get into my account|reset my password"
        r"|book online|see my (?:invoices|bills|appointments)|open the app|use the app)\b.*)$"
    ),
)
_BODY_LEAD = rx(
    # "open a ticket please, I was charged…": the please is not words of the case
    r"^[\s,:;-]*(?:please\b)?[\s,:;-]*(?:for me)?[\s,:;-]*(?:and |so )?"
    # ("log a ticket, say my insurance should cover it": the say is not words of the case)
    r"(?:about|for|regarding|re|because|saying|that says|say|tell them|on|with|that)?[\s,:;-]*"
)


_CREATES = Tried((pattern, pattern) for pattern in _CREATE_TICKET)
_PROBLEMS = Tried(zip(("problem with ", "", "", ""), _IMPLICIT_PROBLEM, strict=True))


def case_asked_at(said: str) -> int | None:
    """Where an ask to open a support case starts in the normalized `said`, or None."""
    found = _CREATES.earliest(said)
    return None if found is None else found[1].start()


def create_ticket(c: Clause) -> Intent | None:
    if asked := _CREATES.first(c.text):
        return _ticket(c, _BODY_LEAD.sub("", asked[1].group("rest"), count=1), consent=True)
    if told := _PROBLEMS.first(c.text):
        if _CREATES.first(c.norm.text):
            return None  # "the portal keeps logging me out, can you open a ticket"
        # Describing a problem is not yet asking for a case: offer, do not guess a write.
        lead, match = told
        return _ticket(c, lead + match.group("rest"), consent=False)
    return None


_LIFTED = rx(r"\b(?P<kind>emailaddress|phonenumber)(?P<index>\d+)\b")


def _as_said(words: str, c: Clause) -> str:
    """The case's words with the numbers and addresses in them as the customer said them
    ("call me at 415 555 0177"), not the placeholders the grammar read them as."""

    def said(match: re.Match[str]) -> str:
        lifted = c.norm.emails if match.group("kind") == "emailaddress" else c.norm.phones
        index = int(match.group("index"))
        return lifted[index] if index < len(lifted) else match.group(0)

    return _LIFTED.sub(said, words)


def _ticket(c: Clause, words: str, *, consent: bool) -> Intent:
    text = slots.ticket_text(_as_said(words, c), c.original)
    if text is None:
        return Intent("create_ticket", missing=("problem",), clause=c.text)
    subject, body = text
    missing = () if consent else ("consent",)
    return Intent(
        "create_ticket", {"subject": subject, "body": body}, missing=missing, clause=c.text
    )


_CHANGE = rx(
    r"\b(?:update|change|set|switch|swap|correct|replace|new|edit|use|is now|should be|fix"
    # ("i've changed my phone number", "my email has been updated": said as done)
    r"|changed|updated|switched|moved|from now on|text me|call me|reach me|contact me"
    # ("my number will be…", "my email is changing to…": a change said for later, which
    # the question that follows says is made now)
    r"|will be|is going to be|is changing|changes to)\b"
    # "add my work number…", "add a second email": one number and one email are kept, so
    # one added is one changed (the question says it replaces the one on file)
    r"|\badd (?:my|a|another|a second|the)(?: \w+)? (?:number|phone|email|e-mail|cell|mobile)\b"
)


# "is my number …", "do you have my email as …": a question about what is on file.
_ASKS_WHETHER = rx(
    r"^(?:is|are|was|do you have|have you got|does|did|is that|is this|is it)\b"
    r"|\b(?:on file|right|correct)\s*\??$"
    # "and my phone is it still the four one five one": asked after it is named
    r"|\b(?:is|are) (?:it|that|this|they) still\b"
)


# Details that are not the customer's own as of now: someone else's ("my wife's number
# is…", "the clinic's email"), an old one ("my old number was…"), one not to be used
# ("don't use my work number…"). Told, they change nothing on file.
_SOMEONE_ELSES = rx(
    r"\b(?:wife|husband|partner|spouse|son|daughter|mom|mum|mother|dad|father|sister"
    r"|brother|friend|boss|colleague|assistant|neighbou?r|kid|child|parent|carer|caregiver"
    r"|office|clinic|receptionist|dentist|salon|doctor|landlord|work)(?:'s|s'"
    # typed without its apostrophe: "my husbands number", "my wifes email"
    r"|s(?= (?:\w+ )?(?:number|phone|email|e-mail|cell|mobile|address)\b))"
    r"|\b(?:his|her|their|your) (?:\w+ )?(?:number|phone|email|e-mail|cell|mobile)\b"
    r"|\b(?:the|your) (?:office|clinic|front desk|billing|support|salon|practice)"
    r" (?:number|phone|email|e-mail)\b"
)
_FORMER = rx(
    r"\b(?:old|previous|former|last|ex) (?:number|phone|email|e-mail|cell|mobile|address)\b"
    r"|\b(?:number|phone|email|e-mail|cell|mobile) (?:was|used to be)\b(?! (?:wrong|incorrect"
    r"|a typo|mistyped|misspelled|misspelt))"
)
# "you have my old number": the one on file is the old one (and the new one is asked).
_ON_FILE = rx(
    r"\b(?:you have|you've got|you got|you guys have|on file|on record|in the system"
    r"|on my account|in my account)\b"
)
# "the email you have is wrong", "my number ends in 0199 now": what is on file is out of
# date, and the new one is not (all) said yet.
_OUT_OF_DATE = rx(
    r"\b(?:wrong|incorrect|out of date|outdated|not right|isn't right|not correct|change"
    r"|changed|no longer|old|ends? in|ending in|now|typo|mistake|different)\b"
)
_TELL_ME = rx(r"\b(?:what|which|tell me|read me|remind me|check)\b")
# "my email is maria at gmail": a detail stated, that no address or number was read from.
_STATED = rx(r"\bmy (?:new )?(?:email|e-mail|phone|number|cell|mobile)(?: address| number)? is\b")
# "…the new one is", "my old number was wrong, it's…": the one said replaces it.
_NOW = rx(
    r"\b(?:new|now|instead|change|changed|update|updated|replace|switch|from now on|should be|wrong"
    r"|incorrect|typo|mistake)\b"
)
# "that's the old one. it's maria.garcia@gmail.com now": the address said is the one now.
_IS_NOW = rx(
    r"\b(?:it's|its|it is)(?: now)? (?:emailaddress|phonenumber)\d+ now\b"
    r"|\b(?:it's|its|it is) now (?:emailaddress|phonenumber)\d+"
    r"|\b(?:it|that) should be (?:emailaddress|phonenumber)\d+"
    r"|\bnow (?:it's|its|it is) (?:emailaddress|phonenumber)\d+"
    # "it's 415 555 0132, not 0123": said against another, the one said is the right one
    r"|\b(?:it's|its|it is|it should be) (?:emailaddress|phonenumber)\d+ ?,? not\b"
)
# "sorry, I gave you the wrong one. it's 415 555 0132": the detail said (in another clause
# of the message) puts right one given wrongly.
_GAVE_WRONG = rx(
    r"\b(?:gave you|told you|said|sent you|typed|put) (?:the |a )?wrong (?:one|number|email"
    r"|address)\b|\b(?:wrong|incorrect) (?:one|number|email|address) (?:before|earlier)\b"
)
_AVOID = rx(
    r"\b(?:don't|dont|do not|never|stop|please don't) (?:use|using|call|calling|text|texting"
    r"|email|emailing|contact|contacting|ring)\b"
)

# "i dont use that one anymore, go with …": the one not to be used is the one on file,
# pointed back at, not the detail said (which replaces it).
_AVOID_THE_ONE_ON_FILE = rx(
    r"\b(?:don't|dont|do not|never|stop|please don't) (?:use|using) (?:that|this|it|the old one"
    r"|that old one)(?: one| address| email| number| anymore| any more| no more| now)*+"
    r"(?!\s*(?:emailaddress|phonenumber)\d)"
)


# "send stuff to my work address instead: …", "forward things to … instead": where to
# reach the customer from now on, said with the address.
# (Not "send the invoice to …": one thing sent somewhere is no change of the address.)
_SEND_TO = rx(
    r"\b(?:send|mail|forward|email) (?:(?:all|any) )?(?:of )?(?:my |your |the )?(?:stuff|things"
    r"|everything|it all|mail|emails|correspondence|letters|reminders|updates|notifications)"
    r"(?: from now on)? to\b"
)


# "from tomorrow use…", "starting next week my number will be…", "my email is changing next
# month to…": a contact change said to start later (the account holds the one now only).
_LATER_START = rx(
    r"\b(?:from|starting|as of|beginning|effective|after)(?: on)? (?:tomorrow|next \w+"
    r"|the \d+\w*|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
    r"|\b(?:next (?:week|month|year)|tomorrow|in (?:a|two|three|\d+) (?:days?|weeks?|months?))\b"
)


# "my work number is 650 555 0134 but keep my cell as the main one", "add my home email as
# a backup": a second detail told beside the one on file, which is to stay. One phone and
# one email are kept, so nothing is changed (the work number replaced the cell).
_SECOND_KIND = rx(
    r"\b(?:work|office|home|landline|second|other|backup|back-up|secondary|alternate"
    r"|alternative|extra|spare|business|emergency) (?:number|phone|email|e-mail|cell|mobile"
    r"|line)\b"
)
_KEEP_THE_ONE_ON_FILE = rx(
    r"\b(?:keep|leave)(?: using)? (?:my|the) (?:cell|mobile|main|current|existing|usual"
    r"|primary|personal|regular|normal|old|other|one (?:you have|on file))\b"
    r"|\b(?:keep|leave) (?:my|the) (?:number|phone|email|e-mail) (?:you have|on file|as it is)\b"
    r"|\b(?:as|for) (?:a|my|an) (?:second|backup|back-up|secondary|alternate|alternative|extra"
    r"|additional|spare|emergency)(?! (?:number|email|e-mail|phone) (?:is|to)\b)"
    r"|\b(?:don't|do not|dont) (?:change|replace|overwrite|touch|remove) (?:my|the) (?:cell|mobile"
    r"|main|current|existing|usual|primary|personal|number|phone|email|e-mail)\b"
)


def second_detail_kept(said: str) -> bool:
    """The normalized message tells a second number or email and keeps the one on file."""
    return bool(_SECOND_KIND.search(said) and _KEEP_THE_ONE_ON_FILE.search(said))


# "I got a new phone, same number though", "kept my number", "the number hasn't changed":
# the detail on file is said to stay as it is, so nothing is to change (not a new one asked).
_KEPT_DETAIL = rx(
    r"\b(?:same|kept|keeping|kept the|kept my|still (?:have|got|use|using)(?: the| my)?"
    r"|didn't change|did not change|haven't changed|have not changed)"
    r" (?:old )?(?:phone |cell |mobile )?(?:number|email|e-mail|address|email address|digits)\b"
    r"|\b(?:number|email|e-mail|address)(?: is| stays| has)?(?: still| the)?"
    r" (?:the same|unchanged|hasn't changed|has not changed|didn't change|did not change"
    r"|stays the same|is staying the same|isn't changing|is not changing|won't change"
    r"|will not change|not changing)\b"
)


def detail_kept(text: str) -> str | None:
    """The detail ("phone" or "email") a message says stays as it is ("new phone, same
    number"), with no new one given and no other detail said changed: nothing to change,
    and no new one to ask for. None when it says no such thing."""
    said = text.lower()
    kept = _KEPT_DETAIL.search(said)
    if kept is None or _PLACEHOLDER_DETAIL.search(said):
        return None
    if _BUT_CHANGED.search(said, kept.end()):
        return None  # "my number is the same as before but it ends in 77 now": changed
    detail = "email" if "mail" in kept.group(0) else "phone"
    rest = f"{said[: kept.start()]} {said[kept.end() :]}"
    other = _OTHER_DETAIL["phone" if detail == "email" else "email"]
    return None if other.search(rest) else detail


# Said after the detail kept: a part of it changed after all.
_BUT_CHANGED = rx(
    r"\b(?:but|except|apart from|other than|ends? in|ending in|different|digits?|now)\b"
)
_PLACEHOLDER_DETAIL = rx(r"\b(?:emailaddress|phonenumber)\d+\b|@|\d{3}")
# "my number is the same but my email changed": another detail said beside the kept one.
_OTHER_DETAIL = {
    "email": rx(r"\b(?:e-?mail|address)\b"),
    "phone": rx(r"\b(?:number|cell|mobile|digits)\b"),
}


def the_other_detail_before(before: str, intents: list[Intent]) -> bool:
    """`intents` change only a detail (email or phone) that the clause `before` did not
    name, and `before` is of no one else's: "my number's not changing, only my email: …",
    "keep the haircut, new email …" (read with the clause before, the new email was lost).
    "my husband's number changed, it's 415…" stays read together (and changes nothing)."""
    if not intents or any(i.kind != "update_contact" or not i.arguments for i in intents):
        return False
    if _SOMEONE_ELSES.search(before) or _AVOID.search(before):
        return False
    kinds = {key for i in intents for key in i.arguments}
    return not any(_OTHER_DETAIL[kind].search(before) for kind in kinds)


def later_start(said: str) -> bool:
    """Whether a contact change was said to start on a later day than today."""
    return _LATER_START.search(said.lower()) is not None


def _not_mine_now(text: str) -> bool:
    return bool(
        _SOMEONE_ELSES.search(text)
        or (_AVOID.search(text) and not _AVOID_THE_ONE_ON_FILE.search(text))
        or (_FORMER.search(text) and not _NOW.search(text) and not _ON_FILE.search(text))
    )


# "my wife will be calling from 415 555 0177, can you add that": a number someone else
# calls from, said with no word for it (was: "What's the new phone number?").
_THEY_CALL_FROM = rx(
    r"\b(?:wife|husband|partner|spouse|son|daughter|mom|mum|mother|dad|father|sister"
    r"|brother|friend|boss|colleague|assistant|carer|caregiver|he|she|they)"
    r"(?:'ll| will| is going to| might| may| is| usually| often| sometimes)?(?: be)?"
    r" (?:calling|call|calls|ringing|rings|phoning|phones|texting|texts)"
    r"(?: (?:me|you|us|in|on my behalf|for me))? (?:from|on|using) phonenumber\d"
)


def someone_elses_detail(text: str) -> bool:
    """ "my husband's number is …", "change my wife's email to …", "my wife will be
    calling from …": a detail that is not the customer's, which no change to their
    account can be (a question is not this)."""
    if (
        (("phonenumber" in text and "from" in text) or " on phonenumber" in text)
        and _THEY_CALL_FROM.search(text)
        and not QUESTION_START.search(text)
    ):
        return True
    return bool(
        CONTACT_NOUN.search(text)
        and _SOMEONE_ELSES.search(text)
        and not QUESTION_START.search(text)
        and not _AVOID.search(text)
    )


def update_contact(c: Clause) -> Intent | None:
    found = slots.contact(c.text, c.norm)
    said = found.email or found.phone or found.bad_phone
    noun = CONTACT_NOUN.search(c.text)
    if not (said or found.only_old or noun):
        return None  # no detail, old detail or contact word: nothing below could change one
    if said and _ASKS_WHETHER.search(c.text) and not _CHANGE.search(c.text):
        return None  # "is my phone number +1…?" checks what is on file; it changes nothing
    if _not_mine_now(c.text) or second_detail_kept(c.norm.text):
        return None
    if not said and detail_kept(c.norm.text) is not None:
        return None  # "I got a new phone, same number though": nothing to change
    if said and (
        noun
        or _CHANGE.search(c.text)
        or _SEND_TO.search(c.text)
        or _IS_NOW.search(c.text)
        or ("wrong" in c.norm.text and _GAVE_WRONG.search(c.norm.text))
    ):
        arguments = {
            key: value for key, value in (("email", found.email), ("phone", found.phone)) if value
        }
        missing = (f"phone_{found.bad_phone}",) if found.bad_phone and not arguments else ()
        return Intent("update_contact", arguments, missing=missing, clause=c.text)
    if QUESTION_START.search(c.text) or _TELL_ME.search(c.text):
        return None  # "…and tell me what email you have now" asks what is on file
    if found.only_old and (noun or _CHANGE.search(c.text)):
        # "change my number from 415 555 0101", "my old email was…": the new one is asked.
        return Intent("update_contact", missing=(found.only_old,), clause=c.text)
    if _ASKS_WHETHER.search(c.text) and not _CHANGE.search(c.text):
        return None  # "my number ends in 0134, right?" asks what is on file
    if noun and (_CHANGE.search(c.text) or _OUT_OF_DATE.search(c.text) or _STATED.search(c.text)):
        wanted = "email" if "mail" in noun.group(0) else "phone"
        return Intent("update_contact", missing=(wanted,), clause=c.text)
    return None
