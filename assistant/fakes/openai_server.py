"""A scripted in-process OpenAI-compatible `/v1/chat/completions` server.

`openai_server` streams scripted responses as Server-Sent Events exactly as the real
API does (`data: {chunk}` blocks, `object: chat.completion.chunk`, `data: [DONE]`), and
validates requests the way the real API does, answering 400 with an OpenAI error body:
function names outside `^[a-zA-Z0-9_-]{1,64}$`, an assistant message with `tool_calls`
not followed by one `tool` message per `tool_call_id`, a `tool` message answering no
open call, `tool_choice`/`parallel_tool_calls` without `tools`. Every request is
recorded. The script is a queue: each request takes the next response (a stream, or an
error status such as 429 with `retry-after`, or 500); a request past the end of the
script gets a 500 and fails the test at teardown, as does a script left unused. A
`Drop` in a stream cuts the connection there, without `[DONE]`.

The test suite's fixtures (tests/fixtures/openai_server.py) and the latency benchmark
serve it.

Chunk helpers (`content`, `tool_delta`, `finish`, `usage_only`, `text_reply`,
`tool_calls_reply`) build the shapes real servers send.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

FUNCTION_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ROLES = {"system", "developer", "user", "assistant", "tool"}

Chunk = dict[str, Any]


# --- chunk builders --------------------------------------------------------------------


def content(text: str, *, role: bool = False) -> Chunk:
    """A chunk carrying a piece of text content."""
    delta: dict[str, Any] = {"content": text}
    if role:
        delta["role"] = "assistant"
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def tool_delta(*fragments: dict[str, Any]) -> Chunk:
    """A chunk carrying tool-call fragments, given literally (any server's shape)."""
    return {"choices": [{"index": 0, "delta": {"tool_calls": list(fragments)}}]}


def fragment(
    *,
    index: int | str | None = "absent",
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
) -> dict[str, Any]:
    """One tool-call fragment; `index="absent"` leaves the key out entirely."""
    piece: dict[str, Any] = {}
    if index != "absent":
        piece["index"] = index
    if call_id is not None:
        piece["id"] = call_id
        piece["type"] = "function"
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        piece["function"] = function
    return piece


def finish(reason: str) -> Chunk:
    """The chunk that ends a choice: an empty delta and a finish reason."""
    return {"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}


def usage_only() -> Chunk:
    """The last chunk when usage is included: no choices at all."""
    return {
        "choices": [],
        "usage": {"prompt_tokens": 42, "completion_tokens": 7, "total_tokens": 49},
    }


def text_reply(*pieces: str) -> list[Chunk]:
    """A plain streamed answer, one chunk per piece, as OpenAI sends it."""
    return [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]},
        *(content(piece) for piece in pieces),
        finish("stop"),
    ]


def tool_calls_reply(*calls: tuple[str, str, str], preamble: Iterable[str] = ()) -> list[Chunk]:
    """Parallel tool calls the way OpenAI streams them.

    Each call is (id, function name, arguments JSON): a first fragment with index, id,
    name and empty arguments, then the arguments in pieces of 7 characters.
    """
    chunks: list[Chunk] = [content("", role=True), *(content(text) for text in preamble)]
    for index, (call_id, name, arguments) in enumerate(calls):
        chunks.append(tool_delta(fragment(index=index, call_id=call_id, name=name, arguments="")))
        for start in range(0, len(arguments), 7):
            chunks.append(tool_delta(fragment(index=index, arguments=arguments[start : start + 7])))
    chunks.append(finish("tool_calls"))
    return chunks


# --- the server ------------------------------------------------------------------------


@dataclass
class Gate:
    """A pause in a scripted stream until the test opens it (or a generous bound ends it).

    Proves order by structure: the stream cannot go on until the client reacted.
    """

    event: asyncio.Event = field(default_factory=asyncio.Event)
    reached: bool = False
    timed_out: bool = False
    bound_s: float = 10.0

    def open(self) -> None:
        self.event.set()

    async def wait(self) -> None:
        self.reached = True
        try:
            async with asyncio.timeout(self.bound_s):
                await self.event.wait()
        except TimeoutError:
            self.timed_out = True


@dataclass
class Delay:
    """A pause of a fixed time in a scripted stream: a model's pace (for the benchmark)."""

    seconds: float


@dataclass
class Drop:
    """The connection lost mid-stream: no more chunks, no `[DONE]`, the socket closed
    (a model server that crashed, or a proxy that cut the response half way)."""


@dataclass
class Scripted:
    chunks: list[Chunk | Gate | Delay | Drop] = field(default_factory=list)
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    message: str = ""


class Rejected(Exception):
    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param


