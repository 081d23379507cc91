"""Questions that carry a qualifier, answered from the data rather than with a listing.

"When is my haircut?" is about the haircut, not the next appointment; "what happened to
my consultation?" about its status; "how much was my last haircut?" about a paid
invoice; "anything overdue?" about due dates. A question is read here (`read`), its
lookups made (`lookups`), and once the results are in the planner answers it itself
(`answer`), so the qualifier is never lost on the way to a generic listing.
Complaints about a charge are explained from the open invoices and end by offering a
support case (a "yes" opens it: assistant.models.embedded.references.accepts_offer).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from assistant.dialogue_state import Dialogue, Item
from assistant.language import slots
from assistant.language.grammar import negated
from assistant.language.intents import ask_corrected, asked_after_refusal
from assistant.language.lexicon import PLACE_KINDS, SERVICES
from assistant.language.lookups import PAST_VISIT
from assistant.language.patterns import rx
from assistant.language.text import normalize
from assistant.models.embedded.answers import (
    LATEST,
    _matches,
    about_appointment,
    about_invoice,
    about_tasks,
    explain_charges,
    last_visit_cost,
    named_tasks,
    owing,
)
from assistant.models.embedded.billing import amount_asked
from assistant.models.embedded.cases import case_status
from assistant.models.embedded.named_cases import ASKED_AFTER, case_words, named_case_status
from assistant.models.embedded.offers import OFFER
from assistant.models.embedded.ordinals import ordinal_named
from assistant.models.embedded.pinning import (
    KNOWN_SERVICES,
    named_listed,
    the_other_named,
    weekday_one_as_visit,
)
from assistant.models.embedded.question_words import (
    ACTION,
    ADDED,
    AFTER,
    CANCELLED_ASKED,
    CASE_STATUS,
    CLOSED,
    COMPLAINT,
    COST,
    DELETED,
    DONE_YET,
    DUE_IT,
    DUE_SOON,
    EARLIER,
    ELLIPSIS,
    FINISHED,
    FOCUS_DAY,
    FOCUS_QUESTION,
    HIGH,
    INVOICE_HISTORY,
    LAST_IN,
    LAST_INVOICE,
    LEFT,
    LENGTH,
    LOW,
    MONTH,
    NAMED_THEN_WHEN,
    NEARLY_DONE,
    NOTES,
    ON_LIST,
    OVERDUE,
    PAID,
    PAST,
    PREVIOUS,
    RECENT,
    STILL_ON,
    TASK_PRIORITY,
    TASK_WORDS,
    TICKET_HISTORY,
    WAITING,
    WHAT_HAPPENED,
    WHEN,
    WHERE,
    WHO_WITH,
)
from assistant.models.embedded.yes_no import last_in, still_on, which_first
from assistant.schema import Message, ToolResult, UserTurn

Aspect = Literal[
    "when",
    "where",
    "status",
    "past",
    "recent",
    "cost",
    "paid",
    "overdue",
    "high",
    "low",
    "due_soon",
    "done_yet",
    "finished",
    "complaint",
    "closed_tickets",
    "after",
    "due",
    "notes",
    "pending",
    "task_due",
    "ticket_history",
    "invoice_history",
    "task_priority",
    "case_status",
    "length",
    "who",
    "tasks_about",
    "named_case",
    "last_cost",
    "still_on",
    "earlier",
    "last_in",
    "on_list",
    "deleted",
    "nearly_done",
]
# Asks whose answer is one fact, however many clauses they are said in.
ONE_ANSWER = frozenset({"still_on", "earlier", "last_in"})
PRICE_OFFER = "The team can give you a quote: would you like me to open a support case?"
# "how much is a facial?", "what does a haircut cost": a price asked of a service in
# general (not "my haircut", "the facial": what the customer was charged).
_PRICE_OF_A_SERVICE = rx(
    r"\bhow much (?:is|does|would|will|do you charge for|for) (?:a|an|one)\b"
    r"|\bwhat (?:does|would|will|do) (?:a|an|one) [a-z ]+ cost\b|\bprices?\b"
    r"|\bcharge (?:you )?for (?:a|an|one)\b"
)


# "is it still high priority?", "and it's still high priority?": of the task in view.
_STILL_LEVEL = re.compile(
    r"\b(?:is (?:it|that|this)|it'?s|that'?s) still (?:a |on )?(?:high|low|normal|medium)"
    r"(?: priority)?(?:\W+(?:right|yeah|yes|correct|isn't it))?\W*$"
)
# "what's its priority now", "what priority is it set to": the level of the task in view.
_ITS_LEVEL = re.compile(
    r"\bwhat(?:'s| is)? (?:its priority|the priority (?:of|on|for) (?:it|that|this)(?: one)?"
    r"|priority (?:is|'s) (?:it|that|this)(?: one)?)(?: (?:now|then|set to|at))*\W*$"
)


@dataclass(frozen=True, slots=True)
class Question:
    aspect: Aspect
    # The service or task words asked about ("haircut", "car insurance"), if any.
    subject: str = ""
    # Pinned by the conversation: the item in focus or counted from a listing.
    item: Item | None = None
    waiting: bool = False  # the customer says nobody came back to them
    # "when's my other haircut": the id of the one in focus, which is not the one asked.
    besides: str = ""
    # "my visit at bayview clinic, when was that?": the place a visit is named by.
    place: str = ""
    # "how much is a facial?": the price of a service, which no tool knows (what the
    # customer was charged for one before is what can be said).
    price: bool = False
    # "what about the log in one?" with the cases in view: its status told, not a yes or no
    told: bool = False


# "when is the car insurance due": a task named by its words (not "it", not a bill).
_TASK_DUE = rx(
    r"\b(?:when|(?:what|which) (?:day|date))(?:'s| is| was| are| were) (?:the |my )?"
    r"(?!(?:it|that|this|they|those)\b)(?P<t>[a-z][a-z ]{1,40}?) (?:tasks? |reminders? )?due\b"
    # asked inside a sentence: "I just want to know when the insurance task is due"
    r"|\bwhen (?:the |my )(?P<e>[a-z][a-z ]{1,40}?)(?: tasks?| reminders?)(?:'s| is) due\b"
)


_DUE_ON_DAY = rx(r"\bdue (today|tomorrow)\b")
_DUE_IN_A_WEEK = rx(
    r"\bdue (?:in |during )?(?P<w>the week (?:of|starting|beginning|commencing|after next)"
    r"(?: (?:on )?(?:the )?[a-z0-9]+(?: [a-z0-9]+)?)?)"
)


def _task_subject(text: str) -> str:
    match = re.search(
        r"\b(?:is|are) (?:my|the) (?P<t>.+?) (?:task )?(?:done|finished|completed)", text
    )
    if match:
        return re.sub(r"\btask\b", "", match.group("t")).strip()
    match = re.search(r"\b(?:about|the) (?P<t>[a-z ]+?)(?: one| task)?\??$", text)
    return match.group("t").strip() if match else ""


# "when's the appointment after my cleaning?", "what's the one after the haircut": asked
# of the visit that comes after the one named.
_AFTER_NAMED = rx(
    r"^(?:(?:and|so|ok|okay|um|uh)\b\W*)*(?:when|what|which|where)\b.*?\b(?:appointment|one"
    r"|visit|booking)(?: (?:i have|i've got|i got|coming up))? (?:right |just |straight )?after"
    r" (?:my|the) (?P<what>[a-z]+)"
)


def _service(text: str) -> str:
    return str(slots.service(text, text) or "")


def may_ask_after_case(text: str) -> bool:
    """Whether `text` may ask after a case by what it was about (a cheap test first: the
    question is read only then, when the grammar found several reads in it)."""
    return ASKED_AFTER.search(text.lower()) is not None


def read_question(text: str, state: Dialogue, conversation: Sequence[Message]) -> Question | None:
    """The qualified question `text` asks, or None (then it is read as usual)."""
    # ("cancel the haircut? no wait, what time is it at": the question, of the haircut)
    said = normalize(
        ordinal_named(
            state, the_other_named(state, weekday_one_as_visit(state, ask_corrected(text)))
        )
    ).text
    if negated(said) and (asked := asked_after_refusal(said)) is not None:
        # "don't move my dentist appointment, I just need the address": the question is
        # asked of the thing the refusal names (the action there is what not to do).
        said = asked
    found = _read(said, state)
    if found is None and (ELLIPSIS.search(said) or len(said.split()) <= 4):
        found = _ellipsis(said, state, conversation)
    if (
        found is not None
        and found.aspect in ("paid", "cost")
        and not found.subject
        and re.search(r"\b(?:it|that)\b", said)
        and (before := _previous_question(conversation)) is not None
        and (earlier := _read(normalize(before).text, state)) is not None
        and earlier.subject
    ):
        # "was it paid?" after "how much did my last haircut cost?": the same invoice.
        found = Question(found.aspect, earlier.subject)
    return found


# "what's that one for?", "what is it for": asked of the bill just told.
_WHAT_FOR = rx(
    r"^(?:so |ok |okay |and |sorry |um )*what(?:'s| is| was) (?:it|that|that one|this|this one"
    r"|the charge|the bill|the invoice|the balance|that charge|that bill)(?: for| from)\b"
)


# "is that overdue?", "is it late?": of the bill just told.
_OVERDUE_IT = rx(
    r"^(?:(?:so|and|ok|okay|wait)[ ,]+)*(?:is|was|are) (?:it|that|this|they|that one|this one)"
    r"(?: already| now| still)? (?:overdue|late|past due)\b"
)


# Asked of most messages: compiled once, each tried only on a text holding its words.
_WHATS_ON_IT = rx(r"^(?:so |ok |okay |and )?what'?s on (?:it|the invoice|my invoice|the bill)")
_BILLING = rx(r"\b(?:bills?|invoices?|owe|balance|payments?|charges?|account)\b")
_ONE = rx(r"\bone\b")
# ("when's the eye exam one due?": a visit is booked for a time, a to-do is due)
_A_TASK_SAID = rx(r"\b(?:tasks?|reminders?|to-?dos?)\b|\bone due\b")


# "…at bayview clinic", "…at the clinic on third street": where a visit was, by its place
# (never a time: "at 10", "at the same time").
_PLACE_SAID = rx(
    r"\b(?:at|(?:go|went|been) to|visit|visited) (?P<the>the )?"
    r"(?!(?:same|\d|noon|midday|night|the moment|all|least|most|first|last|home)\b)"
    r"(?P<p>[a-z][a-z0-9' ]*?)(?=,|\?|\.|$| (?:when|what|how|was|did|is|do)\b)"
)
# "the one at studio nine", "the valencia street one": a visit ahead named by its place.
_ONE_AT_PLACE = rx(
    r"\bthe one (?:at|on|in|by|over on|down on) (?P<p>[a-z][a-z0-9' ]*?)"
    r"(?=,|\?|\.|$| (?:when|what|where|is|do)\b)"
    r"|\bthe (?P<q>[a-z][a-z0-9']*(?: [a-z0-9']+)? (?:street|st|avenue|ave|road|rd)) one\b"
)
_ASKS_WHEN_OR_WHERE = rx(r"\b(?:when|what (?:day|date|time)|where)\b")
# "the salon one", "my appointment at the spa": a visit said by the kind of place it is at.
_KIND_OF_PLACE = rx(
    r"\b(?:the|my|at the|at my) (?P<k>" + "|".join(sorted(PLACE_KINDS)) + r")(?:'s)?"
    r"(?: (?:one|appointment|visit|booking|thing))?\b"
)
_PAST_ASKED = rx(
    r"\b(?:when|what (?:day|date|time))\b.*\b(?:was|were|did)\b"
    r"|\bwhen did i (?:go|have|visit|see)\b"
)
# Words of a place said that its address may spell otherwise, or that name no place.
_PLACE_SPELLED = {"street": "st", "avenue": "ave", "road": "rd", "boulevard": "blvd"}
_NOT_PLACE_WORDS = frozenset(
    {"the", "on", "in", "at", "of", "one", "my", "a", "an", "that", "s"}
    # "…at the dentist on market street": the service (or who sees you) is asked apart
    # from the place; "at the doctor's" names no place.
    | {key for key in SERVICES if " " not in key}
    | {"doctor", "doctors", "barber", "barbers", "hairdresser", "hairdressers", "salon"}
    | {"office", "practice", "appointment", "visit", "last", "time", "place"}
)


def _place_words(place: str) -> list[str]:
    said = [_PLACE_SPELLED.get(w, w) for w in re.findall(r"[a-z0-9]+", place.lower())]
    return [w for w in said if w not in _NOT_PLACE_WORDS]


def at_place(item: Item, place: str) -> bool:
    """Whether the visit's location holds every word of the place said ("third street
    clinic" and "Bayview Clinic, 300 Third St"), or, a place said only by its kind ("the
    hair salon", "the salon"), the visit is of a service done there."""
    location = set(re.findall(r"[a-z0-9]+", str(item.get("location") or "").lower()))
    wanted = _place_words(place)
    if wanted and not _of_a_kind(place)[0]:
        return all(w in location for w in wanted)
    named, kinds = _of_a_kind(place)
    service = str(item.get("service") or "")
    return service in named or any(service in kind for kind in kinds)


