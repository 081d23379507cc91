"""One streamed chat completion, with the `openai` package's errors mapped once, here.

The client retries connection errors, 429 and 5xx itself (`max_retries`, honouring
`Retry-After`); whatever still fails becomes `ModelUnavailable`, which the engine turns
into a templated apology and a failed turn. Chunks leave as plain dicts so the stream
accumulator can read shapes the typed models would reject (`index: null`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any, cast

import httpx2
import openai
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

from assistant.errors import ConfigError, ModelUnavailable
from assistant.settings import Settings

log = logging.getLogger(__name__)

# Local servers (vLLM, Ollama, llama.cpp) take any key, but the client insists on one.
PLACEHOLDER_API_KEY = "not-needed"


def make_client(settings: Settings, environ: Mapping[str, str]) -> AsyncOpenAI:
    """An `AsyncOpenAI` from the package's own OPENAI_BASE_URL / OPENAI_API_KEY."""
    base_url = environ.get("OPENAI_BASE_URL") or None
    api_key = environ.get("OPENAI_API_KEY") or None
    if api_key is None:
        if base_url is None:
            raise ConfigError(
                "backend openai: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL "
                "for a local OpenAI-compatible server"
            )
        api_key = PLACEHOLDER_API_KEY
    return AsyncOpenAI(
        api_key=api_key,
        base_url=base_url,
        timeout=settings.openai_timeout_s,
        max_retries=settings.openai_max_retries,
    )


def describe_failure(exc: BaseException) -> str:
    """A one-line reason for logs and `ModelUnavailable`, naming status and server text."""
    if isinstance(exc, openai.APIStatusError):
        return f"model server answered {exc.status_code}: {exc.message}"
    if isinstance(exc, openai.APITimeoutError):
        return "model server timed out"
    if isinstance(exc, openai.APIConnectionError):
        return f"cannot reach the model server: {exc.__cause__ or exc}"
    if isinstance(exc, TimeoutError):
        return "model server did not start answering in time"
    return f"model stream failed: {exc}"


class ChatModel:
    """A model behind an OpenAI-compatible endpoint, called with streaming on."""

    def __init__(
        self,
        client: AsyncOpenAI,
        *,
        model: str,
        temperature: float,
        start_timeout_s: float,
        owns_client: bool,
    ) -> None:
        self._client = client
        self._model = model
        self._temperature = temperature
        # Bounds the wait for the first byte, the client's own retries included.
        self._start_timeout_s = start_timeout_s
        self._owns_client = owns_client
        self._closed = False

    @classmethod
    def from_settings(cls, settings: Settings, client: AsyncOpenAI, *, owns: bool) -> ChatModel:
        return cls(
            client,
            model=settings.openai_model,
            temperature=settings.openai_temperature,
            start_timeout_s=settings.openai_timeout_s * (settings.openai_max_retries + 1),
            owns_client=owns,
        )

    async def stream(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> AsyncGenerator[dict[str, Any], None]:
        """Yield each chunk of one streamed completion as a plain dict.

        With `tools`, the model may call several of them at once (`tool_choice` auto,
        `parallel_tool_calls`). Without, neither is sent: the API rejects them alone.
        """
        wire_messages = cast("list[ChatCompletionMessageParam]", list(messages))
        wire_tools = cast("list[ChatCompletionToolParam]", list(tools))
        try:
            async with asyncio.timeout(self._start_timeout_s):
                response = await self._client.chat.completions.create(
                    model=self._model,
                    messages=wire_messages,
                    stream=True,
                    temperature=self._temperature,
                    tools=wire_tools if wire_tools else openai.omit,
                    tool_choice="auto" if wire_tools else openai.omit,
                    parallel_tool_calls=True if wire_tools else openai.omit,
                )
            async with response:  # closes the HTTP response when the reader stops early
                async for chunk in response:
                    yield chunk.to_dict(warnings=False)
        except (openai.OpenAIError, httpx2.HTTPError, TimeoutError) as exc:
            reason = describe_failure(exc)
            log.warning("model %s unavailable: %s", self._model, reason)
            raise ModelUnavailable(reason) from exc

    async def aclose(self) -> None:
        """Close the HTTP client when this model made it; safe to call twice."""
        if self._owns_client and not self._closed:
            self._closed = True
            await self._client.close()
