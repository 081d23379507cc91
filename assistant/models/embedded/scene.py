"""What the narrator knows while it speaks: the time, the customer, what was asked.

`Scene` bundles the turn's results with the customer's clock and the words of the
request, and remembers every task and appointment seen in this conversation, so that
"I deleted the task Buy groceries" can name a task the CRM only answered with an id.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.dialogue_state import Dialogue
from assistant.language.as_meant import as_meant
from assistant.language.intents import Intent, ask_corrected
from assistant.language.put_right import put_right
from assistant.language.replacing import as_two_changes
from assistant.language.text import normalize
from assistant.models.embedded import bill_anchored, cut_off, task_anchored
from assistant.models.embedded.anchored import (
    a_year_on,
    counted,
    counts_from_a_visit,
    from_the_last_visit,
    picked_request,
)
from assistant.models.embedded.bill_anchored import counts_from_the_bill
from assistant.models.embedded.limits import said_beside
from assistant.models.embedded.ordinals import (
    note_named,
    other_thing_named,
    priority_named,
    told_named,
)
from assistant.models.embedded.references import read_intents
from assistant.models.embedded.retries import again_of_failed
from assistant.models.embedded.task_anchored import counts_from_a_task
from assistant.models.embedded.topic import detail_kept
from assistant.models.embedded.user_turns import last_two_users
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.resolve import Resolution, resolve_intent
from assistant.schema import Message, NarratorInput, ToolExchange, ToolResult, UserTurn
from assistant.speech import local_now

Item = dict[str, Any]

#: Which system answers for a tool, as a customer would call it.
SYSTEM_OF = {
    "crm.getCustomerProfile": "the account system",
    "crm.updateContactInfo": "the account system",
    "crm.listUpcomingAppointments": "the scheduling system",
    "crm.getNextAppointment": "the scheduling system",
    "crm.bookAppointment": "the scheduling system",
    "crm.rescheduleAppointment": "the scheduling system",
    "crm.cancelAppointment": "the scheduling system",
    "crm.getOpenInvoices": "the billing system",
    "crm.listTasks": "the task system",
    "crm.addTask": "the task system",
    "crm.completeTask": "the task system",
    "crm.updateTask": "the task system",
    "crm.deleteTask": "the task system",
    "crm.listOpenTickets": "the support system",
    "crm.createTicket": "the support system",
    "crm.listAppointments": "the scheduling system",
    "crm.listInvoices": "the billing system",
    "crm.listTickets": "the support system",
}

#: What a call does, to complete "I couldn't …".
ACTION_OF = {
    "crm.getCustomerProfile": "pull up your account",
    "crm.listUpcomingAppointments": "look up your appointments",
    "crm.getNextAppointment": "check your next appointment",
    "crm.bookAppointment": "book that appointment",
    "crm.rescheduleAppointment": "move your appointment",
    "crm.cancelAppointment": "cancel your appointment",
    "crm.getOpenInvoices": "check your billing",
    "crm.listTasks": "check your tasks",
    "crm.addTask": "add that task",
    "crm.completeTask": "mark that task complete",
    "crm.updateTask": "update that task",
    "crm.deleteTask": "delete that task",
    "crm.listOpenTickets": "check your support cases",
    "crm.createTicket": "open that support case",
    "crm.updateContactInfo": "update your contact details",
    "crm.listAppointments": "look through your appointments",
    "crm.listInvoices": "look through your invoices",
    "crm.listTickets": "look through your support cases",
}


def _a_year_on_before(conversation: tuple[Message, ...], state: Dialogue) -> tuple[Message, ...]:
    """The conversation with the ask before this message read as the planner read it
    ("same day next year too", a year from the visit just booked)."""
    users = last_two_users(conversation)
    if users is None:
        return conversation
    at = users[0]
    before = conversation[at]
    assert isinstance(before, UserTurn)
    if (told := a_year_on(before.text, state)) == before.text:
        return conversation
    return (*conversation[:at], UserTurn(text=told), *conversation[at + 1 :])


@dataclass(slots=True)
class Scene:
    """One narration's context."""

    now: datetime  # in the customer's timezone
    timezone: str
    said: str  # the request, normalized (lower case, typos fixed)
    results: tuple[ToolResult, ...]
    intents: list[Intent]
    # What the conversation was about before this turn (assistant.dialogue).
    dialogue: Dialogue = field(default_factory=Dialogue)
    # The request as typed or transcribed, lower case (`said` drops self-corrections).
    original: str = ""
    # The history, whose listings `earlier` looks items up in.
    conversation: tuple[Message, ...] = ()
    # What no tool does, said beside the change asked ("…and add a note that…"): told too.
    limit_beside: str | None = None
    # The listings read for the write checks only (NarratorInput.checked).
    checked: tuple[ToolResult, ...] = ()
    _items: dict[str, Item] | None = None
    _resolved: dict[int, tuple[Intent, Resolution | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, request: NarratorInput) -> Scene:
        timezone = request.customer.timezone if request.customer else "UTC"
        now = local_now(request.now, timezone)
        # as the planner read it (the end of an ask cut off before it, read with it)
        whole = cut_off.finished(request.conversation) or request.user_message
        whole = told_named(request.dialogue, from_the_last_visit(whole, request.dialogue))
        whole = note_named(request.dialogue, priority_named(request.dialogue, whole))
        whole = other_thing_named(request.dialogue, whole)
        meant = as_two_changes(as_meant(whole))
        # "…an hour earlier and add a note that…": the change as if said alone, as the
        # planner read it, and the limit told beside it
        beside = said_beside(meant, now, timezone)
        message = put_right(beside[0] if beside is not None else meant, now)
        conversation = _a_year_on_before(request.conversation, request.dialogue)
        if (asked := picked_request(conversation)) is not None:
            # "Which appointment should I count from…?" → "the haircut": the request asked
            # about, read as the planner read it
            where, message = asked
            conversation = (
                *conversation[:where],
                UserTurn(text=message),
                *conversation[where + 1 :],
            )
        reading = message
        if counts_from_a_visit(message):
            # "…the day after my haircut": read with the day counted, as the planner did
            reading = counted(message, request.tool_results, request.dialogue, now, timezone)
        if counts_from_the_bill(reading):
            # "…two days before my bill is due": read with the day counted from the bill
            reading = bill_anchored.counted(reading, request.tool_results) or reading
        if "that" in reading and (
            moved := task_anchored.visit_moved_to_that_day(reading, request.dialogue, timezone)
        ):
            reading = moved  # "move an appointment to the day after that", as the planner read it
        if counts_from_a_task(reading):
            # "…due the same day as the car insurance": with the day counted from that to-do
            reading = (
                task_anchored.counted(reading, request.tool_results, request.dialogue) or reading
            )
        intents = (
            []  # "book it again" after a booking that failed: "try again", said by its verb
            if request.dialogue.failed and again_of_failed(request.dialogue, message)
            else read_intents(
                conversation, reading, now, timezone, request.dialogue, request.tool_results
            )
        )
        if detail_kept(message):
            # "my phone number is still the same one, yeah?": asked after, nothing to change
            intents = [intent for intent in intents if not intent.writes]
        return cls(
            now=now,
            timezone=timezone,
            # (an ask paused for a question is no part of what is answered)
            said=normalize(ask_corrected(message)).text,
            results=request.tool_results,
            intents=intents,
            dialogue=request.dialogue,
            original=message.lower(),
            conversation=conversation,
            limit_beside=beside[1] if beside is not None else None,
            checked=request.checked,
        )

    @property
    def items(self) -> dict[str, Item]:
        """Every task and appointment listed in this conversation, by id (the latest
        listing wins). Indexed when first asked for: only a few answers (a write's, a
        failure's) look an item up, and indexing the history took a fifth of the
        narrator's time on every turn."""
        if self._items is None:
            items: dict[str, Item] = {}
            for message in self.conversation:
                if isinstance(message, ToolExchange):
                    # Every earlier round of the history is indexed once, not every turn.
                    items.update(_listed_in(message))
            items.update(_listed(self.results))
            self._items = items
        return self._items

    def resolution(self, intent: Intent) -> Resolution | None:
        """The intent's target among this turn's results, worked out once a narration:
        the listings kept quiet and the targets not found both ask, and a target that
        is not there is looked for with every spelling (50 µs)."""
        kept = self._resolved.get(id(intent))
        if kept is not None and kept[0] is intent:
            return kept[1]
        resolution = resolve_intent(intent, self.results, self.timezone)
        self._resolved[id(intent)] = (intent, resolution)
        return resolution

    def earlier(self, item_id: object) -> Item | None:
        """The item as it was last listed, before this turn's writes changed it."""
        return self.items.get(str(item_id)) if item_id is not None else None


# The index of each round still in some session's history, dropped with the round: by
# id, with a weak reference that tells a round from a later one given the same id.
_LISTED: dict[int, tuple[weakref.ref[ToolExchange], dict[str, Item]]] = {}


def _listed_in(exchange: ToolExchange) -> dict[str, Item]:
    key = id(exchange)
    kept = _LISTED.get(key)
    if kept is not None and kept[0]() is exchange:
        return kept[1]

    def forget(ref: weakref.ref[ToolExchange]) -> None:
        if (entry := _LISTED.get(key)) is not None and entry[0] is ref:
            del _LISTED[key]

    items = _listed(exchange.results)
    _LISTED[key] = (weakref.ref(exchange, forget), items)
    return items


def _listed(results: Iterable[ToolResult]) -> dict[str, Item]:
    """Every listed task and appointment by id (the latest listing wins).

    Only lookups: a write's result shows the item after the change, and the
    narrator needs it as it was ("was it already complete?").
    """
    items: dict[str, Item] = {}
    for result in results:
        if not result.ok or not isinstance(result.result, dict):
            continue
        if result.call.tool_name in WRITE_TOOLS:
            continue
        payload = result.result
        if isinstance(payload.get("id"), str):
            items[payload["id"]] = payload
        for value in payload.values():
            if isinstance(value, dict) and isinstance(value.get("id"), str):
                items[value["id"]] = value
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, dict) and isinstance(item.get("id"), str):
                        items[item["id"]] = item
    return items