def _of_a_kind(place: str) -> tuple[set[str], list[frozenset[str]]]:
    """The services a place said by its kind names ("the hair salon": the haircut; "the
    salon": any done at one), when no other word of it is left ("downtown dental" is a
    place of its own: none)."""
    said = re.findall(r"[a-z0-9]+", place.lower())
    kinds = [PLACE_KINDS[w] for w in said if w in PLACE_KINDS]
    named: set[str] = set()
    for size in (2, 1):
        for start in range(len(said) - size + 1):
            key = " ".join(said[start : start + size])
            if key in SERVICES and all(said[start : start + size]):
                named.add(SERVICES[key])
                said[start : start + size] = [""] * size
    left = [w for w in said if w and w not in PLACE_KINDS and w not in _NOT_PLACE_WORDS]
    if left or not (named or kinds):
        return set(), []
    return named, kinds


# "that's not right, it should only be a hundred now", said of the bill just told: the
# charge disputed, though the bill is not named again.
_AMOUNT_DISPUTED = rx(
    r"^(?:(?:no|but|well|hmm|ok|okay)[ ,.]+)*(?:that's|that is|thats|it's|its|it is|this is)"
    r" (?:not right|wrong|incorrect|not correct|too much|too high)\b"
    r"|\bshould (?:only )?(?:be|have been) (?:\$ ?\d+|(?:a|one) hundred|[a-z]+ dollars)\b"
)


