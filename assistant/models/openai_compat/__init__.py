"""The OpenAI-compatible model backend (OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM).

backend.py      build_openai_models(settings, catalog) -> (planner, narrator)
planner.py      OpenAIPlanner: native parallel tool calls, acknowledgement streamed
narrator.py     OpenAINarrator: one spoken answer over every result
chat_model.py   one streamed completion; `openai` errors -> ModelUnavailable
accumulator.py  streamed fragments -> whole tool calls, whatever the server's shape
messages.py     history -> chat messages (one tool message per call, always)
names.py        catalog names <-> API function names
prompts.py      system prompts
"""

from assistant.models.openai_compat.accumulator import RAW_ARGUMENTS_KEY
from assistant.models.openai_compat.backend import build_openai_models
from assistant.models.openai_compat.narrator import OpenAINarrator
from assistant.models.openai_compat.planner import OpenAIPlanner

__all__ = ["RAW_ARGUMENTS_KEY", "OpenAINarrator", "OpenAIPlanner", "build_openai_models"]
