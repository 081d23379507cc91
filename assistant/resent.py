"""A client sending its last message again: answered as before, not run again.

A websocket client that lost its connection resends, after `session.resume`, the
messages whose `turn.done` it never saw, under their ids (PROTOCOL.md: `id` is the
client's). When the turn that message started had finished and answered (the answer
was lost on the dropped socket), running the message again would repeat its change or,
for a change made relative to where things are ("push my haircut back an hour"), make it
a second time after asking "I already moved that appointment a moment ago. Do you want me
to move it anyway?" about a message the customer sent once (attacks18). So the session's
last message, sent again under the same id in the same words, gets that turn's answer
again, and nothing runs.

Only the last turn's message, and only with an answer and every call of it answered
ok: a turn stopped before it answered (its socket dropped mid-turn) runs again, and the
engine tells the writes that went through meanwhile; so does one whose call failed or was
not confirmed in time (its answer, "it hasn't confirmed it yet", may be stale by now, and
asking again may well work), as a platform's retry of a failed answer does. A turn that
left a question waiting runs again too: it asks the question afresh, in its time (its
answer given again would show a question whose time may have run out, and a yes to it
would hear that nothing waits). An id the session used earlier is not taken as a resend: a
widget reloaded mid-session numbers its messages from "m1" again, so an earlier id is
the customer's next message, not a copy of an old one.
"""

from __future__ import annotations

from assistant.said_words import said_words
from assistant.schema import AssistantTurn, ToolExchange, UserTurn
from assistant.session import Session


def answer_again(session: Session, message_id: str | None, text: str) -> str | None:
    """The answer the session's last turn gave, when `message_id` and `text` are that
    turn's message sent again; else None (run it)."""
    if message_id is None or message_id != session.last_message_id or session.pending:
        return None
    answer: list[str] = []
    for entry in reversed(session.history):
        if isinstance(entry, UserTurn):
            if said_words(entry.text) != said_words(text):
                return None
            break
        if isinstance(entry, AssistantTurn) and entry.kind == "answer":
            answer.append(entry.text)
        elif isinstance(entry, ToolExchange) and not all(r.ok for r in entry.results):
            return None
    else:
        return None
    return " ".join(reversed(answer)) or None


__all__ = ["answer_again"]
