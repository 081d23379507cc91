"""What one connection of a session heard, when several connections share the session.

A session can be open on two connections at once: two tabs that resumed it, a phone that
reconnected while its old socket was still half-open, two instances behind a load
balancer. Each turn goes on from the session as the last turn left it, whichever
connection ran it (`SessionStore.latest`). The references a customer makes ("the second
one", "undo that", "yes") are to what *they* heard, though, and a turn of the other
connection since may have replaced all of it (was: tab A added a task, tab B added
another, and A's "undo that" deleted B's task; tab B's question "delete Buy groceries?"
replaced A's, and A's "yes", to a question A never heard, deleted the task).

So each connection keeps the dialogue state as its last turn (or its resume) left it.
When the session's turn count shows that another connection ran turns since, the
dialogue's references are taken from this connection's copy; what the CRM holds is not
(`done`, `untold`: what went through is true for every connection). A question waiting
that this connection never heard is not answered by its "yes": it is asked again
(`Engine.start_turn(question_heard=False)`).

Only for connections that are listeners of their own (the websocket: `Conversation(
heard_apart=True)`). A voice platform's call answered by several workers is one caller
who heard every answer, whichever worker gave it: there "undo that" is what the other
worker just did (tests/scale/test_platform_heard_redis.py).

Nothing is done when no other connection spoke: one compare per turn.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from assistant.dialogue_state import Dialogue
from assistant.schema import ToolCall
from assistant.session import PendingConfirmation, Session

Question = tuple[tuple[ToolCall, ...], str]


@dataclass(frozen=True, slots=True)
class HeardHere:
    """The session as one connection last heard it."""

    turns: int
    dialogue: Dialogue
    question: Question | None

    # Resumed while a turn of the session was still running elsewhere (the dropped
    # socket's, past the resume's wait): that turn was this customer's own request, so
    # what it leaves is taken as heard, all but a question it asks (never told here).
    unsettled: bool = False

    @classmethod
    def of(cls, session: Session, *, unsettled: bool = False) -> HeardHere:
        """What a connection knows of `session` once its own turn (or resume) is done."""
        # Unsettled, the turn count read may or may not hold the running turn: never equal.
        turns = -1 if unsettled else session.turns
        return cls(turns, session.dialogue, _question(session.pending), unsettled)

    def apply(self, session: Session) -> bool:
        """Before this connection's turn: the dialogue's references made this connection's
        again if another connection ran turns since. True when the question waiting, if
        any, is one this connection heard."""
        if session.turns == self.turns:
            return True
        if self.unsettled:
            return session.pending is None or _question(session.pending) == self.question
        latest = session.dialogue
        session.dialogue = dataclasses.replace(
            self.dialogue, done=latest.done, untold=latest.untold, untold_asked=latest.untold_asked
        )
        return session.pending is None or _question(session.pending) == self.question


def _question(pending: PendingConfirmation | None) -> Question | None:
    """A question by what it asks (the same question asked again is the one heard)."""
    return None if pending is None else (pending.calls, pending.prompt)


__all__ = ["HeardHere"]
