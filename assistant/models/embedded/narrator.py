"""The embedded narrator: one spoken answer for every result of a turn, streamed.

Results are spoken in the order requested, failures included. Around them: a
listing fetched only to find a target is not read out when the action it served
went through (or when a confirmation is asked instead); a target that was not found,
or not only one, is said so with what exists; a question is asked for anything the
request lacked; a pending confirmation's question comes last. Each piece streamed is
one sentence, so a voice can start speaking after the first.

A progressive answer comes in two parts (the engine asks for them when one call is
slow): first the results in so far and "I'm still checking your billing." (the
request's `waiting_on`), then, with every result, only what was not told yet (`told`)
and the closing questions, so that no sentence is said twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from assistant.language import Intent
from assistant.language.patterns import rx
from assistant.language.scope import asks_to_pay_beside
from assistant.models.embedded import (
    account,
    appointments,
    billing,
    limits,
    references,
    replies,
    tasks,
    unheard_places,
)
from assistant.models.embedded.anchored import counts_from_a_visit
from assistant.models.embedded.bill_anchored import counts_from_the_bill
from assistant.models.embedded.billing import nothing_owed_on_the_bill_named
from assistant.models.embedded.day_let_go import move_or_cancel_asked
from assistant.models.embedded.failures import failure
from assistant.models.embedded.last_visit import LOOKUP as LAST_VISIT_LOOKUP
from assistant.models.embedded.last_visit import says_last_visit
from assistant.models.embedded.retries import LOOK_AGAIN_ID, landed_after_all, not_there_yet
from assistant.models.embedded.scene import ACTION_OF, SYSTEM_OF, Item, Scene
from assistant.models.embedded.task_anchored import counts_from_a_task
from assistant.models.embedded.told_back import told_back
from assistant.models.embedded.undo import takes_back
from assistant.models.embedded.unheard import not_understood
from assistant.models.embedded.unheard_places import held_by_place
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.resolve import Match, NoMatch, action_arguments
from assistant.schema import NarratorInput, ToolResult
from assistant.speaking import split_sentences
from assistant.speech import join_and, lower_first, number
from assistant.write_memory import standing

Describer = Callable[[ToolResult, Scene], list[str]]

DESCRIBERS: dict[str, Describer] = {
    "crm.getCustomerProfile": account.profile,
    "crm.updateContactInfo": account.contact_updated,
    "crm.listUpcomingAppointments": appointments.listing,
    "crm.getNextAppointment": appointments.next_one,
    "crm.bookAppointment": appointments.booked,
    "crm.rescheduleAppointment": appointments.rescheduled,
    "crm.cancelAppointment": appointments.cancelled,
    "crm.getOpenInvoices": billing.open_invoices,
    "crm.listTasks": tasks.listing,
    "crm.addTask": tasks.added,
    "crm.completeTask": tasks.completed,
    "crm.updateTask": tasks.updated,
    "crm.deleteTask": tasks.deleted,
    "crm.listOpenTickets": account.tickets,
    "crm.createTicket": account.ticket_created,
    "crm.listAppointments": appointments.by_status,
    "crm.listInvoices": billing.by_status,
    "crm.listTickets": account.tickets_by_status,
}
_DESTRUCTIVE = frozenset({"crm.deleteTask", "crm.cancelAppointment"})


def _describe(result: ToolResult, scene: Scene) -> list[str]:
    if not result.ok:
        return failure(result, scene)
    describer = DESCRIBERS.get(result.call.tool_name)
    if describer is None or not isinstance(result.result, dict):
        return []
    try:
        if (told := told_back(result, scene)) is not None:
            return told  # "i already cancelled it online": how the CRM has it
        return describer(result, scene)
    except (KeyError, TypeError, ValueError, AttributeError):
        # A result of an unexpected shape: say it worked rather than fail the answer.
        return ["That's done."]


def _lookup_tools(intent: Intent) -> frozenset[str]:
    if intent.lookup == "crm.listTasks":  # (a to-do named to be added again too)
        return frozenset({"crm.listTasks"})
    return frozenset({"crm.listUpcomingAppointments", "crm.getNextAppointment"})


def _quiet_listings(scene: Scene, confirming: bool) -> set[int]:
    """Indexes of results fetched only to find a target, and not worth reading out."""
    asked = {intent.tool for intent in scene.intents if not intent.writes}
    quiet: set[int] = set()
    for intent in scene.intents:
        if not intent.needs_target:
            continue
        actions = [r for r in scene.results if r.call.tool_name == intent.tool]
        acted = any(r.ok for r in actions)
        failed = bool(actions) and not acted
        unresolved = (
            not actions and not confirming and not isinstance(scene.resolution(intent), Match)
        )
        unsure = failed and any(r.error is not None and r.error.unconfirmed for r in actions)
        if failed and not unsure:
            continue  # the action was refused: what the listing shows still helps
        # (one the CRM did not confirm may have landed: the listing read before it may no
        # longer hold, "You have … a haircut on Sunday at 2:30 PM" of a haircut moved)
        held = (
            not actions
            and intent.tool == "crm.updateTask"
            and isinstance(found := scene.resolution(intent), Match)
            and _held_already(intent, found.item, scene) is not None
        )
        if acted or unsure or confirming or unresolved or held:
            for index, result in enumerate(scene.results):
                tool = result.call.tool_name
                if result.ok and tool in _lookup_tools(intent) and tool not in asked:
                    quiet.add(index)
    if not any(intent.kind in _APPOINTMENT_KINDS for intent in scene.intents):
        # Appointments looked at only in case a move was about one; it was a task.
        for index, result in enumerate(scene.results):
            if result.call.tool_name == "crm.listUpcomingAppointments" and any(
                r.ok and r.call.tool_name == "crm.updateTask" for r in scene.results
            ):
                quiet.add(index)
    if "crm.listTasks" not in asked and any(
        r.ok and r.call.tool_name in ("crm.updateTask", "crm.addTask") for r in scene.results
    ):
        # "when is my haircut?" → "put the call on the day before that", "…just ask me to
        # add it to your list again." → "ok add it to my list again": the to-dos read only
        # to find the one changed or added again (none asked to be read) are not read out.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name == "crm.listTasks"
        )
    if tasks.completion_tells_the_rest(scene):
        # "I picked up the groceries, what else do I need to do?": the list was read
        # before the groceries were done; read out, it would still name them.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name == "crm.listTasks"
        )
    if counts_from_a_visit(scene.said) and not asked & _APPOINTMENT_READS:
        # "…the day after my haircut": the visits were read only to count the day from.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name == "crm.listUpcomingAppointments"
        )
    # The same list read twice in a turn (once to count a day from, once as asked) is told
    # once: the last reading.
    last_read: dict[tuple[str, str], int] = {}
    for index, result in enumerate(scene.results):
        if result.ok and result.call.tool_name not in WRITE_TOOLS:
            key = (result.call.tool_name, repr(sorted(result.call.arguments.items())))
            if key in last_read:
                quiet.add(last_read[key])
            last_read[key] = index
    if "crm.getOpenInvoices" not in asked and counts_from_the_bill(scene.said):
        # "…two days before my bill is due": the bills were read only to count from.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name == "crm.getOpenInvoices"
        )
    if "crm.listTasks" not in asked and counts_from_a_task(scene.said):
        # "…due the same day as the car insurance": the tasks were read only to count from.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name == "crm.listTasks"
        )
    if says_last_visit(scene.said):
        # "book me the same as my last visit": the past visits were read only for its service.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name == LAST_VISIT_LOOKUP
        )
    if not scene.intents and (
        confirming or any(r.call.tool_name in WRITE_TOOLS for r in scene.results)
    ):
        # "try again": the lookups only checked what had not gone through before it was
        # sent again; the write (or its question) is the answer.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name not in WRITE_TOOLS
        )
    if takes_back(scene.said):
        # "undo that" after a turn with an unconfirmed write: the lookups only checked what
        # went through; the change taken back (or its question) is the answer.
        quiet.update(
            index
            for index, result in enumerate(scene.results)
            if result.call.tool_name not in WRITE_TOOLS
        )
    # Looked at beside another request, for a take-back waiting for its change to land
    # (retries.py `beside_another`): what was asked is the answer, not the list looked at.
    quiet.update(
        index for index, result in enumerate(scene.results) if LOOK_AGAIN_ID in result.call.call_id
    )
    last_of: dict[str, int] = {}
    for index, result in enumerate(scene.results):
        tool = result.call.tool_name
        if result.ok and tool not in WRITE_TOOLS and LOOK_AGAIN_ID not in result.call.call_id:
            last_of[tool] = index
    # One listing read again in the turn (after a write it refused, to see whether the
    # item is still there): read out once, as the CRM has it now (it was read out twice,
    # around the refusal).
    quiet.update(
        index
        for index, result in enumerate(scene.results)
        if result.ok
        and result.call.tool_name in last_of
        and last_of[result.call.tool_name] != index
    )
    return quiet


_APPOINTMENT_READS = frozenset({"crm.listUpcomingAppointments", "crm.getNextAppointment"})
_APPOINTMENT_KINDS = frozenset(
    {
        "appointments",
        "next_appointment",
        "book_appointment",
        "reschedule_appointment",
        "cancel_appointment",
    }
)


# What no call of its tool can have been made without: the ask's day or hour.
_TIME_LACKING = frozenset({"when", "time"})


def _agrees(called: Mapping[str, object], asked: Mapping[str, object]) -> bool:
    """Every value the ask said is the call's, where the call has it."""
    return all(called[key] == value for key, value in asked.items() if key in called)


