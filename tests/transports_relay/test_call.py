"""A phone call through ConversationRelay: greeting, prompts, spoken answers, bad frames.

These calls run the real embedded planner and narrator against the real CRM stub, so
what is asserted is what a caller would hear.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from assistant.fakes import ScriptedPlanner, calls
from assistant.schema import FinalDecision
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.transports_relay.conftest import UNKNOWN_PHONE, Dial, SpokenNarrator, spoken


async def test_ack_is_spoken_first_then_the_answer_and_last_ends_the_cycle(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A known caller is greeted by name; the ack goes out first, the answer follows, last ends."""
    harness = await make_assistant()
    relay = await dial(harness)

    greeting = await relay.setup()
    frames = await relay.ask("Show me my appointments and my billing")

    assert spoken(greeting) == "Hi Maria, thanks for calling. How can I help you today?"
    assert all(frame["type"] == "text" for frame in frames)
    assert [frame["last"] for frame in frames] == [False] * (len(frames) - 1) + [True]
    ack_frames = [frame for frame in frames if frame.get("preemptible") is False]
    assert ack_frames == frames[: len(ack_frames)]  # every ack token precedes the answer
    assert spoken(ack_frames) == (
        "Sure, I'll look up your upcoming appointments and check your billing."
    )
    answer = spoken(frames[len(ack_frames) :])
    assert "You have two upcoming appointments: a dental cleaning" in answer
    assert "Your balance is $150.00" in answer


async def test_partial_prompts_become_one_user_message(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Transcripts with last=false are gathered: both halves of the sentence are answered."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    await relay.prompt("Show me my appointments", last=False)
    frames = await relay.ask("and what I owe")

    assert spoken(frames).startswith(
        "Sure, I'll look up your upcoming appointments and check your billing."
    )
    assert "$150.00" in spoken(frames)


async def test_compound_question_speaks_both_answers(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """ "What's my next appointment and what do I owe?" is answered on both counts."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    text = spoken(await relay.ask("What's my next appointment and what do I owe?"))

    assert text.startswith("Sure, I'll check your next appointment and check your billing.")
    assert "Your next appointment is a dental cleaning" in text
    assert "Your balance is $150.00" in text


async def test_markdown_from_a_model_never_reaches_the_voice(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A narrator that slips in markdown and symbols is cleaned before the caller hears it."""
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    frames = await relay.ask("Show me my appointments and what I owe")

    assert spoken(frames) == (
        "Sure, I'll look up your upcoming appointments and check your billing. "
        "You have 2 upcoming appointments. Balance: you owe $150.00 and nothing else."
    )
    planner.assert_used_up()


async def test_unknown_caller_hears_a_polite_welcome_and_can_ask_general_questions(
    make_assistant: MakeAssistant, dial: Dial, crm_admin: CrmAdmin
) -> None:
    """A number the CRM does not know gets no account tools, but general questions work."""
    harness = await make_assistant()
    relay = await dial(harness)

    greeting = spoken(await relay.setup(from_=UNKNOWN_PHONE))
    general = spoken(await relay.ask("What can you help me with?"))
    private = spoken(await relay.ask("What do I owe?"))

    assert "couldn't find an account for the number you're calling from" in greeting
    assert "I'm happy to answer general questions" in greeting
    assert general.startswith("I can check, book, move or cancel your appointments")
    assert "$" not in private and "couldn't tell which account is yours" in private
    asked = [entry["path"] for entry in await crm_admin.requests()]
    assert asked == [f"/v1/customers/by-phone/{UNKNOWN_PHONE}"]  # and no account data


async def test_signed_token_in_custom_parameters_identifies_the_caller(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A valid session token in customParameters names the customer, whatever the number."""
    harness = await make_assistant()
    relay = await dial(harness)
    token = harness.token("cust_002")

    greeting = spoken(await relay.setup(from_=UNKNOWN_PHONE, custom_parameters={"token": token}))
    answer = spoken(await relay.ask("What do I owe?"))

    assert greeting.startswith("Hi James,")
    assert "$80.00" in answer  # James Smith's open consultation invoice


async def test_forged_token_is_not_trusted(make_assistant: MakeAssistant, dial: Dial) -> None:
    """A token not signed by the service is ignored: the unknown number stays unknown."""
    harness = await make_assistant()
    relay = await dial(harness)
    forged = harness.token("cust_002")[:-4] + "AAAA"

    greeting = spoken(await relay.setup(from_=UNKNOWN_PHONE, custom_parameters={"token": forged}))

    assert "couldn't find an account" in greeting


async def test_garbage_frames_are_ignored_and_the_call_goes_on(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Not JSON, not an object, unknown type, missing fields, binary: no reply, no hang-up."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    for garbage in (
        "this is not json",
        "[1, 2, 3]",
        '{"no": "type"}',
        {"type": "transcript", "text": "hello"},
        {"type": "prompt", "lang": "en-US", "last": True},
        {"type": "interrupt", "utteranceUntilInterrupt": 42},
        {"type": "dtmf"},
        {"type": "dtmf", "digit": "1"},  # nothing is waiting for a yes
        {"type": "setup", "from": "+14155550102"},  # a second setup changes nothing
        {"type": "error", "description": "Invalid message received"},
        b"\x00\x01binary",
    ):
        await relay.send(garbage)
    frames = await relay.ask("What do I owe?")

    # The first frame after all that garbage is the acknowledgement of the real question.
    assert frames[0]["token"] == "Sure, I'll check your billing."
    assert "Your balance is $150.00" in spoken(frames)
    assert not relay.ws.closed


async def test_an_open_call_shows_in_the_sessions_gauge(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Operators see phone calls in progress as active_sessions{transport="relay"}."""
    harness = await make_assistant()
    relay = await dial(harness)
    await relay.setup()

    metrics = await harness.metrics_text()

    assert 'active_sessions{transport="relay"} 1.0' in metrics


async def test_a_recorded_call_is_written_like_a_websocket_session(
    make_assistant: MakeAssistant, dial: Dial, tmp_path: Path
) -> None:
    """With recording on, a phone call leaves a session file holding what was asked."""
    harness = await make_assistant(record_dir=str(tmp_path))
    relay = await dial(harness)
    await relay.setup()
    await relay.ask("What do I owe?")
    await relay.close()
    files: list[Path] = []
    for _ in range(50):
        files = list(tmp_path.glob("*.jsonl"))  # noqa: ASYNC240 - a tiny local directory
        if files and "What do I owe?" in files[0].read_text():
            break
        await asyncio.sleep(0.02)
    assert len(files) == 1
    assert "What do I owe?" in files[0].read_text()
    assert "crm.getOpenInvoices" in files[0].read_text()
