"""A platform asking again for what it has an answer to: answered as before, not run again.

Voice platforms retry. Vapi and the OpenAI clients of LiveKit and Pipecat re-send the
same messages after their own timeout; Retell asks again for the same transcript
under a new response_id after a reconnect. The caller said it once, so running the turn
again would either write twice or (with the duplicate check) ask "add it again
anyway?", and a retried "yes" would hear that nothing waits for a yes. A conversation
keeps the last answer it gave in full, keyed by what it answered (the conversation up
to the customer's last words, hashed): the same again gets that answer.

A turn stopped before its answer is not kept (nothing complete to repeat): the retry
runs, and the engine tells the writes that went through meanwhile (assistant/untold.py).
A failed answer is not kept either: asking again may well work.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field


def fingerprint(said: Sequence[tuple[str, str]]) -> str:
    """The conversation as (role, text) pairs up to the customer's last words, hashed."""
    return hashlib.sha256(json.dumps(list(said), ensure_ascii=False).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Answered:
    """The last answer given in full, and what it answered."""

    fingerprint: str
    response_id: str
    text: str
    at: float = field(default_factory=time.monotonic)  # when it was given


class LastAnswer:
    """One conversation's last complete answer, for the platform's retries."""

    def __init__(self) -> None:
        self._answered: Answered | None = None

    def for_retry(self, asked: str) -> Answered | None:
        """The answer already given to `asked` (a fingerprint), or None: run the turn."""
        answered = self._answered
        return answered if answered is not None and answered.fingerprint == asked else None

    def retried(self, asked: str, within_s: float, now: float | None = None) -> bool:
        """`asked` is the last answer's request again, within a platform's retry time."""
        answered = self.for_retry(asked)
        moment = time.monotonic() if now is None else now
        return answered is not None and moment - answered.at <= within_s

    def keep(self, asked: str, response_id: str, text: str, status: str) -> None:
        """After a turn: its answer is kept when it was given in full (ok or partial)."""
        if status in ("ok", "partial") and text:
            self._answered = Answered(asked, response_id, text)
        else:
            self._answered = None


__all__ = ["Answered", "LastAnswer", "fingerprint"]
