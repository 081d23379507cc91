"""What a follow-up names by what was said before it: "book one" (the service the customer
asked about), "remind me to pay it" (the bill just read out), "actually make it
maria.garcia@gmail.com" (the contact change waiting for a yes).

Read against the conversation and the dialogue state (assistant.dialogue); used by
assistant.models.embedded.references, which the planner and the narrator share.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import date, datetime

from assistant.dialogue_state import Dialogue, Item
from assistant.language import Intent, detect_intents, slots
from assistant.language.confirm import is_affirmative, request_after_yes
from assistant.language.grammar import negated
from assistant.language.patterns import rx
from assistant.language.scope import deliberates, hypothetical
from assistant.language.text import Normalized, normalize
from assistant.models.embedded.followup import asked_about
from assistant.models.embedded.pinning import KNOWN_SERVICES
from assistant.models.embedded.user_turns import last_users
from assistant.schema import AssistantTurn, Message, UserTurn


def new_contact(state: Dialogue, message: str, now: datetime, timezone: str) -> list[Intent] | None:
    """ "actually make it maria.garcia@gmail.com" while a contact change waits for a yes:
    the address said is the change now asked (and asked about again). So is "oops, it's
    maria.lo@gmail.com" just after an email change went through: it is asked about anew."""
    norm = normalize(message)
    if not (norm.emails or norm.phones) or len(norm.emails) > 1 or len(norm.phones) > 1:
        return None
    if (
        "crm.updateContactInfo" not in state.held
        and not _fixes_last_change(state, norm)
        # (a yes only to a change held: "yeah right, like i'd ever update my phone
        # number to …" with nothing held changed the number)
        and not (state.held and _other_detail_after_yes(message, norm))
    ):
        return None
    said = []
    if norm.emails:
        said.append(f"change my email to {norm.emails[0]}")
    if norm.phones:
        said.append(f"change my phone number to {norm.phones[0]}")
    intents = detect_intents(" and ".join(said), now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


# "and the phone?", "the email too": only the other detail named, nothing said of it.
_THE_OTHER_ONLY = rx(
    r"^(?:(?:ok|okay|great|thanks|and|also|now|so|what about|how about)\b\W*)*(?:the |my )?"
    r"(?P<f>phone|mobile|cell|e-?mail)(?: number| address)?(?: too| as well| then)?[?.!]*$"
)


def other_detail_after_change(conversation: Sequence[Message], message: str) -> list[Intent] | None:
    """ "change my email to …" → "Done" → "and the phone?": the phone is to change too,
    and its new number is asked (never the email's value, never the old number kept)."""
    match = _THE_OTHER_ONLY.search(normalize(message).text)
    if match is None:
        return None
    changed = _changed_last_turn(conversation)
    named = "email" if "mail" in match.group("f") else "phone"
    if changed is None or named in changed:
        return None  # nothing changed just now, or the one changed: a question about it
    return [Intent("update_contact", missing=(named,), clause=f"change my {named}")]


# "no, just tell me what it is", "just read it out please": what was talked about, read out.
_READ_IT = rx(
    # ("can you read it back to me" after a number was changed: asked as a favour)
    r"(?:^|[,.;!]\s*)(?:(?:no|nah|nope|um|uh|i mean|ok|okay|well|so|please|sorry|just"
    r"|can you|could you|would you|will you)\b"
    r"[\s,.!]*)*"
    r"(?:tell me|read|say|give me)(?: me)? (?:what it is|it|it out|it back|it to me)\b"
    r"(?:[\s,]*(?:please|then|out|back|to me|now|again|whatever it is|whichever(?: one)? it is))*"
    r"[\s.!?]*$"
    # "no i dont want to change it just tell me what it is", "…i only wanted to check it
    # just say it back to me": "just" and the ask, after the rest with no pause
    r"|\bjust (?:tell me|read|say|give me)(?: me)? (?:what it is|it|it out|it back|it to me)\b"
    r"(?:[\s,]*(?:please|then|out|back|to me|now|again|whatever it is|whichever(?: one)? it is))*"
    r"[\s.!?]*$"
    # "i don't want to change it i just want to hear it": said without a pause
    r"|\bi (?:only |just )?(?:want|wanted|need|needed) to (?:hear|know|see) (?:it|what it is)"
    r"(?: again| please| then)*[\s.!?]*$"
)
_DETAIL_WORD = rx(r"\b(?:(?P<phone>phone|number|mobile|cell)|(?P<email>e-?mail))\b")


def detail_read_back(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "what's the new number?" → "What's the new phone number?" (or the number read) →
    "no, just tell me what it is": the detail last talked about, read out (not asked again,
    not refused)."""
    if _READ_IT.search(normalize(message).text) is None:
        return None
    users = last_users(conversation, 2)
    if users is None:
        return None
    talked = " ".join(
        m.text for m in conversation[users[0] : users[1]] if isinstance(m, UserTurn | AssistantTurn)
    )
    named = [m for m in _DETAIL_WORD.finditer(talked.lower())]
    if not named:
        return None
    detail = "email" if named[-1].group("email") else "phone number"
    found = detect_intents(f"what's my {detail}", now, timezone)
    return [i for i in found if i.kind == "profile"] or None


def other_detail_given(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "and the phone?" → "What's the new phone number?" → "415 555 0199": that change."""
    users = last_users(conversation, 2)
    if users is None:
        return None
    before, asked = conversation[: users[1]], conversation[users[0]]
    assert isinstance(asked, UserTurn)
    wanted = other_detail_after_change(before, asked.text)
    if wanted is None:
        return None
    named = wanted[0].missing[0]
    found = detect_intents(f"change my {named} to {message}", now, timezone)
    return [i for i in found if i.kind == "update_contact" and named in i.arguments] or None


def _changed_last_turn(conversation: Sequence[Message]) -> frozenset[str] | None:
    """The contact details the turn before this message changed (None: it changed none)."""
    users = last_users(conversation, 2)
    if users is None:
        return None
    for item in conversation[users[0] + 1 : users[1]]:
        for result in getattr(item, "results", ()):
            if result.ok and result.call.tool_name == "crm.updateContactInfo":
                return frozenset(result.call.arguments)
    return None


# "no wait, it ends in 43": the last digits of the number waiting for a yes, said again.
_ENDS_IN = rx(
    r"\bends? (?:in|with) (?P<tail>\d{2,4})\b"
    # "sorry, the last digit is 3 not 2", "the last two digits are 73"
    r"|\bthe last (?:digit|number|one)(?: is| should be| should have been|'s| was meant to be"
    r"| is actually)(?: a| an)? (?P<digit>\d|zero|one|two|three|four|five|six|seven|eight"
    r"|nine)\b"
    r"|\bthe last (?:two|three|four|2|3|4) (?:digits|numbers) (?:are|should be)"
    r" (?P<digits>\d{2,4})\b"
)
_DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def held_number_ending(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "change my number to 415 555 0134" → "Are you sure…?" → "no wait, it ends in 43":
    the change asked about, with its last digits as now said (and asked about again)."""
    said = normalize(message)
    match = _ENDS_IN.search(said.text)
    if match is None or said.phones or said.emails:
        return None
    before = asked_about(conversation)
    phones = normalize(before).phones if before is not None else ()
    if len(phones) != 1:
        return None
    tail = match.group("tail") or match.group("digits") or match.group("digit")
    if tail in _DIGIT_WORDS:
        tail = str(_DIGIT_WORDS.index(tail))
    digits = re.sub(r"\D", "", phones[0])
    if len(tail) >= len(digits):
        return None
    fixed = digits[: -len(tail)] + tail
    intents = detect_intents(f"change my phone number to {fixed}", now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


# "sorry, not four four one nine, four four one eight", "4418 not 4419": one group of the
# number waiting for a yes, said again (digits or their words).
_GROUP = r"(?:(?:\d|zero|oh|o|one|two|three|four|five|six|seven|eight|nine)[ -]?)+"
_GROUP_SWAPPED = re.compile(
    r"^(?:(?:sorry|no|oops|wait|actually|i mean|i meant|my bad)[ ,.]+)*(?:it's |its |it is )?"
    rf"(?:not (?P<old>{_GROUP})[ ,.]+(?:it's |its |it is |but )?(?P<new>{_GROUP})"
    rf"|(?P<new2>{_GROUP})[ ,]+not (?P<old2>{_GROUP}))[ .!]*$"
)
_DIGIT_OF = {word: str(n) for n, word in enumerate(_DIGIT_WORDS)} | {"oh": "0", "o": "0"}


def _digits_said(group: str) -> str:
    return "".join(_DIGIT_OF.get(token, token) for token in re.findall(r"[a-z]+|\d", group))


def held_number_regrouped(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "change my phone to 650 223 4419" → "Are you sure…?" → "sorry, not four four one
    nine, four four one eight": the change asked about, with that group of its digits
    replaced (and asked about again); None unless the group is one of the number's."""
    if " not " not in f" {message.lower()} ":
        return None
    match = _GROUP_SWAPPED.search(" ".join(message.lower().split()).strip())
    if match is None:
        return None
    old = _digits_said(match.group("old") or match.group("old2"))
    new = _digits_said(match.group("new") or match.group("new2"))
    if not (old.isdigit() and new.isdigit()) or len(old) != len(new) or not 2 <= len(old) <= 4:
        return None
    before = asked_about(conversation)
    phones = normalize(before).phones if before is not None else ()
    if len(phones) != 1:
        return None
    digits = re.sub(r"\D", "", phones[0])
    if digits.count(old) != 1:
        return None
    intents = detect_intents(f"change my phone number to {digits.replace(old, new)}", now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


# "sorry, hotmail not gmail", "outlook, not gmail": one word of the address put right.
_SWAPPED = rx(
    r"^(?:(?:sorry|no|oops|wait|actually|i mean|i meant)[ ,.]+)*(?:it's |its |it is )?"
    r"(?P<new>[a-z0-9_]+),? not (?P<old>[a-z0-9_]+)(?:,? (?:thanks|thank you|please))?[ .!]*$"
)


def held_email_swapped(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "change my email to maria@gmail.com" → "Are you sure…?" → "sorry, hotmail not
    gmail": the change asked about, with that word of the address replaced (and asked
    about again); None unless the word put right is one of the address's."""
    # As said: the normalizer reads "gmail" as a slip for "email".
    match = _SWAPPED.search(" ".join(message.lower().split()))
    if match is None:
        return None
    before = asked_about(conversation)
    emails = normalize(before).emails if before is not None else ()
    if len(emails) != 1:
        return None
    parts = re.split(r"([@.])", emails[0])
    if parts.count(match.group("old")) != 1:
        return None
    fixed = "".join(match.group("new") if part == match.group("old") else part for part in parts)
    intents = detect_intents(f"change my email to {fixed}", now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


# Words that put right what was just said: "oops, it's …", "sorry, I meant …".
_PUTS_RIGHT = rx(
    r"^(?:oops|whoops|sorry|no|actually|wait|my bad|i mean|i meant|correction|typo)\b"
    r"|^(?:it's|its|it is|make it|it should be|that should be|should be)\b"
)


# "… is still maria.garcia@example.com, right?": what is on file, checked.
_CHECKS_ON_FILE = rx(r"\bstill\b|\b(?:right|correct|on file)\W*$")


def _other_detail_after_yes(message: str, norm: Normalized) -> bool:
    """ "change my phone to …" → "Are you sure…?" → "yes, and my email to … too": the yes
    makes the one change; the other detail, named with its value after it, is asked about
    too (its verb was the change's, said once). Only asked: a yes to it writes it."""
    if not is_affirmative(message) or (rest := request_after_yes(message)) is None:
        return False
    if _CHECKS_ON_FILE.search(rest):
        return False  # "ok. and my email is still … right?": asked, not changed
    named = _DETAIL_WORD.search(rest)
    return named is not None and bool(named.group("email") if norm.emails else named.group("phone"))


def _fixes_last_change(state: Dialogue, norm: Normalized) -> bool:
    """A bare address or number putting right the last change, a contact change: asked
    about anew (a question, never a write on these words alone)."""
    last = state.done[-1] if state.done else None
    if last is None or last.get("tool") != "crm.updateContactInfo":
        return False
    return _PUTS_RIGHT.search(norm.text) is not None


# "pay it", and "pay that" said last ("check that the door is locked" points at nothing).
_IT_IN_TITLE = rx(r"\bit\b|\b(?:that|this)$")
# "follow up on it", "chase that up", "check on that": the one thing pointed back at.
_IT_OR_THAT_IN_TITLE = rx(r"\b(?:it|that|this)\b")


def titled_from_case(intent: Intent, case: Item | None) -> Intent:
    """A to-do "to follow up on it" beside a case opened: "it" named by the case's subject
    (the to-do as it was when the case has none, or its title points at nothing)."""
    title = str(intent.arguments.get("title") or "")
    subject = _subject_of(case)
    pointer = _IT_OR_THAT_IN_TITLE.search(title) if subject else None
    if pointer is None:
        return intent
    named = f'{title[: pointer.start()]}the support case "{subject}"{title[pointer.end() :]}'
    return dataclasses.replace(intent, arguments={**intent.arguments, "title": named})


def _subject_of(ticket: Item | None) -> str:
    subject = str((ticket or {}).get("subject") or "").strip().rstrip(".")
    return subject if 0 < len(subject) <= 80 else ""


def titled_from_focus(intent: Intent, state: Dialogue) -> Intent:
    """ "how much do I owe" … "remind me to pay it on friday": "Pay the dental cleaning
    invoice", not "Pay it" (only for the one bill or visit just talked about)."""
    title = str(intent.arguments.get("title") or "")
    case = state.last_action
    if case is not None and case.kind == "ticket":
        # "open a case, my invoice was charged twice" … "and add a task to follow up on it":
        # the case just opened, named by its subject ("Follow up on it" names nothing).
        return titled_from_case(intent, case.after)
    if not _IT_IN_TITLE.search(title) or len(_IT_IN_TITLE.findall(title)) > 1:
        # "remind me to call the bank the day before", a visit in view: the day before it.
        return _dated_from_focus(intent, state)
    intent = _dated_from_focus(intent, state)
    visit = state.focus_of("appointment") if _TO_A_VISIT.search(title.lower()) else None
    if visit is not None:
        # "bring my insurance card to it" after a booking told with the balance: a thing
        # brought to a visit, never to the bill
        named = f"the {str(visit.get('service') or '').lower()}"
    elif state.listed_kind == "invoice" and len(state.listed) == 1:
        named = f"the {str(state.listed[0].get('description') or '').lower()} bill"
    elif state.focus_kind == "appointment" and state.focus is not None:
        named = f"the {str(state.focus.get('service') or '').lower()}"
    else:
        return intent
    if named.startswith("the  "):
        return intent
    arguments = {**intent.arguments, "title": _IT_IN_TITLE.sub(named, title, count=1)}
    return dataclasses.replace(intent, arguments=arguments)


_BILL = rx(r"\b(?:bill|invoice|balance|due)\b")
_TO_A_VISIT = rx(
    r"\b(?:bring|take|wear|carry|pack)\b.* (?:to|for) it\b"
    r"|\b(?:prepare|get ready|arrive early|leave early|go) (?:to|for) it\b"
)


def _dated_from_focus(intent: Intent, state: Dialogue) -> Intent:
    """ "remind me to pay it the day before": the day before the one bill's due date, or
    the visit in focus; otherwise the day stays asked."""
    if intent.shift is None or intent.missing[:1] != ("when",):
        return intent
    bills = state.last_listed_of("invoice")
    if state.listed_kind == "invoice" and len(state.listed) == 1:
        anchor = str(state.listed[0].get("due_on") or "")[:10]
    elif len(bills) == 1 and _BILL.search(intent.clause):
        # "remind me to pay the bill the day before it's due", the bill read out earlier.
        anchor = str(bills[0].get("due_on") or "")[:10]
    elif state.focus_kind == "appointment" and state.focus is not None:
        anchor = str(state.focus.get("starts_at") or "")[:10]
    else:
        return intent
    try:
        day = date.fromisoformat(anchor) + intent.shift
    except ValueError:
        return intent
    arguments = {**intent.arguments, "due_on": day.isoformat()}
    return dataclasses.replace(intent, arguments=arguments, missing=intent.missing[1:], shift=None)


_ONE = rx(r"\b(?:book|get|make|schedule)(?: me)?(?: in)?(?: for)? (?:one|it|that)\b")
# How many of the customer's earlier messages may name the service "one" stands for.
_SERVICE_LOOKBACK = 2


def service_said_before(
    conversation: Sequence[Message],
    message: str,
    intents: list[Intent],
    now: datetime,
    timezone: str,
) -> list[Intent]:
    """ "have I got an eye exam booked?" … "ok book one for friday": the one named before."""
    if not any(i.kind == "book_appointment" and "service" in i.missing for i in intents):
        return intents
    text = normalize(message).text
    earlier = [m.text for m in conversation if isinstance(m, UserTurn) and m.text != message]
    if not _ONE.search(text):
        return _for_the_free_time_asked(earlier, text, intents, now, timezone)
    for said in reversed(earlier[-_SERVICE_LOOKBACK:]):
        named = slots.service(normalize(said).text, said)
        if named is None or named.lower() not in KNOWN_SERVICES:
            continue
        again = detect_intents(_ONE.sub(f"book a {named.lower()}", text, count=1), now, timezone)
        booked = [i for i in again if i.kind == "book_appointment" and "service" not in i.missing]
        if booked:
            return [booked[0] if i.kind == "book_appointment" else i for i in intents]
        break
    return intents


# "what times are free on friday for a haircut?": a question about free times.
_FREE_TIMES = rx(r"\b(?:free|available|availability|open|openings?|slots?)\b")
# "book me in", "put me down", "fit me in": the booking verb, with no service after it.
_BOOK_ME = rx(
    r"\b(?:book|schedule|put|fit|squeeze|pencil|get)(?: me| us)?(?: in| down)?(?: for)?\b"
)


def _for_the_free_time_asked(
    earlier: Sequence[str], text: str, intents: list[Intent], now: datetime, timezone: str
) -> list[Intent]:
    """ "what times are free friday for a haircut?" … "ok book me in at 11am friday then":
    the booking is for the service the question just before named (only that question,
    and only one about free times: "when is my haircut?" may lead to a move instead)."""
    if not earlier:
        return intents
    said = normalize(earlier[-1]).text
    named = slots.service(said, earlier[-1])
    if named is None or named.lower() not in KNOWN_SERVICES or not _FREE_TIMES.search(said):
        return intents
    verb = _BOOK_ME.search(text)
    if verb is None:
        return intents
    said_again = f"{text[: verb.start()]}book a {named.lower()}{text[verb.end() :]}"
    again = detect_intents(said_again, now, timezone)
    booked = [i for i in again if i.kind == "book_appointment" and "service" not in i.missing]
    if not booked:
        return intents
    return [booked[0] if i.kind == "book_appointment" else i for i in intents]


__all__ = [
    "held_number_ending",
    "held_number_regrouped",
    "new_contact",
    "service_said_before",
    "titled_from_focus",
]


# "what happens if I cancel my haircut?" … "ok then go ahead and cancel it", "don't
# bother cancelling the cleaning" … "actually, yes, cancel it": "it" is the thing the
# message before named (the answer to a question about a change looked nothing up,
# so nothing is in view for "it" to be).
_IT = rx(r"\b(?:it|that|that one)\b")
_THING = rx(
    r"\b(?:my|the|that|this) (?:[a-z-]+ ){0,3}?(?:appointment|visit|booking|task|reminder|to-do"
    r"|ticket|case|invoice|bill|"
    + "|".join(sorted((re.escape(name) for name in KNOWN_SERVICES), key=len, reverse=True))
    + r"|haircut|dentist|cleaning|checkup|consultation|exam|physio|therapy)\b"
)


def it_asked_about_before(
    conversation: Sequence[Message],
    message: str,
    intents: list[Intent],
    now: datetime,
    timezone: str,
) -> list[Intent]:
    """A change of "it" read as a change of what the customer's question before named,
    when that question asked what a change would do, or weighed it, or said not to make it."""
    if intents:
        return intents
    text = normalize(message).text
    it = _IT.search(text)
    earlier = [m.text for m in conversation if isinstance(m, UserTurn) and m.text != message]
    if it is None or not earlier:
        return intents
    before = normalize(earlier[-1]).text
    if not (hypothetical(before) or deliberates(before) or negated(before)):
        # ("don't bother cancelling the cleaning" … "actually, yes, cancel it": the thing
        # said not to be changed, then changed after all; was "nothing waiting for a yes")
        return intents
    named = [match.group(0) for match in _THING.finditer(before)]
    if not named:
        return intents
    thing = re.sub(r"^(?:that|this) ", "the ", named[-1])
    again = detect_intents(f"{text[: it.start()]}{thing}{text[it.end() :]}", now, timezone)
    return [i for i in again if i.writes] or intents


# "what time is my current one?" after asking to book another haircut: the one on file of
# the service talked about.
# "…the one I have", "…the one I've got": the same, said of the visit talked about.
_CURRENT_ONE = rx(
    r"\b(?:my|the) (?:current|existing|original|present) (?:one|appointment|booking)\b"
    r"|\bthe (?:one|appointment) (?:i have|i've got|i got|i have got|i've booked|i booked"
    r"|i have booked|i've already got|i already have)\b"
)


def current_one_named(
    conversation: Sequence[Message], message: str, state: Dialogue | None = None
) -> str:
    """`message` with "my current one" said as the service named last before it (or, none
    named, the one visit in view); as it is when it says no such thing, or none is."""
    text = normalize(message).text
    said = _CURRENT_ONE.search(text)
    if said is None:
        return message
    earlier = [m.text for m in conversation if isinstance(m, UserTurn) and m.text != message]
    for before in reversed(earlier[-_SERVICE_LOOKBACK:]):
        named = slots.service(normalize(before).text, before)
        if named is not None and named.lower() in KNOWN_SERVICES:
            return f"{text[: said.start()]}my {named.lower()}{text[said.end() :]}"
    visit = state.focus_of("appointment") if state is not None else None
    if visit is not None and (service := str(visit.get("service") or "").lower()):
        return f"{text[: said.start()]}my {service}{text[said.end() :]}"
    return message


# "oh wait no the old one was right, put it back", "change it back", "keep the old number"
# just after a phone or email change went through: the detail as it was before, asked
# about anew (a yes writes it; it was "I didn't catch", and the customer left with the
# wrong number on file).
_OLD_ONE_BACK = rx(
    r"\b(?:put|change|switch|set|turn) (?:it|that) back\b|\bundo (?:that|it)\b"
    r"|\b(?:go|went) back to the (?:old|other|previous) (?:one|number|e-?mail)\b"
    r"|\bthe (?:old|other|previous|first) (?:one|number|e-?mail)(?: one)? (?:was|is)"
    r" (?:right|correct|fine|ok|okay|the right one)\b"
    r"|\bkeep the (?:old|previous) (?:one|number|e-?mail)\b"
)


def contact_put_back(
    state: Dialogue, conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "change my number to …" → "yes" → "Done" → "oh wait the old one was right, put it
    back": the detail changed, as the profile read before the change held it (asked)."""
    last = state.done[-1] if state.done else None
    if last is None or last.get("tool") != "crm.updateContactInfo" or state.held:
        return None
    if _OLD_ONE_BACK.search(normalize(message).text) is None:
        return None
    changed: frozenset[str] = frozenset()
    before: dict[str, str] = {}
    seen: dict[str, str] = {}
    for item in conversation:
        for result in getattr(item, "results", ()):
            if not result.ok:
                continue
            if result.call.tool_name == "crm.getCustomerProfile" and isinstance(
                result.result, dict
            ):
                seen = {k: str(v) for k, v in result.result.items() if k in ("phone", "email")}
            elif result.call.tool_name == "crm.updateContactInfo":
                changed = frozenset(result.call.arguments)
                before = dict(seen)
                seen = {**seen, **{k: str(v) for k, v in result.call.arguments.items()}}
    said = [
        f"change my {'phone number' if key == 'phone' else 'email'} to {before[key]}"
        for key in sorted(changed)
        if before.get(key)
    ]
    if not said:
        return None
    intents = detect_intents(" and ".join(said), now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


# Digits said as words or figures, a group of them ("nine nine two one", "9921").
_DIGIT_TOKENS = {word: str(n) for n, word in enumerate(_DIGIT_WORDS)} | {"oh": "0", "o": "0"}


def _digit_groups(text: str) -> list[str]:
    """The runs of digits said in `text`, each as figures ("oh" alone is a word)."""
    groups: list[str] = []
    run: list[str] = []
    for token in [*re.findall(r"[a-z']+|\d+", text.lower()), ""]:
        if token.isdigit() or token in _DIGIT_TOKENS:
            run.append(token)
            continue
        if run and run not in (["oh"], ["o"]):
            groups.append("".join(_DIGIT_TOKENS.get(each, each) for each in run))
        run = []
    return groups


# "no no sorry two three four six": the cue, then the digits meant, nothing else.
_CUE_THEN_DIGITS = rx(
    r"^(?:(?:no|nope|sorry|oops|whoops|wait|actually|i mean|i meant|my bad|oh|shoot|uh|um)"
    r"[ ,.!]+)+(?:it's |its |it is |it should be |make it |that's )?"
    r"(?:(?:\d|zero|oh|one|two|three|four|five|six|seven|eight|nine)[ ,-]*){2,4}[.!]*$"
)
# "oh shoot i said nine nine one two it's nine nine two one": the group said wrong, then
# the one meant.
_SAID_WRONG = rx(r"\bi said\b|\bnot\b|\binstead of\b|\bshould(?: have)? be\b|\bit's\b|\bit is\b")


def _regrouped(number: str, message: str, *, tail_alone: bool) -> str | None:
    """`number` (digits) with the group the message puts right: "X it's Y" (X one of its
    groups, Y as long), or the last digits said alone after a cue."""
    groups = [g for g in _digit_groups(message) if 2 <= len(g) <= 4]
    if len(groups) == 2 and len(groups[0]) == len(groups[1]) and _SAID_WRONG.search(message):
        old, new = groups
        if number.count(old) == 1:
            return number.replace(old, new)
        if number.count(new) == 1:
            return None
    if tail_alone and len(groups) == 1 and _CUE_THEN_DIGITS.search(message.lower()):
        return number[: -len(groups[0])] + groups[0]
    return None


def held_number_retold(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "update my phone to 415 555 2345" → "Are you sure…?" → "no no sorry two three four
    six": the change asked about with its last digits as now said (asked about again)."""
    said = normalize(message)
    if said.phones or said.emails:
        return None
    before = asked_about(conversation)
    phones = normalize(before).phones if before is not None else ()
    if len(phones) != 1:
        return None
    fixed = _regrouped(re.sub(r"\D", "", phones[0]), message, tail_alone=True)
    if fixed is None:
        return None
    intents = detect_intents(f"change my phone number to {fixed}", now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


def changed_number_retold(
    state: Dialogue, conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "change my number to … 9912" → "yes" → "Done" → "oh shoot i said nine nine one two
    it's nine nine two one": the number just put on file with that group put right,
    asked about anew (never written on these words alone)."""
    last = state.done[-1] if state.done else None
    if last is None or last.get("tool") != "crm.updateContactInfo" or state.held:
        return None
    said = normalize(message)
    if said.phones or said.emails:
        return None
    phone = ""
    for item in conversation:
        for result in getattr(item, "results", ()):
            if result.ok and result.call.tool_name == "crm.updateContactInfo":
                phone = str(result.call.arguments.get("phone") or phone)
    if not phone:
        return None
    fixed = _regrouped(re.sub(r"\D", "", phone), message, tail_alone=True)
    if fixed is None:
        return None
    intents = detect_intents(f"change my phone number to +{fixed}", now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None


# "ok that's wrong it's 415 555 0137" just after the number on file was read out: the
# number said is the one to put on file (asked); "is it still 415…?" checks it.
_ON_FILE_READ = rx(r"\bthe (?P<d>phone number|email) on file is\b")
_WRONG_OR_NEW = rx(
    r"\b(?:wrong|not right|incorrect|out of date|old|changed|new|it's|its|it is|should be"
    r"|now|update|change)\b"
)


def detail_said_after_read(
    conversation: Sequence[Message], message: str, now: datetime, timezone: str
) -> list[Intent] | None:
    """ "what phone number do you have for me?" → "The phone number on file is …" → "ok
    that's wrong it's four one five…": that change, asked about (a yes writes it)."""
    said = normalize(message)
    if len(said.phones) + len(said.emails) != 1:
        return None
    if _WRONG_OR_NEW.search(said.text) is None or _CHECKS_ON_FILE.search(said.text):
        return None
    if "?" in message:
        return None
    answers = [m for m in conversation if isinstance(m, AssistantTurn) and m.kind == "answer"]
    read = _ON_FILE_READ.search(answers[-1].text.lower()) if answers else None
    if read is None:
        return None
    if said.phones and read.group("d") == "phone number":
        change = f"change my phone number to {said.phones[0]}"
    elif said.emails and read.group("d") == "email":
        change = f"change my email to {said.emails[0]}"
    else:
        return None
    intents = detect_intents(change, now, timezone)
    return [i for i in intents if i.kind == "update_contact"] or None
