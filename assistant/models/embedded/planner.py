"""The embedded planner: decisions from the language grammar, with no model behind it.

Round 1 turns each intent into a call: a lookup first for find-then-act requests
("complete the grocery task" → `crm.listTasks`), the action itself otherwise. Later
rounds resolve those targets from the listings and make the action calls with the
real ids (`assistant.resolve`), which is also what the engine's forced follow-up asks
of it. Nothing is guessed: a request lacking a slot gets a question, and a message
asking for nothing gets a reply of its own. All calls found are returned, in the order
asked; the engine applies the per-round cap and counts what it cuts.

Deterministic, and a decision costs well under a millisecond.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from assistant import as_asked, claims, resolve
from assistant.dialogue_state import Dialogue
from assistant.language import (
    Intent,
    classify_chat,
    detect_intents,
    is_affirmative,
    is_negative,
    unsupported,
)
from assistant.language.account_rules import detail_kept
from assistant.language.aimed_at_system import without_system_talk
from assistant.language.as_meant import as_meant
from assistant.language.confirm import request_after_yes, what_was_taken_back
from assistant.language.dates import this_weekday_bare
from assistant.language.grammar import negated
from assistant.language.hesitation import only_hesitates
from assistant.language.lexicon import OTHER_CHANGE_DOINGS, OTHER_CHANGE_VERBS
from assistant.language.patterns import rx
from assistant.language.put_right import put_right
from assistant.language.read_once import one_decision
from assistant.language.replacing import as_two_changes
from assistant.language.scope import (
    asks_advice,
    asks_to_pay_beside,
    hypothetical,
    only_asking,
    vents,
)
from assistant.language.slots import service
from assistant.language.smalltalk import asks_how_to, half_heard
from assistant.language.text import normalize
from assistant.language.unheard import as_said, asks_something
from assistant.models.embedded import (
    added_again,
    anchored,
    as_it_was,
    bill_anchored,
    cut_off,
    last_visit,
    last_write,
    limits,
    questions,
    references,
    replies,
    retries,
    talked_of,
    task_anchored,
    topic,
    visit_then_when,
    which_kind,
)
from assistant.models.embedded.bare_time import move_question, what_for
from assistant.models.embedded.call_asked import call_asked, made_here
from assistant.models.embedded.cases import (
    another_case,
    case_about_it,
    complaint_told,
    detail_of_case,
    two_cases,
)
from assistant.models.embedded.followup import pauses, said_before, unanswered
from assistant.models.embedded.held_back import held_back_read
from assistant.models.embedded.ordinals import (
    note_named,
    other_thing_named,
    priority_named,
    told_named,
)
from assistant.models.embedded.pinning import zone_of
from assistant.models.embedded.said_before import current_one_named
from assistant.models.embedded.same_hour import same_hour_asked
from assistant.models.embedded.tasks import already_as_asked
from assistant.models.embedded.undo import changed_since
from assistant.models.embedded.unheard import said_not_understood, unheard_in
from assistant.models.embedded.which_asked_back import which_asked_back
from assistant.resolve import (
    Match,
    NoMatch,
    action_arguments,
    resolve_all,
    resolve_intent,
)
from assistant.schema import (
    AssistantTurn,
    FinalDecision,
    Message,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolExchange,
    ToolResult,
    UserTurn,
)
from assistant.speech import join_and, local_now
from assistant.speech import phone as speech_phone

Decision = FinalDecision | ToolCallsDecision

# No tool takes a payment, gives money back or sends a receipt: say so, and what can
# be done instead.
CANNOT_PAY = (
    "I can't take payments, give refunds or send receipts here, but I can tell you what "
    "you owe, or open a support case about a charge."
)


# "What happens if I cancel my haircut?": no tool says what a change would cost or lead
# to, and the question is not the change itself.
WHAT_IF = (
    "I don't have details like fees here, and nothing changes unless you ask me to. If "
    "you'd like me to go ahead, just say so and I'll confirm it with you first."
)
HOW_TO_CONTACT = (
    "Just tell me in your own words: say the new phone number or email here, and I'll change "
    "it on file once you've said yes to it."
)
_CONTACT_HOW = rx(r"(?i)\b(?:e-?mail|phone|number|cell|mobile|contact details)\b")
YOUR_CALL = (
    "That's up to you: nothing changes unless you ask me to. If you'd like me to go ahead, "
    "just say so."
)
ONLY_IF_ASKED = "Nothing changes unless you ask me to. If you'd like me to go ahead, just say so."
# "sure, delete everything, why not": a change said in jest or anger, none made.
VENTED = (
    "I haven't changed anything. If there's something you do want cancelled or changed, "
    "tell me which one and I'll check it with you first."
)
# A fee, a price or a deadline asked of a change: said that no such details are here.
_FEE_ASKED = rx(
    r"\b(?:fees?|charg\w*|costs?|pay\w*|paid|penalt(?:y|ies)|refunds?|money|price|lose"
    r"|latest|late|deadline|notice|cut-?off|last (?:day|minute|time))\b"
)
# "could I move it to saturday if I wanted to? I'm just asking": asked, not to be done.
ONLY_ASKED = (
    "I haven't changed anything: nothing changes unless you ask me to. If you'd like me to"
    " go ahead, just say so."
)
NOTHING_HELD = "There's nothing waiting for a yes just now. What would you like me to do?"
# "cancel my haircut, oh wait, no, actually don't": nothing is done, and nothing asked.
TAKEN_BACK = "Okay, I'll leave everything as it is. Is there anything else I can do?"
AFTER_DROPPED = "If you'd still like me to go ahead, just ask again. Anything else I can do?"


# An acknowledgement ("ok", "right") and then a question of its own.
_ACK_THEN_ASK = rx(
    # ("whatever, fine. when's it due?": put up with, and moving on)
    r"^(?:(?:ok|okay|alright|all right|right|fine|cool|thanks|cheers|great|whatever|anyway)"
    r"\b[ ,.!]*)+"
    r"(?:and |so |then )?(?:what|when|where|which|who|how|is|are)\b"
)
# "yes cancel it", "yeah move it to friday" while a case is offered: the yes leads another
# change of what is in view ("it" is resolved later, not by the intents of the rest alone).
_CHANGE_AFTER_YES = rx(
    r"^(?:yes|yeah|yep|yup|sure|ok|okay)\b[ ,.!]*(?:(?:please|just|and|then|go ahead and"
    r"|can you|could you) )*(?:cancel|delete|remove|move|reschedule|push|book|change|drop)\b"
    r"(?! (?:a |the |my )?(?:case|ticket|complaint)\b)"
)


# "what about mine, what is it?", "and mine?": the customer's own, after someone else's.
_MINE_ASKED = rx(
    r"^(?:(?:ok|okay|and|so|well|then)[ ,]+)*(?:what about|how about|and|what's|what is)"
    r" mine\b(?!.*\b(?:change|update|set|make|to)\b)"
)


# What another person's account was asked about, read from the customer's own once she
# asks "what about mine?" after being told only her own is seen.
_OTHERS_ASKED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:owe|owes|bills?|invoices?|balance|charged?)\b"), "crm.getOpenInvoices"),
    (re.compile(r"\bnext (?:appointment|visit|booking)\b"), "crm.getNextAppointment"),
    (
        re.compile(r"\b(?:appointments?|visits?|bookings?|booked|haircut|cleaning|checkup)\b"),
        "crm.listUpcomingAppointments",
    ),
    (re.compile(r"\b(?:tasks?|to-?dos?|list)\b"), "crm.listTasks"),
    (re.compile(r"\b(?:cases?|tickets?)\b"), "crm.listOpenTickets"),
    (re.compile(r"\b(?:email|phone|number|details)\b"), "crm.getCustomerProfile"),
)


def _own_of_others_asked(conversation: Sequence[Message]) -> str | None:
    """The read of what the customer asked of another person's account, when the last
    answer said only her own is seen ("when is my husband's next appointment?" → …
    → "what about mine then?": her own next appointment)."""
    answers = [m for m in conversation if isinstance(m, AssistantTurn) and m.kind == "answer"]
    if not answers or not answers[-1].text.startswith(limits.OWN_ACCOUNT_ONLY[:40]):
        return None
    asked = [m for m in conversation if isinstance(m, UserTurn)]
    if len(asked) < 2:
        return None
    said = asked[-2].text.lower()
    return next((tool for pattern, tool in _OTHERS_ASKED if pattern.search(said)), None)


def _last_answer_named_details(conversation: Sequence[Message]) -> bool:
    """Whether the assistant's last answer spoke of a phone number or an email."""
    for message in reversed(conversation):
        if isinstance(message, AssistantTurn) and message.kind == "answer":
            return bool(re.search(r"\b(?:email|phone number)\b", message.text))
    return False


