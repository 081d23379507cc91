"""The client frames of shared/PROTOCOL.md, validated, and the errors they earn.

Inbound models forbid extra fields and are strict (no "5" for 5); a frame that does
not fit gets `invalid_message` with a message naming what was wrong, never a close.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from assistant.transports import strict_json
from assistant.transports.strict_json import DuplicateKey, NumberTooLong
from assistant.transports.utf8 import invalid_text_problem


class _Inbound(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SessionStart(_Inbound):
    type: Literal["session.start"]
    token: str


class SessionResume(_Inbound):
    """Continue an earlier session (PROTOCOL.md): browsers add their token."""

    type: Literal["session.resume"]
    session_id: str
    token: str | None = None


class UserMessage(_Inbound):
    type: Literal["user.message"]
    text: str
    id: str | None = None


class TurnCancel(_Inbound):
    type: Literal["turn.cancel"]
    turn_id: str | None = None


ClientFrame = Annotated[
    SessionStart | SessionResume | UserMessage | TurnCancel, Field(discriminator="type")
]
_CLIENT_FRAME: Final = TypeAdapter[SessionStart | SessionResume | UserMessage | TurnCancel](
    ClientFrame
)
_FRAME_TYPES: Final = "session.start, session.resume, user.message, turn.cancel"


class FrameError(Exception):
    """A client frame refused with a PROTOCOL.md error code; the socket stays open."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        message_id: str | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_id = message_id
        self.retry_after_s = retry_after_s


def parse_frame(data: str) -> SessionStart | SessionResume | UserMessage | TurnCancel:
    """One text frame as a client frame; FrameError(invalid_message) naming what is wrong."""
    try:
        raw = strict_json.loads(data)
    except (DuplicateKey, NumberTooLong) as exc:
        raise FrameError("invalid_message", f"the frame cannot be read one way: {exc}") from None
    except ValueError as exc:
        raise FrameError("invalid_message", f"the frame is not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        kind = "an array" if isinstance(raw, list) else type(raw).__name__
        raise FrameError("invalid_message", f"the frame must be a JSON object, not {kind}")
    # Only a JSON escape (or a lone surrogate in `data` itself, which is then not ASCII)
    # can put text that is not UTF-8 in the frame: ASCII without "\\u", nearly every frame,
    # needs no walk over its strings.
    problem = None if data.isascii() and "\\u" not in data else invalid_text_problem(raw)
    if problem is not None:
        raise FrameError("invalid_message", problem)
    try:
        return _CLIENT_FRAME.validate_python(raw)
    except ValidationError as exc:
        raise FrameError("invalid_message", _describe(raw, exc)) from None


def _describe(raw: dict[str, Any], exc: ValidationError) -> str:
    problems: list[str] = []
    kind = raw.get("type")
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"][1:])
        match error["type"]:
            case "union_tag_not_found":
                return f"the frame has no 'type'; expected one of {_FRAME_TYPES}"
            case "union_tag_invalid":
                return f"unknown frame type {kind!r}; expected one of {_FRAME_TYPES}"
            case "missing":
                problems.append(f"'{field}' is required")
            case "extra_forbidden":
                problems.append(f"'{field}' is not a field of {kind}")
            case "string_type":
                problems.append(f"'{field}' must be a string")
            case _:
                problems.append(f"'{field}': {error['msg']}")
    return f"{kind}: {'; '.join(problems)}"
