"""Core types: tools, calls, decisions, results, conversation and the engine's events.

Values that cross a boundary (the tool catalog, model decisions) are frozen pydantic
models; the engine's events are slotted dataclasses (not frozen) because a turn makes a
dozen of them and they only need to be turned into wire JSON (`to_wire`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.dialogue_state import Dialogue
from assistant.errors import ToolErrorCode

# identity: a write to what recognises the customer (phone, email); confirmed like a
# destructive call.
Effect = Literal["read", "write", "destructive", "identity"]
ToolStatus = Literal["ok", "error", "skipped"]
TurnStatus = Literal["ok", "partial", "failed", "cancelled"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- tools -----------------------------------------------------------------------------


class RetryPolicy(_Frozen):
    """How often a call may be tried, and how long to wait in between."""

    attempts: int = Field(1, ge=1, le=5)
    backoff_initial_s: float = Field(0.1, gt=0, le=5)
    backoff_max_s: float = Field(1.0, gt=0, le=30)


# The parts of the CRM (CRM_API.md); crm.py names each for customers' ears.
CrmSystem = Literal["accounts", "scheduling", "billing", "tasks", "support"]


class HttpBinding(_Frozen):
    """How a tool is one plain REST request to the CRM, so it needs no handler of its own.

    `path` is under /v1/customers/{customer_id}/ ("" is the customer itself); a
    `{name}` segment is the argument `name`. `query` maps parameters to fixed values or
    to "{name}" (sent only when the argument is given); `body` lists the arguments sent
    in the JSON body (those given). `expect` is a key the answer must carry.
    """

    method: Literal["GET", "POST", "PATCH", "DELETE"]
    path: str = Field("", pattern=r"^$|^[A-Za-z0-9_{}-]+(/[A-Za-z0-9_{}-]+)*$")
    query: dict[str, str] = Field(default_factory=dict)
    body: tuple[str, ...] = ()
    expect: str | None = None


class ToolDefinition(_Frozen):
    """One tool of the catalog (config/tools.yaml): every fact about it lives there."""

    name: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")
    description: str = Field(min_length=1)
    parameters: dict[str, Any]
    waiting_hint: str = Field(min_length=1)
    effect: Effect
    timeout_s: float = Field(gt=0, le=60)
    retry: RetryPolicy = RetryPolicy()
    system: CrmSystem | None = None  # the part of the CRM it touches
    http: HttpBinding | None = None  # None: a backend handles it by name

    @property
    def writes(self) -> bool:
        return self.effect != "read"

    @property
    def needs_confirmation(self) -> bool:
        """Run only after the customer's "yes" (PROTOCOL.md, confirmation)."""
        return self.effect in ("destructive", "identity")


class ToolCall(_Frozen):
    """A call a model asked for. `arguments` never carry the customer id."""

    call_id: str
    tool_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


# --- model decisions -------------------------------------------------------------------


class FinalDecision(_Frozen):
    type: Literal["final"] = "final"
    text: str


class ToolCallsDecision(_Frozen):
    type: Literal["tool_calls"] = "tool_calls"
    calls: tuple[ToolCall, ...] = Field(min_length=1)
    # The model's own acknowledgement; when absent the waiting hints are merged.
    acknowledgement: str | None = None
    # True when the planner already streamed `acknowledgement` through `PlanRequest.on_ack`.
    acknowledgement_streamed: bool = False
    # True when the planner needs no further round after these calls (lookups whose
    # results only need telling): the engine narrates them without asking it again.
    last_round: bool = False


ModelDecision = Annotated[FinalDecision | ToolCallsDecision, Field(discriminator="type")]


# --- results ---------------------------------------------------------------------------


class ToolError(_Frozen):
    code: ToolErrorCode
    message: str
    retry_after_s: float | None = None
    # A write that may have been applied: its outcome could not be confirmed in time.
    unconfirmed: bool = False
    # Why the engine refused the call itself, said to the customer as is.
    say: str | None = None


class ToolResult(_Frozen):
    """The one outcome of one call: `result` when ok, `error` otherwise."""

    call: ToolCall
    round: int = 1
    status: ToolStatus
    result: Any = None
    error: ToolError | None = None
    latency_ms: int = 0
    attempts: int = 0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