def _on_the_day(called: Mapping[str, object], intent: Intent, scene: Scene) -> bool:
    """The call's start is on the day the ask said, where it said one."""
    day = intent.when.day if intent.when is not None else None
    starts = called.get("starts_at")
    if day is None or not isinstance(starts, str):
        return True
    return datetime.fromisoformat(starts).astimezone(scene.now.tzinfo).date() == day


_NAMED_AS_ONE = rx(r"^(?:the|my) [a-z' -]+ (?:task|to-?do|reminder|appointment|one)$")


def _found_none(intent: Intent, scene: Scene) -> bool:
    """ "mark the dog walking task done and the insurance one too": the one not found, though
    another call of its tool went ahead (it was taken as done, and nothing said of it)."""
    if intent.tool not in ("crm.completeTask", "crm.updateTask", "crm.rescheduleAppointment"):
        return False
    if not intent.needs_target or sum(i.tool == intent.tool for i in scene.intents) < 2:
        return False
    if intent.target is None or not _NAMED_AS_ONE.search(intent.target.phrase.lower()):
        return False  # (words read as one that name none: "…, they can wait")
    return isinstance(scene.resolution(intent), NoMatch)


def _held_or_unread(intent: Intent, scene: Scene) -> bool:
    """The destructive ask is the one held for a yes (its target found), or its listing
    was not read: nothing to tell of it beside the question."""
    resolution = scene.resolution(intent)
    return resolution is None or isinstance(resolution, Match)


