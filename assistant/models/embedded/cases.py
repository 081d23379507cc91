"""Support cases the customer agreed to: a "yes" to an offered case, or "open one about
…", and the case's subject and body from their own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.dialogue_state import Dialogue, Item
from assistant.language.as_meant import as_meant
from assistant.language.confirm import is_affirmative
from assistant.language.patterns import rx
from assistant.language.smalltalk import classify_chat
from assistant.language.text import normalize

# "fine, open one about my bill being wrong": "one" is the case just offered.
_EXPLICIT_CASE = rx(
    r"^(?:(?:fine|ok|okay|yes|yeah|go on|please|then|so|just|alright|right)[ ,]+)*"
    r"(?:can you |could you |please )?open (?:one|a new one|another one|a new (?:support )?case"
    r"|a new ticket) (?:about|for|because|saying) (?P<about>.+)$"
)


# "and another one, the dental office billed me twice": said just after a case was
# opened, another case, with its own words.
_ANOTHER_CASE = rx(
    r"^(?:(?:and|also|oh|plus|ok|okay|so)[ ,]+)*(?:another one|one more|another|a second one)"
    r"(?: too| as well| please)?\s*[,:;.-]\s*(?P<about>.{8,})$"
)


# "open a case: the desk was rude. And another one, I was billed twice": two cases asked
# at once, the second with its own words (read apart: "one" is no service here).
_AND_ANOTHER = rx(
    r"^(?P<first>.{12,}?[.!?;])\s+(?:and |also |plus |oh and )?(?:another one|one more"
    r"|a second one)(?: too| as well| please)?\s*[,:;.-]\s*(?P<second>.{8,})$"
)


def two_cases(message: str) -> tuple[str, str] | None:
    """The first ask and the second case's words, when a second case follows the first."""
    if "one" not in message.lower():
        return None
    match = _AND_ANOTHER.search(" ".join(message.split()).lower())
    return (match.group("first"), match.group("second")) if match else None


def another_case(message: str) -> str | None:
    """What another case is about, said just after one was opened ("and another one, …")."""
    match = _ANOTHER_CASE.search(normalize(message).text)
    return match.group("about") if match else None


# "I have another complaint, the eye doctor's office never called me back": the
# complaint said with it is what the case is about.
_COMPLAINT_TOLD = rx(
    r"^(?:(?:ok|okay|so|and|also|oh|well|hi|hello|yes|yeah)[ ,.]+)*(?:i have|i've got|i got"
    r"|here's) (?:a |another |one more )?(?:new )?complaint(?: too| as well)?"
    r"\s*(?:[:,;.-]|about|that|because)\s*(?P<about>.{8,})$"
)


def case_asked(message: str) -> str | None:
    """ "open one about my bill being wrong": what the case is about, when "one" is a case."""
    text = normalize(message).text
    match = _EXPLICIT_CASE.search(text) or _COMPLAINT_TOLD.search(text)
    return match.group("about") if match else None


# "then open a complaint about it", "can you raise a case about that": what the case is
# about is what the customer said just before.
_CASE_ABOUT_IT = rx(
    # ("yes, open a case about it": asked, offered or not, the words are the ones before)
    r"^(?:(?:then|so|ok|okay|fine|well|in that case|alright|yes|yeah|yep|sure|please)[ ,]+)*"
    r"(?:can you |could you "
    r"|please |just )?(?:open|raise|log|file|make|start|create)(?: me)? (?:a |an )?(?:support )?"
    r"(?:case|ticket|complaint)(?: for me)? (?:about|for|on|regarding) (?:it|that|this)"
    r"(?: then| please| for me)*"
    # ("… about it so someone in billing looks at it": what it is for, not what about)
    r"(?:,? so (?:that )?(?:someone|somebody|they|the team|billing|a person)\b.*)?[ .!]*$"
)


def case_about_it(message: str) -> bool:
    """ "then open a complaint about it": a case about what was said before."""
    return "about" in message.lower() and bool(_CASE_ABOUT_IT.search(normalize(message).text))


def accepts_offer(state: Dialogue, message: str) -> bool:
    """A yes to the support case the last answer offered ("go on then", "please do")."""
    if state.question != "offer_case":
        return False
    text = normalize(message).text
    return is_affirmative(message) or bool(
        re.search(r"\b(?:go on|please do|open (?:one|it|a case)|look into it|do it)\b", text)
    )


_SUBJECTS = (
    (rx(r"\bname\b"), "Change the name on my account"),
    (rx(r"\b(?:pdf|document|copy|receipt|statement)\b"), "A problem with a document"),
    (rx(r"\brefund"), "A refund request"),
    (rx(r"\b(?:log ?in|password|portal|sign in|access)\b"), "Cannot log in"),
    (
        rx(r"\b(?:rude|unhelpful|service|staff|receptionist|waited|waiting|late\b(?! fee))"),
        "A complaint",
    ),
    (
        rx(
            r"\b(?:charg|bill|invoice|paid|pay|quoted|price|cost|\$|dollar|a lot|too much"
            r"|expensive|so much|so high)"
        ),
        "Question about a charge on my account",
    ),
)


