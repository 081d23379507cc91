"""A done to-do asked back on the list after it could not be reopened: "mark the pharmacy
one as not done" → "I can't mark a task as not done from here. If you still need it, just
ask me to add it to your list again." → "ok add it to my list again". The "it" is the
to-do named the message before (was: "What should the task say?", or a to-do titled
"Just" added): the list is read, and the one done to-do those words name is added again
by its title."""

from __future__ import annotations

import re

from assistant.dialogue_state import Item
from assistant.language.patterns import rx
from assistant.models.embedded.last_said import last_said, said_as
from assistant.schema import (
    AssistantTurn,
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    UserTurn,
)

LOOKUP = "crm.listTasks"
# How the limit ends (assistant/models/embedded/limits.py says it).
_TOLD = "add it to your list again"
# "ok add it to my list again", "then just put it back on the list", "add it as a new one".
_ADD_IT = rx(r"\b(?:add|put|re-?add|make)\b.*\b(?:it|that|one)\b")
# Words of the ask to reopen, around the to-do's name.
_AROUND = frozenset(
    {
        "mark",
        "not",
        "done",
        "complete",
        "completed",
        "finished",
        "undone",
        "incomplete",
        "task",
        "to-do",
        "todo",
        "reminder",
        "one",
        "the",
        "my",
        "a",
        "as",
        "reopen",
        "re-open",
        "untick",
        "uncheck",
        "unmark",
        "can",
        "you",
        "could",
        "undo",
        "being",
        "marked",
        "it",
        "please",
        "set",
        "make",
        "change",
        "put",
        "turn",
        "again",
        "open",
        "pending",
        "back",
        "that",
        "is",
        "was",
        "this",
        "i",
        "didn't",
        "did",
        "actually",
        "haven't",
        "yet",
        "ok",
        "okay",
        "so",
        "oh",
        "and",
        "to",
        "of",
        "off",
        "ticked",
        "checked",
        "uncomplete",
        "unfinished",
        "for",
        "me",
        "want",
        "wanted",
        "would",
    }
)


def _before(request: PlanRequest, index: int) -> tuple[str, str] | None:
    """The answer just before the message at `index`, and the message before that."""
    answer = user = None
    for message in reversed(request.conversation[:index]):
        if answer is None and isinstance(message, AssistantTurn) and message.kind == "answer":
            answer = message.text
        elif answer is not None and isinstance(message, UserTurn):
            user = message.text
            break
    return (answer, user) if answer is not None and user is not None else None


def _tasks(request: PlanRequest) -> tuple[list[Item], bool]:
    found: list[Item] = []
    read = False
    for result in request.turn_results:
        if result.ok and result.call.tool_name == LOOKUP:
            read = True
            body = result.result if isinstance(result.result, dict) else {}
            found += [t for t in body.get("tasks") or () if isinstance(t, dict)]
    return found, read


def read_added_again(
    request: PlanRequest,
) -> PlanRequest | ToolCallsDecision | FinalDecision | None:
    """The request with "it" said as the done to-do's title; the tasks read first; None
    when this is not an ask to add back the to-do just asked about."""
    if (last := last_said(request)) is None:
        return None
    index, said = last
    text = said.lower()
    if len(text.split()) > 10 or _ADD_IT.search(text) is None:
        return None
    before = _before(request, index)
    if before is None or _TOLD not in before[0]:
        return None
    words = [w for w in re.findall(r"[a-z][a-z'-]*", before[1].lower()) if w not in _AROUND]
    if not words:
        return None
    tasks, read = _tasks(request)
    if not read:
        if request.round <= 1 and any(t.name == LOOKUP for t in request.tools):
            call = ToolCall(call_id="c_1_1", tool_name=LOOKUP, arguments={"status": "all"})
            return ToolCallsDecision(calls=(call,))
        return None
    like = [
        t
        for t in tasks
        if t.get("title")
        and all(re.search(rf"\b{re.escape(w)}", str(t["title"]).lower()) for w in words)
    ]
    done = [t for t in like if t.get("status") == "completed"] or like
    titles = {str(t["title"]) for t in done}
    if len(titles) != 1:
        return None
    return said_as(request, index, f"add {titles.pop()} to my list")


def looked_up_only(request: PlanRequest) -> bool:
    """This turn has read only the list the title is taken from."""
    results = request.turn_results
    return len(results) == 1 and results[0].call.tool_name == LOOKUP and results[0].round == 1


__all__ = ["looked_up_only", "read_added_again"]
