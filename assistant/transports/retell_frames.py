"""Retell's LLM websocket frames (its API reference): what we read, what we send.

Frames both ways are JSON text. Retell sends `interaction_type` frames
(`call_details`, `ping_pong`, `update_only`, `response_required`,
`reminder_required`); we send `response_type` frames (`config`, `response`,
`ping_pong`, and the bookkeeping `tool_call_invocation` / `tool_call_result`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any, Final

from assistant.schema import ToolFinished, ToolStarted
from assistant.transports import strict_json
from assistant.transports.platform_retry import fingerprint
from assistant.transports.utf8 import invalid_text_at, without_lone_surrogates

log = logging.getLogger(__name__)

CONFIG: Final = {"auto_reconnect": True, "call_details": True}


def parse_frame(data: str) -> dict[str, Any] | None:
    """A frame as its JSON object; None (logged) for one that cannot be used. A lone
    surrogate in its text (a speech-recognition glitch) is replaced, not fatal."""
    try:
        frame = strict_json.loads(data)
    except ValueError as exc:
        log.warning("retell: ignoring a frame that is not usable JSON: %s", exc)
        return None
    if not isinstance(frame, dict):
        log.warning("retell: ignoring a frame that is not a JSON object")
        return None
    if invalid_text_at(frame) is not None:
        log.warning("retell: a frame's text is not valid UTF-8; lone surrogates replaced")
        cleaned: dict[str, Any] = without_lone_surrogates(frame)
        return cleaned
    return frame


def last_user_words(transcript: Any) -> str:
    """The last user utterance of Retell's transcript ([{role, content}, …])."""
    if not isinstance(transcript, list):
        return ""
    for utterance in reversed(transcript):
        if isinstance(utterance, dict) and utterance.get("role") == "user":
            content = utterance.get("content")
            return content.strip() if isinstance(content, str) else ""
    return ""


def heard_before_last_user(transcript: Any) -> str | None:
    """What the agent said between the caller's last two utterances, as Retell heard it
    spoken (cut short where the caller barged in); None before the caller's second."""
    if not isinstance(transcript, list):
        return None
    said: list[str] = []
    users = 0
    for utterance in reversed(transcript):
        if not isinstance(utterance, dict) or not isinstance(utterance.get("content"), str):
            continue
        if utterance.get("role") == "user":
            users += 1
            if users == 2:
                return " ".join(reversed(said))
        elif users == 1 and utterance.get("role") == "agent" and utterance["content"].strip():
            said.append(utterance["content"].strip())
    return None


@dataclass(frozen=True, slots=True)
class Asked:
    """What a response_required asks: the caller's last words, what they heard before
    them, and the transcript up to them hashed (the same again is Retell's retry)."""

    text: str
    heard: str | None
    fingerprint: str


def read_transcript(transcript: Any) -> Asked:
    said = [
        (str(u.get("role")), u["content"].strip())
        for u in (transcript if isinstance(transcript, list) else ())
        if isinstance(u, dict) and isinstance(u.get("content"), str)
    ]
    last_user = max((i for i, (role, _) in enumerate(said) if role == "user"), default=-1)
    return Asked(
        last_user_words(transcript),
        heard_before_last_user(transcript),
        fingerprint(said[: last_user + 1]),
    )


def tool_invocation(event: ToolStarted) -> dict[str, Any]:
    return {
        "response_type": "tool_call_invocation",
        "tool_call_id": event.call_id,
        "name": event.tool,
        "arguments": json.dumps(event.arguments, ensure_ascii=False),
    }


def tool_result(event: ToolFinished) -> dict[str, Any]:
    outcome = {"status": event.status, "error": event.error}
    return {
        "response_type": "tool_call_result",
        "tool_call_id": event.call_id,
        "content": json.dumps(outcome, ensure_ascii=False),
    }


__all__ = [
    "CONFIG",
    "Asked",
    "heard_before_last_user",
    "last_user_words",
    "parse_frame",
    "read_transcript",
    "tool_invocation",
    "tool_result",
]
