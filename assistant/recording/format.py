"""The recording format: one session as JSON Lines, one typed record per line.

    header       format version, backend, catalog digest, customer, start time,
                 the engine's knobs, which helper models were configured, and any
                 history the conversation began with
    user         a turn's user message (turns are numbered from 1 in the file)
    decision     one planner decision exactly as returned (or its error), with the
                 round and the `now` the engine gave, and any acknowledgement streamed
    narration    one narration: the pieces exactly as streamed (or its error)
    tool_result  one call's outcome: arguments, full result or error, attempts
    event        one event sent to the client, as wire JSON (shared/PROTOCOL.md), and
                 when: ms since the turn started (`at_ms`; absent in older files)

A file of another format version is refused by `read_recording` with a message
naming the version: replaying it against today's schema would compare nonsense.
No record holds a token or a secret; customer data is what the conversation held.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from assistant.errors import AssistantError
from assistant.schema import CustomerContext, Message, ModelDecision, ToolResult

FORMAT_VERSION = 1

ModelSource = Literal["planner", "follow_up"]
NarratorSource = Literal["narrator", "fallback"]


class RecordingFormatError(AssistantError):
    """A file is not a recording this assistant can replay; the message says why."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Header(_Record):
    kind: Literal["header"] = "header"
    format_version: int = FORMAT_VERSION
    backend: str
    catalog_digest: str
    customer: CustomerContext | None
    started_at: datetime
    engine: dict[str, Any] = Field(default_factory=dict)
    # Helper models the engine had: replay gives it the same ones.
    follow_up: bool = False
    fallback_narrator: bool = False
    # What the conversation held before its first turn: a voice platform's conversation
    # rebuilt from the messages it sent (PLATFORMS.md); replay starts from it too.
    history: tuple[Message, ...] = ()


class UserRecord(_Record):
    kind: Literal["user"] = "user"
    turn: int
    text: str
    message_id: str | None = None


class ModelError(_Record):
    """An exception a model raised: `type` is `ModelUnavailable` or another class name."""

    type: str
    message: str


class DecisionRecord(_Record):
    kind: Literal["decision"] = "decision"
    turn: int
    source: ModelSource = "planner"
    round: int
    now: datetime
    ack_pieces: list[str] = Field(default_factory=list)
    # What a streaming planner handed over before its decision ended: the text it
    # streamed (`on_text`) and the ids of the calls it passed on as they completed
    # (`on_call`), so that a replay starts the same calls early and speaks the same text.
    streamed_text: list[str] = Field(default_factory=list)
    streamed_calls: list[str] = Field(default_factory=list)
    decision: ModelDecision | None = None
    error: ModelError | None = None
    cancelled: bool = False


class NarrationRecord(_Record):
    kind: Literal["narration"] = "narration"
    turn: int
    source: NarratorSource = "narrator"
    now: datetime | None = None
    context_hint: str = ""
    confirmation_prompt: str | None = None
    pieces: list[str] = Field(default_factory=list)
    error: ModelError | None = None
    cancelled: bool = False


class ToolResultRecord(_Record):
    kind: Literal["tool_result"] = "tool_result"
    turn: int
    result: ToolResult


class EventRecord(_Record):
    kind: Literal["event"] = "event"
    turn: int
    event: dict[str, Any]
    # When it was sent, in ms since the turn started (for the timeline); older
    # recordings have none.
    at_ms: float | None = None


TurnRecord = Annotated[
    UserRecord | DecisionRecord | NarrationRecord | ToolResultRecord | EventRecord,
    Field(discriminator="kind"),
]
_TURN_RECORD: TypeAdapter[TurnRecord] = TypeAdapter(TurnRecord)


@dataclass(slots=True)
class Turn:
    """Everything one turn of a recording holds, in file order per kind."""

    number: int
    user: UserRecord | None = None
    decisions: list[DecisionRecord] = field(default_factory=list)
    narrations: list[NarrationRecord] = field(default_factory=list)
    tool_results: list[ToolResultRecord] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    event_times_ms: list[float | None] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """False for a turn the session abandoned (the socket closed mid-turn)."""
        return any(event.get("type") == "turn.done" for event in self.events)

    @property
    def now(self) -> datetime | None:
        """The clock the engine read at the start of this turn, as its models saw it."""
        times = [d.now for d in self.decisions] + [n.now for n in self.narrations if n.now]
        return times[0] if times else None


@dataclass(slots=True)
class Recording:
    header: Header
    records: list[TurnRecord]

    def turns(self) -> list[Turn]:
        turns: dict[int, Turn] = {}
        for record in self.records:
            turn = turns.setdefault(record.turn, Turn(record.turn))
            if isinstance(record, UserRecord):
                turn.user = record
            elif isinstance(record, DecisionRecord):
                turn.decisions.append(record)
            elif isinstance(record, NarrationRecord):
                turn.narrations.append(record)
            elif isinstance(record, ToolResultRecord):
                turn.tool_results.append(record)
            else:
                turn.events.append(record.event)
                turn.event_times_ms.append(record.at_ms)
        return [turns[number] for number in sorted(turns)]


def dump_record(record: Header | TurnRecord) -> str:
    """One JSON line (no newline), fields in declaration order, nulls kept."""
    return json.dumps(record.model_dump(mode="json"), ensure_ascii=False)


def parse_lines(lines: Iterable[str], *, source: str = "recording") -> Recording:
    """A recording from its JSON lines; RecordingFormatError names what is wrong."""
    numbered = ((number, line) for number, line in enumerate(lines, 1) if line.strip())
    header: Header | None = None
    records: list[TurnRecord] = []
    for number, line in numbered:
        where = f"{source}:{number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordingFormatError(f"{where}: not JSON: {exc.msg}") from exc
        if header is None:
            header = _header(raw, where)
            continue
        try:
            records.append(_TURN_RECORD.validate_python(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(part) for part in first["loc"])
            raise RecordingFormatError(f"{where}: {loc}: {first['msg']}") from exc
    if header is None:
        raise RecordingFormatError(f"{source}: empty file, no header")
    return Recording(header, records)


def _header(raw: Any, where: str) -> Header:
    if not isinstance(raw, dict) or raw.get("kind") != "header":
        raise RecordingFormatError(f"{where}: the first line must be the header record")
    version = raw.get("format_version")
    if version != FORMAT_VERSION:
        raise RecordingFormatError(
            f"{where}: recording format version {version!r} is not supported: this "
            f"assistant replays format version {FORMAT_VERSION} only; record the "
            "conversation again"
        )
    try:
        return Header.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"])
        raise RecordingFormatError(f"{where}: header.{loc}: {first['msg']}") from exc


def read_recording(path: Path) -> Recording:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordingFormatError(f"{path}: cannot read: {exc.strerror}") from exc
    return parse_lines(text.splitlines(), source=str(path))


def recording_lines(recording: Recording) -> Iterator[str]:
    yield dump_record(recording.header)
    for record in recording.records:
        yield dump_record(record)


def write_recording(path: Path, recording: Recording) -> None:
    """Write atomically: a replaced file is either the old or the new recording."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text("".join(line + "\n" for line in recording_lines(recording)), "utf-8")
    temporary.replace(path)
