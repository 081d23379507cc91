"""One talk cycle of a call: a turn's events spoken as ConversationRelay `text` tokens.

A talk cycle is what ConversationRelay speaks between two `last: true` tokens. One
turn is one cycle: the acknowledgement goes out the moment it arrives (`last: false`,
`preemptible: false`, so a later cycle cannot cut it short), the answer follows
sentence by sentence in the same cycle, and an empty `last: true` token ends it.

Barge-in: the platform stops speaking, tells us what the caller heard
(`utteranceUntilInterrupt`), and the cycle falls silent. Because text goes out much
faster than a voice speaks it, the turn may already be over when that happens, so the
cycle remembers which history entries it spoke (by their ids) and rewrites them, once
the turn is done, to what was heard: a model must not believe it said what the
caller never heard.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from assistant.heard_state import keep_to_heard, said_since_request
from assistant.schema import (
    AckDelta,
    AckDone,
    AnswerDelta,
    AssistantTurn,
    ErrorEvent,
    Event,
    TurnDone,
)
from assistant.session import Session
from assistant.speaking import split_sentences
from assistant.transports.relay_frames import text_frame
from assistant.transports.voice import speakable

log = logging.getLogger(__name__)

SendFrame = Callable[[dict[str, Any]], Awaitable[None]]
KEYPAD_HINT = "You can also press 1 for yes, or 2 for no."


@dataclass(slots=True)
class _Segment:
    """What one acknowledgement or the answer said aloud, and its history entry."""

    kind: Literal["ack", "answer"]
    raw: str = ""  # as the engine produced it (to recognise the history entry)
    spoken: str = ""  # as it was sent to the voice
    entry_id: int | None = None  # the session's history entry of what was said


class TalkCycle:
    """Speaks one turn (or one fixed line) and keeps history true to what was heard."""

    def __init__(self, send: SendFrame, session: Session | None = None) -> None:
        self._send = send
        self._session = session
        self._segments: list[_Segment] = []
        self._sent_any = False
        self._last_sent = ""
        self.silenced = False
        self.closed = False
        self.heard: str | None = None
        self.done: TurnDone | None = None

    # --- the engine's event sink ------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        if isinstance(event, AckDelta):
            await self._speak(self._segment("ack"), event.text, preemptible=False)
        elif isinstance(event, AckDone):
            self._capture(self._segment("ack"), event.text)
            self._segments.append(_Segment("ack"))  # a later round starts a new ack
        elif isinstance(event, AnswerDelta):
            await self._speak(self._segment("answer"), event.text)
        elif isinstance(event, TurnDone):
            answer = self._segment("answer")
            if answer.raw:
                self._capture(answer, answer.raw.strip())
            if event.awaiting_confirmation is not None:
                # On a phone the keypad is a second way to answer "are you sure?".
                await self._speak(self._extra_segment(), KEYPAD_HINT)
            self.done = event
            if self.silenced and self.heard is None:
                # Cancelled by the caller's next words, not by barge-in: what was sent
                # had been spoken; what never went out was not.
                self.heard = " ".join(segment.spoken for segment in self._segments)
            if self.heard is not None:
                self._rewrite_history()
            await self.close()
        elif isinstance(event, ErrorEvent):
            log.warning("turn error %s: %s", event.code, event.message)

    # --- speaking ---------------------------------------------------------------------

    async def say(self, text: str) -> None:
        """A fixed line (greeting, handoff), sentence by sentence, ending the cycle."""
        for sentence in split_sentences(text):
            await self._speak(self._extra_segment(), sentence)
        await self.close()

    async def close(self) -> None:
        """End the cycle with `last: true` (once, and only if it said anything)."""
        if self.closed or self.silenced:
            return
        self.closed = True
        if self._sent_any:
            await self._send(text_frame("", last=True))

    def silence(self) -> None:
        """Send nothing more for this cycle (its turn is being cancelled)."""
        self.silenced = True

    def interrupt(self, utterance: str) -> None:
        """Barge-in: fall silent and keep only `utterance` (what was heard) in history."""
        self.silenced = True
        self.heard = utterance
        if self.done is not None:
            self._rewrite_history()

    async def _speak(
        self, segment: _Segment, text: str, *, preemptible: bool | None = None
    ) -> None:
        segment.raw += text
        if self.silenced or self.closed:
            return
        token = speakable(text)
        if not token.strip():
            return
        if self._last_sent[-1:] in (".", "!", "?", ":") and not token[0].isspace():
            token = " " + token  # "…your billing." + "You owe…" must not run together
        self._last_sent = token
        segment.spoken += token
        self._sent_any = True
        await self._send(text_frame(token, last=False, preemptible=preemptible))

    # --- history ----------------------------------------------------------------------

    def _segment(self, kind: Literal["ack", "answer"]) -> _Segment:
        if not self._segments or self._segments[-1].kind != kind:
            self._segments.append(_Segment(kind))
        return self._segments[-1]

    def _extra_segment(self) -> _Segment:
        """Speech of the bridge's own, counted as heard but in no history entry."""
        self._segments.append(_Segment("answer"))
        return self._segments[-1]

    def _capture(self, segment: _Segment, text: str) -> None:
        """The engine remembers an entry just before the event: the newest one is ours."""
        newest = self._session.newest_entry() if self._session is not None else None
        if newest is None:
            return
        entry_id, message = newest
        if isinstance(message, AssistantTurn) and (message.kind, message.text) == (
            segment.kind,
            text,
        ):
            segment.entry_id = entry_id

    def _rewrite_history(self) -> None:
        """Replace what this cycle said with what the caller heard; drop what was unheard."""
        if self._session is None or self.heard is None:
            return
        heard_words = self.heard.split()
        session = self._session
        whole = said_since_request(session)
        for segment in self._segments:
            sent_words = len(segment.spoken.split())
            taken, heard_words = heard_words[:sent_words], heard_words[sent_words:]
            if segment.entry_id is None:
                continue
            if not taken:
                session.drop_entry(segment.entry_id)
                segment.entry_id = None
            elif len(taken) < sent_words or sent_words < len(segment.raw.split()):
                heard = AssistantTurn(kind=segment.kind, text=" ".join(taken))
                if not session.replace_entry(segment.entry_id, heard):
                    segment.entry_id = None
        self.heard = None  # applied once
        keep_to_heard(session, whole)


__all__ = ["SendFrame", "TalkCycle"]