def _held_already(intent: Intent, item: Item, scene: Scene) -> dict[str, Any] | None:
    """The change asked of a to-do that already holds it (the planner sent nothing)."""
    arguments = action_arguments(intent, item, scene.timezone)
    return (
        arguments if arguments and tasks.already_as_asked(arguments, item, scene.dialogue) else None
    )


def _unanswered(scene: Scene, confirming: bool) -> list[str]:
    """Targets not found (or not only one), and questions for what the request lacked."""
    sentences: list[str] = []
    question: str | None = None
    by_place = [
        (intent, found.item)
        for intent in held_by_place(scene.intents)
        if isinstance(found := scene.resolution(intent), Match)
    ]
    if by_place and len(by_place) == len(held_by_place(scene.intents)):
        # "mark the first and third tasks done", no list heard: the ones there, named
        question = unheard_places.question(by_place)
    for intent in scene.intents:
        if question and any(intent is held for held, _ in by_place):
            continue
        done = any(
            r.call.tool_name == intent.tool
            # (an ask still lacking something was not this call: "a haircut friday at 3 and
            # a massage on saturday" booked the haircut, and the massage's time went unasked)
            and (
                not _TIME_LACKING & set(intent.missing)
                or (
                    _agrees(r.call.arguments, intent.arguments)
                    # ("a facial thursday at 2, then another one friday": the same
                    # service, another day, its time unasked)
                    and _on_the_day(r.call.arguments, intent, scene)
                )
            )
            for r in scene.results
        )
        if done and not _found_none(intent, scene):
            continue
        if (
            confirming
            and intent.tool in _DESTRUCTIVE
            and (intent.missing or intent.needs_target is False or _held_or_unread(intent, scene))
        ):
            # (one asked about now: its question says it; one not found is told below:
            # "…and the haircut on the 21st" with the haircut on the 20th was dropped unsaid)
            continue
        if intent.missing:
            if (
                intent.kind == "add_task"
                and "consent" in intent.missing
                and nothing_owed_on_the_bill_named(scene)
            ):
                continue  # "if we owe … on the checkup, remind me to pay it": nothing owed
            question = question or replies.of_the_service(
                replies.clarification(intent, scene.now.date()), intent, scene.intents
            )
            continue
        if intent.needs_target:
            resolution = scene.resolution(intent)
            if (
                isinstance(resolution, Match)
                and intent.tool == "crm.updateTask"
                and (asked := _held_already(intent, resolution.item, scene)) is not None
            ):
                sentences.append(tasks.already_said(resolution.item, asked, scene))
            elif isinstance(resolution, Match) and intent.shift is not None:
                if intent.kind == "update_task" and not resolution.item.get("due_on"):
                    # "push the eye exam task back a day": no date to move from.
                    title = resolution.item.get("title") or "That task"
                    question = question or f"{title} has no due date yet. When should it be due?"
            elif resolution is not None:
                told = replies.unresolved(intent, resolution, scene)
                if confirming:
                    # (one question a turn: the yes asked for answers the one held)
                    told = [sentence for sentence in told if not sentence.endswith("?")]
                sentences.extend(told)
    if question:
        sentences.append(question)
    return sentences


