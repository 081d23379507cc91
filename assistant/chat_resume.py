"""What the terminal says, after a reconnect, of the messages the dropped socket cut off.

The server runs a session's messages one at a time, in the order they came. A resumed
session's `session.ready` names the last turn it ran (`last_turn`, PROTOCOL.md): that
turn is caught up (its calls and answer shown); a message typed after it got no turn
before the socket dropped, so it was most likely never run (was: it vanished without a
word, and the customer thought it done). When the conversation could not be resumed (a
new conversation), or the last turn is not one of them, nothing is known of those
messages: each is named, with the advice to check before asking again, never "not done"
(a write may have landed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# (message id, what the customer typed), in the order they were sent.
Sent = tuple[str, str]


def cut_off_lines(cut_off: Sequence[Sent], last: Mapping[str, Any] | None) -> list[str]:
    """A line for each message cut off other than the one `last` (the resumed session's
    `last_turn`, None when not resumed) catches up."""
    ids = [message_id for message_id, _ in cut_off]
    told = last.get("message_id") if last is not None else None
    after = ids.index(told) if told in ids else None
    lines: list[str] = []
    for at, (message_id, text) in enumerate(cut_off):
        if message_id == told:
            continue
        if after is not None and at > after:
            lines.append(
                f"  ✗ “{text}”: no answer came before the connection dropped, so it was "
                "probably not done; check before asking again."
            )
        else:
            lines.append(
                f"  ? “{text}”: the connection dropped before its answer; check whether "
                "it was done before asking again."
            )
    return lines


__all__ = ["Sent", "cut_off_lines"]