# "did the groceries one go through?": asked of a to-do by name (retries.py answers it
# first from a change to it that went through, or one that did not).
_NAMED_THROUGH = rx(
    r"\bdid (?:the|my) (?P<t>[a-z]+(?: [a-z]+){0,2}?)(?: ones?| tasks?| to-?dos?)?"
    r" (?:go|get|went) through\b"
)


def _a_task_seen(subject: str, state: Dialogue) -> bool:
    """A to-do the conversation has listed is named by `subject`'s words."""
    items = [*state.listed, *state.earlier_listed]
    items += [item for _, listed in state.listings for item in listed]
    if state.focus is not None:
        items.append(state.focus)
    words = {w for w in subject.split() if len(w) > 3}
    return any(
        item.get("title") and words & set(str(item.get("title")).lower().split()) for item in items
    )


_OTHER_CASE = rx(
    r"^(?:(?:and|so|ok|okay|um|uh|oh)[ ,]+)*(?:what|how) about (?:the|my|that) "
    r"(?P<w>[a-z][a-z ]*?) (?:one|case|ticket|complaint)"
    r"(?: (?:from|i had|i opened|i made) (?:before|earlier|last time|last month|a while ago))?"
    r"[ ?.!]*$"
)


# "which ones are still open?", "which are left": of the to-dos just spoken of
_WHICH_STILL_OPEN = rx(
    r"^(?:(?:and|so|ok|okay|right|then)\W+)*which(?: ones?| of them)? (?:are|is) (?:still )?"
    r"(?:open|left|pending|to do|outstanding|not done)(?: now| then)?\W*$"
)
# "when is my yoga class", "what time is my pilates session": a visit of a kind no service is.
# Also "when is my acupuncture appointment", "do i have a chiropractor appointment coming
# up?", and a bare name of a kind of treatment ("when is my acupuncture?": a word ending as
# such names do, never "bill" or "payment"), with none of the house's booked (the
# acupuncture was "I can't help with that"; the chiropractor, every visit read out).
_VISIT_NOUN = r"(?P<n>class|session|lesson|appointment|appt|visit|treatment)"
_NOT_A_KIND = (
    r"(?!next\b|last\b|first\b|other\b|new\b|upcoming\b|follow\b|usual\b|regular\b"
    r"|current\b|morning\b|afternoon\b|evening\b|weekly\b|monthly\b|booked\b|scheduled\b"
    r"|own\b|only\b|second\b|third\b|earlier\b|later\b|one\b)"
)
_TREATMENT = r"(?P<t>[a-z]+(?:puncture|therapy|practor|practic|ology|ologist|pathy|path))"
_UNKNOWN_VISIT = rx(
    r"^(?:(?:and|so|also|ok|okay|oh|um|hey)\W+)*(?:(?:when(?:'s| is| are)|what time(?:'s| is)"
    r"|what day(?:'s| is)) (?:my|our|the) (?:"
    + _NOT_A_KIND
    + r"(?P<s>[a-z]+(?: [a-z]+)?) "
    + _VISIT_NOUN
    + r"|"
    + _TREATMENT
    + r")|do i have (?:a|an|any) "
    + _NOT_A_KIND
    + r"(?P<s2>[a-z]+(?: [a-z]+)?) "
    + _VISIT_NOUN.replace("?P<n>", "?P<n2>")
    + r"(?: (?:coming up|booked|scheduled|soon|this week|next week))?)"
    r"(?: again| today| this week)?\W*$"
)
# (the start of such a question, tried first: most messages are not one)
_ASKS_WHEN = rx(r"^(?:(?:and|so|also|ok|okay|oh|um|hey)\W+)*(?:when|what (?:time|day)|do i have)\b")
_KIND_OF_TREATMENT = rx(r"[a-z]+(?:puncture|therapy|practor|practic|ology|ologist|pathy|path)")
_VISIT_WORDS = rx(
    r"\b(?:class|session|lesson|appointment|appt|visit|treatment)\b|(?:puncture|therapy|practor|practic|ology|ologist|pathy|path)\b"
)


def _unknown_visit(said: str) -> str | None:
    """The name of a visit of a kind no service is, asked after (`_UNKNOWN_VISIT`)."""
    if (
        _ASKS_WHEN.match(said) is None
        or _VISIT_WORDS.search(said) is None
        or (found := _UNKNOWN_VISIT.match(said)) is None
    ):
        return None
    if found.group("t"):
        kind = found.group("t")
        return None if _service(kind) else kind
    kind, noun = found.group("s") or found.group("s2"), found.group("n") or found.group("n2")
    if noun not in ("class", "session", "lesson") and _KIND_OF_TREATMENT.fullmatch(kind) is None:
        return None  # "my tooth appointment": a name the house's services may go by
    return None if _service(kind) else f"{kind} {noun}"