# How many of the customer's last messages are read as meant: a reply completes the ask
# at most a few messages back (followup's questions, said_before's services).
_MEANT_MESSAGES = 4


def _as_meant(request: PlanRequest) -> PlanRequest:
    """The request with the customer's last messages as the grammar reads them
    (language/as_meant.py): the last, and the earlier ones a reply may complete ("okay so,
    I want to add a task")."""
    conversation = request.conversation
    changed: list[tuple[int, UserTurn]] = []
    seen = 0
    zone = request.customer.timezone if request.customer else "UTC"
    now = local_now(request.now, request.customer.timezone if request.customer else None)
    # "can you move my" → "…What would you like me to move?" → "my haircut to saturday":
    # the last message read as the end of the ask cut off before it.
    whole = cut_off.finished(conversation)
    for index in range(len(conversation) - 1, -1, -1):
        message = conversation[index]
        if isinstance(message, UserTurn):
            said = whole if whole is not None and seen == 0 else message.text
            if seen == 0:
                said = anchored.from_the_last_visit(said, request.dialogue)
                # "the first one" of a visit and a to-do told: the one meant, named
                said = priority_named(request.dialogue, told_named(request.dialogue, said))
                # "and add a note to it saying …": the to-do in view's, said whole
                said = note_named(request.dialogue, said)
                said = other_thing_named(request.dialogue, said)
                # "when's my next one" just after a haircut was named: the next haircut
                said = talked_of.next_one_named(conversation, said)
                # "swap the cleaning for a checkup": said as the cancel and the booking.
                meant = as_two_changes(as_meant(said))
                # "…an hour earlier and add a note that…": the change, as if said alone (the
                # narrator tells the limit beside it)
                meant = limits.change_said_beside(meant, now, zone) or meant
            else:
                if seen == 1:
                    # "same day next year too" → "There's no February 29 in 2033…" → "the
                    # 28th": the ask before, read as it was then (a year from that visit)
                    said = anchored.a_year_on(said, request.dialogue)
                meant = as_meant(said)
            # "…at 10am. Actually, make it 11.": put right before anything reads it.
            # "keep it on this sunday": "this" said of a day that is not today, read bare
            meant = this_weekday_bare(put_right(meant, now), now)
            if meant != message.text:
                changed.append((index, UserTurn(text=meant)))
            seen += 1
            if seen == _MEANT_MESSAGES:
                break
    if not changed:
        return request
    rewritten = list(conversation)
    for index, message in changed:
        rewritten[index] = message
    return dataclasses.replace(request, conversation=tuple(rewritten))


LEFT_AS_IT_IS = "Okay, I won't change anything. Is there anything else I can do?"
_A_CHANGE = rx(
    # (as said after "don't bother", "no point": "moving", "cancelling")
    r"\b(?:mov(?:e|ing)|push(?:ing)?|reschedul(?:e|ing)|cancel(?:l?ing)?|delet(?:e|ing)"
    r"|remov(?:e|ing)|book(?:ing)?|add(?:ing)?|mark(?:ing)?|complet(?:e|ing)|chang(?:e|ing)"
    r"|updat(?:e|ing)|set(?:ting)?|open(?:ing)?|tick(?:ing)?|"
    + OTHER_CHANGE_VERBS
    + "|"
    + OTHER_CHANGE_DOINGS
    + r")\b"
)


_NOTHING_CHANGED_YET = "I haven't changed anything yet. "


def _cases_told_last(conversation: Sequence[Message]) -> bool:
    """The last answer told of the support cases (read with the bill after them: the
    bill is the listing in view, the cases still what the customer speaks of)."""
    for message in reversed(conversation):
        if isinstance(message, AssistantTurn) and message.kind == "answer":
            return "support case" in message.text
    return False


def _only_reads_asked(intents: list[Intent]) -> bool:
    """Something is asked to be looked up, and nothing to be changed."""
    return bool(intents) and not any(intent.writes for intent in intents)


def _only_what_not_to_do(text: str) -> bool:
    """The message only says what not to change ("don't move my haircut", "please don't
    book anything yet")."""
    said = normalize(text).text
    return negated(said) and _A_CHANGE.search(said) is not None and "?" not in said


def _an_ask_not_understood(text: str, request: PlanRequest) -> str | None:
    """A message no rule reads that is shaped like an ask ("do my taxes"), as said; None
    for anything else (a question, a remark, thanks, a word or two of nothing)."""
    said = normalize(text).text
    now = local_now(request.now, request.customer.timezone if request.customer else None)
    if len(said.split()) < 2 or negated(said) or not asks_something(said, now):
        return None
    return as_said(said)


# What a change taken back in the same breath would have done, said as not done.
_NOT_DONE = {
    "book_appointment": "I won't book {thing}",
    "reschedule_appointment": "I've left {thing} where it was",
    "cancel_appointment": "I won't cancel {thing}",
    "add_task": "I won't add {thing}",
    "complete_task": "I've left {thing} as it was",
    "update_task": "I've left {thing} as it was",
    "delete_task": "I won't delete {thing}",
    "create_ticket": "I won't open a support case",
    "update_contact": "I've left your contact details as they are",
}


_SENTENCE_END = re.compile(r"(?<=\w)[.!?]+\s+(?=\w)")
# "I don't want the cleaning moved", "I don't want anything else": nothing asked but to
# leave things be, said at more length than "don't move it" (it was "I can't help").
_KEPT_AS_IT_IS = rx(
    r"(?i)^(?:(?:no|nah|ok|okay|so|well|actually)[ ,]+)*(?:i|we) (?:don't|do not|dont) (?:want"
    r"|need) (?:anything else|(?:the|my|that|this|it|them)\b[a-z' ]*? (?:moved|changed"
    r"|cancell?ed|deleted|touched|rescheduled|removed))\b"
)


_POLITE_END = rx(r"(?:[ ,]+(?:please|pls|plz|thanks|thank you|thx|for me))+$", re.IGNORECASE)
_A_DETERMINER = rx(
    r"(?:my|the|your|our|that|this|these|those|it|them|all|both|every|each|whatever|whichever)\b",
    re.IGNORECASE,
)