def _error_body(
    message: str, kind: str, *, param: str | None = None, code: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _check_name(name: Any, where: str) -> None:
    if not isinstance(name, str) or not FUNCTION_NAME.match(name):
        raise Rejected(
            f"Invalid '{where}': string does not match pattern. Expected a string that "
            "matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
            where,
        )


def _check_tools(body: dict[str, Any]) -> None:
    tools = body.get("tools")
    if tools is None:
        for key in ("tool_choice", "parallel_tool_calls"):
            if key in body:
                raise Rejected(f"'{key}' is only allowed when 'tools' are specified.", key)
        return
    if not isinstance(tools, list) or not tools:
        raise Rejected("Invalid 'tools': empty array. Expected an array with minimum length 1.")
    for i, tool in enumerate(tools):
        if tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
            raise Rejected(f"Invalid value: 'tools[{i}].type'.", f"tools[{i}].type")
        _check_name(tool["function"].get("name"), f"tools[{i}].function.name")
        if not isinstance(tool["function"].get("parameters", {}), dict):
            raise Rejected(f"Invalid 'tools[{i}].function.parameters'.")


def _check_messages(messages: Any) -> None:
    if not isinstance(messages, list) or not messages:
        raise Rejected("Invalid 'messages': empty array.", "messages")
    open_ids: set[str] = set()  # calls of the last assistant message not yet answered
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ROLES:
            raise Rejected(f"Invalid value: '{role}'.", f"messages[{i}].role")
        if role != "tool" and open_ids:
            raise Rejected(
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(sorted(open_ids))}",
                f"messages.[{i}].role",
            )
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_ids:
                raise Rejected(
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.",
                    f"messages.[{i}].role",
                )
            if not isinstance(message.get("content"), str):
                raise Rejected(f"Invalid type for 'messages[{i}].content'.")
            open_ids.discard(call_id)
        elif role == "assistant":
            calls = message.get("tool_calls")
            text = message.get("content")
            if text is not None and not isinstance(text, str):
                raise Rejected(f"Invalid type for 'messages[{i}].content'.")
            if calls is None:
                if text is None:
                    raise Rejected(
                        f"Invalid value for 'messages[{i}].content': expected a string, got null."
                    )
                continue
            if not calls:
                raise Rejected(f"Invalid 'messages[{i}].tool_calls': empty array.")
            for j, call in enumerate(calls):
                where = f"messages[{i}].tool_calls[{j}]"
                _check_name((call.get("function") or {}).get("name"), f"{where}.function.name")
                if not isinstance(call["function"].get("arguments"), str):
                    raise Rejected(f"Invalid type for '{where}.function.arguments'.")
                if not call.get("id") or call["id"] in open_ids:
                    raise Rejected(f"Invalid '{where}.id'.")
                open_ids.add(call["id"])
        elif not isinstance(message.get("content"), str | list):
            raise Rejected(f"Invalid type for 'messages[{i}].content'.")
    if open_ids:
        raise Rejected(
            "An assistant message with 'tool_calls' must be followed by tool messages "
            "responding to each 'tool_call_id'. The following tool_call_ids did not have "
            f"response messages: {', '.join(sorted(open_ids))}",
            "messages",
        )


class OpenAIServer:
    """The scripted server: `stream(...)`/`fail(...)` queue responses; `requests` records."""

    def __init__(self) -> None:
        self.base_url = ""
        self.script: deque[Scripted] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.rejections: list[str] = []
        self.overruns = 0

    def stream(self, chunks: Iterable[Chunk | Gate | Delay | Drop]) -> None:
        self.script.append(Scripted(chunks=list(chunks)))

    def fail(self, status: int, *, retry_after_s: float | None = None, message: str = "") -> None:
        headers = {"retry-after": str(retry_after_s)} if retry_after_s is not None else {}
        self.script.append(Scripted(status=status, headers=headers, message=message))

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._completions)
        return app

    def check_used_up(self) -> None:
        assert self.overruns == 0, f"{self.overruns} request(s) arrived past the script"
        assert not self.script, f"{len(self.script)} scripted response(s) never requested"

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        try:
            if not isinstance(body.get("model"), str) or not body["model"]:
                raise Rejected("you must provide a model parameter", "model")
            _check_tools(body)
            _check_messages(body.get("messages"))
            if body.get("stream") is not True:
                raise Rejected("this test server only streams (stream must be true)", "stream")
        except Rejected as exc:
            self.rejections.append(exc.message)
            error = _error_body(exc.message, "invalid_request_error", param=exc.param)
            return web.json_response(error, status=400)
        if not self.script:
            self.overruns += 1
            error = _error_body("test server: no scripted response left", "server_error")
            return web.json_response(error, status=500)
        scripted = self.script.popleft()
        if scripted.status != 200:
            kind = "requests" if scripted.status == 429 else "server_error"
            message = scripted.message or f"scripted failure {scripted.status}"
            return web.json_response(
                _error_body(message, kind), status=scripted.status, headers=scripted.headers
            )
        return await self._stream(request, body["model"], scripted.chunks)

    async def _stream(
        self, request: web.Request, model: str, chunks: list[Chunk | Gate | Delay | Drop]
    ) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
            }
        )
        await response.prepare(request)
        envelope = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "system_fingerprint": "fp_test",
        }
        for item in chunks:
            if isinstance(item, Gate):
                await item.wait()
                continue
            if isinstance(item, Delay):
                await asyncio.sleep(item.seconds)
                continue
            if isinstance(item, Drop):
                if request.transport is not None:
                    request.transport.abort()
                return response
            chunk = {**envelope, **item}
            for choice in chunk["choices"]:
                choice.setdefault("logprobs", None)
                choice.setdefault("finish_reason", None)
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response
