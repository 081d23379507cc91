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

A retry is rarely the same bytes: the system prompt is rendered again with the
platform's clock ("The time is 12:00:31"), and the recogniser's final transcript of the
same words may differ in case and stops ("yes" then "Yes."). So what is hashed is the
conversation's words (case and outer punctuation aside) without the system prompts
(was: such a retry ran again, and a yes was told "nothing is waiting for a yes" after
the change it confirmed was made; with no call id, it opened another call and moved a
haircut a second hour). And a copy of an earlier request can land after the call has
moved on (a platform's duplicate delivery): the last few answers are kept, so it is
answered as it was then, and the question asked since is left to the caller's answer
(was: taken as our history being behind, the question dropped, and the caller's yes
to it told that nothing waits).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Final

from assistant.answers_kept import KEPT_ANSWERS, Answered, KeptAnswers
from assistant.said_words import said_words

# The platform's own instructions: rendered again on every request (a clock, a date).
_NOT_SAID: Final = frozenset({"system", "developer"})


def fingerprint(said: Sequence[tuple[str, str]]) -> str:
    """The conversation as (role, words) pairs up to the customer's last words, hashed:
    the system prompts left out, each text as its words."""
    kept = [
        (role, words)
        for role, text in said
        if role not in _NOT_SAID and (words := said_words(text))
    ]
    return hashlib.sha256(json.dumps(kept, ensure_ascii=False).encode()).hexdigest()


class LastAnswer:
    """One conversation's recent complete answers, for the platform's retries: the last
    one, and a few before it (for a copy of an earlier request delivered late). A view of
    `KeptAnswers`, which a platform call's session holds, so that a retry or a late copy
    landing on another worker or instance sharing the store is answered as before too
    (attacks15: it ran again there; a retried "yes" was told "nothing is waiting for a
    yes" after its cancel was made, a retried add asked "add it again anyway?")."""

    def __init__(self, kept: KeptAnswers | None = None) -> None:
        self._kept = KeptAnswers() if kept is None else kept

    @property
    def _answered(self) -> Answered | None:
        kept = self._kept
        return kept.answers[-1] if kept.last_kept and kept.answers else None

    def _earlier(self, asked: str) -> Answered | None:
        return next((a for a in reversed(self._kept.answers) if a.fingerprint == asked), None)

    def for_retry(self, asked: str, *, late_copies: bool = True) -> Answered | None:
        """The answer already given to `asked` (a fingerprint), or None: run the turn.
        `late_copies` False: only the last answer's request is a retry (a platform that
        sends the newest words alone: its second "yes" hashes as its first, and is the
        caller's answer to another question, not a copy)."""
        answered = self._answered
        if answered is not None and answered.fingerprint == asked:
            return answered
        return self._earlier(asked) if late_copies else None

    def retried(self, asked: str, within_s: float, now: float | None = None) -> bool:
        """`asked` is the last answer's request again, within a platform's retry time."""
        answered = self._answered
        moment = time.time() if now is None else now
        return (
            answered is not None
            and answered.fingerprint == asked
            and moment - answered.at <= within_s
        )

    def copied(self, asked: str, within_s: float, now: float | None = None) -> bool:
        """`asked` is the request of one of the answers kept, within a platform's retry
        time of that answer: a copy (the last one's retry, or an earlier one's late)."""
        answered = self._answered
        if answered is None or answered.fingerprint != asked:
            answered = self._earlier(asked)
        moment = time.time() if now is None else now
        return answered is not None and moment - answered.at <= within_s

    def keep(self, asked: str, response_id: str, text: str, status: str) -> None:
        """After a turn: its answer is kept when it was given in full (ok or partial)."""
        kept = self._kept
        kept.answers[:] = [a for a in kept.answers if a.fingerprint != asked]
        if status in ("ok", "partial") and text:
            kept.answers.append(Answered(asked, response_id, text))
            del kept.answers[:-KEPT_ANSWERS]
            kept.last_kept = True
        else:
            kept.last_kept = False


__all__ = ["KEPT_ANSWERS", "Answered", "LastAnswer", "fingerprint", "said_words"]