_JOINER_END = re.compile(r"(?:[ ,]+(?:but|and|so|or|though|then|although))+[ ,]*$", re.I)


def _not_done(left: str) -> str:
    return f"Okay, {left}. Is there anything else I can do?"


def _left_as_it_was(asked: str, request: PlanRequest) -> str | None:
    """ "book an eye exam thursday at 10. no wait, forget it": the changes `asked` (what
    the message said before taking it back) would have made, said as left undone ("I
    won't book the eye exam"); None when it asked for no change."""
    timezone = request.customer.timezone if request.customer else "UTC"
    parts: list[str] = []
    for intent in detect_intents(asked, request.now, timezone):
        wording = _NOT_DONE.get(intent.kind)
        if wording is None or not intent.writes:
            continue
        if intent.kind == "book_appointment":
            service = str(intent.arguments.get("service") or "").lower()
            thing = f"the {service}" if service else "anything"
        elif intent.kind == "add_task":
            title = str(intent.arguments.get("title") or "")
            thing = f'the task "{title}"' if title else "a task"
        else:
            phrase = intent.target.phrase if intent.target is not None else ""
            # ("cancel cleaning pls. actually dont": "your cleaning", not "cleaning please")
            phrase = _POLITE_END.sub("", phrase)
            # ("I was going to ask you to cancel the haircut but never mind": not "your
            # haircut but")
            phrase = _JOINER_END.sub("", phrase)
            if phrase and not _A_DETERMINER.match(phrase):
                phrase = f"your {phrase}"
            thing = re.sub(r"^(?:my|the)\b", "your", phrase) if phrase else "it"
        parts.append(wording.format(thing=thing))
    if not parts:
        return None
    return " and ".join(dict.fromkeys(parts))


_MORE = "Is there anything else I can do?"
# "keep the haircut", "leave my cleaning": a visit named as kept.
_KEPT = rx(r"\b(?:keep|leave) (?:the|my) (?P<what>[a-z][a-z ]*?)(?: then| please| as it is)?\W*$")


def _kept_named(text: str) -> str | None:
    """The visit a "never mind" keeps by name ("keep the haircut"), as the CRM names it."""
    said = _KEPT.search(normalize(text).text)
    if said is None:
        return None
    named = service(said.group("what"), said.group("what"))
    return str(named).lower() if named else None


_DONE_LEAD = rx(r"^(?:done|all done|all set)[.!]\s*")


def _said_again(request: PlanRequest, last: str) -> str:
    """ "sorry it's noisy here, what did you say?": the last answer, said again; one that
    told of a change then, told as it stands now (said as it was, it would claim the
    change was made again)."""
    writes = {tool.name for tool in request.tools if tool.effect != "read"}
    state = request.dialogue
    earlier = {str(entry.get("tool")) for entry in state.done}
    if claims.unbacked_claim(last, (), writes, earlier=earlier) is not None:
        timezone = request.customer.timezone if request.customer else None
        last = last_write.told(state, local_now(request.now, timezone))
    return last


def _last_answer(request: PlanRequest) -> str | None:
    """The last answer the customer was given in this conversation, if any."""
    for message in reversed(request.conversation):
        if isinstance(message, AssistantTurn) and message.kind == "answer" and message.text:
            # ("Done." was said of that turn's change: said again, it would claim one now)
            return _DONE_LEAD.sub("", message.text) or None
    return None


def _already_on_file(request: PlanRequest, intents: Sequence[Intent]) -> str | None:
    """ "my phone is the same right, it's 415 555 0101": a change of contact details to
    what the profile read in this conversation already holds, said as on file (it was
    asked "Are you sure you want to change your phone number to" the same number); None
    when anything else is asked, or the profile was not read."""
    if not intents or any(i.kind != "update_contact" for i in intents):
        return None
    profile: dict[str, Any] | None = None
    for message in request.conversation:
        if not isinstance(message, ToolExchange):
            continue
        for result in message.results:
            if (read := as_asked.last_profile([result])) is not None:
                profile = dict(read)
            elif result.ok and result.call.tool_name == as_asked.CONTACT_CHANGE and profile:
                profile.update(result.call.arguments)  # as it is on file since
    if profile is None:
        return None
    said: list[str] = []
    for intent in intents:
        for key, value in intent.arguments.items():
            if key not in ("phone", "email") or not value or profile.get(key) != value:
                return None
            said.append(
                f"{speech_phone(str(value))} is already the phone number on file"
                if key == "phone"
                else f"{value} is already the email on file"
            )
    if not said:
        return None
    return f"{join_and(said)}, so there's nothing to change. {_MORE}"


def _today(request: PlanRequest) -> date:
    """Today in the customer's timezone."""
    return local_now(request.now, request.customer.timezone if request.customer else None).date()


def _confirmed_rounds(request: PlanRequest) -> int:
    """How many results the turn began with that ran on the customer's yes (0 or more).

    Only a yes runs held calls without planning: a turn whose every result so far is a
    call of a tool that was held, all of round 1, began with one ("yes, and also…")."""
    held = request.dialogue.held
    results = request.turn_results
    if not held or not results or results[0].call.tool_name not in held:
        return 0
    count = 0
    for result in results:
        if result.round != 1 or result.call.tool_name not in held:
            break
        count += 1
    return count if request.round > 1 else 0


# "yes, cancel both": every call that was held, which the yes just ran.
_ALL_HELD = frozenset({"both", "them", "them both", "both of them", "all", "all of them"})


_CANCEL_SAID = rx(r"(?i)\bcancel")
# "them", "those", "each of them": several things the conversation put in view; said in a
# few words of their own ("delete each of them"), nothing else names them.
_FEW_WORDS = 6
_THEM = rx(r"\b(?:them|those|these)\b")
_WHICH_OF_THEM = {
    "delete_task": "Which tasks would you like me to delete?",
    "complete_task": "Which tasks would you like me to mark done?",
    "update_task": "Which tasks would you like me to change?",
    "cancel_appointment": "Which appointments would you like me to cancel?",
    "reschedule_appointment": "Which appointments would you like me to move?",
}


def _them_unseen(intents: Sequence[Intent], state: Dialogue, said: str) -> str | None:
    """ "delete each of them", "cancel both of them" with nothing in view (nothing listed,
    nothing done or named before): which are meant is asked, never all of them guessed
    (was: "I couldn't find a task matching 'them'", then all three held for a yes)."""
    if len(intents) != 1 or (target := intents[0].target) is None:
        return None
    if _THEM.search(target.phrase) is None or not set(target.words) <= {"them"}:
        return None  # ("cancel them both" with two booked: those two, asked about)
    if len(said.split()) > _FEW_WORDS or "," in said.rstrip(", ."):
        return None  # ("the groceries aren't urgent, set them to low": named before it)
    if state.listed or state.earlier_listed or state.focus or state.last_turn_actions:
        return None
    return _WHICH_OF_THEM.get(intents[0].kind)


