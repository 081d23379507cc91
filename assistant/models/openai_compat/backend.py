"""The OpenAI-compatible backend assembled from settings: one client, planner and narrator.

OPENAI_BASE_URL and OPENAI_API_KEY are the `openai` package's own variables; a local
server (vLLM, Ollama, llama.cpp) needs only the base URL.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from openai import AsyncOpenAI

from assistant.models.openai_compat.chat_model import ChatModel, make_client
from assistant.models.openai_compat.names import ToolNames
from assistant.models.openai_compat.narrator import OpenAINarrator
from assistant.models.openai_compat.planner import OpenAIPlanner
from assistant.settings import Settings
from assistant.tools.catalog import Catalog


def build_openai_models(
    settings: Settings,
    catalog: Catalog,
    *,
    client: AsyncOpenAI | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[OpenAIPlanner, OpenAINarrator]:
    """Planner and narrator sharing one client; `await planner.aclose()` closes it.

    Pass `client` to use one made elsewhere (tests, a shared pool); it is then the
    caller's to close. Raises ConfigError when neither a key nor a base URL is set.
    """
    owns = client is None
    if client is None:
        client = make_client(settings, os.environ if environ is None else environ)
    model = ChatModel.from_settings(settings, client, owns=owns)
    names = ToolNames(tool.name for tool in catalog.tools)
    return OpenAIPlanner(model), OpenAINarrator(model, names)