def _read(said: str, state: Dialogue) -> Question | None:
    if COMPLAINT.found_in(said):
        return Question("complaint", waiting=bool(WAITING.search(said)))
    if (state.listed_kind or state.focus_kind) == "invoice" and _AMOUNT_DISPUTED.search(said):
        return Question("complaint")
    case = state.last_action
    if case is not None and case.kind == "ticket" and CASE_STATUS.search(said):
        # "what's the status of it", "is it still open?", "did you open it?" just after a
        # case was opened: that case (before the verbs of a change: "open" asks nothing).
        return Question("case_status", item=case.after)
    if (
        "which" in said
        and _WHICH_STILL_OPEN.match(said)
        and (
            (state.last_action is not None and state.last_action.kind == "task")
            or state.listed_kind == "task"
            or state.focus_kind == "task"
        )
    ):
        # "which ones are still open?" after a to-do was ticked off: those still to do (it
        # was "I can't help with that")
        return Question("pending")
    if (still := ON_LIST.search(said)) is not None and still.group("o"):
        # "and the insurance one is still open?": a to-do asked after ("open" is no verb
        # of a change here)
        return Question("on_list", still.group("o").strip())
    if (
        ("almost" in said or "nearly" in said or "just about" in said or "pretty much" in said)
        and (nearly := NEARLY_DONE.search(said)) is not None
        and not _BILLING.search(said)
    ):
        # "the groceries are almost sorted": not done yet; where it stands on the list
        return Question("nearly_done", (nearly.group("t") or nearly.group("w") or "").strip())
    asks_notes = NOTES.search(said) and re.search(r"\b(?:do|should|what)\b", said)
    if (
        ACTION.search(said)
        and not asks_notes
        and not re.search(
            r"\b(?:did|was|has|have) (?:i|my|you|we|they|someone|anyone|somebody|anybody|that"
            r"|it|this)\b",
            said,
        )
    ):
        return None
    if _WHATS_ON_IT.search(said):
        return Question("due")  # the open invoices, read out
    if "invoice" in (state.listed_kind, state.focus_kind) and _WHAT_FOR.search(said):
        return Question("due")  # "what's that one for?" after the balance: the invoices, read out
    if "invoice" in (state.listed_kind, state.focus_kind) and _OVERDUE_IT.search(said):
        return Question("due")  # "is that overdue?" after the bills: when they are due
    if _TASKS_ABOUT_IT.search(said) and (visit := state.focus_of("appointment")) is not None:
        # "do I have any tasks about that" after the eye exam: the tasks naming it.
        return Question("tasks_about", str(visit.get("service") or ""))
    if (focused := _about_focus(said, state)) is not None:
        return focused
    if (
        "after" in said
        and (after := _AFTER_NAMED.search(said)) is not None
        and (service := _service(said[after.start("what") :]))
    ):
        # "when's the appointment after my cleaning?": the visit after that one, by time
        return Question("after", service)
    if asks_when_and_cost(said) and (of_service := _service(said)):
        return Question("last_cost", of_service)  # "when was my last haircut and what did it cost"
    if TICKET_HISTORY.search(said):
        return Question("ticket_history")
    if CLOSED.search(said):
        return Question("closed_tickets")
    if (state.listed_kind or state.focus_kind) == "ticket" and (other := _OTHER_CASE.search(said)):
        # "what about the log in one from before" just after the cases were read out:
        # that case, found among all of them, closed ones too (it was "I can't help")
        words = " ".join(w for w in other.group("w").split() if len(w) >= 3)
        if words.strip():
            return Question("named_case", words, told=True)
    if ASKED_AFTER.search(said) and (words := case_words(said)):
        return Question("named_case", words)  # "that portal thing I reported, is it fixed?"
    if INVOICE_HISTORY.search(said):
        paid_only = re.search(r"\bpaid invoices\b", said) and "unpaid" not in said
        return Question("invoice_history", "paid" if paid_only else "")
    if (
        (which := EARLIER.search(said))
        and len(pair := slots.services_named(said)) == 2
        and not ACTION.search(said)
    ):
        # "which is earlier, the haircut or the cleaning?": the two compared ("which is
        # later" names the later one first).
        later = "later|" if which.group("w") == "later" else ""
        return Question("earlier", later + "|".join(str(n) for n in pair))
    if len(slots.services_named(said)) > 1:
        return None  # "when are my cleaning and my haircut": the listing answers both
    if (unknown := _unknown_visit(said)) is not None and not TASK_WORDS.search(said):
        # "when is my yoga class": no service of the house's, so none booked (it was "I
        # can't help", or said nothing of it beside the cleaning asked with it)
        return Question("when", unknown)
    service = _service(said)
    billing = _BILLING.search(said)
    task_words = (
        "overdue",
        "urgent",
        "finished",
        "priority",
        "what's due",
        "due soon",
        "due this week",
        "due today",
        "due tomorrow",
        "what's left",
        "else is left",
        "still left",
    )
    if not billing and (on_list := ON_LIST.search(said)):
        # "is the eye exam task still on my list?": that task, not the visit of its name
        named = on_list.group("t") or on_list.group("o") or on_list.group("n") or on_list.group("w")
        return Question("on_list", named.strip())
    if not billing and (added := ADDED.search(said)) and TASK_WORDS.search(said):
        # "did the flowers task get added?": whether it is on the list now
        return Question("on_list", added.group("t").strip())
    if (
        not billing
        and (through := _NAMED_THROUGH.search(said))
        and _a_task_seen(through.group("t"), state)
    ):
        # "did the groceries one go through?" when no change to it went through this
        # conversation (its completion let go of, not confirmed): as the list holds it now
        return Question("done_yet", through.group("t"))
    if (
        not billing
        and (deleted := DELETED.search(said))
        and (
            TASK_WORDS.search(said)
            or "delete" in said
            or not _service(named := next(g for g in deleted.groups() if g))
        )
    ):
        # "so is the eye exam deleted?": that task, as the list holds it now ("did you
        # remove my haircut?" is of the visit: a visit is cancelled, never deleted)
        named = next(g for g in deleted.groups() if g)
        return Question("deleted", named.strip())
    if (
        not billing
        and ("still" in said or "priority" in said)
        and (_STILL_LEVEL.search(said) or _ITS_LEVEL.search(said))
        and (task := state.focus_of("task")) is not None
        and task.get("title")
    ):
        # "is it still high priority?" just after the eye exam task's day was set: that
        # one's level, not every high-priority task listed (which drops the one in view).
        return Question("task_priority", str(task["title"]).lower())
    if not billing and (TASK_WORDS.search(said) or any(w in said for w in task_words)):
        for pattern, aspect in (
            (OVERDUE, "overdue"),
            (DONE_YET, "done_yet"),
            (FINISHED, "finished"),
            (HIGH, "high"),
            (LOW, "low"),
            (DUE_SOON, "due_soon"),
            (LEFT, "pending"),
        ):
            if pattern.search(said):
                subject = _task_subject(said) if aspect == "done_yet" else ""
                if aspect == "due_soon" and (day := _DUE_ON_DAY.search(said)):
                    subject = day.group(1)  # "what's due tomorrow": that day only
                elif aspect == "due_soon" and (week := _DUE_IN_A_WEEK.search(said)):
                    subject = week.group("w")  # "…due the week of the 21st": that week
                elif aspect == "due_soon" and "this week" in said:
                    subject = "this week"  # to Sunday: not "soon", next Monday's among them
                elif aspect == "due_soon" and "due next week" in said:
                    subject = "said next week"  # its Monday to Sunday: not "soon"
                elif aspect == "overdue" and (level := HIGH.search(said) or LOW.search(said)):
                    # "which of my high priority tasks are overdue?": of that level only
                    subject = "high" if HIGH.search(level.group(0)) else "low"
                return Question(aspect, subject)  # type: ignore[arg-type]
    if DONE_YET.search(said):
        return Question("done_yet", _task_subject(said))
    if priority_of := TASK_PRIORITY.search(said):
        return Question("task_priority", priority_of.group("t").strip())
    # "when's my eye exam task due": a task named after a visit is still a task.
    of_a_task = not service or _A_TASK_SAID.search(said) is not None
    if not billing and of_a_task and (named := NAMED_THEN_WHEN.search(said)):
        return Question("task_due", named.group("t").strip())
    if not billing and (due := _TASK_DUE.search(said)) and of_a_task:
        subject = re.sub(r"\b(?:tasks?|reminders?)\b", "", due.group("t") or due.group("e"))
        return Question("task_due", " ".join(subject.split()))
    if ("cost" in said or "charge" in said or "how much" in said or "bill" in said) and (
        _COST_OF_LAST_VISIT.search(said)
    ):
        return Question("cost", LAST_VISIT)  # "what did my last visit cost me"
    if LAST_IN.search(said):
        return Question("last_in")  # "when was I last in?": that visit alone
    if RECENT.search(said):
        return Question("recent")
    month = MONTH.search(said) if billing or _ONE.search(said) else None
    if (
        "invoice" in (state.listed_kind, state.focus_kind)
        and len(said.split()) <= _FEW_WORDS
        and PREVIOUS.search(said)
    ):
        # "and the one before that?" just after a bill was told: the bill before it
        return Question("paid", "previous")
    if _PAID_LAST.search(said):
        return Question("paid", "last")  # "what did I pay last time?": the latest paid
    if PAID.search(said):
        # "last month's invoice", "were both of them paid" need the paid ones too, not
        # only what is open.
        wider = re.search(r"\blast month|\bboth\b|\b(?:them|those|they)\b", said)
        if PREVIOUS.search(said):
            return Question("paid", "previous")  # "the one before that, was it paid"
        subject = month.group(0) if month else service
        if not subject and _IT.search(said) and (visit := _visit_in_view(state)):
            # "and did I pay for it?" after "when was my last visit?": that visit's bill,
            # not whether everything is paid.
            subject = str(visit.get("service") or "")
        return Question("paid", subject, waiting=bool(wider))
    if COST.search(said) and (service or month):
        # "how much was the invoice from december": the one issued that month.
        price = month is None and _PRICE_OF_A_SERVICE.search(said) is not None
        return Question("cost", month.group(0) if month else service, price=price)
    if COST.search(said) and LAST_INVOICE.search(said):
        return Question("cost", LATEST)  # "how much was my last invoice": not the balance
    if (
        not billing
        and (" at " in f" {said}" or " to " in said or " visit" in said)
        and (place := _PLACE_SAID.search(said))
        and _PAST_ASKED.search(said)
        and _place_words(place.group("p"))
    ):
        # "when was my visit at bayview clinic?": the past visit named by its place.
        said_place = f"{place.group('the') or ''}{place.group('p').strip()}"
        return Question("past", service, place=said_place)
    if (
        not billing
        and " one" in said
        and (place := _ONE_AT_PLACE.search(said))
        and _ASKS_WHEN_OR_WHERE.search(said)
        and (
            _place_words(place.group("p") or place.group("q"))
            or any(_of_a_kind(place.group("p") or place.group("q") or ""))
        )
    ):
        # "when is the one at studio nine?", "where's the valencia street one": the visit
        # ahead named by its place (was: every visit read out, or not understood).
        place_said = (place.group("p") or place.group("q")).strip()
        if "where" in said:
            return Question("where", service, place=place_said)
        return Question("when", service, place=place_said)
    if (
        not service
        and not billing
        and (kind := _KIND_OF_PLACE.search(said))
        and (asked := _ASKS_WHEN_OR_WHERE.search(said))
    ):
        # "when is the salon one?", "where's my appointment at the spa": the visit ahead
        # of a service done at such a place (was "I can't help", or the next of any kind)
        return Question(
            "where" if asked.group(0) == "where" else "when", "", place=f"the {kind['k']}"
        )
    if not service:
        return None
    if billing:
        # "when is the dental invoice due": the bill's due day, not the visit's.
        return Question("due") if re.search(r"\b(?:due|when)\b", said) else None
    if WHAT_HAPPENED.search(said):
        return Question("status", service)
    if STILL_ON.search(said):
        return Question("still_on", service)  # "is my cleaning still on?": yes or no
    if PAST.search(said):
        return Question("past", service)
    if LENGTH.search(said):
        return Question("length", service)
    if WHO_WITH.search(said):
        # "who is my haircut with?": no one is on file for a visit, said plainly, with the
        # visit (was: every visit read out)
        return Question("who", service)
    if NOTES.search(said):
        # "what should I bring to my cleaning?", no visit in view: its note, once looked up
        # (was: every visit read out, and the note unsaid)
        return Question("notes", service)
    if WHERE.search(said):
        return Question("where", service)
    if WHEN.search(said) and not re.search(r"\bnext (?:appointment|visit|one)\b", said):
        focus = state.focus_of("appointment")
        if (
            re.search(r"\bother\b", said)
            and focus is not None
            and str(focus.get("service") or "").lower() == service.lower()
        ):
            return Question("when", service, besides=str(focus.get("id")))
        return Question("when", service)
    return None


