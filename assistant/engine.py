"""One turn: decide → acknowledge → execute (→ chain) → narrate, as typed events.

The engine knows nothing about transports: it calls `emit` with events in the order
shared/PROTOCOL.md fixes, and every transport (websocket, telephony, recorder) only
translates them. The acknowledgement of a round is emitted before that round's tools
are awaited, so a caller never sits in silence.

With a streaming model the steps overlap (issue 18): reads start while the decision
still streams, each after the ack.delta naming it (early_calls.py); the answer may
begin with what is ready while one call is slow (progress.py); and a model's answer
is spoken sentence by sentence as it is written (answer_stream.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from assistant import confirmation, dialogue, progress, replacement, tracing
from assistant.acknowledge import ack_pieces
from assistant.answer_stream import AnswerStream
from assistant.answering import APOLOGY, INTERNAL_APOLOGY, Answerer, error_text, fixed_figures
from assistant.deadlines import Deadline
from assistant.early_calls import EarlyCalls
from assistant.errors import ModelUnavailable
from assistant.heard import answers_with_more, said_before_reply, was_heard, words
from assistant.integrity import AS_ASKED_CHECK, NOT_STARTED, WriteIntegrity
from assistant.language.as_meant import as_meant, without_greeting
from assistant.language.characters import readable
from assistant.logs import trace_context
from assistant.metrics import Metrics, count, observe
from assistant.models.base import Narrator, Planner
from assistant.round_run import RoundRun
from assistant.schema import (
    AckDelta,
    AckDone,
    AckSink,
    AssistantTurn,
    CallSink,
    CustomerContext,
    ErrorEvent,
    Event,
    EventSink,
    FinalDecision,
    PlanRequest,
    ToolCall,
    ToolCallsDecision,
    ToolError,
    ToolExchange,
    ToolFinished,
    ToolResult,
    ToolStarted,
    ToolStatus,
    TurnDone,
    TurnStarted,
    UserTurn,
    tool_error_wire,
)
from assistant.session import PendingConfirmation, Session
from assistant.speech import local_now
from assistant.tools.executor import RoundContext, ToolExecutor
from assistant.turn import Turn, TurnState, call_key, said_instead
from assistant.turn_budget import TurnBudget
from assistant.turn_log import turn_finished
from assistant.untold import too_late, untold_preface, untold_writes
from assistant.writes_in_flight import WritesInFlight
from assistant.zones import zone_of_offsets

log = logging.getLogger(__name__)

# "Narrate the results": a frozen value, so one serves every turn.
_NARRATE = FinalDecision(text="")
# Before a question asked again because the caller did not hear it in full.
NOT_HEARD = "Before I change anything,"
# Before a question asked again because the yes arrived before it had been said.
YES_BEFORE_QUESTION = "Your yes came before my question, so nothing is changed yet:"
# Before a question asked again because it was asked on another connection of the session.
ASKED_ELSEWHERE = "Nothing is changed yet, as I asked this on another screen:"

# (the customer as known so far, the turn's trace id) → the customer with their profile.
CustomerLoader = Callable[[CustomerContext, str], Awaitable[CustomerContext]]


# How a message that opens with a greeting starts (a filler may come first: "um, hi").
_MAY_GREET = ("hi", "hello", "hey", "good ", "um", "uh", "er", "oh", "so ", "ok", "yeah")
# A run of spaces or tabs (not a new line: a list may be typed an ask a line).
_SPACES = re.compile(r"[ \t]{2,}|\t")


@dataclass(frozen=True, slots=True)
class EngineConfig:
    max_tool_calls_per_round: int = 4
    max_rounds: int = 3
    turn_deadline_s: float = 8.0
    dedupe_calls: bool = True
    confirmation_ttl_s: float = 300.0
    # A write starts only with at least this much of the turn left, so that its outcome
    # can be known (and reconciled) before the answer; otherwise it is not started.
    write_start_budget_s: float = 1.0
    booking_horizon_days: int = 365
    duplicate_window_s: float = 600.0
    # Latency with streaming models (issue 18); each can be turned off to compare.
    # Reads start as soon as their call has streamed in, not when the decision ends.
    start_tools_early: bool = True
    # When some results are in and a call has run this long, say what is ready and
    # finish the answer when the rest arrive (0: wait for every result).
    progress_after_s: float = 1.5
    # A model's final answer is spoken sentence by sentence as it is written.
    stream_answers: bool = True
    # Shares of the turn deadline that model calls may not eat (turn_budget.py).
    tool_reserve_s: float = 2.0
    answer_reserve_s: float = 2.0


class Engine:
    def __init__(
        self,
        planner: Planner,
        narrator: Narrator,
        executor: ToolExecutor,
        config: EngineConfig | None = None,
        *,
        metrics: Metrics | None = None,
        follow_up: Planner | None = None,
        fallback_narrator: Narrator | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        customer_loader: CustomerLoader | None = None,
        in_flight: WritesInFlight | None = None,
    ) -> None:
        self.planner = planner
        self.narrator = narrator
        self.executor = executor
        self.config = config or EngineConfig()
        self._metrics = metrics
        # A deterministic planner that notices an action the model left undone.
        self._follow_up = follow_up
        self._fallback_narrator = fallback_narrator
        self._clock = clock
        # Reads the profile again for a session that opened without it (no timezone).
        self._customer_loader = customer_loader
        self._writes = {tool.name for tool in executor.tools() if tool.writes}
        # A model's writes are compared with the customer's words (assistant/as_said.py);
        # the embedded planner's are those words, read by the same grammar.
        self._guessing_planner = not getattr(planner, "reads_the_words", False)
        self._reads = frozenset(tool.name for tool in executor.tools() if not tool.writes)
        # Turns running now, for admission control (transports/saturation.py).
        self.turns_in_flight = 0
        self._answers = Answerer(
            narrator,
            self._hint_of,
            fallback_narrator=fallback_narrator,
            metrics=metrics,
            writes=frozenset(self._writes),
        )
        self._integrity = WriteIntegrity(
            executor,
            confirmation_ttl_s=self.config.confirmation_ttl_s,
            write_start_budget_s=self.config.write_start_budget_s,
            booking_horizon_days=self.config.booking_horizon_days,
            duplicate_window_s=self.config.duplicate_window_s,
            clock=clock,
            in_flight=in_flight,
        )

    def now(self) -> datetime:
        """The engine's clock: what "now" is for every turn."""
        return self._clock()

    def start_turn(
        self,
        session: Session,
        text: str,
        emit: EventSink,
        *,
        message_id: str | None = None,
        received_at: float | None = None,
        question_heard: bool = True,
    ) -> Turn:
        """`received_at`: when the message arrived (wall-clock seconds), so that a yes
        that came before the question it would answer confirms nothing; `question_heard`
        False: the question waiting was asked on another connection of the session
        (assistant.heard_here), so a yes here confirms nothing either."""
        # As it shows: invisible characters out, other digits and look-alikes as plain ones.
        text = readable(text)
        if "  " in text or "\t" in text:
            # Spaces typed twice over say nothing more: every reader sees the words once
            # spaced ("change  my  haircut  to  a  massage" was read as a move).
            text = _SPACES.sub(" ", text)
        if text[:8].lower().startswith(_MAY_GREET):
            # "hi there, ok then sunday at 10am", "hello? yes": the greeting is no part of
            # the answer (the "ok" was heard as a yes to a 2:30 AM booking: every reader of
            # the reply, not only the planner's, sees it without the greeting).
            text = without_greeting(text)
        turn_id = session.next_turn_id()
        holder: list[Turn] = []
        task = asyncio.create_task(
            self._run(holder, session, text, emit, message_id, turn_id, received_at, question_heard)
        )
        # Counted from start to end, for admission control (transports/saturation.py).
        self.turns_in_flight += 1
        task.add_done_callback(self._turn_ended)
        turn = Turn(task, turn_id)
        holder.append(turn)
        return turn

    async def run_turn(
        self, session: Session, text: str, emit: EventSink, *, message_id: str | None = None
    ) -> TurnDone:
        return await self.start_turn(session, text, emit, message_id=message_id).wait()

    def _turn_ended(self, _task: asyncio.Task[TurnDone]) -> None:
        self.turns_in_flight -= 1

    async def _run(
        self,
        holder: list[Turn],
        session: Session,
        text: str,
        emit: EventSink,
        message_id: str | None,
        turn_id: str,
        received_at: float | None = None,
        question_heard: bool = True,
    ) -> TurnDone:
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        budget = TurnBudget.starting(
            loop.time(),
            self.config.turn_deadline_s,
            tool_reserve_s=self.config.tool_reserve_s,
            answer_reserve_s=self.config.answer_reserve_s,
        )
        state = TurnState(
            session=session,
            text=text,
            turn_id=turn_id,
            message_id=message_id,
            emit=emit,
            trace_id=os.urandom(16).hex(),  # as random as uuid4, without building one
            started=started,
            deadline=budget.tools_end,
            now=self._clock(),
            budget=budget,
            received_at=received_at,
            question_heard=question_heard,
        )
        customer_id = session.customer.customer_id if session.customer else None
        # turn_span first: when tracing, it gives the turn the span's trace id.
        with (
            tracing.turn_span(state, session.session_id, customer_id),
            trace_context(state.trace_id, turn_id=turn_id, session_id=session.session_id),
        ):
            if holder:
                holder[0].trace_id = state.trace_id
            try:
                await emit(TurnStarted(turn_id, message_id))
                customer = session.customer
                if customer is not None and not customer.timezone_known:
                    await self._reload_customer(state)
                session.remember(UserTurn(text=text))
                await self._body(state)
                status = state.status()
            except asyncio.CancelledError:
                if not (holder and holder[0].cancel_requested):
                    state.remember_answer()
                    raise  # the session is going away: nothing left to tell
                current = asyncio.current_task()
                if current is not None:
                    current.uncancel()
                status = "cancelled"
            state.remember_answer()
            _advance_dialogue(state)
            if status == "cancelled":
                _keep_untold(state)
            self._forget_dropped_after_change(state)
            done = state.turn_done(status)
            turn_finished(state, done)
            await emit(done)
            metrics = self._metrics
            if metrics is not None:
                count(metrics.labelled(metrics.turns, status))
                observe(metrics.turn_s, time.perf_counter() - started)
            return done

    # --- the turn's steps -----------------------------------------------------------

    async def _reload_customer(self, state: TurnState) -> None:
        customer = state.session.customer
        if customer is None or customer.timezone_known or self._customer_loader is None:
            return
        state.session.customer = await self._customer_loader(customer, state.trace_id)

    async def _body(self, state: TurnState) -> None:
        session = state.session
        asked = session.dialogue
        if asked.question and not was_heard(asked.asked, said_before_reply(session)):
            # The caller talked over the question (a platform's or the phone's record of
            # what its voice played ends before it): their words answer something else.
            # Was: "yes please" to a support case offered after the cut opened one.
            session.dialogue = dataclasses.replace(asked, question=None, about="", asked="")
        if untold := session.dialogue.untold:
            asked_again = words(session.dialogue.untold_asked) == words(state.text)
            session.dialogue = dataclasses.replace(session.dialogue, untold=(), untold_asked="")
            if asked_again:
                # The same words again (a platform's retry, a caller who heard nothing):
                # what they asked for is done, and is said, not done a second time.
                await self._answers.speak(state, untold_preface(untold) or "")
                return
            if confirmation.is_negative(state.text):
                # "yes, wait, no" after it went through: not "okay", but what happened;
                # and no question is left waiting for a later yes.
                session.pending = None
                await self._answers.speak(state, too_late(untold))
                return
            # Told first, whatever this turn is: "yes, wait, no" must not hear "okay".
            state.preface = untold_preface(untold)
        pending = state.session.take_pending(state.now.timestamp())
        round_no = 0
        if pending is None and (taken_up := self._dropped_taken_up(state)) is not None:
            # "ok, go ahead with the delete", the question it was asked in left turns ago.
            if taken_up.ask_first:
                # Something was written since: what it names is asked about again.
                expires_at = state.now.timestamp() + self.config.confirmation_ttl_s
                state.pending = dataclasses.replace(
                    taken_up, ask_first=False, expires_at=expires_at
                )
                await self._answers.speak(state, taken_up.prompt)
                state.pending = state.session.pending = state.pending.asked_now()
                return
            if await self._moved_since_asked(state, taken_up):
                return
            await self._run_round(state, 1, list(taken_up.calls), None, confirmed=True)
            await self._answers.narrate(state)
            return
        if pending is None and (kept := self._dropped_declined(state)) is not None:
            # "delete the insurance task" → "hang on, what do I owe?" → "actually no, keep
            # the task": the change let go just before, declined (was "I can't help").
            await self._answers.speak(state, kept.declined)
            return
        if pending is None and (again := self._dropped_asked_again(state)) is not None:
            # "cancel my haircut" → "wait, what's my balance?" → "ok, yes, go ahead": the yes
            # is to the change let go just before, so that question is asked again (a bare
            # yes never runs a change moved on from; it was "nothing waiting for a yes").
            expires_at = state.now.timestamp() + self.config.confirmation_ttl_s
            state.pending = dataclasses.replace(
                again, ask_first=False, moved_on_in=0, expires_at=expires_at
            )
            await self._answers.speak(state, confirmation.asked_again_after_moving_on(again))
            state.pending = state.session.pending = state.pending.asked_now()
            return
        if (
            pending is not None
            and not pending.answered_by(state.received_at)
            and confirmation.says_yes_to(state.text, pending.calls, pending.prompt)
        ):
            # Sent before the question was said (typed ahead, another tab): a yes to
            # something the customer had not heard yet. Nothing is done; asked again.
            await self._ask_again(state, pending, YES_BEFORE_QUESTION)
            return
        if (
            pending is not None
            and not state.question_heard
            and confirmation.says_yes_to(state.text, pending.calls, pending.prompt)
        ):
            # Asked on another connection of the session (another tab, the other device):
            # this customer's yes answers a question they never heard. Asked again here.
            await self._ask_again(state, pending, ASKED_ELSEWHERE)
            return
        if pending is not None and (picked := self._picked(state, pending)) is not None:
            if not picked.agreed:
                # "no wait, just the task": asked again, about the one picked alone.
                narrowed = dataclasses.replace(
                    pending,
                    calls=tuple(picked.calls),
                    named=picked.named,
                    prompt=picked.prompt,
                    declined=confirmation.declined_answer(picked.calls),
                    dropped=picked.dropped,
                )
                await self._ask_again(state, narrowed, "")
                return
            # "yes to the first, no to the second": the calls picked run, the others not.
            state.preface = " ".join(filter(None, (state.preface, picked.left)))
            await self._run_round(state, 1, picked.calls, None, confirmed=True)
            await self._answers.narrate(state)
            return
        if pending is not None and confirmation.glad_of_it(state.text, pending.prompt):
            # "ok good" to "…add it again anyway?": glad it is there, nothing more done.
            await self._answers.speak(state, pending.declined)
            return
        retimed: PendingConfirmation | None = None
        # (the question as the customer heard it: a retimed one's is said only if asked again)
        heard_prompt = pending.prompt if pending is not None else ""
        if pending is not None and (
            retimed := replacement.retimed(pending, state.text, self._local_now(state))
        ):
            # "yes, saturday at 11" to "…and book a massage in its place, at that time or
            # at another?": the answer, and the time the booking is made at. A time with no
            # yes ("friday at 3pm") holds it again at that time and asks (it cancelled the
            # visit with no yes).
            if not replacement.agreed_first(state.text):
                await self._ask_again(state, retimed, "")
                return
            pending = retimed
        if (
            pending is not None
            and retimed is None
            and confirmation.another_hour_for(pending.calls, state.text, self._local_now(state))
        ):
            # "no, 10am", "ok then sunday at 10am" to "That's 2:30 AM on Sunday… book it for
            # then?": the booking at the new hour, planned afresh with the checks a fresh
            # request meets (it was "Okay, I haven't changed anything", or "I didn't make
            # that change"); the one asked about is neither done nor asked again.
            state.dropped_calls = pending.calls
            state.session.dropped = None
            pending = None
        if pending is not None:
            says_yes = retimed is not None or confirmation.says_yes_to(
                state.text, pending.calls, pending.prompt
            )
            replies = says_yes or (
                answers_with_more(state.text)
                # "no wait, just the task": the customer's own ask narrowed, not an answer
                and confirmation.narrowed(state.text, pending.calls, pending.named) is None
            )
            if replies and not (
                state.question_heard and was_heard(heard_prompt, said_before_reply(state.session))
            ):
                # The caller talked over the question (or the platform never played
                # it): their yes answers something else, so the question is asked again;
                # so is "yes but make it 4", "no, 4:30 instead" (was: the visit already
                # booked MOVED to 4, where the question was whether to book another).
                await self._ask_again(state, pending)
                return
            if says_yes:
                if await self._moved_since_asked(state, pending):
                    return
                await self._run_confirmed(state, pending.calls)
                if confirmation.request_after_yes(state.text) is None and not _not_found(state):
                    await self._answers.narrate(state)
                    return
                # (a change refused as not found: planned on, its item listed afresh)
                # "yes, and also add…": what follows the yes is planned from round 2 on.
                round_no = 1
            elif confirmation.asks_what_it_does(state.text):
                # "wait, what will that do?": told, and the question still waits (it was
                # let go, and the "ok yes go ahead" after it was asked again).
                await self._ask_again(state, pending, confirmation.what_it_does(pending.calls))
                return
            elif confirmation.asks_which_held(state.text):
                # "wait, which one were you going to cancel?": its question, which names
                # it, asked again (it was let go: "I didn't cancel your dental cleaning").
                await self._ask_again(state, pending, "")
                return
            elif confirmation.hesitates(state.text):
                # "hmm, not sure", "hold on a sec", "hang on": no answer yet (not a no), so
                # the question still waits (it was let go, and the "ok yes that's right"
                # after it found nothing waiting).
                await self._ask_again(state, pending, "No rush, I haven't done anything yet.")
                return
            elif confirmation.is_negative(state.text):
                await self._answers.speak(state, pending.declined)
                return
            elif confirmation.asks_to_repeat(state.text):
                # "sorry, what did you say?": the question again, still waiting for its yes.
                await self._ask_again(state, pending, "")
                return
            elif confirmation.asked_before_it(state.text):
                # "hang on, first schedule me a haircut saturday at 2": that request, and
                # the question after it, still waiting (it was let go: "I didn't cancel…")
                state.held_over = pending
                state.dropped_calls = pending.calls
                state.session.dropped = None
            else:
                # Anything else drops the pending calls and is a new request; the answer
                # begins by saying they were not done (PROTOCOL.md).
                state.preface = " ".join(filter(None, (state.preface, pending.dropped)))
                state.dropped_calls = pending.calls
                state.session.dropped = (
                    # "actually never mind, what's my next appointment": taken back, not
                    # let go, so no later yes asks it again
                    None
                    if confirmation.withdrawn_first(state.text)
                    else dataclasses.replace(pending, moved_on_in=state.session.turns)
                )
        final_text: str | None = None
        planned_last = False
        while True:
            round_no += 1
            run: RoundRun | None = None
            early: EarlyCalls | None = None
            speaker: AnswerStream | None = None
            decision: FinalDecision | ToolCallsDecision | None
            carrying = bool(state.carried)
            if carrying:
                # Writes the last decision asked for past the cap: this round's calls,
                # without asking the planner (it is asked after them, with every result).
                decision = ToolCallsDecision(calls=tuple(state.carried))
                state.carried = []
            elif planned_last:
                # The planner said its last round's calls were its last: not asked again
                # (a decision saved on most lookups), its results are narrated.
                decision = _NARRATE
            else:
                run = RoundRun(self.executor, self._context(state, round_no), state.emit)
                early = self._early_calls(state, round_no, run)
                speaker = self._answer_stream(state, round_no, early)
                decision = await self._decide(state, round_no, early, speaker)
            if decision is None:
                return
            if speaker is not None and speaker.spoke:
                # The answer went out as the model wrote it; calls after it are not run.
                dropped = isinstance(decision, ToolCallsDecision)
                if dropped:
                    log.warning("model called tools after answering; not run: %s", decision)
                if early is not None and early.run.started:
                    # Reads it started before its answer: stopped, and reported.
                    await early.run.stop()
                    await early.run.release()
                    self._record_round(state, round_no, early.run.results(), early.run)
                await speaker.finish(calls_dropped=dropped)
                return
            if isinstance(decision, FinalDecision):
                instead = said_instead(state, decision.text, self._writes)
                forced = await self._forced_follow_up(state, round_no, instead is not None)
                if forced is None:
                    # A claim of a change that no tool made is never spoken, nor a
                    # model's figure the results contradict.
                    final_text = instead or decision.text
                    if instead is None and self._guessing_planner and final_text:
                        final_text = fixed_figures(state, final_text, self._writes) or final_text
                    break
                decision = forced
            if round_no > self.config.max_rounds:
                await self._skip_round(state, round_no, decision.calls)
                break
            calls = list(decision.calls)
            if state.pending is not None:
                # Calls already waiting for the yes are not asked for twice; the rest of
                # the request goes on ("delete the grocery task and change my phone":
                # the delete, found in the next round, joins the same question).
                held = {call_key(call) for call in state.pending.calls}
                calls = [call for call in calls if call_key(call) not in held]
                if not calls:
                    break
            ran_before = len(state.results)
            await self._run_round(state, round_no, calls, decision, run, early)
            if not carrying:
                planned_last = decision.last_round
            if state.carried and not state.told:
                continue  # the writes past the cap run next
            if state.told:
                break  # the answer has begun with what was ready: no more rounds
            if state.pending is not None and not _planned_results(state, ran_before):
                break  # only held calls this round: nothing new to plan from
        # A planner's own final text is the answer (a model that saw the results, or the
        # embedded planner's "which one?"); empty text after tools means: narrate them.
        # With calls held for a yes, the narration ends with the question.
        if (held_over := state.held_over) is not None:
            if state.pending is None and not final_text and not state.told:
                # the question held over, asked after what was asked first
                expires_at = state.now.timestamp() + self.config.confirmation_ttl_s
                state.pending = dataclasses.replace(held_over, expires_at=expires_at)
            else:  # (the request asked its own question: the held one is let go, as before)
                state.preface = " ".join(filter(None, (state.preface, held_over.dropped)))
                turns = state.session.turns
                state.session.dropped = dataclasses.replace(held_over, moved_on_in=turns)
        if final_text and state.pending is None:
            await self._answers.speak(state, final_text)
        elif state.results or state.pending is not None:
            await self._answers.narrate(state)
        else:
            await self._answers.speak(state, "Okay.")

    async def _run_confirmed(self, state: TurnState, calls: Sequence[ToolCall]) -> None:
        """The calls a yes confirmed; a booking that replaces a visit cancelled with it
        runs after the cancel, and only when the CRM says it was made."""
        first, after = replacement.in_order(calls)
        await self._run_round(state, 1, first, None, confirmed=True)
        if not after:
            return
        if replacement.cancels_went_through(first, state.results):
            await self._run_round(state, 1, after, None, confirmed=True)
            if not replacement.booked(after, state.results):
                state.afterword = replacement.cancelled_only(after)
        else:
            state.afterword = replacement.not_booked(after)

    def _local_now(self, state: TurnState) -> datetime:
        customer = state.session.customer
        return local_now(state.now, customer.timezone if customer is not None else None)

    async def _moved_since_asked(self, state: TurnState, held: PendingConfirmation) -> bool:
        """Whether what the held calls name changed since the question (a visit moved, the
        email or phone on file changed: another tab, the phone, the office): the yes was
        to it as it was, so the question is asked again, naming it as it is now, and
        nothing runs."""
        try:
            changed = await self._integrity.changed_since_asked(state, held, self._execute)
        except asyncio.CancelledError:
            # Stopped (a newer request, barge-in) before the yes ran anything: the
            # question still waits for its answer; the yes that follows applies it.
            if state.session.pending is None:
                state.session.pending = held
            raise
        if changed is None:
            return False
        why, words = changed
        await self._ask_again(state, _reworded(held, words), why)
        return True

    async def _ask_again(
        self, state: TurnState, pending: PendingConfirmation, why: str = NOT_HEARD
    ) -> None:
        """The question held, asked again after `why`; its yes must come after this."""
        expires_at = state.now.timestamp() + self.config.confirmation_ttl_s
        state.pending = dataclasses.replace(pending, expires_at=expires_at)
        prompt = pending.prompt
        if not why:
            asked = prompt
        elif why.endswith((".", "!", "?")):
            asked = f"{why} {prompt}"  # a sentence of its own before it
        else:
            asked = f"{why} {prompt[:1].lower()}{prompt[1:]}"
        await self._answers.speak(state, asked)
        state.pending = state.session.pending = state.pending.asked_now()

    async def _decide(
        self,
        state: TurnState,
        round_no: int,
        early: EarlyCalls | None = None,
        speaker: AnswerStream | None = None,
    ) -> FinalDecision | ToolCallsDecision | None:
        async def on_ack(piece: str) -> None:
            await state.emit(AckDelta(state.turn_id, round_no, piece))

        request = self._plan_request(
            state,
            round_no,
            early.on_ack if early else on_ack,
            on_call=early.on_call if early else None,
            on_text=speaker.push if speaker else None,
        )
        started = time.perf_counter()
        try:
            # A decision that outlasts its share of the deadline is a model that failed.
            with (
                Deadline(state.budget.decisions_end),
                tracing.span("decision", round=round_no),
            ):
                decision = await self.planner.decide(request)
                tracing.decision_made(decision)
        except asyncio.CancelledError:
            if early is not None and early.run.started:
                # Cancelled mid-stream: the reads already out stop and are reported.
                await early.run.stop()
                await early.run.release()
                self._record_round(state, round_no, early.run.results(), early.run)
            raise
        except Exception as exc:
            if speaker is not None and speaker.spoke:
                log.warning("planner failed after answering in part: %s", exc)
                await speaker.finish()
                return None
            if early is not None and early.started:
                await self._close_early(state, round_no, early)
            if isinstance(exc, ModelUnavailable | TimeoutError):
                return await self._model_failed(state, round_no, "model_unavailable", exc)
            log.exception("planner failed")
            return await self._model_failed(state, round_no, "internal", exc)
        finally:
            elapsed = time.perf_counter() - started
            state.timings["decision"] += elapsed
            if self._metrics is not None:
                observe(self._metrics.decision_s, elapsed)
        return decision

    def _early_calls(self, state: TurnState, round_no: int, run: RoundRun) -> EarlyCalls | None:
        if not self.config.start_tools_early or round_no > self.config.max_rounds:
            return None
        return EarlyCalls(
            run,
            self.executor,
            state,
            round_no,
            dedupe=self.config.dedupe_calls,
            cap=self.config.max_tool_calls_per_round,
        )

    def _answer_stream(
        self, state: TurnState, round_no: int, early: EarlyCalls | None
    ) -> AnswerStream | None:
        """Only after a round of tools: a first decision's text is too often a preamble
        to its calls (see assistant/answer_stream.py). Not while calls wait for a yes:
        then the narrator answers, ending with the question."""
        if not self.config.stream_answers or round_no == 1 or state.pending is not None:
            return None

        async def may_stream() -> bool:
            return await self._forced_follow_up(state, round_no, claimed=True) is None

        return AnswerStream(
            state,
            truth=lambda text: said_instead(state, text, self._writes),
            figures=lambda text: (
                fixed_figures(state, text, self._writes) if self._guessing_planner else None
            ),
            may_stream=may_stream,
            before_first=lambda: self._answer_begins(state, early),
        )

    async def _answer_begins(self, state: TurnState, early: EarlyCalls | None) -> None:
        """The model's answer is going out: no call of its may start any more."""
        if early is not None:
            early.closed = True
        await self._answers.say_preface(state)

    async def _close_early(self, state: TurnState, round_no: int, early: EarlyCalls) -> None:
        """The decision failed after reads had started: end their acknowledgement and
        keep what they found (the answer tells it)."""
        if early.pieces:
            await self._acknowledge(state, round_no, [], None, early)
        run = early.run
        await run.release()
        await run.wait()
        self._record_round(state, round_no, run.results(), run)

    async def _model_failed(
        self, state: TurnState, round_no: int, code: str, exc: Exception
    ) -> FinalDecision | None:
        if self._metrics is not None:
            self._metrics.model_errors.labels("planner").inc()
        if state.results:
            # Later rounds: what was already fetched is still worth saying.
            log.warning("planner failed in round %d; narrating what we have: %s", round_no, exc)
            return FinalDecision(text="")
        state.failed = True
        message = APOLOGY if code == "model_unavailable" else INTERNAL_APOLOGY
        await state.emit(
            ErrorEvent(code, error_text(code), turn_id=state.turn_id, trace_id=state.trace_id)
        )
        await self._answers.speak(state, message)
        return None

    def _plan_request(
        self,
        state: TurnState,
        round_no: int,
        on_ack: AckSink | None = None,
        *,
        on_call: CallSink | None = None,
        on_text: AckSink | None = None,
    ) -> PlanRequest:
        # Built once with every field: dataclasses.replace afterwards cost a second build.
        session = state.session
        return PlanRequest(
            conversation=tuple(session.history),
            tools=session.tools,
            customer=session.customer,
            now=state.now,
            round=round_no,
            turn_results=_planned_from(state),
            max_calls=self.config.max_tool_calls_per_round,
            on_ack=on_ack,
            dialogue=session.dialogue,
            on_call=on_call,
            on_text=on_text,
        )

    async def _forced_follow_up(
        self, state: TurnState, round_no: int, claimed: bool = False
    ) -> ToolCallsDecision | None:
        """When the planner stopped after a lookup without the action asked for, or
        answered that it acted without calling any tool, act."""
        if self._follow_up is None or round_no > self.config.max_rounds:
            return None
        if not (state.results or claimed):
            return None
        try:
            proposal = await self._follow_up.decide(self._plan_request(state, round_no))
        except Exception:
            log.exception("follow-up planner failed")
            return None
        if not isinstance(proposal, ToolCallsDecision):
            return None
        made = {call_key(result.call) for result in state.results}
        calls = tuple(call for call in proposal.calls if call_key(call) not in made)
        if not calls:
            return None
        log.info("planner stopped early; following up with %s", [c.tool_name for c in calls])
        return ToolCallsDecision(calls=calls)

    async def _run_round(
        self,
        state: TurnState,
        round_no: int,
        calls: list[ToolCall],
        decision: ToolCallsDecision | None,
        run: RoundRun | None = None,
        early: EarlyCalls | None = None,
        *,
        confirmed: bool = False,
    ) -> None:
        order = list(calls)
        if run is None:
            run = RoundRun(self.executor, self._context(state, round_no), state.emit)
        try:
            await self._start_round(state, round_no, calls, decision, run, early, confirmed)
            if run.started:
                await self._await_round(state, run)
        finally:
            if run.started:
                if not run.done():  # cancelled before the reads started early were awaited
                    await run.stop()
                await run.release()  # cancelled before the acknowledgement ended
                self._record_round(state, round_no, run.results(order), run)

    async def _start_round(
        self,
        state: TurnState,
        round_no: int,
        calls: list[ToolCall],
        decision: ToolCallsDecision | None,
        run: RoundRun,
        early: EarlyCalls | None,
        confirmed: bool,
    ) -> None:
        """Cap, integrity checks and acknowledgement, then every call not yet running."""
        if early is not None and early.started:
            calls, over = early.keep(calls)
        else:
            early = None
            calls, over = self._within_cap(calls)
        if over:
            if self._metrics is not None:
                self._metrics.truncated.inc(len(over))
            # The writes past the cap run next round (all of them checked as any call);
            # the reads past it are dropped, and the narrator is told how many.
            carried = [call for call in over if call.tool_name not in self._reads]
            state.carried.extend(carried)
            state.truncated += len(over) - len(carried)
        # A round of known reads (most rounds) has nothing for the write checks to judge.
        checked = any(call.tool_name not in self._reads for call in calls)
        integrity = self._integrity
        refused: dict[str, tuple[ToolCall, ToolError]] = {}
        if checked:
            calls = integrity.drop_repeats(state, calls)
            refused = integrity.refuse_times(state, calls)
            calls = [call for call in calls if call.call_id not in refused]
            if not confirmed:
                if self._guessing_planner:
                    # A model that asks in its words ("Shall I book it?") has no yes yet.
                    asked = decision is not None and "?" in (decision.acknowledgement or "")
                    calls, contradicted = integrity.judge_words(state, calls, model_asked=asked)
                    refused.update(contradicted)
                calls = integrity.hold_confirmable(state, calls)
            calls, late = integrity.startable(state, calls)
            for call in late:
                refused[call.call_id] = (call, NOT_STARTED)
        unannounced: list[Event] = []
        spoken_early = early is not None and bool(early.pieces)
        if checked and not confirmed and not spoken_early:
            # Before the acknowledgement: it must not promise a write then asked about
            # ("Sure, I'll add that task." and then "it's already on your list: add it
            # again?"). The listings the checks read are announced after it.
            before = len(calls)
            calls = await self._hold_doubtful(state, round_no, calls, unannounced)
            if (
                len(calls) < before
                and decision is not None
                and decision.acknowledgement
                and not decision.acknowledgement_streamed
            ):
                decision = None  # a model's words promised what is now asked: ours instead
        with tracing.span("acknowledgement", round=round_no):
            await self._acknowledge(state, round_no, calls, decision, early)
        for event in unannounced:
            await state.emit(event)
        if refused:
            await self._report_unstarted(state, round_no, list(refused.values()))
        if checked and not confirmed and spoken_early:
            calls = await self._hold_doubtful(state, round_no, calls)
        if checked:
            await integrity.note_sent(state, calls)
            if not confirmed:
                await integrity.note_as_asked(state, round_no, self._execute)
        await run.start(calls)

    def _within_cap(self, calls: list[ToolCall]) -> tuple[list[ToolCall], list[ToolCall]]:
        """The calls a round runs, and those over the cap."""
        # Duplicates go first, so that one never takes a distinct call's place under the cap.
        if self.config.dedupe_calls:
            calls = list({call_key(call): call for call in reversed(calls)}.values())[::-1]
        cap = self.config.max_tool_calls_per_round
        return calls[:cap], calls[cap:]

    def _record_round(
        self, state: TurnState, round_no: int, results: list[ToolResult], run: RoundRun
    ) -> None:
        """A round's results, kept once, in the decision's order."""
        self._keep_results(state, round_no, results, run.began)

    def _keep_results(
        self, state: TurnState, round_no: int, results: list[ToolResult], began: float | None
    ) -> None:
        """Results of calls run since `began`: timed, kept in the turn and the history."""
        if began is not None:
            elapsed = time.perf_counter() - began
            state.timings["tools"] += elapsed
            if self._metrics is not None:
                observe(self._metrics.tools_s, elapsed)
        if results:
            state.results.extend(results)
            state.session.remember(ToolExchange(round=round_no, results=tuple(results)))
            self._integrity.remember_writes(state, results)
            customer = state.session.customer
            if customer is not None and not customer.timezone_known:
                _speak_times_as_written(state, customer, results)

    async def _await_round(self, state: TurnState, run: RoundRun) -> None:
        await progress.await_round(
            run,
            self.config.progress_after_s,
            may_tell=lambda: progress.may_tell_early(state, run, self.executor),
            tell=lambda: self._answers.first_part(state, run),
        )

    async def _execute(self, state: TurnState, round_no: int, calls: list[ToolCall]) -> None:
        started = time.perf_counter()
        results: list[ToolResult] = []
        try:
            await self.executor.run_round(
                calls, self._context(state, round_no), state.emit, into=results
            )
        finally:
            self._keep_results(state, round_no, results, started)

    async def _hold_doubtful(
        self,
        state: TurnState,
        round_no: int,
        calls: list[ToolCall],
        unannounced: list[Event] | None = None,
    ) -> list[ToolCall]:
        """Writes aimed at another item than the one named, or duplicating something,
        held for a yes; their listings' events kept in `unannounced` when given."""
        integrity = self._integrity
        execute = self._execute if unannounced is None else self._quiet_execute(unannounced)
        if self._guessing_planner:
            calls = await integrity.hold_other_targets(state, round_no, calls, execute)
        if calls:
            calls = await integrity.hold_doubts(state, round_no, calls, execute)
        return calls

    def _quiet_execute(self, events: list[Event]) -> Callable[..., Awaitable[None]]:
        """`_execute` whose events are kept in `events`, to be sent later (a round's
        acknowledgement goes before its tool events)."""

        async def keep(event: Event) -> None:
            events.append(event)

        async def execute(state: TurnState, round_no: int, calls: list[ToolCall]) -> None:
            started = time.perf_counter()
            results: list[ToolResult] = []
            try:
                await self.executor.run_round(
                    calls, self._context(state, round_no), keep, into=results
                )
            finally:
                self._keep_results(state, round_no, results, started)

        return execute

    def _context(self, state: TurnState, round_no: int) -> RoundContext:
        return RoundContext(
            turn_id=state.turn_id,
            round=round_no,
            session_id=state.session.session_id,
            customer_id=state.session.customer.customer_id if state.session.customer else None,
            trace_id=state.trace_id,
            deadline=state.deadline,
            resend_keys=state.resend_keys,
        )

    async def _acknowledge(
        self,
        state: TurnState,
        round_no: int,
        calls: Sequence[ToolCall],
        decision: ToolCallsDecision | None,
        early: EarlyCalls | None = None,
    ) -> None:
        if early is not None and early.pieces and not (decision and decision.acknowledgement):
            # Begun as the reads started; the calls that waited for the end complete it.
            rest = early.closing(self._new_hints(state, calls))
            for piece in rest:
                await state.emit(AckDelta(state.turn_id, round_no, piece))
            text = "".join(early.pieces + rest)
        elif decision is not None and decision.acknowledgement:
            text = decision.acknowledgement
            if not decision.acknowledgement_streamed:
                await state.emit(AckDelta(state.turn_id, round_no, text))
        else:
            hints = self._new_hints(state, calls)
            pieces = ack_pieces(hints, lead="Sure, I'll" if round_no == 1 else "Now I'll")
            if not pieces:
                return
            for piece in pieces:
                await state.emit(AckDelta(state.turn_id, round_no, piece))
            text = "".join(pieces)
        for call in calls:
            tool = self.executor.tool(call.tool_name)
            if tool is not None:
                state.spoken_hints.add(tool.waiting_hint)
        if round_no == 1 or not state.timings["ack"]:
            # When the acknowledgement began while the decision streamed, it was heard then.
            heard = early.first_piece_at if early and early.first_piece_at else None
            state.timings["ack"] = (heard or time.perf_counter()) - state.started
            if self._metrics is not None:
                observe(self._metrics.ack_s, state.timings["ack"])
        state.session.remember(AssistantTurn(kind="ack", text=text))
        await state.emit(AckDone(state.turn_id, round_no, text))
        if early is not None:
            await early.run.release()  # the calls started early are announced now

    def _new_hints(self, state: TurnState, calls: Sequence[ToolCall]) -> list[str]:
        """Waiting hints of `calls` not spoken yet this turn."""
        hints = []
        for call in calls:
            tool = self.executor.tool(call.tool_name)
            if tool is not None and tool.waiting_hint not in state.spoken_hints:
                hints.append(tool.waiting_hint)
        return hints

    async def _skip_round(self, state: TurnState, round_no: int, calls: Sequence[ToolCall]) -> None:
        """Calls asked for past `max_rounds`: reported skipped; the narrator uses the rest."""
        error = ToolError(
            code="round_limit",
            message=f"not run: the turn already used its {self.config.max_rounds} rounds",
        )
        await self._report_unstarted(
            state,
            round_no,
            [(call, error) for call in calls[: self.config.max_tool_calls_per_round]],
        )

    async def _report_unstarted(
        self, state: TurnState, round_no: int, calls: Sequence[tuple[ToolCall, ToolError]]
    ) -> None:
        """Calls not run: each still gets its tool.started/finished and one result (skipped
        when it was not tried; an error when the engine refused its arguments)."""
        skipped = []
        for call, error in calls:
            status: ToolStatus = "skipped" if error.code in ("round_limit", "timeout") else "error"
            result = ToolResult(call=call, round=round_no, status=status, error=error)
            await state.emit(
                ToolStarted(state.turn_id, round_no, call.call_id, call.tool_name, call.arguments)
            )
            await state.emit(
                ToolFinished(
                    state.turn_id,
                    round_no,
                    call.call_id,
                    call.tool_name,
                    status,
                    tool_error_wire(error),
                    0,
                    0,
                )
            )
            skipped.append(result)
        state.results.extend(skipped)
        state.session.remember(ToolExchange(round=round_no, results=tuple(skipped)))

    # --- bookkeeping ----------------------------------------------------------------

    def _picked(
        self, state: TurnState, pending: PendingConfirmation
    ) -> confirmation.Narrowed | None:
        """The waiting calls a reply picks some of, once the question was heard in full."""
        picked = confirmation.narrowed(state.text, pending.calls, pending.named)
        if picked is None or not pending.answered_by(state.received_at):
            return None
        if not state.question_heard:
            return None
        return picked if was_heard(pending.prompt, said_before_reply(state.session)) else None

    def _dropped_taken_up(self, state: TurnState) -> PendingConfirmation | None:
        """The confirmation moved on from earlier, when this message is a yes naming its
        action ("go ahead with the delete"); a bare "yes" never takes it up."""
        session = state.session
        if session.dropped is None:
            return None
        text = state.text
        if (back := confirmation.back_to(text)) is not None:
            # "ok, back to the groceries, yes delete it": the yes after the thing gone back
            # to, when the question let go named it
            what, text = back
            asked = " ".join(said for _, said in session.dropped.named).lower()
            if not all(re.search(rf"\b{re.escape(word)}", asked) for word in what):
                return None
        named = confirmation.go_ahead_named(text)
        if named is None and (naming := confirmation.go_ahead_naming(text)) is not None:
            # "ok yes cancel the haircut": taken up when the question named that thing
            named, words = naming
            asked = " ".join(said for _, said in session.dropped.named).lower()
            if not all(re.search(rf"\b{re.escape(word)}", asked) for word in words):
                return None
        if named is None or any(call.tool_name != named for call in session.dropped.calls):
            return None
        detail = confirmation.detail_named(text)
        if detail is not None and any(
            detail not in call.arguments for call in session.dropped.calls
        ):
            return None  # "go ahead with the email" when the phone was held: not that one
        return session.take_dropped(state.now.timestamp())

    def _dropped_declined(self, state: TurnState) -> PendingConfirmation | None:
        """The confirmation a question moved on from in the turn just before, when this
        message is a bare no to it ("actually no, keep the task")."""
        session = state.session
        if _just_dropped(session) is None or not confirmation.is_negative(state.text):
            return None
        return session.take_dropped(state.now.timestamp())

    def _dropped_asked_again(self, state: TurnState) -> PendingConfirmation | None:
        """The confirmation a question moved on from in the turn just before, when this
        message is a bare yes and the answer between asked nothing of its own."""
        session = state.session
        dropped = _just_dropped(session)
        if (
            dropped is None
            or not confirmation.is_affirmative(state.text)
            or confirmation.request_after_yes(state.text) is not None
        ):
            return None
        if (back := confirmation.back_to(state.text)) is not None:
            # "ok, back to the haircut, yes…" when the groceries' delete was let go
            asked = " ".join(said for _, said in dropped.named).lower()
            if not all(re.search(rf"\b{re.escape(word)}", asked) for word in back[0]):
                return None
        return session.take_dropped(state.now.timestamp())

    def _forget_dropped_after_change(self, state: TurnState) -> None:
        """A new question since: the confirmation moved on from is not taken up later. A
        write since: it is asked again before it runs (what it named may have changed)."""
        session = state.session
        if session.dropped is None:
            return
        if session.pending is not None:
            session.dropped = None
        elif any(result.ok and result.call.tool_name in self._writes for result in state.results):
            session.dropped = dataclasses.replace(session.dropped, ask_first=True)

    def _hint_of(self, tool_name: str) -> str | None:
        tool = self.executor.tool(tool_name)
        return tool.waiting_hint if tool else None