# --- conversation ----------------------------------------------------------------------


class CustomerContext(_Frozen):
    """Who the session speaks for; bound from the session token, never from a model."""

    customer_id: str
    name: str | None = None
    timezone: str = "UTC"
    # False when the profile could not be read: `timezone` is then only a placeholder,
    # and no timed write is made until the profile is read again.
    timezone_known: bool = True


class UserTurn(_Frozen):
    role: Literal["user"] = "user"
    text: str


class AssistantTurn(_Frozen):
    """What the assistant said: an acknowledgement or an answer."""

    role: Literal["assistant"] = "assistant"
    kind: Literal["ack", "answer"]
    text: str


class ToolExchange(_Frozen):
    """One round of calls with exactly one result per call (providers require it)."""

    role: Literal["tools"] = "tools"
    round: int
    results: tuple[ToolResult, ...]


Message = Annotated[UserTurn | AssistantTurn | ToolExchange, Field(discriminator="role")]

AckSink = Callable[[str], Awaitable[None]]
# Receives each tool call the moment the model has finished streaming it.
CallSink = Callable[[ToolCall], Awaitable[None]]


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class PlanRequest:
    """What a planner gets for one decision.

    `conversation` is the session's history, ending with this turn's user message and
    then this turn's earlier rounds (acknowledgements and `ToolExchange`s).
    `turn_results` repeats this turn's results so far, oldest first, for convenience.
    A planner that streams text before its tool calls passes it to `on_ack`.

    Optional, for planners that stream (the embedded planner and replay ignore them):
    `on_call` gets each tool call as soon as it is complete, before the decision ends,
    so that the engine can start the reads at once; the returned decision still lists
    every call. `on_text` gets the text the model streams before any tool call, as it
    comes, so that a final answer can be spoken while it is being written.

    Made fresh for every decision and never changed after (a new one is made with
    `dataclasses.replace`); not frozen, because a frozen dataclass sets each of its eleven
    fields through `object.__setattr__` (21,000 instructions a request instead of 7,000).
    Hashable as before.
    """

    conversation: tuple[Message, ...]
    tools: tuple[ToolDefinition, ...]
    customer: CustomerContext | None
    now: datetime
    round: int = 1
    turn_results: tuple[ToolResult, ...] = ()
    max_calls: int = 4
    on_ack: AckSink | None = None
    # What the conversation is about: the items last listed, the one in focus, the last
    # action and the open question (assistant.dialogue).
    dialogue: Dialogue = dataclasses.field(default_factory=Dialogue)
    on_call: CallSink | None = None
    on_text: AckSink | None = None

    @property
    def user_message(self) -> str:
        for message in reversed(self.conversation):
            if isinstance(message, UserTurn):
                return message.text
        return ""


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class NarratorInput:
    """What a narrator gets: every result of the turn in the order requested.

    Made fresh for every narration and never changed after; not frozen, for the same
    reason as `PlanRequest` (24,000 instructions a request instead of 8,000)."""

    user_message: str
    tool_results: tuple[ToolResult, ...]
    context_hint: str
    customer: CustomerContext | None = None
    now: datetime | None = None
    conversation: tuple[Message, ...] = ()
    # Set when the turn ends by asking to confirm a destructive call: the narrator
    # should end its answer with this question.
    confirmation_prompt: str | None = None
    truncated_calls: int = 0
    dialogue: Dialogue = dataclasses.field(default_factory=Dialogue)
    # Progressive narration. First part: `waiting_on` names what is still running (its
    # waiting hints, "checking your billing"); say what the results show, then that.
    # Second part: `told` holds the call ids already narrated and `already_said` what
    # was said; speak only the rest, repeating nothing.
    waiting_on: tuple[str, ...] = ()
    told: frozenset[str] = frozenset()
    already_said: str = ""
    # The listings fetched only for the write checks (not read out): what the customer
    # has besides, for a sentence about it ("You also still have…").
    checked: tuple[ToolResult, ...] = ()


