"""Model failures: retries through the client's own policy, then ModelUnavailable."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from openai import AsyncOpenAI

from assistant.errors import ModelUnavailable
from assistant.fakes.openai_server import OpenAIServer, text_reply
from assistant.models.openai_compat import OpenAINarrator, OpenAIPlanner, build_openai_models
from assistant.settings import Settings
from tests.models_openai.helpers import CATALOG, narrator_input, ok, plan_request

Models = tuple[OpenAIPlanner, OpenAINarrator]
SETTINGS = Settings(openai_model="test-model")


@pytest.fixture
async def retrying_client(openai_server: OpenAIServer) -> AsyncIterator[AsyncOpenAI]:
    client = AsyncOpenAI(base_url=openai_server.base_url, api_key="k", max_retries=2, timeout=10)
    yield client
    await client.close()


@pytest.fixture
async def down_client(closed_port_url: str) -> AsyncIterator[AsyncOpenAI]:
    client = AsyncOpenAI(base_url=closed_port_url, api_key="k", max_retries=0, timeout=5)
    yield client
    await client.close()


async def test_rate_limited_then_answered(
    openai_server: OpenAIServer, retrying_client: AsyncOpenAI
) -> None:
    """A 429 with Retry-After is waited out and retried; the customer just gets the answer."""
    planner, _ = build_openai_models(SETTINGS, CATALOG, client=retrying_client)
    openai_server.fail(429, retry_after_s=0.01)
    openai_server.stream(text_reply("Hello, Ada."))
    decision = await planner.decide(plan_request("hello"))
    assert decision.type == "final"
    assert decision.text == "Hello, Ada."
    assert len(openai_server.requests) == 2


async def test_server_errors_past_the_retries_are_model_unavailable(
    openai_server: OpenAIServer, retrying_client: AsyncOpenAI
) -> None:
    """Three 500s with two retries allowed: ModelUnavailable naming the status."""
    planner, _ = build_openai_models(SETTINGS, CATALOG, client=retrying_client)
    for _ in range(3):
        openai_server.fail(500, retry_after_s=0.01)
    with pytest.raises(ModelUnavailable, match="500"):
        await planner.decide(plan_request())
    assert len(openai_server.requests) == 3


async def test_planner_stays_usable_after_a_failure(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """After one failed decision the next one works: the session is not broken."""
    openai_server.fail(503)
    openai_server.stream(text_reply("Back again."))
    with pytest.raises(ModelUnavailable):
        await openai_models[0].decide(plan_request())
    decision = await openai_models[0].decide(plan_request())
    assert decision.type == "final"


async def test_model_down_planner(down_client: AsyncOpenAI) -> None:
    """Nothing listening on the model's port: the planner raises ModelUnavailable."""
    planner, _ = build_openai_models(SETTINGS, CATALOG, client=down_client)
    with pytest.raises(ModelUnavailable, match="cannot reach the model server"):
        await planner.decide(plan_request())


async def test_model_down_narrator(down_client: AsyncOpenAI) -> None:
    """Nothing listening on the model's port: the narrator raises ModelUnavailable."""
    _, narrator = build_openai_models(SETTINGS, CATALOG, client=down_client)
    request = narrator_input((ok("call_a", "crm.getOpenInvoices", {"balance": 0}),))
    with pytest.raises(ModelUnavailable):
        async for _ in narrator.narrate(request):
            pass


async def test_rejected_request_is_model_unavailable_with_the_servers_reason(
    openai_server: OpenAIServer, openai_models: Models
) -> None:
    """A 4xx (wrong model name, bad key) fails the turn with the server's message, no retry."""
    openai_server.fail(404, message="The model `test-model` does not exist")
    with pytest.raises(ModelUnavailable, match=r"404.*does not exist"):
        await openai_models[0].decide(plan_request())
