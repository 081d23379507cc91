"""The planner on an OpenAI-compatible model: native tool calling, streamed.

Text the model streams before its tool calls is the acknowledgement. It cannot be
told apart from a final answer until a tool call shows up, so it is held until then
and released through `PlanRequest.on_ack` at that moment. Text the model streams after
its tool calls have begun is dropped: spoken as the acknowledgement it would come
before any tool ran, and it is often a claim of the results ("Done! …").
A stream that ends without tool calls was a final answer and is never sent as one.

Each tool call goes to `PlanRequest.on_call` the moment its arguments are complete, so
the engine can start it while the model is still streaming the next one; the decision
returned at the end lists every call all the same. Text before any tool call also goes
to `PlanRequest.on_text` as it streams: the engine may speak it as the answer once it
can tell it is one (assistant/answer_stream.py).

Every call the model produced is returned, even one naming an unknown tool or with
arguments that are not JSON: the engine answers those with `invalid_arguments`.
"""

from __future__ import annotations

from contextlib import aclosing

from assistant.errors import ModelUnavailable
from assistant.models.openai_compat.accumulator import StreamAccumulator
from assistant.models.openai_compat.chat_model import ChatModel
from assistant.models.openai_compat.messages import history_messages, tool_params
from assistant.models.openai_compat.names import ToolNames
from assistant.models.openai_compat.prompts import planner_prompt
from assistant.schema import (
    AckSink,
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
)


class _Acknowledgement:
    """Text held until it is known to precede tool calls, then forwarded piece by piece.

    What is forwarded, joined, is exactly `text`: leading space is dropped and trailing
    space is held back until more words follow it.
    """

    def __init__(self, sink: AckSink | None) -> None:
        self._sink = sink
        self._held = ""
        self._sent: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self._sent)

    @property
    def streamed(self) -> bool:
        return self._sink is not None and bool(self._sent)

    def hold(self, piece: str) -> None:
        self._held += piece

    async def release(self) -> None:
        held = self._held if self._sent else self._held.lstrip()
        words = held.rstrip()
        if not words:
            self._held = held
            return
        self._held = held[len(words) :]
        self._sent.append(words)
        if self._sink is not None:
            await self._sink(words)


class OpenAIPlanner:
    """`Planner` over chat completions with `tools`, `parallel_tool_calls` and streaming."""

    def __init__(self, model: ChatModel) -> None:
        self._model = model

    async def decide(self, request: PlanRequest) -> FinalDecision | ToolCallsDecision:
        names = ToolNames(tool.name for tool in request.tools)
        messages = [
            {"role": "system", "content": planner_prompt(request)},
            *history_messages(request.conversation, names),
        ]
        accumulator = StreamAccumulator()
        acknowledgement = _Acknowledgement(request.on_ack)
        handed: set[str] = set()
        chunks = self._model.stream(messages, tools=tool_params(request.tools, names))
        async with aclosing(chunks):
            async for chunk in chunks:
                calling = accumulator.has_tool_calls
                piece = accumulator.feed(chunk)
                if calling:
                    await self._hand_over(accumulator, names, request, handed)
                    continue  # the tail after the tool calls is never spoken
                acknowledgement.hold(piece)
                if piece and request.on_text is not None:
                    await request.on_text(piece)
                if accumulator.has_tool_calls:
                    await acknowledgement.release()
                    await self._hand_over(accumulator, names, request, handed)
        if accumulator.has_tool_calls:
            calls = tuple(
                ToolCall(
                    call_id=call.call_id,
                    tool_name=names.to_catalog(call.name),
                    arguments=call.arguments,
                )
                for call in accumulator.calls()
            )
            return ToolCallsDecision(
                calls=calls,
                acknowledgement=acknowledgement.text or None,
                acknowledgement_streamed=acknowledgement.streamed,
            )
        text = accumulator.text.strip()
        if not text and request.round == 1:
            # Nothing to say and nothing to do: the model misbehaved, not the customer.
            raise ModelUnavailable(
                f"model returned neither text nor tool calls "
                f"(finish_reason={accumulator.finish_reason})"
            )
        return FinalDecision(text=text)

    @staticmethod
    async def _hand_over(
        accumulator: StreamAccumulator, names: ToolNames, request: PlanRequest, handed: set[str]
    ) -> None:
        """Each call whose arguments just became complete, to `on_call`, once."""
        if request.on_call is None:
            return
        for call in accumulator.finished_calls():
            if call.call_id in handed:
                continue
            handed.add(call.call_id)
            await request.on_call(
                ToolCall(
                    call_id=call.call_id,
                    tool_name=names.to_catalog(call.name),
                    arguments=call.arguments,
                )
            )

    async def aclose(self) -> None:
        await self._model.aclose()
