"""OpenAI's Chat Completions on the wire: the request we read, the chunks and errors we write.

Only what PLATFORMS.md section 1 names is read from the body (`messages`, `stream`,
`model`, `user`, `metadata`, Vapi's `call`); every other field a platform sends
(`temperature`, `tools`, extras) is accepted and ignored.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import hdrs, web

from assistant.schema import AssistantTurn, Message, UserTurn
from assistant.transports import strict_json
from assistant.transports.platform_retry import fingerprint, said_words
from assistant.transports.strict_json import DuplicateKey, NumberTooLong
from assistant.transports.utf8 import invalid_text_problem

_ROLES: Final = frozenset({"system", "developer", "user", "assistant", "tool", "function"})


class BadRequest(ValueError):
    """The body is not a chat completions request; the message names what is wrong."""


@dataclass(frozen=True, slots=True)
class CompletionRequest:
    text: str  # the last user message: this turn's words
    earlier: tuple[Message, ...]  # what was said before it, for a conversation we lost
    # What the platform says it played after the customer's previous message (its
    # assistant messages there, joined; "" for none); None when it sent no earlier turn.
    said_between: str | None
    # Whether the history holds any assistant message: a platform that records what
    # its voice played (most do; an integration sending only the caller's words does not).
    records_said: bool
    # The messages up to the last user one, hashed: the same again is a retry.
    fingerprint: str
    first_user: str
    stream: bool
    model: str
    call_id: str | None  # Vapi's call.id
    conversation_id: str | None  # metadata.conversation_id
    user: str | None
    customer_id: str | None  # metadata.customer_id
    phone: str | None  # call.customer.number (Vapi), else metadata.caller_phone

    @property
    def with_history(self) -> bool:
        """The request carries earlier words of the caller's (not the newest alone)."""
        return any(isinstance(message, UserTurn) for message in self.earlier)

    @property
    def named(self) -> bool:
        """The platform names the conversation (else it is known by its first words)."""
        return any((self.call_id, self.conversation_id, self.user))

    def heard(self, recorded_before: bool) -> str | None:
        """What the caller heard before this turn, as far as the history says: None when it
        says nothing of it (no earlier turn, or no assistant message at all from a
        platform that never recorded one in this call). A platform that recorded our
        words before (`recorded_before`) and now sends none has dropped them: the caller
        heard nothing (a barge-in before the first word, or a history edited)."""
        if self.records_said or recorded_before:
            return self.said_between
        return None

    def conversation_key(self, caller: str) -> str:
        """Which conversation this is (PLATFORMS.md: call.id, conversation_id, user, else
        a hash of the caller and the first user message)."""
        for key in (self.call_id, self.conversation_id, self.user):
            if key:
                return key
        # The first words as words: a retry's "Add a task…." is the same conversation.
        digest = hashlib.sha256(f"{caller}\n{said_words(self.first_user)}".encode())
        return f"h_{digest.hexdigest()[:24]}"