def _done_by_yes(intent: Intent, done: Sequence[ToolResult], state: Dialogue) -> bool:
    """The intent asks what the yes just ran: "yes, delete it" (not "yes, and delete the
    groceries one too", which is another item and is asked about in its turn)."""
    ran = [result for result in done if result.call.tool_name == intent.tool]
    if not ran:
        return False
    if intent.tool == "crm.updateContactInfo":
        # "yes and also update my email to …": another detail, not the one the yes wrote.
        return any(
            all(result.call.arguments.get(key) == value for key, value in intent.arguments.items())
            for result in ran
        )
    target = intent.target
    if target is None or target.vague or target.phrase.lower() in _ALL_HELD:
        return True
    for result in ran:
        item_id = next(iter(result.call.arguments.values()), None)
        if target.item_id is not None and target.item_id == item_id:
            return True
        item = _known_item(state, item_id)
        label = str((item or {}).get("title") or (item or {}).get("service") or "").lower()
        if label and all(word in label for word in target.words):
            return True
    return False


def _known_item(state: Dialogue, item_id: object) -> dict[str, Any] | None:
    known = [state.focus] if state.focus is not None else []
    return next((i for i in (*known, *state.listed) if i.get("id") == item_id), None)


def _hashable(
    reads: list[tuple[str, dict[str, Any]]],
) -> list[tuple[str, tuple[tuple[str, Any], ...]]]:
    """Reads as keys, so that two questions needing the same list read it once."""
    return [(tool, tuple(sorted(arguments.items()))) for tool, arguments in reads]


def _key(tool: str, arguments: dict[str, Any]) -> tuple[str, str]:
    return tool, repr(sorted(arguments.items()))


# The listing that shows whether an item a write did not find is still there.
_LISTING_OF = {"task_id": "crm.listTasks", "appointment_id": "crm.listUpcomingAppointments"}


def _listed_again(request: PlanRequest) -> Decision | None:
    """The listing again, after a write of this turn was refused as not found (the CRM
    no longer knows the item by the id its listing gave), unless listed since."""
    results = request.turn_results
    for index, result in enumerate(results):
        if result.ok or result.error is None or result.error.code != "not_found":
            continue
        for key, listing in _LISTING_OF.items():
            if key not in result.call.arguments:
                continue
            if any(r.call.tool_name == listing for r in results[index + 1 :]):
                return None
            arguments = {"status": "all"} if listing == "crm.listTasks" else {}
            return ToolCallsDecision(calls=(EmbeddedPlanner._call(request, 0, listing, arguments),))
    return None


