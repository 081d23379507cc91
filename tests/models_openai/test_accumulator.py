"""The stream accumulator, fed literal chunks: every server's shape, every edge."""

from __future__ import annotations

import pytest

from assistant.fakes.openai_server import content, finish, fragment, tool_delta, usage_only
from assistant.models.openai_compat.accumulator import (
    RAW_ARGUMENTS_KEY,
    StreamAccumulator,
    parse_arguments,
)
from tests.models_openai.shapes import APPOINTMENTS, SHAPES, TASKS


def assemble(chunks: list[dict]) -> StreamAccumulator:
    accumulator = StreamAccumulator()
    for chunk in chunks:
        accumulator.feed(chunk)
    return accumulator


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_assembles_the_same_two_calls(shape: str) -> None:
    """Whatever way a server splits two parallel calls, both come out whole and in order."""
    calls = assemble(SHAPES[shape]()).calls()
    assert [(call.name, call.arguments) for call in calls] == [
        (APPOINTMENTS, {}),
        (TASKS, {"status": "pending"}),
    ]
    assert len({call.call_id for call in calls}) == 2


def test_server_ids_are_kept_and_missing_ids_are_made_up() -> None:
    """Ids the server gave are the ids the results answer; a call without one still gets one."""
    with_ids = assemble(SHAPES["openai"]()).calls()
    without = assemble(SHAPES["index missing"]()).calls()
    assert [call.call_id for call in with_ids] == ["call_a", "call_b"]
    assert all(call.call_id.startswith("call_") for call in without)


def test_text_before_and_alongside_is_returned_piece_by_piece() -> None:
    """feed() hands back each chunk's text as it comes, and `text` has it all."""
    accumulator = StreamAccumulator()
    pieces = [accumulator.feed(chunk) for chunk in SHAPES["text before the calls"]()]
    assert [piece for piece in pieces if piece] == ["Sure, let me ", "check that."]
    assert accumulator.text == "Sure, let me check that."
    assert accumulator.has_tool_calls


def test_text_only_stream_has_no_calls() -> None:
    """A plain answer is text with no calls and finish_reason stop."""
    accumulator = assemble([content("Hello", role=True), content(" there."), finish("stop")])
    assert accumulator.text == "Hello there."
    assert not accumulator.has_tool_calls
    assert accumulator.finish_reason == "stop"


def test_usage_chunk_alone_changes_nothing() -> None:
    """A chunk with `choices: []` is read without error and adds nothing."""
    accumulator = assemble([usage_only()])
    assert accumulator.text == ""
    assert accumulator.calls() == []


def test_id_arriving_after_the_first_fragment_joins_that_call() -> None:
    """A server sending the id on the second fragment of a call does not split it in two."""
    calls = assemble(
        [
            tool_delta(fragment(index=0, name=TASKS, arguments='{"status"')),
            tool_delta(fragment(index=0, call_id="call_late", arguments=': "all"}')),
        ]
    ).calls()
    assert [(c.call_id, c.name, c.arguments) for c in calls] == [
        ("call_late", TASKS, {"status": "all"})
    ]


def test_same_tool_twice_without_ids_or_indexes_is_two_calls() -> None:
    """Two whole calls of the same tool, told apart by nothing, stay two calls."""
    calls = assemble(
        [
            tool_delta(fragment(name=TASKS, arguments='{"status": "pending"}')),
            tool_delta(fragment(name=TASKS, arguments='{"status": "completed"}')),
        ]
    ).calls()
    assert [call.arguments["status"] for call in calls] == ["pending", "completed"]


def test_name_repeated_mid_arguments_continues_the_call() -> None:
    """A server repeating the name on every fragment does not cut the arguments."""
    calls = assemble(
        [
            tool_delta(fragment(name=TASKS, arguments='{"status": ')),
            tool_delta(fragment(name=TASKS, arguments='"pending"}')),
        ]
    ).calls()
    assert [call.arguments for call in calls] == [{"status": "pending"}]


def test_index_stuck_at_zero_without_ids_still_separates_whole_calls() -> None:
    """Index 0 and no ids on two whole calls: the second does not glue onto the first."""
    calls = assemble(
        [
            tool_delta(fragment(index=0, name=APPOINTMENTS, arguments="{}")),
            tool_delta(fragment(index=0, name=TASKS, arguments='{"status": "all"}')),
        ]
    ).calls()
    assert [call.name for call in calls] == [APPOINTMENTS, TASKS]


def test_arguments_sent_as_an_object_are_accepted() -> None:
    """A server sending `arguments` as a JSON object instead of a string still works."""
    chunk = tool_delta({"index": 0, "id": "c1", "function": {"name": TASKS, "arguments": {}}})
    chunk["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] = {"status": "all"}
    assert assemble([chunk]).calls()[0].arguments == {"status": "all"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", {}),
        ("  ", {}),
        ('{"status": "all"}', {"status": "all"}),
        ('"{\\"status\\": \\"all\\"}"', {"status": "all"}),  # double-encoded by a proxy
        ('{"status": "al', {RAW_ARGUMENTS_KEY: '{"status": "al'}),
        ("[1, 2]", {RAW_ARGUMENTS_KEY: "[1, 2]"}),
        ("not json", {RAW_ARGUMENTS_KEY: "not json"}),
    ],
)
def test_parse_arguments(text: str, expected: dict) -> None:
    """Only a JSON object counts as arguments; anything else is kept raw for the engine."""
    assert parse_arguments(text) == expected


def test_a_call_is_handed_over_once_its_arguments_are_whole() -> None:
    """Mid-stream, a call counts as finished only once its arguments are a complete
    object (or empty and another call has begun); the next call is not finished yet."""
    accumulator = StreamAccumulator()
    accumulator.feed(tool_delta(fragment(index=0, call_id="call_a", name=TASKS, arguments="")))
    accumulator.feed(tool_delta(fragment(index=0, arguments='{"status": "pe')))
    assert accumulator.finished_calls() == []
    accumulator.feed(tool_delta(fragment(index=0, arguments='nding"}')))
    assert [call.call_id for call in accumulator.finished_calls()] == ["call_a"]
    accumulator.feed(tool_delta(fragment(index=1, call_id="call_b", name=APPOINTMENTS)))
    accumulator.feed(tool_delta(fragment(index=2, call_id="call_c", name=TASKS, arguments="")))
    finished = accumulator.finished_calls()
    assert [call.call_id for call in finished] == ["call_a", "call_b"]
    assert finished[1].arguments == {}


def test_a_call_without_its_id_waits_for_the_end() -> None:
    """A server that sends the id late: the call is not handed over on a guessed id."""
    accumulator = StreamAccumulator()
    accumulator.feed(tool_delta(fragment(index=0, name=TASKS, arguments="{}")))
    assert accumulator.finished_calls() == []
    assert len(accumulator.calls()) == 1
