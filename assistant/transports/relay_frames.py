"""The ConversationRelay wire format (Twilio's, which Telnyx also speaks).

Platform → us (`parse_frame`): `setup`, `prompt`, `interrupt`, `dtmf`, `error`.
Us → platform (the builders below): `text`, `play`, `sendDigits`, `language`, `end`.

Inbound models ignore fields they do not name, unlike this project's other inbound
models: the platforms add fields to these frames over time (`parentCallSid`,
`forwardedFrom`, Telnyx's `callControlId`…) and refusing a frame would fail a call.
Fields the bridge relies on are required; the rest have defaults.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from assistant.transports import strict_json
from assistant.transports.utf8 import invalid_text_at


class _Inbound(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class SetupFrame(_Inbound):
    """Sent once, right after the websocket opens: who is calling, and custom parameters."""

    type: Literal["setup"]
    session_id: str = Field("", alias="sessionId")
    account_sid: str = Field("", alias="accountSid")
    call_sid: str = Field("", alias="callSid")
    from_: str = Field("", alias="from")
    to: str = ""
    direction: str = ""
    call_type: str = Field("", alias="callType")
    custom_parameters: dict[str, Any] = Field(default_factory=dict, alias="customParameters")


class PromptFrame(_Inbound):
    """What the caller said; `last: false` marks a partial transcript still growing."""

    type: Literal["prompt"]
    voice_prompt: str = Field(alias="voicePrompt")
    lang: str | None = None
    last: bool = True


def grows_from(piece: str, gathered: str) -> bool:
    """Whether a prompt's text is `gathered` said again from its start, perhaps grown
    ("Add a task" → "Add a task to call the plumber."): a recogniser that sends each
    partial as its whole hypothesis so far, rather than the words new since the last."""
    said, before = _words(piece), _words(gathered)
    return bool(before) and said[: len(before)] == before


def revises(piece: str, gathered: str) -> bool:
    """Whether a prompt's text is a new hypothesis of the whole utterance gathered so
    far rather than the words that follow it: it restates a short start ("Add a test" →
    "Add a task to call the plumber") or three quarters of its words in order ("add a
    task to buy milk" → "I already have a task to buy milk"). Words that continue an
    utterance ("add a task" → "to call the electrician") seldom repeat it, and a second
    request in the same frame ("add a task to buy milk" → "add a task to call mom")
    shares less, so it is still joined."""
    said, before = _words(piece)[:_COMPARED], _words(gathered)[:_COMPARED]
    if len(before) < 2 or not said:
        return False
    if len(before) <= 3 and said[:2] == before[:2]:
        return True
    return 4 * _in_order(said, before) >= 3 * len(before)


# Enough of each to judge; a recogniser's hypotheses differ early, not in word 60.
_COMPARED = 40


def _in_order(said: list[str], before: list[str]) -> int:
    """How many of `before`'s words `said` holds in the same order (longest common
    subsequence, on a few dozen words)."""
    row = [0] * (len(before) + 1)
    for word in said:
        diagonal = 0
        for j, other in enumerate(before, 1):
            above = row[j]
            row[j] = diagonal + 1 if word == other else max(row[j], row[j - 1])
            diagonal = above
    return row[-1]


def _words(text: str) -> list[str]:
    stripped = (word.strip(".,!?;:'\"").lower() for word in text.split())
    return [word for word in stripped if word]


class InterruptFrame(_Inbound):
    """Barge-in: the caller spoke over us; what they heard of the talk cycle until then."""

    type: Literal["interrupt"]
    utterance_until_interrupt: str = Field("", alias="utteranceUntilInterrupt")
    # Documented as a number, sent as a string by some versions: either is accepted.
    duration_until_interrupt_ms: float | str | None = Field(None, alias="durationUntilInterruptMs")


class DtmfFrame(_Inbound):
    """A key the caller pressed."""

    type: Literal["dtmf"]
    digit: str


class ErrorFrame(_Inbound):
    """The platform reports a problem (often a frame of ours it dropped)."""

    type: Literal["error"]
    description: str = ""


InboundFrame = Annotated[
    SetupFrame | PromptFrame | InterruptFrame | DtmfFrame | ErrorFrame,
    Field(discriminator="type"),
]
_INBOUND: TypeAdapter[InboundFrame] = TypeAdapter(InboundFrame)


class FrameError(ValueError):
    """A frame the bridge cannot use: not JSON, not an object, unknown type, bad fields."""


def parse_frame(raw: str) -> SetupFrame | PromptFrame | InterruptFrame | DtmfFrame | ErrorFrame:
    """One inbound text frame as its model; FrameError saying why it cannot be used."""
    try:
        data = strict_json.loads(raw)
    except ValueError as exc:
        raise FrameError(f"not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise FrameError("not a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise FrameError("no type")
    bad = invalid_text_at(data)
    if bad is not None:  # a lone surrogate: it would fail the turn when spoken or stored
        raise FrameError(f"{kind}: {bad!a} is not valid UTF-8")
    try:
        return _INBOUND.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or kind
        raise FrameError(f"{kind}: {where}: {first['msg']}") from exc


# --- us → platform ------------------------------------------------------------------


def text_frame(
    token: str,
    *,
    last: bool,
    lang: str | None = None,
    interruptible: bool | None = None,
    preemptible: bool | None = None,
) -> dict[str, Any]:
    """A piece of speech; `last: true` ends the talk cycle."""
    frame: dict[str, Any] = {"type": "text", "token": token, "last": last}
    if lang is not None:
        frame["lang"] = lang
    if interruptible is not None:
        frame["interruptible"] = interruptible
    if preemptible is not None:
        frame["preemptible"] = preemptible
    return frame


def play_frame(source: str, *, loop: int = 1, interruptible: bool | None = None) -> dict[str, Any]:
    """Play an audio file (a URL the platform can fetch)."""
    frame: dict[str, Any] = {"type": "play", "source": source, "loop": loop}
    if interruptible is not None:
        frame["interruptible"] = interruptible
    return frame


def send_digits_frame(digits: str) -> dict[str, Any]:
    """Send DTMF tones on the call (`w` waits half a second)."""
    return {"type": "sendDigits", "digits": digits}


def language_frame(tts_language: str, transcription_language: str) -> dict[str, Any]:
    """Switch the voice and the speech recognition to other languages mid-call."""
    return {
        "type": "language",
        "ttsLanguage": tts_language,
        "transcriptionLanguage": transcription_language,
    }


def end_frame(handoff_data: str | None = None) -> dict[str, Any]:
    """End the session; `handoffData` (a string, usually JSON) reaches the `action` URL."""
    frame: dict[str, Any] = {"type": "end"}
    if handoff_data is not None:
        frame["handoffData"] = handoff_data
    return frame


__all__ = [
    "DtmfFrame",
    "ErrorFrame",
    "FrameError",
    "InterruptFrame",
    "PromptFrame",
    "SetupFrame",
    "end_frame",
    "language_frame",
    "parse_frame",
    "play_frame",
    "send_digits_frame",
    "text_frame",
]