# "so is it still on?", "is that one still happening?": of the visit in focus (was "I can't
# help with that"; "is my cleaning still on?" names its own).
_IT_STILL_ON = rx(
    r"\b(?:is|was) (?:it|that|that one|this one) still (?:on|happening|booked|going ahead"
    r"|scheduled)\b(?! (?:my |the |your )?(?:list|to-?do|to do|tasks?)\b)"
)


def _about_focus(said: str, state: Dialogue) -> Question | None:
    if (
        "still" in said
        and _IT_STILL_ON.search(said)
        and not _service(said)  # ("and the dentist, is that still on": that one)
        and (visit := state.focus_of("appointment")) is not None
    ):
        return Question("still_on", str(visit.get("service") or ""), item=visit)
    if AFTER.search(said) and state.listed_kind == "appointment":
        return Question("after", item=state.focus_of("appointment"))
    if NOTES.search(said) and (
        # "and the cleaning, anything I should know before I go?": the visit named
        visit := named_listed(state, "appointment", said) or state.focus_of("appointment")
    ):
        return Question("notes", item=visit)
    if DUE_IT.search(said):
        # "what about the insurance, when's that due": the task named, not the one in focus.
        task = named_listed(state, "task", said) or state.focus_of("task")
        return Question("due", item=task)
    if (
        "cancel" in said
        and (cancelled := CANCELLED_ASKED.search(said))
        and (visit := state.focus_of("appointment")) is not None
        # ("you cancelled the haircut, yeah?": of the one in focus only when it is that)
        and (
            not cancelled.group("s")
            or cancelled.group("s").split()[-1] in str(visit.get("service") or "").lower()
        )
    ):
        return Question("status", str(visit.get("service") or ""), item=visit)
    if not (
        FOCUS_QUESTION.search(said)
        or (("day" in said or "date" in said) and FOCUS_DAY.search(said))
    ):
        return None
    # "what about the dentist, what time is that": the visit named, else the one in focus.
    item = named_listed(state, "appointment", said) or state.focus_of("appointment")
    service = _service(said)
    if (
        item is not None
        and service.lower() in KNOWN_SERVICES
        and service.lower() != str(item.get("service") or "").lower()
    ):
        aspect_named: Aspect = "where" if WHERE.search(said) else "when"
        return Question(aspect_named, service)  # another service: looked up by name
    if re.search(r"\bthe first one\b", said) and state.listed_kind == "appointment":
        item = state.listed[0] if state.listed else item
    if re.search(r"\bthe second one\b", said) and state.listed_kind == "appointment":
        item = state.listed[1] if len(state.listed) > 1 else item
    if item is None:
        return None
    if "how much" in said:
        return Question("cost", str(item.get("service") or ""), item=item)
    aspect: Aspect = "length" if LENGTH.search(said) else "where" if WHERE.search(said) else "when"
    return Question(aspect, str(item.get("service") or ""), item=item)


# A question said in a few words ("and the one before that?"): elliptical, of what was told.
_FEW_WORDS = 7
_TASKS_ABOUT_IT = rx(
    r"\b(?:tasks?|reminders?|to-?dos?) (?:about|for|on|related to|to do with) (?:that|it|this)\b"
)
_WEEK_AFTER = rx(r"\b(?:the week after|next week|the following week)\b")