def offered_case(state: Dialogue, said: str | None = None) -> dict[str, str]:
    """The support case asked for or agreed to: a subject, and the customer's own words."""
    # (as meant: "hi there,", "so yeah" before it and "for me" after it are said to us,
    # not written in the case)
    about = as_meant((said or state.about).strip()) or "A question about my account"
    subject = next(
        (text for pattern, text in _SUBJECTS if pattern.search(about.lower())),
        "Help with my account",
    )
    return {"subject": subject, "body": about[:1].upper() + about[1:]}


_COMPLAINING = rx(
    r"^(?:(?:hi|hello|yes|yeah|well|so|um)[ ,]+)*(?:i (?:want|would like|wanna|need) to"
    r" (?:complaint?|make a complaint|file a complaint|raise a complaint|report something)"
    r"|i(?:'d| would) like to (?:complaint?|make a complaint)|i have a complaint"
    r"|i've got a complaint"
    r"|i'm not happy|i am not happy|i'm unhappy)\b[ .!]*$"
)
ASK_WHAT_HAPPENED = (
    "I'm sorry to hear that. Tell me what happened, and I can open a support case so the "
    "team looks into it."
)


def complaint_opened(message: str) -> bool:
    """ "I want to complain" with nothing said yet about what: ask what happened."""
    return bool(_COMPLAINING.search(normalize(message).text))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def complaint_told(message: str) -> str | None:
    """ "I want to file a complaint. The front desk was rude to me": the complaint said in
    the sentences after the one that says there is one, what the case is about."""
    if "complain" not in message.lower():
        return None
    first, *rest = _SENTENCE_END.split(message.strip(), maxsplit=1)
    told = rest[0].strip() if rest else ""
    if len(told.split()) < 3 or not _COMPLAINING.search(normalize(first).text):
        return None
    return told


def describes_case(state: Dialogue, message: str) -> bool:
    """The customer was asked what happened: this message is what the case is about."""
    if state.question != "describe_case":
        return False
    text = normalize(message).text
    return len(text.split()) >= 3 and not is_affirmative(message)


def case_status(tickets: Sequence[Item], case: Item | None) -> str:
    """Where the case just opened stands, as the support system has it now."""
    wanted = (case or {}).get("id")
    found = next((t for t in tickets if t.get("id") == wanted), case)
    if not found:
        return "I can't find that case just now."
    status = str(found.get("status") or "open")
    follow = " The support team will follow up with you." if status == "open" else ""
    return f"Your support case '{found.get('subject')}' is {status}.{follow}"


__all__ = [
    "ASK_WHAT_HAPPENED",
    "accepts_offer",
    "case_asked",
    "case_status",
    "complaint_opened",
    "complaint_told",
    "describes_case",
    "detail_of_case",
    "offered_case",
]


# "and it was for the cleaning", "oh and it's on my iphone", "it's the one for the dental
# cleaning": a detail told of the case just opened, no ask of its own.
_DETAIL = rx(
    r"^(?:(?:and|oh|also|plus|ok|okay|so|um|uh|well|sorry|btw|by the way)[ ,]+)*"
    r"(?:(?:and|also|plus) (?:it|this|that)\b|it was|it's|its|it is|it happened|this was"
    r"|this is|the (?:one|bill|charge|invoice|problem|issue) (?:was|is)\b)"
    r"(?P<rest>(?: [\w'$.,-]+){2,})[ .!]*$"
)


_CLOSING = frozenset({"thanks", "goodbye", "acknowledgement", "never_mind"})


def detail_of_case(case: Item, message: str) -> str | None:
    """A detail told just after a case was opened ("and it was for the cleaning"): what
    can be done with it, as a case opened is not changed here (nor opened again), or None
    when the message is no such detail."""
    said = normalize(message).text
    if "?" in message or _DETAIL.match(said) is None:
        return None
    if classify_chat(message) in _CLOSING:
        return None  # "it's ok thanks", "it's fine, that's all": no detail told
    subject = str(case.get("label") or "").strip()
    named = f" '{subject}'" if subject else ""
    return (
        f"Your support case{named} is already open, and I can't add to a case once it's "
        "opened. The support team will follow up with you, so you can tell them that then."
    )


# "another ticket", "a new case", "a second one": a case of its own, not the one just opened.
_ANOTHER = rx(r"\b(?:another|new|second|separate|different|other)\b")


def already_opened(state: Dialogue, clause: str) -> str | None:
    """ "open a ticket, my invoice pdf won't download" … "can you open a ticket for that":
    the case the last write opened, told again, not asked about nor opened twice."""
    last = state.done[-1] if state.done else None
    if last is None or last.get("tool") != "crm.createTicket" or _ANOTHER.search(clause):
        return None
    subject = str(last.get("label") or "").strip()
    about = f": {subject}" if subject else ""
    return (
        # Not "I've opened": that says a change of this turn (assistant/claims.py).
        f"There's already a support case open for that{about}. "
        "The support team will follow up with you."
    )
