"""Streamed chat-completion chunks assembled into text and whole tool calls.

Servers that claim OpenAI compatibility split tool calls in different ways, and every
one of these shapes must assemble to the same calls:

- OpenAI: a first fragment with `index`, `id`, `name` and empty `arguments`, then
  argument pieces (same `index`, no id) split anywhere, even inside a string;
- a whole call in one fragment, or several whole calls in one chunk (Ollama, Gemini
  through LiteLLM);
- `index` missing or null (Gemini, older Ollama);
- `index` stuck at 0 for every parallel call while the ids differ (Ollama, LiteLLM);
- the id repeated in every fragment of the same call (Fireworks, DeepSeek);
- a last chunk with `choices: []` carrying usage;
- text content before, or alongside, the tool calls.

So a fragment is matched to a call by its id first (a known id continues that call, a
new id starts one), then by its index, and only then by position: a fragment with
neither continues the last call unless it names a tool after that call is complete.

Pure: it sees plain JSON dicts (`chunk.to_dict()`), so tests feed it literal chunks.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Arguments that are not a JSON object travel to the engine under this key, raw, so it
#: reports the call as `invalid_arguments` ("arguments are not valid JSON").
RAW_ARGUMENTS_KEY = "__raw_arguments__"


@dataclass(slots=True)
class _PartialCall:
    call_id: str | None
    name: str = ""
    arguments: list[str] = field(default_factory=list)

    @property
    def arguments_text(self) -> str:
        return "".join(self.arguments)


@dataclass(frozen=True, slots=True)
class AssembledCall:
    """One whole tool call as the model produced it: wire name, raw arguments text."""

    call_id: str
    name: str
    arguments_text: str

    @property
    def arguments(self) -> dict[str, Any]:
        return parse_arguments(self.arguments_text)


def parse_arguments(text: str) -> dict[str, Any]:
    """A JSON object from the model's arguments; anything else kept raw for the engine."""
    if not text.strip():
        return {}  # some servers send "" for a tool without parameters
    try:
        value = json.loads(text)
        if isinstance(value, str):
            value = json.loads(value)  # double-encoded by a few proxies
    except json.JSONDecodeError:
        return {RAW_ARGUMENTS_KEY: text}
    if isinstance(value, dict):
        return value
    return {RAW_ARGUMENTS_KEY: text}


def _is_complete(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except json.JSONDecodeError:
        return False


def _starts_another(call: _PartialCall, name: str) -> bool:
    # A fragment naming a tool, after `call` already has its name, is a new call when the
    # name differs or `call` is complete; a repeated name mid-arguments continues it.
    return bool(name and call.name) and (name != call.name or _is_complete(call.arguments_text))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    # Arguments sent as an object rather than a JSON string.
    return json.dumps(value, ensure_ascii=False)


class StreamAccumulator:
    """Feed it every chunk of one streamed completion; read the text and calls after."""

    def __init__(self) -> None:
        self._calls: list[_PartialCall] = []
        self._by_id: dict[str, _PartialCall] = {}
        self._by_index: dict[int, _PartialCall] = {}
        self._text: list[str] = []
        self.finish_reason: str | None = None

    @property
    def text(self) -> str:
        return "".join(self._text)

    @property
    def has_tool_calls(self) -> bool:
        return bool(self._calls)

    def feed(self, chunk: Mapping[str, Any]) -> str:
        """Take one chunk; return the text content it carried ("" when none)."""
        piece = ""
        for choice in chunk.get("choices") or ():  # `choices: []` carries only usage
            if (choice.get("index") or 0) != 0:
                continue  # only one choice is ever asked for
            delta = choice.get("delta") or {}
            content = delta.get("content")
            if isinstance(content, str) and content:
                piece += content
            for fragment in delta.get("tool_calls") or ():
                self._take(fragment)
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
        if piece:
            self._text.append(piece)
        return piece

    def calls(self) -> list[AssembledCall]:
        """Every call, in the order the model started them, each with an id."""
        return [
            AssembledCall(
                call_id=call.call_id or f"call_{uuid.uuid4().hex[:24]}",
                name=call.name,
                arguments_text=call.arguments_text,
            )
            for call in self._calls
        ]

    def finished_calls(self) -> list[AssembledCall]:
        """The calls already whole while the stream goes on, in the order begun.

        Whole means named, with the server's id, and arguments that are a complete JSON
        object (or still empty once a later call has begun: a tool without parameters).
        Nothing more can join such a call: another fragment would start a new one. A
        call without an id yet waits for the end (some servers send the id late).
        """
        whole: list[AssembledCall] = []
        last = len(self._calls) - 1
        for position, call in enumerate(self._calls):
            if not call.name or call.call_id is None:
                continue
            text = call.arguments_text
            if _is_complete(text) or (position < last and not text.strip()):
                whole.append(AssembledCall(call.call_id, call.name, text))
        return whole

    # --- matching a fragment to its call ----------------------------------------------

    def _take(self, fragment: Mapping[str, Any]) -> None:
        function = fragment.get("function") or {}
        call_id = fragment.get("id") or None
        index = fragment.get("index")
        name = _text(function.get("name"))
        call = self._find(call_id, index if isinstance(index, int) else None, name)
        if call_id and call.call_id is None:
            call.call_id = call_id
            self._by_id[call_id] = call
        if name and not call.name:
            call.name = name
        arguments = _text(function.get("arguments"))
        if arguments:
            call.arguments.append(arguments)

    def _find(self, call_id: str | None, index: int | None, name: str) -> _PartialCall:
        if call_id is not None:
            known = self._by_id.get(call_id)
            if known is not None:
                return known
            # A new id: a new call, unless the call at this index has no id yet (a server
            # that sends the id after the first fragment).
            same_index = self._by_index.get(index) if index is not None else None
            if same_index is not None and same_index.call_id is None:
                return same_index
            return self._start(call_id, index)
        # No id: an index seen before continues its latest call (which also covers
        # "index stuck at 0" once ids told the calls apart); without an index, the last.
        latest = self._by_index.get(index) if index is not None else self._last()
        if latest is None or _starts_another(latest, name):
            return self._start(None, index)
        return latest

    def _last(self) -> _PartialCall | None:
        return self._calls[-1] if self._calls else None

    def _start(self, call_id: str | None, index: int | None) -> _PartialCall:
        call = _PartialCall(call_id)
        self._calls.append(call)
        if call_id is not None:
            self._by_id[call_id] = call
        if index is not None:
            self._by_index[index] = call
        return call