class EmbeddedPlanner:
    """Deterministic planner (implements `Planner`)."""

    # Its writes are the customer's words read by the grammar, times and numbers as
    # said: the engine's comparison with the words (assistant/as_said.py) is for models.
    reads_the_words = True

    async def decide(self, request: PlanRequest) -> Decision:
        return self.plan(request)

    def plan(self, request: PlanRequest) -> Decision:
        """The decision, synchronously (the grammar never waits on anything)."""
        with one_decision:  # (a text read the same way by several readers: read once)
            return self._decided(request)

    def _decided(self, request: PlanRequest) -> Decision:
        if request.dialogue.failed and not retries.decided_here(request):
            # A take-back waiting for its change to land is looked at again beside any
            # other request (retries.py `beside_another`).
            if (after := retries.after_the_last(request)) is not None:
                return after
            own = retries.without_looks(request)  # (the lookups added are not the planner's)
            return retries.beside_another(request, self._plan(own))
        return self._plan(request)

    def _plan(self, request: PlanRequest) -> Decision:
        said = request.user_message
        if request.turn_results and (relisted := _listed_again(request)) is not None:
            # A change refused as not found, of an item a listing gave: listed afresh, so
            # that the answer says whether it is still there (an id that changed) or gone.
            return relisted
        if not (request.dialogue.failed and retries.again_of_failed(request.dialogue, said)):
            # ("can you add it again please" after an add that failed is kept as said: read
            # as meant it was "can you add it", of nothing named)
            request = _as_meant(request)
        state = request.dialogue
        # The customer's own clock, for the answers told from the changes made so far.
        now = local_now(request.now, request.customer.timezone if request.customer else None)
        if request.round <= 1 and (was := last_write.before_told(state, now, request.user_message)):
            return FinalDecision(text=was)  # "what did you change it from?"
        if (hour_asked := same_hour_asked(request)) is not None:
            return hour_asked  # "same as before" to "What time on Saturday works for you?"
        if (
            state.failed
            or state.done
            or (request.round <= 1 and retries.about_that(request.user_message))
            or retries.reading_again(request)
        ) and (after := retries.decide(request)) is not None:
            # "did that go through?", "try again": told from the CRM (or that nothing
            # was changed yet, when no write was made in this conversation).
            return after
        if (
            request.round <= 1
            and (number := last_write.case_number(state, request.user_message)) is not None
        ):
            return FinalDecision(text=number)  # "what's its number?" after a case was opened
        if request.round <= 1 and (new_one := last_write.new_one(state, now, request.user_message)):
            return FinalDecision(text=new_one)  # "what time is the new haircut again?"
        if request.round <= 1 and (
            last_write.asked(request.user_message)
            or last_write.checked(state, request.user_message)
        ):
            # "what time did you put it at?": the change just made, said again.
            return FinalDecision(text=last_write.told(state, now, request.user_message))
        timezone = request.customer.timezone if request.customer else "UTC"
        if (
            request.round <= 1
            and request.dialogue.question
            and (
                back := which_asked_back(
                    request.dialogue, said, local_now(request.now, timezone), zone_of(timezone)
                )
            )
        ):
            # "which is earlier?" to "which one should I move?": told, and asked again.
            return FinalDecision(text=back)
        confirmed = _confirmed_rounds(request)
        first = request.round <= 1 + confirmed and len(request.turn_results) == confirmed
        if (
            not confirmed
            and (dated := anchored.read_days(request)) is not None
            # "call me the day before my haircut": what no tool does, whatever the day.
            and not (first and limits.cannot_do(request.user_message))
        ):
            # "…the day after my haircut": the day counted from that visit (looked up first).
            if not isinstance(dated, PlanRequest):
                return dated
            if not first and (booked := anchored.booked_right_after(request, dated)) is not None:
                # "book a massage friday at 3 and a facial right after": the facial when
                # the massage booked this turn ends (before, its hour was asked).
                return ToolCallsDecision(calls=(booked,))
            request, first = dated, first or anchored.looked_up_only(dated)
        if not confirmed and (by_bill := bill_anchored.read_days(request)) is not None:
            # "…two days before my bill is due": the day counted from the bill (read first).
            if not isinstance(by_bill, PlanRequest):
                return by_bill
            request, first = by_bill, first or bill_anchored.looked_up_only(by_bill)
        if not confirmed and (by_task := task_anchored.read_days(request)) is not None:
            # "…due the same day as the car insurance": the day counted from that task.
            if not isinstance(by_task, PlanRequest):
                return by_task
            request, first = by_task, first or task_anchored.looked_up_only(by_task)
        if not confirmed and (again := added_again.read_added_again(request)) is not None:
            # "I can't mark a task as not done…" → "ok add it to my list again": that to-do.
            if not isinstance(again, PlanRequest):
                return again
            request, first = again, first or added_again.looked_up_only(again)
        if not confirmed and (as_before := as_it_was.read_as_it_was(request)) is not None:
            # "yes, same time as it was" to "When would you like your haircut?" just after
            # it was cancelled: the time it had
            request = as_before
        if not confirmed and (again := last_visit.read_last_visit(request)) is not None:
            # "book me the same as my last visit…": that visit's service (looked up first).
            if not isinstance(again, PlanRequest):
                return again
            request, first = again, first or last_visit.looked_up_only(again)
        if first and (early := self._before_reading(request)) is not None:
            return early
        if first and not confirmed and (cut := cut_off.question(request.user_message)):
            # "can you push my": nothing named after the verb, whatever the grammar would
            # make of the verb alone ("push my" was a move of nothing, asked when; the next
            # message, "cleaning to friday", was then read as a booking)
            return FinalDecision(text=cut)
        if first and (
            which := which_kind.asked(
                request.dialogue, normalize(request.user_message).text, zone_of(timezone)
            )
        ):
            # "move the second one to friday" after the visits and the to-dos were read out
            # together: which of the two, asked (was: the second to-do's due day moved)
            return FinalDecision(text=which)
        if (
            first
            and not confirmed
            and (seen := visit_then_when.looked_up_first(request, request.now, timezone))
        ):
            # "cleaning thursday 10am" said cold: the visits looked up first, for it may
            # move the one there is (it booked a second cleaning)
            return seen
        # (the visits read for it: a booking still is one of the first round; the move
        # it became is asked by the narrator)
        looked_first = not confirmed and visit_then_when.looked_up_only(request)
        pinned = references.follow_up(request.dialogue, request.user_message, request.now, timezone)
        intents = references.read_intents(
            request.conversation, request.user_message, request.now, timezone, request.dialogue
        )
        if looked_first and not any(i.missing for i in intents):
            first = True
        if (
            first
            and pinned is None
            and (which := _them_unseen(intents, request.dialogue, request.user_message))
        ):
            return FinalDecision(text=which)
        if confirmed:
            # "yes, and also add…": the yes ran what was held; the rest is new.
            done = request.turn_results[:confirmed]
            intents = [i for i in intents if not _done_by_yes(i, done, request.dialogue)]
            pinned = None
            if not intents:
                return FinalDecision(text="")  # the narrator tells what the yes did
        # After a yes, a question goes through the narrator, which also tells what the
        # yes did (a question's own answer would leave that unsaid).
        # A case asked after by what it was about is one question, though said in two
        # clauses ("that portal thing I reported, is it fixed?", "…about my invoice").
        one_question = (
            len(intents) <= 1
            or questions.may_ask_after_case(request.user_message)
            or {i.kind for i in intents} == {"appointments"}
            # "what's the bill for my last visit": a bill and a visit named, one question
            or (len(intents) == 2 and questions.asks_last_visits_cost(request.user_message))
            # "when was my last haircut and what did it cost": when, and what it came to
            or (len(intents) == 2 and questions.asks_when_and_cost(request.user_message))
        )
        if (
            pinned is None
            and not confirmed
            and " and " in request.user_message
            and not any(intent.writes for intent in intents)
            and (joined := questions.read_joined(request.user_message, request.dialogue))
        ):
            # "what time is the cleaning and where is it?": both of that one visit.
            return self._question(request, joined, first, unheard_in(intents))
        if (
            pinned is None
            and not confirmed
            and not any(intent.writes for intent in intents)
            and (both := questions.read_same_place(request.user_message, request.dialogue))
        ):
            # "is that at the same place as my cleaning?": where each of the two is
            return self._question(request, both, first, [])
        if (
            pinned is None
            and not confirmed
            and one_question
            and not any(intent.writes for intent in intents)
        ):
            asked = questions.read_question(
                # "what time is my current one?": of the visit talked about, as read above
                current_one_named(request.conversation, request.user_message, request.dialogue),
                request.dialogue,
                request.conversation,
            )
            # "the checkup at the third street clinic, what date was that": one question,
            # though said in two clauses.
            if asked is not None and (
                len(intents) <= 1
                or asked.aspect == "named_case"
                or asked.place
                or (asked.aspect == "cost" and asked.subject == questions.LAST_VISIT)
                or asked.aspect == "last_cost"
                # "and the dentist, is that still on": one question of one visit, yes or no
                or asked.aspect in questions.ONE_ANSWER
            ):
                return self._question(request, asked, first, unheard_in(intents))
        if (
            first
            and not confirmed
            and any(intent.writes for intent in intents)
            and only_asking(request.user_message)
        ):
            # "could I move it to saturday if I wanted to? don't do it, I'm just asking"
            return FinalDecision(text=ONLY_ASKED)
        if (
            first
            and not confirmed
            and topic.detail_kept(request.user_message)
            and any(tool.name == "crm.getCustomerProfile" for tool in request.tools)
        ):
            # "and my phone number is still the same one, yeah?": read, never changed
            call = self._call(request, 0, "crm.getCustomerProfile", {})
            return ToolCallsDecision(calls=(call,), last_round=True)
        if first and (same := _already_on_file(request, intents)) is not None:
            return FinalDecision(text=same)  # "my phone is the same right, it's …0101"
        if first:
            return self._first_round(request, intents, said)
        return self._next_round(request, intents, timezone)

    def _ask_again(self, request: PlanRequest, text: str) -> str | None:
        """The assistant's open question again, for a reply that does not answer it."""
        timezone = request.customer.timezone if request.customer else "UTC"
        lacking = unanswered(request.conversation, request.now, timezone)
        question = replies.clarification(lacking, _today(request)) if lacking else None
        if lacking is None or question is None:
            return None
        return replies.asked_again(lacking, question, text)

    def _before_reading(self, request: PlanRequest) -> Decision | None:
        """Answers that come before the grammar: an accepted case, help, what can't be done."""
        text = request.user_message
        if half_heard(text):
            # "sorry what? the 21st?" just after the due day was set: the answer said
            # again, not the day put right (on another day it moved the due day a month);
            # with no answer to say again, nothing is read into it either.
            last = _last_answer(request)
            if last is None:
                return FinalDecision(text=replies.chat_reply("repeat", request.customer))
            return FinalDecision(text=_said_again(request, last))
        if (pauses(text) or only_hesitates(text)) and (
            again := self._ask_again(request, text)
        ) is not None:
            timezone = request.customer.timezone if request.customer else "UTC"
            if not any(i.writes for i in detect_intents(text, request.now, timezone)):
                # "hmm hang on, let me check my calendar" while a time is asked: the
                # customer checks (their calendar is not a lookup of ours); asked again.
                return FinalDecision(text=again)
        if (asked := what_was_taken_back(text)) is not None:
            # "cancel my haircut, oh wait, no, actually don't": what is left as it was.
            left = _left_as_it_was(asked, request)
            return FinalDecision(text=_not_done(left) if left else TAKEN_BACK)
        if (both := two_cases(text)) is not None and (cases := self._two_cases(request, *both)):
            return ToolCallsDecision(calls=cases)
        about = references.case_asked(text)
        done = request.dialogue.done
        if about is None and done and done[-1].get("tool") == "crm.createTicket":
            about = another_case(text)  # "and another one, the office billed me twice"
            told = None if about else detail_of_case(done[-1], text)
            if told is not None and not self._asks_a_change(request, text):
                return FinalDecision(text=told)  # "and it was for the cleaning"
        if about is None and references.describes_case(request.dialogue, text):
            about = text
        if about is None and case_about_it(text):
            # "can you refund my haircut, it was awful" → "then open a complaint about it"
            about = said_before(request.conversation)
        if about is None and (told := complaint_told(text)) is not None:
            about = told  # "I want to file a complaint. The front desk was rude to me."
        if references.complaint_opened(text):
            return FinalDecision(text=references.ASK_WHAT_HAPPENED)
        if about is not None or self._accepts_offer(request, text):
            case = references.offered_case(request.dialogue, about)
            calls = [self._call(request, 0, "crm.createTicket", case)]
            if about is None and (rest := request_after_yes(text)) is not None:
                # "yes please, and what's the balance": the yes opens the case; what is
                # asked after it is looked up too (reads only: a write is never inferred).
                timezone = request.customer.timezone if request.customer else "UTC"
                reads = [i for i in detect_intents(rest, request.now, timezone) if not i.writes]
                for intent in reads:
                    calls.append(
                        self._call(request, len(calls), intent.tool, dict(intent.arguments))
                    )
            return ToolCallsDecision(calls=tuple(calls))
        if (
            due := topic.due_again(text, request.dialogue)
            or topic.opened_when(text, request.dialogue)
        ) is not None and any(tool.name == due for tool in request.tools):
            return ToolCallsDecision(calls=(self._call(request, 0, due, {}),), last_round=True)
        if (undone := references.undo_reply(request.dialogue, text)) is not None:
            return FinalDecision(text=undone)
        if isinstance(cannot := references.undo(request.dialogue, normalize(text).text), str):
            return FinalDecision(text=cannot)  # a cancel or delete cannot be undone
        if asks_how_to(text):
            if "pay" in text.lower() and unsupported(text):
                return FinalDecision(text=CANNOT_PAY)  # "how do I pay the dental bill?"
            if _CONTACT_HOW.search(text):
                # "how do I go about changing my phone number": how, for that (was the
                # examples of every ask)
                return FinalDecision(text=HOW_TO_CONTACT)
            return FinalDecision(text=replies.chat_reply("how_to", request.customer))
        timezone = request.customer.timezone if request.customer else "UTC"

        def asks_a_change(said: str) -> bool:
            return any(intent.writes for intent in detect_intents(said, request.now, timezone))

        dialogue = request.dialogue
        just_opened = bool(dialogue.done) and dialogue.done[-1].get("tool") == "crm.createTicket"
        # (the cases read out with the bill after them, "did anyone look at my case about the
        # invoice": still in view)
        cases_in_view = dialogue.listed_kind == "ticket" or (
            dialogue.listed_kind in (None, "invoice") and _cases_told_last(request.conversation)
        )
        if (just_opened or cases_in_view) and (
            changed := limits.case_in_view_changed(text, just_opened or cases_in_view, just_opened)
        ) is not None:
            # "and add that it was for the haircut", just after the case was opened
            return FinalDecision(text=changed)
        if (here := made_here(text)) is not None:
            return FinalDecision(text=here)  # "can I cancel online?": it can be done here
        if (
            (call := call_asked(text)) is not None
            and not _asked_last(request.conversation)
            and not asks_a_change(text)
        ):
            # "call the pharmacy for me": no call is placed, and a to-do to make it offered
            # (not an answer to "What should the task say?")
            return FinalDecision(text=call)
        if (plainly := limits.cannot_do(text, asks_a_change)) is not None:
            if limits.met_beside_a_read(text) is not None and _only_reads_asked(
                detect_intents(text, request.now, timezone)
            ):
                # "my case about the invoice, any update? if not please escalate it": the
                # lookup is made and told, and what no tool does said after it (narrator).
                return None
            done = request.dialogue.done
            if (
                plainly.startswith(limits.NOTES)
                and done
                and done[-1].get("tool") == "crm.createTicket"
            ):
                plainly = limits.NOTES_ON_A_CASE  # "add a note to it" after a case was opened
            return FinalDecision(text=plainly)
        return None

    def _two_cases(self, request: PlanRequest, first: str, second: str) -> tuple[ToolCall, ...]:
        """ "open a case: X. And another one, Y": the case X asks for, and one about Y
        (none unless the first part alone opens a case)."""
        timezone = request.customer.timezone if request.customer else "UTC"
        asked = detect_intents(first, request.now, timezone)
        if len(asked) != 1 or asked[0].kind != "create_ticket" or asked[0].missing:
            return ()
        other = references.offered_case(request.dialogue, second)
        return (
            self._call(request, 0, "crm.createTicket", dict(asked[0].arguments)),
            self._call(request, 1, "crm.createTicket", other),
        )

    @staticmethod
    def _asks_a_change(request: PlanRequest, text: str) -> bool:
        """The message asks for a write of its own ("and it's the haircut, cancel it")."""
        timezone = request.customer.timezone if request.customer else "UTC"
        return any(intent.writes for intent in detect_intents(text, request.now, timezone))

    @staticmethod
    def _accepts_offer(request: PlanRequest, text: str) -> bool:
        """A yes to the offered case, unless what follows it asks for another change
        ("ok, can you at least update my mobile then…"): that is not a yes to the case."""
        if not references.accepts_offer(request.dialogue, text):
            return False
        said = normalize(text).text
        if _ACK_THEN_ASK.match(said):
            return False  # "ok. what email do you have": moving on, not a yes to the case
        if _CHANGE_AFTER_YES.search(said) is not None:
            return False  # "yes cancel it": a yes to another change, said of what is in view
        rest = request_after_yes(text)
        if rest is None:
            return True
        timezone = request.customer.timezone if request.customer else "UTC"
        return not any(
            intent.writes and intent.kind != "create_ticket"
            for intent in detect_intents(rest, request.now, timezone)
        )

    def _question(
        self,
        request: PlanRequest,
        asked: questions.Question | tuple[questions.Question, ...],
        first: bool,
        unheard: list[str],
    ) -> Decision:
        """A qualified question (or two of one thing): its lookups first, then the answer
        from them (a visit not coming up is looked for in the past too, before "none")."""
        each = asked if isinstance(asked, tuple) else (asked,)
        reads = list(dict.fromkeys(read for q in each for read in _hashable(questions.lookups(q))))
        available = {tool.name for tool in request.tools}
        if first and reads:
            calls = [
                self._call(request, index, tool, dict(arguments))
                for index, (tool, arguments) in enumerate(reads)
                if tool in available
            ]
            if calls:
                return ToolCallsDecision(calls=tuple(calls))
        if (
            len(each) == 1
            and questions.needs_history(each[0], request.turn_results)
            and "crm.listAppointments" in available
        ):
            call = self._call(request, 0, "crm.listAppointments", {"status": "all"})
            return ToolCallsDecision(calls=(call,))
        now = local_now(request.now, request.customer.timezone if request.customer else None)
        answers = [questions.answer(q, request.turn_results, now) for q in each]
        text = " ".join(a for a in answers if a) if all(answers) else None
        if text and unheard:
            # "when's my haircut and can you do my taxes too": the rest said not understood
            text = " ".join([text, *said_not_understood(unheard)])
        if text and asks_to_pay_beside(normalize(request.user_message).text):
            # "my last haircut was terrible, I want a refund": the visit told, and the
            # refund not given said so (was: the refund passed over in silence)
            text = f"{text} {replies.CANNOT_PAY_TOO}"
        return FinalDecision(text=text or "")

    def _first_round(self, request: PlanRequest, intents: list[Intent], said: str) -> Decision:
        text = request.user_message
        if (
            (kept := detail_kept(normalize(text).text)) is not None
            and all(i.kind in ("profile", "update_contact") for i in intents)
            and "?" not in text
        ):
            # "I got a new phone, same number though": the detail on file stays, so there
            # is nothing to change (before, the new number was asked for).
            return FinalDecision(text=replies.kept_detail(kept))
        if not intents:
            timezone = request.customer.timezone if request.customer else "UTC"
            zone = zone_of(timezone)
            if (asked := move_question(request.dialogue, text, request.now, zone)) is not None:
                return FinalDecision(text=asked)  # "three o clock" just after a booking
            if (wanted := what_for(text, local_now(request.now, timezone))) is not None:
                return FinalDecision(text=wanted)  # "friday at 3pm", with nothing asked
            if is_negative(text) and (len(text.split()) <= 4 or _KEPT_AS_IT_IS.search(text)):
                # "book a haircut friday at 3. actually, undo that": what was not done.
                sentences = _SENTENCE_END.split(said.strip())
                asked = what_was_taken_back(said) or ". ".join(sentences[:-1])
                if said != text and asked and (left := _left_as_it_was(asked, request)):
                    return FinalDecision(text=_not_done(left))
                return FinalDecision(text="Okay, no problem. Is there anything else I can do?")
            if unsupported(text):
                return FinalDecision(text=CANNOT_PAY)
            listing = held_back_read(text)
            if listing is not None and any(tool.name == listing for tool in request.tools):
                call = self._call(request, 0, listing, {})
                return ToolCallsDecision(calls=(call,), last_round=True)
            again = topic.listing_again(text, request.dialogue)
            if again is not None and any(tool.name == again for tool in request.tools):
                # "ok what have I got now": the topic in view, read again.
                call = self._call(request, 0, again, {})
                return ToolCallsDecision(calls=(call,), last_round=True)
            if (
                "mine" in text.lower()
                and _MINE_ASKED.search(normalize(text).text)
                and (own := _own_of_others_asked(request.conversation)) is not None
                and any(tool.name == own for tool in request.tools)
            ):
                # "when is my husband's next appointment?" → (only her own is seen) →
                # "what about mine then?": the same, of her own account.
                call = self._call(request, 0, own, {})
                return ToolCallsDecision(calls=(call,), last_round=True)
            if (
                "mine" in text.lower()
                and _MINE_ASKED.search(normalize(text).text)
                and _last_answer_named_details(request.conversation)
                and any(tool.name == "crm.getCustomerProfile" for tool in request.tools)
            ):
                # "my wife's email…" → (her detail is not changed) → "what about mine, what
                # is it?": the customer's own details on file, read out.
                call = self._call(request, 0, "crm.getCustomerProfile", {})
                return ToolCallsDecision(calls=(call,), last_round=True)
            if _only_what_not_to_do(text):
                # "don't move my haircut to saturday": nothing to do, and that is the answer
                # (before, "I can't help with that" read as a refusal of something asked).
                return FinalDecision(text=LEFT_AS_IT_IS)
            if vents(said_n := normalize(text).text):
                return FinalDecision(text=VENTED)
            if hypothetical(said_n):
                # ("maybe I should mark the groceries done", "if I deleted the eye exam task
                # could I get it back?": no fee was asked about)
                if asks_advice(said_n) and not _FEE_ASKED.search(said_n):
                    return FinalDecision(text=YOUR_CALL)
                if not _FEE_ASKED.search(said_n) and "happen" not in said_n:
                    return FinalDecision(text=ONLY_IF_ASKED)
                return FinalDecision(text=WHAT_IF)
            if (cut := cut_off.question(text)) is not None:
                return FinalDecision(text=cut)  # "can you move my": what, asked
            kind = classify_chat(text)
            if kind in ("unclear", "out_of_scope") and said != text:
                # "hi, I need to sort a few things out": greeted back, as said.
                kind = classify_chat(said)
            if (
                kind in ("unclear", "out_of_scope")
                and is_affirmative(text)
                and len(without_system_talk(text).split()) <= 4
            ):
                # A yes with nothing waiting for it ("delete…", "what's on my list?", "yes").
                return FinalDecision(
                    text=retries.nothing_held(
                        request.dialogue.done,
                        local_now(
                            request.now, request.customer.timezone if request.customer else None
                        ),
                    )
                    or NOTHING_HELD
                )
            if request.dialogue.held and kind in ("out_of_scope", "unclear"):
                # The message left a held action undone (the answer begins by saying so);
                # "I can't help with that" would read as a refusal of the action itself.
                return FinalDecision(text=AFTER_DROPPED)
            if kind in ("out_of_scope", "unclear") and (
                remark := talked_of.remark(
                    request.dialogue,
                    text,
                    local_now(request.now, request.customer.timezone if request.customer else None),
                )
            ):
                # "who told you to do that?", "the receptionist moved it yesterday": a change
                # talked of, not asked; answered from what was done (was "I can't help").
                return FinalDecision(text=remark)
            if kind in ("out_of_scope", "unclear") and (again := self._ask_again(request, text)):
                return FinalDecision(text=again)
            if kind in ("out_of_scope", "unclear") and (
                asks := _an_ask_not_understood(text, request)
            ):
                # "and tell the manager the music is too loud", said on its own: named as
                # not understood, as it is beside an ask that was ("can't help" reads as a
                # refusal of something understood).
                return FinalDecision(text=" ".join([*said_not_understood([asks]), replies.HELP]))
            if kind == "repeat" and (last := _last_answer(request)) is not None:
                return FinalDecision(text=_said_again(request, last))
            if kind == "never_mind" and (kept := _kept_named(text)) is not None:
                # "ok never mind, keep the haircut": what is kept, said back as kept.
                return FinalDecision(text=f"Okay, I'll leave your {kept} as it is. {_MORE}")
            return FinalDecision(text=replies.chat_reply(kind, request.customer))
        if not request.tools:
            return FinalDecision(text=replies.NO_ACCOUNT)
        available = {tool.name for tool in request.tools}
        calls: list[ToolCall] = []
        seen: set[tuple[str, str]] = set()
        question: str | None = None
        extra_lists = False  # a listing asked for in case it resolves a target
        for intent in intents:
            if intent.missing and not references.due_in_a_stretch(intent):
                opened = None
                if intent.kind == "create_ticket" and "problem" in intent.missing:
                    opened = references.already_opened(request.dialogue, intent.clause)
                question = (
                    question
                    or opened
                    # "book physio tuesday and friday": both hours asked at once
                    or replies.hours_question([i for i in intents if i.missing], _today(request))
                    or replies.of_the_service(
                        replies.clarification(intent, _today(request)), intent, intents
                    )
                )
                lookup = intent.lookup
                if (
                    intent.missing == ("consent",)
                    and lookup in available
                    and _key(lookup, {}) not in seen
                ):
                    # "if my dentist is before 10, cancel it": the one it would change is
                    # read out with the question, so the customer sees what the "if" is about.
                    seen.add(_key(lookup, {}))
                    calls.append(self._call(request, len(calls), lookup, {}))
                continue
            tool = intent.lookup or intent.tool
            arguments = {} if intent.lookup else dict(intent.arguments)
            if not intent.writes and not intent.lookup and intent.clause:
                # An ask about the past ("…and when was my last visit"): the history it
                # names, not what is open or coming up (only reads change).
                for past_tool, past_arguments in questions.history_reads(
                    intent.clause, request.dialogue, several=len(intents) > 1
                )[:1]:
                    tool, arguments = past_tool, dict(past_arguments)
            if tool in available and _key(tool, arguments) not in seen:
                seen.add(_key(tool, arguments))
                calls.append(self._call(request, len(calls), tool, arguments))
            elif tool not in available:
                continue
            # (also when an earlier part asked for the same listing: "cancel the cleaning
            # and push groceries to wednesday" looked among the visits alone, said it had
            # found no such appointment and left the to-do as it was)
            if (
                references.may_be_a_task(intent)
                and _key("crm.listTasks", {}) not in seen
                # ("move both a week later" just after the visits were read out: those)
                and not references.of_the_visits_in_view(intent, request.dialogue)
            ):
                extra_lists = True
                # "push the treatment plan review back to the 10th": maybe a task's due date.
                seen.add(_key("crm.listTasks", {}))
                calls.append(self._call(request, len(calls), "crm.listTasks", {}))
        if calls:
            # A question for a lacking slot is asked by the narrator after the results.
            # Lookups that only need telling end the planning: a later round would find
            # nothing to act on (only a target found in a listing is acted on).
            told_only = question is None and all(
                not intent.writes and not intent.needs_target and not intent.missing
                for intent in intents
            )
            return ToolCallsDecision.model_construct(
                calls=tuple(calls), last_round=told_only and not extra_lists
            )
        if question:
            timezone = request.customer.timezone if request.customer else "UTC"
            if any(i.missing[-1:] == ("consent",) for i in intents) and (
                why := anchored.said_from_its_end(
                    said,
                    request.turn_results,
                    request.dialogue,
                    local_now(request.now, timezone),
                    timezone,
                )
            ):
                # "book a facial two hours after my cleaning": the hour asked about, and
                # why it is that one (counted from the cleaning's end)
                question = f"{why} {question.removeprefix(_NOTHING_CHANGED_YET)}"
            return FinalDecision(text=question)
        return FinalDecision(text=f"Sorry, I can't do that here. {replies.HELP}")

    def _next_round(self, request: PlanRequest, intents: list[Intent], timezone: str) -> Decision:
        """Act on targets the listings resolve; otherwise let the narrator speak."""
        available = {tool.name for tool in request.tools}
        made = {_key(r.call.tool_name, dict(r.call.arguments)) for r in request.turn_results}
        calls: list[ToolCall] = []
        for intent in intents:
            if references.due_in_a_stretch(intent) and not references.booked_visit_named(
                intent, request.turn_results, timezone
            ):
                # A task's due day said as a stretch: a task only (a visit is asked when;
                # "the haircut can wait till next week", a haircut booked, is asked when).
                intent = references.as_task_due(intent)
                found = resolve_intent(intent, request.turn_results, timezone)
                if not isinstance(found, Match):
                    continue
                arguments = action_arguments(intent, found.item, timezone)
                if arguments is not None and _key(intent.tool, arguments) not in made:
                    made.add(_key(intent.tool, arguments))
                    calls.append(self._call(request, len(calls), intent.tool, arguments))
                continue
            if not intent.needs_target or intent.missing or intent.tool not in available:
                continue
            if references.booked_visit_named(intent, request.turn_results, timezone):
                # "the haircut one can wait until saturday", a haircut booked: a visit put
                # off is asked about, never moved on those words
                continue
            every = resolve_all(intent, request.turn_results, timezone)
            if every is not None:
                # All of them: one call each; destructive ones are confirmed together.
                for item in every:
                    arguments = action_arguments(intent, item, timezone)
                    if arguments is not None and _key(intent.tool, arguments) not in made:
                        made.add(_key(intent.tool, arguments))
                        calls.append(self._call(request, len(calls), intent.tool, arguments))
                continue
            since = changed_since(intent, resolve.listing(intent, request.turn_results), timezone)
            if since is not None:
                # "undo that" of a move, the visit moved again or cancelled since
                if sum(i.writes for i in intents) == 1:
                    return FinalDecision(text=since)
                continue
            resolution = resolve_intent(intent, request.turn_results, timezone)
            if not isinstance(resolution, Match) and references.may_be_a_task(intent):
                intent = references.as_task_due(intent)
                resolution = resolve_intent(intent, request.turn_results, timezone)
            if (
                isinstance(resolution, NoMatch)
                and references.let_go_of_a_task(intent)
                # ("cancel the eye exam", "cancel my eye exam and move my haircut to 4": a
                # visit meant, said so)
                and sum(i.writes for i in intents) == 1
                and _CANCEL_SAID.search(request.user_message) is None
            ):
                # "the eye exam is no longer needed", no eye exam booked: the to-do named
                # so ("Schedule eye exam") is deleted, asked first (was: the visits read out)
                if not any(r.call.tool_name == "crm.listTasks" for r in request.turn_results):
                    if _key("crm.listTasks", {}) not in made:
                        made.add(_key("crm.listTasks", {}))
                        calls.append(self._call(request, len(calls), "crm.listTasks", {}))
                    continue
                intent = Intent("delete_task", target=intent.target, clause=intent.clause)
                resolution = resolve_intent(intent, request.turn_results, timezone)
            if (
                isinstance(resolution, NoMatch)
                and sum(i.writes for i in intents) == 1
                and (visit := references.visit_let_go(intent, request.now, timezone))
            ):
                # "delete the haircut", no to-do named so: the haircut booked is cancelled,
                # asked first (was: "I couldn't find a task matching 'haircut'")
                listed = "crm.listUpcomingAppointments"
                if not any(r.call.tool_name == listed for r in request.turn_results):
                    if _key(listed, {}) not in made and listed in available:
                        made.add(_key(listed, {}))
                        calls.append(self._call(request, len(calls), listed, {}))
                    continue
                intent = visit
                resolution = resolve_intent(intent, request.turn_results, timezone)
            if not isinstance(resolution, Match):
                continue  # not found or not only one: the narrator says so and offers
            arguments = action_arguments(intent, resolution.item, timezone)
            if arguments is None or _key(intent.tool, arguments) in made:
                continue
            if intent.tool == "crm.updateTask" and already_as_asked(
                arguments, resolution.item, request.dialogue
            ):
                # Its day or level is already the one asked (said again, the answer not
                # heard): nothing sent; the narrator says it holds it.
                continue
            made.add(_key(intent.tool, arguments))
            calls.append(self._call(request, len(calls), intent.tool, arguments))
        if calls:
            return ToolCallsDecision(calls=tuple(calls))
        # Empty text: nothing more to do, the engine hands every result to the narrator.
        return FinalDecision(text="")

    @staticmethod
    def _call(request: PlanRequest, index: int, tool: str, arguments: dict[str, Any]) -> ToolCall:
        call_id = f"c_{request.round}_{index + 1}"
        if any(result.call.call_id == call_id for result in request.turn_results):
            # A call confirmed by a yes keeps the id it was planned with last turn; the
            # id keys the write's idempotency, so a new call must not reuse it.
            call_id += "_after_yes"
        # Built without validation (a third of a decision's pydantic work): the id and the
        # tool's name are strings made here, the arguments a fresh dict with the grammar's
        # string keys, as validation would copy it. tests/models/test_planner_construct.py
        # holds every decision over the kept phrasings equal to a validated one.
        return ToolCall.model_construct(call_id=call_id, tool_name=tool, arguments=dict(arguments))


def _asked_last(conversation: Sequence[Message]) -> bool:
    """Whether the assistant's last answer before the message asked something."""
    for message in reversed(conversation[:-1]):
        if isinstance(message, AssistantTurn) and message.kind == "answer":
            return message.text.rstrip().endswith("?")
        if isinstance(message, UserTurn):
            return False
    return False
