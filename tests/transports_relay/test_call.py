"""A phone call through ConversationRelay: greeting, prompts, spoken answers, bad frames."""

from __future__ import annotations

from assistant.schema import FinalDecision
from tests.fakes import ScriptedPlanner, calls
from tests.fixtures.app import MakeAssistant
from tests.transports_relay.conftest import UNKNOWN_PHONE, Dial, SpokenNarrator, spoken


async def test_ack_is_spoken_first_then_the_answer_and_last_ends_the_cycle(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A known caller is greeted by name; the ack goes out first, the answer follows, last ends."""
    planner = ScriptedPlanner(
        calls("crm.listUpcomingAppointments", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)

    greeting = await relay.setup()
    frames = await relay.ask("Show me my appointments and what I owe")

    assert spoken(greeting) == "Hi Maria, thanks for calling. How can I help you today?"
    assert spoken(frames) == (
        "Sure, I'll look up your upcoming appointments and check your billing. "
        "You have 2 upcoming appointments. Balance: you owe $150.00 and nothing else."
    )
    assert all(frame["type"] == "text" for frame in frames)
    assert [frame["last"] for frame in frames] == [False] * (len(frames) - 1) + [True]
    ack_frames = [f for f in frames if f.get("preemptible") is False]
    assert ack_frames == frames[: len(ack_frames)]  # every ack token precedes the answer
    assert spoken(ack_frames).endswith("check your billing.")
    assert not any(symbol in spoken(frames) for symbol in "*&#_`")
    planner.assert_used_up()


async def test_partial_prompts_become_one_user_message(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Transcripts with last=false are gathered into the message sent when last=true arrives."""
    planner = ScriptedPlanner(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    await relay.prompt("What do I", last=False)
    await relay.prompt("owe right now?")
    frames = await relay.talk_cycle()

    assert [request.user_message for request in planner.requests] == [
        "What do I owe right now?",
        "What do I owe right now?",  # round two of the same turn
    ]
    assert "you owe $150.00" in spoken(frames)


async def test_compound_question_speaks_both_answers(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """ "What's my next appointment and what do I owe?" is answered on both counts."""
    planner = ScriptedPlanner(
        calls("crm.getNextAppointment", "crm.getOpenInvoices"), FinalDecision(text="")
    )
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    text = spoken(await relay.ask("What's my next appointment and what do I owe?"))

    assert text.startswith("Sure, I'll check your next appointment and check your billing.")
    assert "Your next appointment is a dental cleaning." in text
    assert "you owe $150.00" in text


async def test_unknown_caller_hears_a_polite_welcome_and_can_ask_general_questions(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A number the CRM does not know gets no account tools, but general questions work."""
    planner = ScriptedPlanner(FinalDecision(text="We're open from nine to five, Monday to Friday."))
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
    relay = await dial(harness)

    greeting = spoken(await relay.setup(from_=UNKNOWN_PHONE))
    answer = spoken(await relay.ask("When are you open?"))

    assert "couldn't find an account" in greeting
    assert "general questions" in greeting
    assert answer == "We're open from nine to five, Monday to Friday."
    assert planner.requests[0].customer is None
    assert planner.requests[0].tools == ()


async def test_signed_token_in_custom_parameters_identifies_the_caller(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """A valid session token in customParameters names the customer, whatever the number."""
    harness = await make_assistant(planner=ScriptedPlanner(), narrator=SpokenNarrator())
    relay = await dial(harness)

    token = harness.token("cust_002")

    greeting = spoken(await relay.setup(from_=UNKNOWN_PHONE, custom_parameters={"token": token}))

    assert greeting.startswith("Hi James,")


async def test_forged_token_is_not_trusted(make_assistant: MakeAssistant, dial: Dial) -> None:
    """A token not signed by the service is ignored: the unknown number stays unknown."""
    harness = await make_assistant(planner=ScriptedPlanner(), narrator=SpokenNarrator())
    relay = await dial(harness)
    forged = harness.token("cust_002")[:-4] + "AAAA"

    greeting = spoken(await relay.setup(from_=UNKNOWN_PHONE, custom_parameters={"token": forged}))

    assert "couldn't find an account" in greeting


async def test_garbage_frames_are_ignored_and_the_call_goes_on(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Not JSON, not an object, unknown type, missing fields, binary: no reply, no hang-up."""
    planner = ScriptedPlanner(calls("crm.getOpenInvoices"), FinalDecision(text=""))
    harness = await make_assistant(planner=planner, narrator=SpokenNarrator())
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
    assert frames[0]["token"].startswith("Sure, I'll check your billing")
    assert "you owe $150.00" in spoken(frames)
    assert not relay.ws.closed


async def test_an_open_call_shows_in_the_sessions_gauge(
    make_assistant: MakeAssistant, dial: Dial
) -> None:
    """Operators see phone calls in progress as active_sessions{transport="relay"}."""
    harness = await make_assistant(planner=ScriptedPlanner(), narrator=SpokenNarrator())
    relay = await dial(harness)
    await relay.setup()

    metrics = await harness.metrics_text()

    assert 'active_sessions{transport="relay"} 1.0' in metrics