def compose(request: NarratorInput) -> list[str]:
    """The whole answer, as sentences."""
    scene = Scene.of(request)
    confirming = bool(request.confirmation_prompt)
    if confirming and (instead := _a_task_instead(scene, request.confirmation_prompt)):
        return [instead, str(request.confirmation_prompt)]
    if confirming and _a_visit_instead(scene, request.confirmation_prompt):
        # "delete the haircut", no to-do named so, the haircut booked held to cancel: the
        # question alone (not every visit and task, and "I couldn't find a task")
        return [str(request.confirmation_prompt)]
    quiet = _quiet_listings(scene, confirming)
    sentences: list[str] = []
    spoken_failures = 0
    telling = 0
    for index, result in enumerate(scene.results):
        if index in quiet or result.call.call_id in request.told:
            continue
        telling += 1
        described = _describe(result, scene)
        if not result.ok:
            spoken_failures += 1
        sentences.extend(described)
    if telling and spoken_failures == telling and sentences:
        first = sentences[0]
        sentences[0] = "Sorry, " + (first if first.startswith(("I ", "I'")) else lower_first(first))
    if sentences and _sent_to_me(scene):
        # "can you text me my appointments": said plainly first, then what was read
        sentences.insert(0, CANNOT_SEND)
    limit = (
        limits.met_beside_a_read(scene.said)
        if sentences
        and scene.results
        and all(result.call.tool_name not in WRITE_TOOLS for result in scene.results)
        else None
    )
    if limit is not None:
        # "any update on my case? if not please escalate it": what was read, then plainly
        # what no tool does (before, the limit alone was said, and nothing read).
        sentences.append(limit)
    if request.waiting_on:
        # Waiting hints are what a voice says while it works: "checking your billing".
        sentences.append(f"I'm still {join_and(list(request.waiting_on))}.")
        return sentences
    sentences.extend(
        not_understood(scene, confirming, limits.met_in if limit is not None else None)
    )
    if sentences and (asked := move_or_cancel_asked(scene)) is not None:
        sentences.append(asked)  # "I can't do wednesday anymore": its visit, and what to do
    if scene.limit_beside is not None and scene.limit_beside not in sentences:
        sentences.append(scene.limit_beside)  # "…but the team can." beside the move made
    if asks_to_pay_beside(scene.said):
        # "what do I owe and can I pay it now?": the balance told, and the payment not taken
        sentences.append(replies.CANNOT_PAY_TOO)
    sentences.extend(_unanswered(scene, confirming))
    if request.truncated_calls:
        sentences.append(
            f"I left {number(request.truncated_calls)} more of your requests for now, since I "
            "handle a few at a time. Just ask again for the rest."
        )
    if takes_back(scene.said) and standing(scene.dialogue.failed):
        # "undo that" after "I added … I've asked … to book your massage, but it hasn't
        # confirmed it yet": the task taken back, and the booking not there yet said so.
        pending = not_there_yet(standing(scene.dialogue.failed), scene.results, scene.now)
        if pending and pending not in sentences:
            sentences.append(pending)
    if request.confirmation_prompt:
        if scene.dialogue.failed and (
            why := landed_after_all(scene.dialogue, scene.results, scene.now)
        ):
            sentences.append(why)  # beside another request (retries.py `beside_another`)
        sentences.append(request.confirmation_prompt)
    if not sentences and not request.told:
        if any(result.call.tool_name in WRITE_TOOLS for result in scene.results):
            sentences.append("All done.")
        else:
            # Only looked something up, and nothing of it to tell: no change is claimed.
            sentences.append(NOTHING_DONE if scene.results else "Okay.")
    return sentences


