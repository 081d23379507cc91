"""The dialogue state kept to what the caller heard, once barge-in has cut our last answer.

When a platform or the phone says the caller heard less than we sent (history cut by
`heard.align_said` or the relay's talk cycle), two things the last turn left in the
dialogue state may now be false:

- the items listed: "the second one" counts in the list *heard*. A list cut after its
  first item holds one item for the caller, whatever the CRM returned (was: "mark the
  second one done" after "You have three pending tasks: Buy groceries," COMPLETED
  "Renew car insurance", which the caller never heard). Items are kept up to the first
  one whose name was not heard in full; the item in focus goes with them;
- the writes the answer told: a write whose telling was cut is said at the start of the
  next answer, as the writes of a turn stopped before its answer are (assistant.untold).
  A write is told when what was heard names its item (the service, the task's title, the
  case's subject); one with no such name, when the whole answer was heard.

Only the last turn (since the customer's last message) is looked at, and only when
history changed: the rule costs nothing on a turn heard in full.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from assistant.dialogue_state import Dialogue, Item
from assistant.heard import align_said, words
from assistant.schema import AssistantTurn, ToolExchange, ToolResult, UserTurn
from assistant.session import Session
from assistant.untold import untold_writes

_LISTINGS = frozenset({"crm.listTasks", "crm.listUpcomingAppointments"})


def align_to_heard(session: Session, heard: str) -> bool:
    """`heard.align_said`, and the dialogue state kept to it. True when history changed."""
    whole = said_since_request(session)
    if not align_said(session, heard):
        return False
    keep_to_heard(session, whole)
    return True


def said_since_request(session: Session) -> str:
    """What we said since the customer's last message, as history holds it."""
    said: list[str] = []
    for message in reversed(session.history):
        if isinstance(message, UserTurn):
            break
        if isinstance(message, AssistantTurn):
            said.insert(0, message.text)
    return " ".join(said)


def keep_to_heard(session: Session, whole: str) -> None:
    """Make the dialogue state agree with what was heard of the last turn, `whole` being
    what that turn said (before history was cut to what was heard)."""
    results: list[ToolResult] = []
    heard: list[str] = []
    request = ""
    for message in reversed(session.history):
        if isinstance(message, UserTurn):
            request = message.text
            break
        if isinstance(message, ToolExchange):
            results[:0] = message.results
        elif isinstance(message, AssistantTurn):
            heard.insert(0, message.text)
    heard_words = words(" ".join(heard))
    if heard_words == words(whole):
        return
    dialogue = session.dialogue
    if any(r.ok and r.call.tool_name in _LISTINGS for r in results):
        dialogue = _listed_as_heard(dialogue, heard_words)
    customer = session.customer
    timezone = customer.timezone if customer is not None else "UTC"
    whole_heard = len(heard_words) >= len(words(whole))
    told = {r.call.call_id for r in results if _told(r, heard_words, whole_heard)}
    clauses = [c for c in untold_writes(results, told, timezone) if c not in dialogue.untold]
    if clauses:
        dialogue = dataclasses.replace(
            dialogue, untold=(*dialogue.untold, *clauses), untold_asked=request
        )
    session.dialogue = dialogue


def _listed_as_heard(dialogue: Dialogue, heard: list[str]) -> Dialogue:
    """The listed items up to the first one whose name the caller did not hear."""
    kept: list[Item] = []
    at = 0
    for item in dialogue.listed:
        found = _find(heard, words(_label(item)), at)
        if found < 0:
            break
        kept.append(item)
        at = found
    if len(kept) == len(dialogue.listed):
        return dialogue
    focus = dialogue.focus
    if dialogue.focus_kind == dialogue.listed_kind and focus is not None and focus not in kept:
        return dataclasses.replace(dialogue, listed=tuple(kept), focus_kind=None, focus=None)
    return dataclasses.replace(dialogue, listed=tuple(kept))


def _label(item: Item) -> str:
    return str(item.get("title") or item.get("service") or item.get("subject") or "")


def _find(heard: list[str], name: list[str], start: int) -> int:
    """The index just past `name` in `heard` (from `start`), or -1."""
    if not name:
        return -1
    for index in range(start, len(heard) - len(name) + 1):
        if heard[index : index + len(name)] == name:
            return index + len(name)
    return -1


def _told(result: ToolResult, heard: list[str], whole_heard: bool) -> bool:
    body: dict[str, Any] = result.result if isinstance(result.result, dict) else {}
    name = words(_label(body))
    if not name:
        return whole_heard
    return _find(heard, name, 0) >= 0


__all__ = ["align_to_heard", "keep_to_heard", "said_since_request"]
