"""build_openai_models: configured from the openai package's own environment variables."""

from __future__ import annotations

import pytest

from assistant.errors import ConfigError
from assistant.fakes.openai_server import OpenAIServer, text_reply
from assistant.models.openai_compat import build_openai_models
from assistant.settings import Settings
from tests.models_openai.helpers import CATALOG, plan_request


async def test_local_server_needs_only_a_base_url(openai_server: OpenAIServer) -> None:
    """OPENAI_BASE_URL alone is enough: a placeholder key is sent, the model is the setting."""
    settings = Settings(openai_model="qwen2.5:7b-instruct", openai_max_retries=0)
    planner, narrator = build_openai_models(
        settings, CATALOG, environ={"OPENAI_BASE_URL": openai_server.base_url}
    )
    openai_server.stream(text_reply("Hi!"))
    try:
        decision = await planner.decide(plan_request("hi"))
    finally:
        await planner.aclose()
        await narrator.aclose()  # shared client: closing twice is harmless
    assert decision.type == "final"
    assert openai_server.requests[0]["model"] == "qwen2.5:7b-instruct"
    assert openai_server.headers[0]["Authorization"] == "Bearer not-needed"


async def test_given_key_is_sent(openai_server: OpenAIServer) -> None:
    """OPENAI_API_KEY is what the server sees as the bearer token."""
    environ = {"OPENAI_BASE_URL": openai_server.base_url, "OPENAI_API_KEY": "sk-test-123"}
    planner, _ = build_openai_models(Settings(openai_max_retries=0), CATALOG, environ=environ)
    openai_server.stream(text_reply("Hi!"))
    try:
        await planner.decide(plan_request("hi"))
    finally:
        await planner.aclose()
    assert openai_server.headers[0]["Authorization"] == "Bearer sk-test-123"


def test_neither_key_nor_base_url_stops_the_start() -> None:
    """Pointing at OpenAI itself without a key is a configuration error naming the variable."""
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        build_openai_models(Settings(), CATALOG, environ={})