# "text me my appointments", "email me my bill", "send my list to my phone", "shoot me a
# text with…": what was read, asked to be sent; nothing here sends a text or an email.
CANNOT_SEND = "I can't send texts or emails from here, but I can tell you now."
_SEND_WORDS = ("text", "mail", "send", "sms", "message")
_SENT_TO_ME = rx(
    r"\b(?:text|e-?mail|sms|message) me\b"
    r"|\b(?:shoot|drop|send|fire|ping) me (?:a |an )?(?:quick )?(?:text|e-?mail|message|sms)\b"
    r"|\bsend\b(?: [\w'-]+){0,5} (?:to (?:my )?(?:phone|cell|mobile|e-?mail|inbox)"
    r"|by (?:text|e-?mail|sms)|(?:as|in) (?:a |an )?(?:text|e-?mail))\b"
)


def _sent_to_me(scene: Scene) -> bool:
    """What was only read was asked to be sent by text or email."""
    said = scene.said
    return (
        any(word in said for word in _SEND_WORDS)
        and bool(scene.results)
        and all(result.call.tool_name not in WRITE_TOOLS for result in scene.results)
        and _SENT_TO_ME.search(said) is not None
    )


# Said when only lookups were made and none of them answers what was asked.
NOTHING_DONE = (
    "I looked that up, but I couldn't work out what to change. Could you tell me once more "
    "what you'd like, with the day and time?"
)


def _a_task_instead(scene: Scene, prompt: str | None) -> str | None:
    """ "the eye exam is no longer needed", no eye exam booked, its to-do held to delete:
    that no such visit is booked, said before the question (not every visit and task)."""
    if not prompt or not prompt.startswith("Are you sure you want to delete the task "):
        return None
    intents = scene.intents
    if len(intents) != 1 or not references.let_go_of_a_task(intents[0]):
        return None
    target = intents[0].target
    if target is None or isinstance(scene.resolution(intents[0]), Match):
        return None
    said = " ".join(target.words)
    return f"I don't see {replies.a_noun(said)} booked, but there's a to-do for it."


def _a_visit_instead(scene: Scene, prompt: str | None) -> bool:
    """ "delete the haircut", no to-do named so, the haircut held to cancel."""
    if not prompt or not prompt.startswith("Are you sure you want to cancel "):
        return False
    intents = scene.intents
    return (
        len(intents) == 1
        and intents[0].kind == "delete_task"
        and not isinstance(scene.resolution(intents[0]), Match)
        and references.visit_let_go(intents[0], scene.now, "UTC") is not None
    )


def answer_text(request: NarratorInput) -> str:
    """The whole answer as one string (what the streamed pieces add up to)."""
    return " ".join(sentence.strip() for sentence in compose(request) if sentence.strip())


class EmbeddedNarrator:
    """Deterministic narrator with no model behind it (implements `Narrator`)."""

    # Every change it speaks of is read from a result (or a recent write of the
    # session): its sentences are not judged as a model's are (assistant/claims.py).
    speaks_from_results = True

    def missing(self, tool_names: Iterable[str]) -> list[str]:
        """What this narrator lacks to speak of each tool (checked at start-up), so that
        a tool it cannot describe is refused then, not narrated as "All done."."""
        lacking = []
        for name in tool_names:
            if name not in DESCRIBERS:
                lacking.append(f"{name}: no describer (models/embedded/narrator.py DESCRIBERS)")
            if name not in ACTION_OF or name not in SYSTEM_OF:
                lacking.append(
                    f"{name}: no failure phrasing (models/embedded/scene.py ACTION_OF, SYSTEM_OF)"
                )
        return lacking

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        pieces = split_sentences(answer_text(request))
        for piece in pieces:
            yield piece