def _planned_from(state: TurnState) -> tuple[ToolResult, ...]:
    """The turn's results a planner plans from: not the look, before a yes ran its held
    calls, at whether their visit moved or their contact details changed (a yes's turn
    begins with what it ran)."""
    if not any(check.startswith(AS_ASKED_CHECK) for check in state.checks):
        return tuple(state.results)
    return tuple(r for r in state.results if not r.call.call_id.startswith(AS_ASKED_CHECK))


def _reworded(pending: PendingConfirmation, words: confirmation.Wording) -> PendingConfirmation:
    """The same held calls, asked about in other words."""
    return dataclasses.replace(
        pending, prompt=words.prompt, declined=words.declined, dropped=words.dropped
    )


def _planned_results(state: TurnState, ran_before: int) -> bool:
    """Whether the round gave results of the planner's calls (the listings fetched only
    for the write checks are not news to plan from)."""
    return any(r.call.call_id not in state.checks for r in state.results[ran_before:])


def _speak_times_as_written(
    state: TurnState, customer: CustomerContext, results: list[ToolResult]
) -> None:
    """With the customer's zone unknown (their profile unread), the CRM's times are
    spoken at the hours it wrote them, not in UTC: a zone of their one offset stands in,
    still marked unknown, so that no timed write is made on it."""
    zone = zone_of_offsets(result.result for result in results if result.ok)
    if zone is not None and zone != customer.timezone:
        state.session.customer = customer.model_copy(update={"timezone": zone})


