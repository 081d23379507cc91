"""How real servers stream the same two parallel tool calls, one shape per server family.

Every shape must assemble to EXPECTED: the upcoming appointments (no arguments) and the
pending tasks. Wire names are the API-safe forms of the catalog names.
"""

from __future__ import annotations

from typing import Any

from assistant.fakes.openai_server import (
    Chunk,
    content,
    finish,
    fragment,
    tool_calls_reply,
    tool_delta,
    usage_only,
)

APPOINTMENTS = "crm_listUpcomingAppointments"
TASKS = "crm_listTasks"
TASK_ARGS = '{"status": "pending"}'
EXPECTED: list[tuple[str, dict[str, Any]]] = [
    ("crm.listUpcomingAppointments", {}),
    ("crm.listTasks", {"status": "pending"}),
]


def _openai() -> list[Chunk]:
    return tool_calls_reply(("call_a", APPOINTMENTS, "{}"), ("call_b", TASKS, TASK_ARGS))


def _split_anywhere() -> list[Chunk]:
    # Arguments cut inside a key, inside a value and between the quote and the colon.
    pieces = ['{"st', 'atus"', ': "pen', "ding", '"}']
    return [
        tool_delta(fragment(index=0, call_id="call_a", name=APPOINTMENTS, arguments="")),
        tool_delta(fragment(index=1, call_id="call_b", name=TASKS, arguments="")),
        tool_delta(fragment(index=0, arguments="{}")),
        *(tool_delta(fragment(index=1, arguments=piece)) for piece in pieces),
        finish("tool_calls"),
    ]


def _whole_calls() -> list[Chunk]:
    return [
        tool_delta(fragment(index=0, call_id="call_a", name=APPOINTMENTS, arguments="{}")),
        tool_delta(fragment(index=1, call_id="call_b", name=TASKS, arguments=TASK_ARGS)),
        finish("tool_calls"),
    ]


def _several_in_one_chunk() -> list[Chunk]:
    return [
        tool_delta(
            fragment(index=0, call_id="call_a", name=APPOINTMENTS, arguments="{}"),
            fragment(index=1, call_id="call_b", name=TASKS, arguments=TASK_ARGS),
        ),
        finish("tool_calls"),
    ]


def _index_missing() -> list[Chunk]:
    # Gemini through LiteLLM: no index key, and here not even an id.
    return [
        tool_delta(
            fragment(name=APPOINTMENTS, arguments="{}"),
            fragment(name=TASKS, arguments=TASK_ARGS),
        ),
        finish("tool_calls"),
    ]


def _index_null() -> list[Chunk]:
    return [
        tool_delta(fragment(index=None, call_id="call_a", name=APPOINTMENTS, arguments="")),
        tool_delta(fragment(index=None, arguments="{}")),
        tool_delta(fragment(index=None, call_id="call_b", name=TASKS, arguments='{"status"')),
        tool_delta(fragment(index=None, arguments=': "pending"}')),
        finish("tool_calls"),
    ]


def _index_stuck_at_zero() -> list[Chunk]:
    # Ollama and LiteLLM: every call says index 0, only the ids tell them apart.
    return [
        tool_delta(fragment(index=0, call_id="call_a", name=APPOINTMENTS, arguments="{}")),
        tool_delta(fragment(index=0, call_id="call_b", name=TASKS, arguments='{"sta')),
        tool_delta(fragment(index=0, arguments='tus": "pending"}')),
        finish("tool_calls"),
    ]


def _id_in_every_chunk() -> list[Chunk]:
    # Fireworks and DeepSeek: the id (and type) repeated on every fragment.
    return [
        tool_delta(fragment(index=0, call_id="call_a", name=APPOINTMENTS, arguments="")),
        tool_delta(fragment(index=0, call_id="call_a", arguments="{}")),
        tool_delta(fragment(index=1, call_id="call_b", name=TASKS, arguments="")),
        tool_delta(fragment(index=1, call_id="call_b", arguments='{"status":')),
        tool_delta(fragment(index=1, call_id="call_b", arguments=' "pending"}')),
        finish("tool_calls"),
    ]


def _usage_last() -> list[Chunk]:
    return [*_openai(), usage_only()]


def _text_before() -> list[Chunk]:
    return tool_calls_reply(
        ("call_a", APPOINTMENTS, "{}"),
        ("call_b", TASKS, TASK_ARGS),
        preamble=["Sure, let me ", "check that."],
    )


def _text_alongside() -> list[Chunk]:
    both = content("Sure, let me check that.")
    both["choices"][0]["delta"]["tool_calls"] = [
        fragment(index=0, call_id="call_a", name=APPOINTMENTS, arguments="{}")
    ]
    return [
        both,
        tool_delta(fragment(index=1, call_id="call_b", name=TASKS, arguments=TASK_ARGS)),
        finish("tool_calls"),
    ]


SHAPES = {
    "openai": _openai,
    "arguments split anywhere": _split_anywhere,
    "whole calls, one per chunk": _whole_calls,
    "several calls in one chunk": _several_in_one_chunk,
    "index missing": _index_missing,
    "index null": _index_null,
    "index stuck at 0": _index_stuck_at_zero,
    "id in every chunk": _id_in_every_chunk,
    "usage chunk with no choices": _usage_last,
    "text before the calls": _text_before,
    "text alongside the calls": _text_alongside,
}