# What the latest visit had came to: "what did my last visit cost me", "how much was my
# most recent appointment", "what was I charged for my last visit".
LAST_VISIT = "last visit"
_COST_OF_LAST_VISIT = rx(
    r"\b(?:how much|what did|what was i (?:charged|billed)|what were i charged|cost|charged"
    r"|billed|the bill for|the charge for)\b.*\b(?:my|the) (?:last|latest|most recent"
    r"|previous) (?:visit|appointment|booking)\b"
    r"|\b(?:my|the) (?:last|latest|most recent|previous) (?:visit|appointment|booking)"
    r"(?: cost| come to| came to)\b"
)


# "when did I last get a haircut and how much was it", "how much did I pay for my last
# haircut and when was that": the day of the last one and what it came to, both asked.
_LAST_ONE = rx(r"\b(?:last|latest|most recent|previous)\b")
_WHEN_ASKED = rx(r"\b(?:when|what day|what date|which day|the date|what time)\b")
_COST_ASKED = rx(r"\b(?:how much|cost|costs|charged|charge|pay|paid|price|bill|billed)\b")


def asks_when_and_cost(text: str) -> bool:
    """Whether `text` asks both when the last visit of a kind was and what it cost (one
    question, though said in two clauses: each read alone listed every visit and bill)."""
    said = text.lower()
    return (
        ("last" in said or "recent" in said or "previous" in said)
        and _LAST_ONE.search(said) is not None
        and _WHEN_ASKED.search(said) is not None
        and _COST_ASKED.search(said) is not None
        and len(slots.services_named(said)) == 1
    )


def asks_last_visits_cost(text: str) -> bool:
    """ "what's the bill for my last visit": one question, though its words name a bill and
    a visit (each read as a listing of its own)."""
    said = text.lower()
    return ("last" in said or "recent" in said or "previous" in said) and bool(
        _COST_OF_LAST_VISIT.search(normalize(text).text)
    )


# What was paid last, asked without a yes or no: "what did I pay last time?", "what was my
# last payment?"
_PAID_LAST = rx(
    r"\bwhat did i (?:pay|spend) (?:last time|the last time|last)\b"
    r"|\bwhat (?:was|is) (?:my|the) (?:last|latest|most recent) payment\b"
    # "did my last payment go through?", "when was my last payment": the latest paid
    r"|\b(?:did|has) (?:my|the) (?:last|latest|most recent) payment (?:go|gone|get|got|come"
    r"|came) through\b|\bwhen (?:was|did i make) (?:my|the) (?:last|latest) payment\b"
)
_IT = rx(r"\b(?:for|pay) (?:it|that|that one|that visit)\b|\b(?:was|is) (?:it|that) paid\b")


def _visit_in_view(state: Dialogue) -> Item | None:
    """The past visit in focus, or else the latest past one of the visits just read out
    ("when was my last visit?")."""
    visit = state.focus_of("appointment")
    if visit is not None and visit.get("status") == "past":
        return visit  # one still ahead has no bill of its own yet
    past = [a for a in state.listed if a.get("status") == "past"]
    if state.listed_kind == "appointment" and past:
        return max(past, key=lambda a: str(a.get("starts_at") or ""))
    return None


def _previous_question(conversation: Sequence[Message]) -> str | None:
    users = [m.text for m in conversation if isinstance(m, UserTurn)]
    return users[-2] if len(users) >= 2 else None


def _ellipsis(said: str, state: Dialogue, conversation: Sequence[Message]) -> Question | None:
    """ "and the dental one?" after "when is my haircut?": the same question, another subject."""
    before = _previous_question(conversation)
    if before is None:
        return None
    earlier = _read(normalize(before).text, state)
    if earlier is None or earlier.aspect in ("complaint", "after"):
        return None
    if earlier.aspect == "due_soon" and _WEEK_AFTER.search(said):
        return Question("due_soon", "next week")  # "what's due this week" … "and the week after?"
    if earlier.aspect in ("high", "low") and (HIGH.search(said) or LOW.search(said)):
        return Question("high" if HIGH.search(said) else "low")
    if earlier.aspect in ("paid", "cost", "past", "recent") and re.search(
        r"\bhow much (?:was|is|did) (?:it|that)\b", said
    ):
        # ("when was my last visit" … "how much was it": the latest visit's bill)
        last = LAST_VISIT if earlier.aspect == "recent" else ""
        return Question("cost", earlier.subject or last)
    if earlier.aspect in ("cost", "paid") and (month := MONTH.search(said)):
        return Question(earlier.aspect, month.group(0))  # "and the november one"
    if earlier.aspect in ("when", "where", "status", "past", "cost", "paid"):
        service = _service(said)
        return Question(earlier.aspect, service) if service else None
    if earlier.aspect in ("last_in", "recent") and (service := _service(said)):
        # "when was I last in" … "and my last haircut": that service's last visit (it
        # listed the visits ahead)
        return Question("past", service)
    if earlier.aspect == "done_yet":
        subject = re.sub(r"^(?:and|what about|how about) (?:the |my )?", "", said).strip(" ?")
        return Question("done_yet", subject) if subject else None
    return None


def lookups(question: Question) -> list[tuple[str, dict[str, Any]]]:
    """The reads that answer `question` (none: it is answered from the conversation)."""
    aspect = question.aspect
    if aspect == "complaint":
        reads: list[tuple[str, dict[str, Any]]] = [("crm.getOpenInvoices", {})]
        if question.waiting:
            reads.append(("crm.listOpenTickets", {}))
        return reads
    if aspect == "paid" and not question.subject and not question.waiting:
        return [("crm.getOpenInvoices", {})]
    if (aspect == "cost" and question.subject == LAST_VISIT) or aspect == "last_cost":
        return [
            ("crm.listAppointments", {"status": "all"}),
            ("crm.listInvoices", {"status": "all"}),
        ]
    if aspect in ("cost", "paid"):
        return [("crm.listInvoices", {"status": "all"})]
    if aspect in ("status", "past", "recent", "last_in"):
        return [("crm.listAppointments", {"status": "all"})]
    if aspect in ("when", "where", "length", "who"):
        # What is coming up answers "when is my haircut"; the past is asked otherwise.
        return [] if question.item is not None else [("crm.listUpcomingAppointments", {})]
    if aspect in ("after", "earlier", "still_on"):
        # "is my cleaning still on?": yes from what is coming up; no is read in the past
        return [("crm.listUpcomingAppointments", {})]
    if aspect == "closed_tickets":
        return [("crm.listTickets", {"status": "closed"})]
    if aspect in ("ticket_history", "named_case"):
        return [("crm.listTickets", {"status": "all"})]
    if aspect == "invoice_history":
        return [("crm.listInvoices", {"status": question.subject or "all"})]
    if aspect == "case_status":
        return [("crm.listTickets", {"status": "all"})]
    if aspect == "due" and question.item is not None:
        return []
    if aspect == "notes":
        return [] if question.item is not None else [("crm.listUpcomingAppointments", {})]
    if aspect == "due":
        return [("crm.getOpenInvoices", {})]
    return [("crm.listTasks", {})]