# --- engine events (the wire format is shared/PROTOCOL.md) ----------------------------
#
# Made, sent and dropped, a dozen a turn: slotted, hashable as before, but not frozen. A
# frozen dataclass's `__init__` sets each field through `object.__setattr__` (a call into
# C per field, 2.4% of a turn's CPU outside the planner); a plain one stores it directly.
# Nothing changes an event once made.


# Each event class's `to_wire`, made once per class: it runs for every frame of every
# turn. Fields hold plain JSON values (str, int, dicts and lists of them), so they go on
# the wire as they are. The function is written out as one dict display, as
# `dataclasses` writes `__init__`: 0.25 µs a frame, where a getter of the values zipped
# with the names cost 1.1 µs (a turn sends about twelve frames).
_WIRE_FUNCTIONS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _wire_function(cls: type) -> Callable[[Any], dict[str, Any]]:
    names = [field.name for field in dataclasses.fields(cls)]
    assert all(name.isidentifier() for name in names)  # field names: safe to write out
    items = "".join(f", {name!r}: event.{name}" for name in names)
    kind: str = getattr(cls, "type")  # noqa: B009  # a ClassVar of every event class
    namespace: dict[str, Any] = {}
    exec(f"def to_wire(event):\n    return {{'type': {kind!r}{items}}}", namespace)
    function: Callable[[Any], dict[str, Any]] = namespace["to_wire"]
    return function


class _Event:
    __slots__ = ()
    type: ClassVar[str]

    def to_wire(self) -> dict[str, Any]:
        """`{"type": …}` and then every field, in the order declared."""
        function = _WIRE_FUNCTIONS.get(type(self))
        if function is None:
            function = _WIRE_FUNCTIONS[type(self)] = _wire_function(type(self))
        return function(self)


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class TurnStarted(_Event):
    type: ClassVar[str] = "turn.started"
    turn_id: str
    message_id: str | None


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class AckDelta(_Event):
    type: ClassVar[str] = "ack.delta"
    turn_id: str
    round: int
    text: str


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class AckDone(_Event):
    type: ClassVar[str] = "ack.done"
    turn_id: str
    round: int
    text: str


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class ToolStarted(_Event):
    type: ClassVar[str] = "tool.started"
    turn_id: str
    round: int
    call_id: str
    tool: str
    arguments: dict[str, Any]


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class ToolFinished(_Event):
    type: ClassVar[str] = "tool.finished"
    turn_id: str
    round: int
    call_id: str
    tool: str
    status: ToolStatus
    error: dict[str, Any] | None
    latency_ms: int
    attempts: int


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class AnswerDelta(_Event):
    type: ClassVar[str] = "answer.delta"
    turn_id: str
    text: str


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class AnswerDone(_Event):
    type: ClassVar[str] = "answer.done"
    turn_id: str
    text: str


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class TurnDone(_Event):
    type: ClassVar[str] = "turn.done"
    turn_id: str
    status: TurnStatus
    tool_calls: list[dict[str, Any]]
    truncated_calls: int
    awaiting_confirmation: dict[str, Any] | None
    timings_ms: dict[str, int]
    trace_id: str | None = None


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class ErrorEvent(_Event):
    type: ClassVar[str] = "error"
    code: str
    message: str
    turn_id: str | None = None
    retry_after_s: float | None = None
    trace_id: str | None = None

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"type": self.type, "code": self.code, "message": self.message}
        if self.turn_id is not None:
            wire["turn_id"] = self.turn_id
        if self.trace_id is not None:
            wire["trace_id"] = self.trace_id
        if self.retry_after_s is not None:
            wire["retry_after_s"] = self.retry_after_s
        return wire


Event = (
    TurnStarted
    | AckDelta
    | AckDone
    | ToolStarted
    | ToolFinished
    | AnswerDelta
    | AnswerDone
    | TurnDone
    | ErrorEvent
)
EventSink = Callable[[Event], Awaitable[None]]


def tool_error_wire(error: ToolError | None) -> dict[str, Any] | None:
    """`{code, message}` as PROTOCOL.md shows it (retry_after_s only when known)."""
    if error is None:
        return None
    wire: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.retry_after_s is not None:
        wire["retry_after_s"] = error.retry_after_s
    if error.unconfirmed:
        wire["unconfirmed"] = True
    return wire