def _keep_untold(state: TurnState) -> None:
    """A stopped turn's writes that went through, for the next answer to begin with."""
    customer = state.session.customer
    timezone = customer.timezone if customer is not None else "UTC"
    clauses = untold_writes(state.results, state.told, timezone)
    if clauses:
        dialogue_now = state.session.dialogue
        untold = (*dialogue_now.untold, *clauses)
        state.session.dialogue = dataclasses.replace(
            dialogue_now, untold=untold, untold_asked=state.text
        )


def _not_found(state: TurnState) -> bool:
    """Whether a call of the turn was refused as not found (an item gone, or its id)."""
    return any(
        result.error is not None and result.error.code == "not_found" for result in state.results
    )


def _advance_dialogue(state: TurnState) -> None:
    """What the conversation is about now: what was listed, done, named or held."""
    session = state.session
    held = list(session.pending.calls) if session.pending is not None else []
    session.dialogue = dialogue.advance(
        session.dialogue,
        state.results,
        state.text,
        "".join(state.answer),
        held,
        as_meant(state.text),
    )


__all__ = ["Engine", "EngineConfig", "Turn"]


def _just_dropped(session: Session) -> PendingConfirmation | None:
    """The confirmation a question moved on from in the turn just before, when nothing was
    asked or written since (a write since: what it named may have changed, or replaced it:
    "no, move it to saturday instead" was no question in between)."""
    dropped = session.dropped
    if (
        dropped is None
        or dropped.moved_on_in != session.turns - 1
        or dropped.ask_first
        or session.dialogue.question is not None
    ):
        return None
    return dropped