def parse_request(body: bytes) -> CompletionRequest:
    try:
        data = strict_json.loads(body)
    except (DuplicateKey, NumberTooLong) as exc:
        raise BadRequest(f"the body cannot be read one way: {exc}") from exc
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError among them
        raise BadRequest(f"the body is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    # Caught here, not as a UnicodeEncodeError in the middle of the turn (was: a 500).
    problem = invalid_text_problem(data)
    if problem is not None:
        raise BadRequest(problem)
    model = data.get("model")
    if model is not None and not isinstance(model, str):
        raise BadRequest("'model' must be a string")
    messages = data.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("'messages' must be a non-empty list")
    said: list[tuple[str, str]] = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in _ROLES:
            raise BadRequest(f"messages[{index}] needs a 'role' (system, user, assistant, tool)")
        said.append((message["role"], _text(message.get("content"), index)))
    users = [i for i, (role, text) in enumerate(said) if role == "user" and text.strip()]
    if not users:
        raise BadRequest("'messages' has no user message with text")
    last = max(i for i, (role, _) in enumerate(said) if role == "user")
    if last != users[-1]:
        # An earlier message is history, not this turn's words: running it again would
        # repeat a request (a write) the caller made and was answered on before.
        raise BadRequest(f"messages[{last}], the last user message, has no text")
    stream = data.get("stream", False)
    if not isinstance(stream, bool):
        raise BadRequest("'stream' must be true or false")
    metadata = _object(data, "metadata")
    call = _object(data, "call")
    customer = call.get("customer")
    customer = customer if isinstance(customer, dict) else {}
    earlier: list[Message] = []
    for role, text in said[: users[-1]]:
        if role == "user" and text.strip():
            earlier.append(UserTurn(text=text.strip()))
        elif role == "assistant" and text.strip():
            earlier.append(AssistantTurn(kind="answer", text=text.strip()))
    return CompletionRequest(
        text=said[users[-1]][1].strip(),
        earlier=tuple(earlier),
        said_between=_said_between(said, users),
        records_said=any(role == "assistant" for role, _ in said),
        fingerprint=fingerprint(said[: users[-1] + 1]),
        first_user=said[users[0]][1].strip(),
        stream=stream,
        model=model or "assistant",
        call_id=_string(call.get("id"), "call.id"),
        conversation_id=_string(metadata.get("conversation_id"), "metadata.conversation_id"),
        user=_string(data.get("user"), "user"),
        customer_id=_string(metadata.get("customer_id"), "metadata.customer_id"),
        phone=_string(customer.get("number"), "call.customer.number")
        or _string(metadata.get("caller_phone"), "metadata.caller_phone"),
    )


def _said_between(said: list[tuple[str, str]], users: list[int]) -> str | None:
    """The assistant text between the last two user messages (the platform's record of
    what its voice played: cut short at a barge-in, absent when none was heard). None
    when there is no earlier user message."""
    if len(users) < 2:
        return None
    between = said[users[-2] + 1 : users[-1]]
    return " ".join(text.strip() for role, text in between if role == "assistant" and text.strip())


def _text(content: Any, index: int) -> str:
    """A message's text: a string, or the text parts of a list of parts."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return " ".join(p for p in parts if isinstance(p, str))
    raise BadRequest(f"messages[{index}].content must be a string or a list of parts")


def _object(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadRequest(f"'{name}' must be an object")
    return value


def _string(value: Any, name: str) -> str | None:
    """A field naming who calls or which conversation: a string (or a whole number, as
    some platforms send ids); None when absent or empty. Any other type is refused, never
    skipped: skipping `metadata.customer_id` would answer for whoever the number is."""
    if value is None or value == "":
        return None
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return str(value)
    raise BadRequest(f"'{name}' must be a string, not {type(value).__name__}")


# --- what we write ---------------------------------------------------------------------


def error_response(
    status: int, message: str, *, type: str, code: str, retry_after_s: float | None = None
) -> web.Response:
    """OpenAI's error shape: `{"error": {"message", "type", "code"}}`."""
    headers = {}
    if retry_after_s is not None:
        headers[hdrs.RETRY_AFTER] = str(max(1, round(retry_after_s + 0.49)))
    if status == 401:
        headers[hdrs.WWW_AUTHENTICATE] = "Bearer"
    body = {"error": {"message": message, "type": type, "code": code, "param": None}}
    return web.json_response(body, status=status, headers=headers)


def tool_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One function call as `tool_calls` carry it."""
    return {
        "id": f"call_{uuid.uuid4().hex[:24]}",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


class Chunks:
    """The `chat.completion.chunk`s of one response, and the `chat.completion` it sums to."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.created = int(time.time())
        self.id = f"chatcmpl-{uuid.uuid4().hex[:12]}"  # until the turn's id is known
        self._role_sent = False

    def content(self, text: str) -> dict[str, Any]:
        delta: dict[str, Any] = {"content": text}
        if not self._role_sent:
            self._role_sent = True
            delta = {"role": "assistant", **delta}
        return self._chunk(delta, None)

    def tool_calls(self, call: dict[str, Any]) -> dict[str, Any]:
        delta: dict[str, Any] = {"tool_calls": [{"index": 0, **call}]}
        if not self._role_sent:
            self._role_sent = True
            delta = {"role": "assistant", **delta}
        return self._chunk(delta, None)

    def end(self, finish_reason: str) -> dict[str, Any]:
        return self._chunk({}, finish_reason)

    def completion(
        self, text: str, call: dict[str, Any] | None, finish_reason: str
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if call is not None:
            message["tool_calls"] = [call]
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [
                {"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }

    def _chunk(self, delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [
                {"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}
            ],
        }


def sse(data: dict[str, Any] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return f"data: {text}\n\n".encode()


__all__ = [
    "BadRequest",
    "Chunks",
    "CompletionRequest",
    "error_response",
    "parse_request",
    "sse",
    "tool_call",
]