def needs_history(question: Question, results: Sequence[ToolResult]) -> bool:
    """ "When is my massage?" with none coming up: whether the past is read too before the
    answer (a cancelled or a had one is then said of, and "none" only of what is none)."""
    if (
        question.aspect not in ("when", "where", "length", "still_on")
        or not question.subject
        or question.item is not None
        or question.place
        or question.besides
    ):
        return False
    if any(not r.ok or r.call.tool_name == "crm.listAppointments" for r in results):
        return False
    if not any(r.call.tool_name == "crm.listUpcomingAppointments" for r in results):
        return False
    subject = question.subject
    return not any(_matches(a, subject, "service") for a in _items(results, "appointments"))


# "…and how much was it?", ", and where is it": a second question of the same thing.
_AND_ASKED = rx(r",? and (?:also |then )?(?=(?:when|what|where|how|is|was|did|has)\b)")
_BACK = rx(r"\b(?:it|that|that one)\b")
# Two questions of which one answer says both ("what time is it and where": the time is
# said with the place).
_SAID_WITH = {("when", "where"), ("where", "when")}


def read_joined(text: str, state: Dialogue) -> tuple[Question, ...] | None:
    """ "when did I last get a haircut and how much was it?": two questions of one visit,
    the second naming it by "it", each read as it would be alone, the second of the
    first's subject; or two of a subject each ("when is my haircut and how much was my
    last invoice"). None unless both are questions of that kind."""
    said = normalize(text).text
    if (split := _AND_ASKED.search(said)) is None:
        return None
    head, rest = said[: split.start()], said[split.end() :]
    if _AND_ASKED.search(rest):
        return None
    first = _read(head, state)
    if first is None or not first.subject or first.item is not None or "|" in first.subject:
        return None
    if (back := _BACK.search(rest)) is None:
        # "when is my haircut and how much was my last invoice": each of its own subject
        second = _read(rest, state)
        if second is None or not second.subject or second.item is not None:
            return None
        return (first, second)
    named = f"{rest[: back.start()]}my {first.subject.lower()}{rest[back.end() :]}"
    second = _read(named, state)
    if second is None or second.item is not None or second.subject != first.subject:
        return None
    if (first.aspect, second.aspect) in _SAID_WITH:
        return (Question("when", first.subject),)
    return None if second.aspect == first.aspect else (first, second)


# "is that at the same place as my cleaning?": the visit in focus and the one named, each
# told with where it is (it told the one named only).
_SAME_PLACE = rx(
    r"^(?:(?:and|so|ok|okay|wait|but|hmm)\W+)*(?:is|was) (?:that|it|this)(?: one)? (?:at|in)"
    r" the same (?:place|address|location|clinic|office|building) as (?:my|the) "
    r"(?P<s>[a-z][a-z ]{1,30}?)(?: one| appointment| visit)?\W*$"
)


def read_same_place(text: str, state: Dialogue) -> tuple[Question, ...] | None:
    """ "is that at the same place as my cleaning?" after the consultation was booked: where
    each of the two is; None for any other question."""
    said = normalize(text).text
    if " same " not in said or (match := _SAME_PLACE.search(said)) is None:
        return None
    focus = state.focus_of("appointment")
    other = _service(match.group("s"))
    if focus is None or not other or other.lower() == str(focus.get("service") or "").lower():
        return None
    named = named_listed(state, "appointment", said)
    here = Question("where", str(focus.get("service") or ""), item=focus)
    if named is not None and named.get("id") != focus.get("id"):
        return (here, Question("where", other, item=named))
    return (here, Question("where", other))


HISTORY_READS = frozenset({"crm.listAppointments", "crm.listInvoices", "crm.listTickets"})


# Asks about the past that only stand beside another ask ("…and when did I last come
# in"): alone, the qualified question (`read_question`) answers them from the data.
_PAST_VISITS = rx(
    rf"{PAST_VISIT}"
    r"|\bmy (?:last|previous) (?:appointment|visit|booking)\b|\bwhen did i last (?:come|visit)\b"
    r"|\bhave i (?:ever )?had\b|\b(?:missed|cancell?ed) (?:appointments|visits|bookings)\b"
    r"|\bappointments have i (?:missed|cancell?ed|had)\b|\bhow many times have i been\b"
)
_PAST_PAYMENTS = rx(
    r"\bwhen did i last pay\b|\bwhat (?:have|did) i (?:paid|pay|spent|spend)\b"
    r"|\bwhat i've paid\b|\bhow much have i (?:paid|spent)\b|\bdid i (?:already |ever )?pay\b"
    r"|\b(?:was|were) (?:my )?(?:last )?(?:invoices?|bills?) paid\b"
    r"|\bhow much (?:was|did) (?:it|that|this)\b"  # the cost of a past visit
    # "what's the total of everything I've paid so far": all paid, added up
    r"|\b(?:everything|all|the total) (?:that )?i(?:'ve| have) (?:ever )?(?:paid|spent)\b"
)
_PAST_TICKETS = rx(
    r"\b(?:raised|opened|logged|made) before\b|\bold (?:complaints?|tickets?|cases?)\b"
    r"|\bclosed? my (?:ticket|case|complaint)\b|\bever (?:resolved|closed|sorted)\b"
    r"|\bclosed tickets\b"
    # "my tickets from last year", "complaints in the past": a time gone by, so any state
    r"|\b(?:tickets?|cases?|complaints?)\b(?: \w+){0,2}? (?:from|in|of) (?:last (?:year|month)"
    r"|the (?:past|last (?:year|few months))|before)\b|\b(?:previous|past) (?:tickets|cases)\b"
)

# "all my tickets except the open ones", "my cases that aren't open": the others, closed.
_NOT_THE_OPEN = rx(
    r"\b(?:tickets|cases|complaints|support requests)\b.*\b(?:except(?: for)?|but not|other than"
    r"|apart from|aside from|besides|excluding|that aren't|that are not|not) (?:the |my )?"
    r"(?:still )?open\b"
)

# "has anyone got back to me about my invoice question": what became of a request, read
# from the support cases, not from the invoices it mentions.
_FOLLOW_UP = rx(
    r"\b(?:anyone|someone|somebody|you) (?:got|get|gotten|come|came) back to me\b"
    r"|\bheard back\b|\b(?:reply|response|answer) (?:to|on|about) my \w+ (?:question|query)\b"
)


