"""The narrator on an OpenAI-compatible model: one spoken answer over every result.

A second streamed completion whose history ends with the turn's tool calls, each
answered by its own `tool` message (failures included), and whose system prompt
carries the engine's context hint. Its tokens leave in sentence-sized pieces.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import aclosing

from assistant.errors import ModelUnavailable
from assistant.models.openai_compat.accumulator import StreamAccumulator
from assistant.models.openai_compat.chat_model import ChatModel
from assistant.models.openai_compat.messages import narration_messages
from assistant.models.openai_compat.names import ToolNames
from assistant.models.openai_compat.prompts import narrator_prompt
from assistant.schema import NarratorInput
from assistant.sentence_grouper import SentenceGrouper

_NOT_WORDS = re.compile(r"[\W_]+")


def _ends_with(text: str, question: str) -> bool:
    # Compared on words only: a model may drop the quotes or change a comma.
    said = _NOT_WORDS.sub(" ", text).strip().lower()
    asked = _NOT_WORDS.sub(" ", question).strip().lower()
    return said.endswith(asked)


class OpenAINarrator:
    """`Narrator` over a plain streamed chat completion (no tools offered)."""

    def __init__(self, model: ChatModel, names: ToolNames) -> None:
        self._model = model
        self._names = names

    async def narrate(self, request: NarratorInput) -> AsyncIterator[str]:
        messages = [
            {"role": "system", "content": narrator_prompt(request)},
            *narration_messages(
                request.conversation, request.user_message, request.tool_results, self._names
            ),
        ]
        accumulator = StreamAccumulator()
        sentences = SentenceGrouper()
        said: list[str] = []
        chunks = self._model.stream(messages)
        async with aclosing(chunks):
            async for chunk in chunks:
                for piece in sentences.push(accumulator.feed(chunk)):
                    said.append(piece)
                    yield piece
        for piece in sentences.flush():
            said.append(piece)
            yield piece
        if not said:
            raise ModelUnavailable("model returned an empty answer")
        question = request.confirmation_prompt
        if question and not _ends_with("".join(said), question):
            # The customer must hear the confirmation question, whatever the model did.
            yield f" {question}"

    async def aclose(self) -> None:
        await self._model.aclose()