def history_reads(
    clause: str, state: Dialogue, several: bool = True
) -> list[tuple[str, dict[str, Any]]]:
    """The history reads one ask needs ("when was my last visit", "my paid invoices",
    "my closed tickets"), or none: then its usual listing answers it. Alone (not
    `several`), only visits and tickets: "did I pay…?" alone is the open invoices."""
    said = normalize(clause).text
    if follow_up := _FOLLOW_UP.search(said):
        # Only when nothing else is asked before it in the clause ("what's my balance and
        # has anyone…" keeps its balance read): a read is never traded for another.
        before = re.sub(r"\b(?:has|have|did|so|um|erm|hi|hey|and)\b", "", said[: follow_up.start()])
        return [] if before.strip(" ,.?") else [("crm.listOpenTickets", {})]
    if " open" in said and _NOT_THE_OPEN.search(said):
        return [("crm.listTickets", {"status": "closed"})]
    if amount_asked(said) is not None:
        # "which invoice was the 45 dollars for": a bill by its amount, paid ones too
        return [("crm.listInvoices", {"status": "all"})]
    for words, tool in (
        (_PAST_VISITS, "crm.listAppointments"),
        (_PAST_PAYMENTS, "crm.listInvoices"),
        (_PAST_TICKETS, "crm.listTickets"),
    ):
        if words.search(said) and (several or words is not _PAST_PAYMENTS):
            return [(tool, {"status": "all"})]
    if not several:
        return []
    asked = _read(said, state)
    if asked is None:
        return []
    if asked.aspect == "paid":
        return [("crm.listInvoices", {"status": "all"})]  # beside "what do I owe"
    reads = lookups(asked)
    return reads if reads and all(tool in HISTORY_READS for tool, _ in reads) else []


# The listing each kind of answer is read from: without it this turn, there is no answer.
_LISTING_READ = {
    "complaint": "invoices",
    "paid": "invoices",
    "cost": "invoices",
    "last_cost": "invoices",
    "case_status": "tickets",
    "named_case": "tickets",
    "closed_tickets": "tickets",
    "still_on": "appointments",
    "earlier": "appointments",
    "last_in": "appointments",
    "when": "appointments",
    "where": "appointments",
    "status": "appointments",
    "past": "appointments",
    "recent": "appointments",
    "after": "appointments",
    "length": "appointments",
    "who": "appointments",
}


def _listed(results: Sequence[ToolResult], key: str) -> bool:
    """Whether a listing of `key` came back this turn (empty or not)."""
    return any(
        r.ok and isinstance(r.result, dict) and isinstance(r.result.get(key), list) for r in results
    )


def _items(results: Sequence[ToolResult], key: str) -> list[Item]:
    """The items the results list, each once (two listings of a turn name the same ones:
    "one more after it" must not count a visit twice)."""
    found: dict[object, Item] = {}
    for result in results:
        if result.ok and isinstance(result.result, dict):
            value = result.result.get(key)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, dict):
                        found[item.get("id") or len(found)] = item
    return list(found.values())


def answer(question: Question, results: Sequence[ToolResult], now: datetime) -> str | None:
    """The answer to `question` from this turn's results (None: they did not come back)."""
    if any(not r.ok for r in results):
        return None
    aspect = question.aspect
    listing = _LISTING_READ.get(aspect)
    if listing is not None and question.item is None and not _listed(results, listing):
        # Asked again in a later round where only a write ran ("it's definitely paid, can
        # you have someone look into it" opened the case offered): "I don't see any open
        # charges" would be said of bills nobody read. The narrator tells what was done.
        return None
    if aspect == "complaint":
        invoices = _items(results, "invoices")
        tickets = _items(results, "tickets")
        return f"{explain_charges(invoices, tickets, now)} {OFFER}"
    if aspect == "paid" and any(r.call.tool_name == "crm.getOpenInvoices" for r in results):
        return owing(_items(results, "invoices"), now)
    if aspect == "cost" and question.subject == LAST_VISIT:
        return last_visit_cost(_items(results, "appointments"), _items(results, "invoices"), now)
    if aspect == "last_cost":
        appointments, invoices = _items(results, "appointments"), _items(results, "invoices")
        return last_visit_cost(appointments, invoices, now, question.subject)
    if aspect == "cost" and question.price:
        said = about_invoice(_items(results, "invoices"), question.subject, aspect, now)
        if said.startswith("I don't see"):
            return f"I don't have a price list here. {said} {PRICE_OFFER}"
        return f"I don't have a price list here, but {said[0].lower()}{said[1:]}"
    if aspect in ("cost", "paid"):
        return about_invoice(_items(results, "invoices"), question.subject, aspect, now)
    if aspect == "case_status":
        return case_status(_items(results, "tickets"), question.item)
    if aspect == "named_case":
        return named_case_status(
            _items(results, "tickets"), question.subject, asked_whether=not question.told
        )
    if aspect == "closed_tickets":
        tickets = _items(results, "tickets")
        if not tickets:
            return "You don't have any closed support cases."
        names = "; ".join(f"'{t.get('subject')}'" for t in tickets[:3])
        return f"Your closed support cases: {names}."
    if aspect == "due" and question.item is not None:
        return about_tasks([question.item], "due", "", now)
    if aspect == "notes" and question.item is None and question.subject:
        ahead = [
            a
            for a in _items(results, "appointments")
            if str(a.get("service") or "").lower() == question.subject.lower()
            and a.get("status") != "cancelled"
        ]
        if not ahead:
            return f"I don't see a {question.subject.lower()} coming up."
        question = dataclasses.replace(question, item=ahead[0])
    if aspect == "notes" and question.item is not None:
        note = str(question.item.get("notes") or "").strip()
        service = str(question.item.get("service") or "appointment").lower()
        if not note:
            return f"There are no notes on your {service}, so nothing special to bring."
        return f"The note on your {service} says: {note[:1].lower() + note[1:]}"
    if aspect in ("pending", "ticket_history", "invoice_history"):
        return None  # the listing's own narration reads the history out
    if aspect == "due":
        return None  # the billing narration says when it is due
    if aspect == "still_on":
        return still_on(_items(results, "appointments"), question.subject, now)
    if aspect == "earlier":
        named = question.subject.removeprefix("later|").split("|")
        later = question.subject.startswith("later|")
        return which_first(_items(results, "appointments"), named, now, later=later)
    if aspect == "last_in":
        return last_in(_items(results, "appointments"), now)
    if aspect in ("when", "where", "status", "past", "recent", "after", "length", "who"):
        appointments = [
            a for a in _items(results, "appointments") if str(a.get("id")) != question.besides
        ]
        if question.item is not None and aspect != "after":
            # The one in view, as the CRM has it now when this turn read it again: "so is it
            # cancelled?" after a cancel whose answer was lost was told "still booked" from
            # the listing before the cancel.
            item_id = question.item.get("id")
            fresh = [a for a in appointments if item_id is not None and a.get("id") == item_id]
            appointments = fresh[:1] or [question.item]
        if question.place:
            there = [a for a in appointments if at_place(a, question.place)]
            if not there:
                return f"I don't see a visit at {question.place} on your account."
            appointments = there
        return about_appointment(appointments, question.subject, aspect, now, question.item)
    tasks = _items(results, "tasks")
    if (
        aspect == "deleted"
        and not named_tasks(tasks, question.subject)
        and _service(question.subject)
    ):
        # "is my haircut deleted?": no such task, and a visit is not deleted: not "it's gone"
        return f"I don't see a task like '{question.subject}' on your list."
    return about_tasks(tasks, aspect, question.subject, now)


__all__ = [
    "LAST_VISIT",
    "OFFER",
    "ONE_ANSWER",
    "Question",
    "answer",
    "asks_last_visits_cost",
    "lookups",
    "may_ask_after_case",
    "needs_history",
    "read_joined",
    "read_question",
]
