"""The answer of a turn: narrated from the results, or a fixed text, streamed as it comes.

The engine decides what is said (results to narrate, a question, an apology); this
says it: `answer.delta` piece by piece and one `answer.done`, with the preface about
dropped calls first, a progressive answer's first part while a slow call is still
out (progress.py), and the fallback narrator, or an apology, when the model fails or
misses the answer's share of the turn's deadline.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Collection

from assistant import figures, progress, tracing
from assistant.claims import claims_a_change
from assistant.deadlines import Deadline
from assistant.errors import ModelUnavailable
from assistant.metrics import Metrics
from assistant.models.base import Narrator
from assistant.round_run import RoundRun
from assistant.schema import (
    AnswerDelta,
    AnswerDone,
    ErrorEvent,
    NarratorInput,
    ToolExchange,
    ToolResult,
    UserTurn,
)
from assistant.speaking import split_sentences
from assistant.targets import stems
from assistant.truthful import went_through
from assistant.turn import TurnState, call_key, context_hint, said_instead

log = logging.getLogger(__name__)

APOLOGY = "I'm sorry, I can't reach my assistant service right now. Please try again in a moment."
INTERNAL_APOLOGY = "I'm sorry, something went wrong on my side. Please try that again."


class Answerer:
    """Speaks a turn's answer through its narrator (and the fallback one)."""

    def __init__(
        self,
        narrator: Narrator,
        hint_of: Callable[[str], str | None],
        *,
        fallback_narrator: Narrator | None = None,
        metrics: Metrics | None = None,
        writes: frozenset[str] = frozenset(),
    ) -> None:
        self._narrator = narrator
        # The tools that change something: a narrator's claim of a change is held
        # against the turn's results of these (assistant/claims.py).
        self._writes = writes
        self._hint_of = hint_of
        self._fallback_narrator = fallback_narrator
        self._metrics = metrics

    async def first_part(self, state: TurnState, run: RoundRun) -> None:
        """The first part of a progressive answer: the results in, then what is still
        being done ("I'm still checking your billing."). `narrate` completes it."""
        request = progress.first_part(state, run, self._hint_of)
        started = time.perf_counter()
        try:
            with Deadline(state.budget.answer_end):
                await self._stream_answer(state, self._narrator, request, done=False)
        except (ModelUnavailable, TimeoutError) as exc:
            # Nothing lost: the whole answer comes when every result is in.
            log.warning("narrator unavailable for the results ready so far: %s", exc)
            if not state.answer:
                return
        finally:
            state.timings["answer"] += time.perf_counter() - started
        state.told.update(result.call.call_id for result in request.tool_results)
        state.told_pieces = len(state.answer)

    async def narrate(self, state: TurnState) -> None:
        # Listings fetched only to check for duplicates are not read out.
        told = tuple(r for r in state.results if r.call.call_id not in state.checks)
        request = NarratorInput(
            user_message=state.text,
            tool_results=told,
            context_hint=context_hint(told, self._hint_of),
            customer=state.session.customer,
            now=state.now,
            conversation=tuple(state.session.history),
            confirmation_prompt=state.pending.prompt if state.pending else None,
            truncated_calls=state.truncated,
            dialogue=state.session.dialogue,
            told=frozenset(state.told),
            already_said="".join(state.answer).strip() if state.told else "",
            checked=tuple(r for r in state.results if r.call.call_id in state.checks),
        )
        started = time.perf_counter()
        start = len(state.answer)  # where this narration's words begin
        try:
            with Deadline(state.budget.answer_end):  # a stalled stream is cut
                await self._stream_answer(state, self._narrator, request)
        except (ModelUnavailable, TimeoutError) as exc:
            if self._metrics is not None:
                self._metrics.model_errors.labels("narrator").inc()
            # After a first part, the fallback finishes it without repeating (`told`);
            # after a model cut off in mid-answer too: an apology alone would leave the
            # customer thinking nothing was done when a change was made, and invite
            # them to ask for it again.
            if self._fallback_narrator is None:
                state.failed = True
                await state.emit(
                    ErrorEvent(
                        "model_unavailable",
                        error_text("model_unavailable"),
                        turn_id=state.turn_id,
                        trace_id=state.trace_id,
                    )
                )
                await self.speak(state, APOLOGY)
            else:
                log.warning("narrator unavailable, using the fallback: %s", exc)
                if _without_broken_off(state, start):
                    # Streamed already, the words of the sentence it broke off in are not
                    # unsaid: a pause marks the break before the fallback's answer, which
                    # the answer of record (answer.done) follows whole sentences with.
                    await state.emit(AnswerDelta(state.turn_id, "… "))
                if state.answer and not state.answer[-1][-1:].isspace():
                    state.answer.append(" ")  # the model's last words and the fallback's
                    await state.emit(AnswerDelta(state.turn_id, " "))
                await self._stream_answer(state, self._fallback_narrator, request)
        finally:
            state.timings["answer"] += time.perf_counter() - started
        if state.pending is not None:
            state.pending = state.session.pending = state.pending.asked_now()

    @tracing.traced("narration")
    async def _stream_answer(
        self, state: TurnState, narrator: Narrator, request: NarratorInput, *, done: bool = True
    ) -> None:
        await self.say_preface(state)
        # Closed however the loop ends: `aclosing` spelled out (two coroutines fewer).
        pieces = narrator.narrate(request)
        try:
            false_claims = 0
            asked_otherwise = False
            judged = bool(self._writes) and not getattr(narrator, "speaks_from_results", False)
            async for piece in pieces:
                if piece and judged and _another_question(piece, state):
                    # While a question waits for a yes, the one the customer hears is the
                    # one the yes answers ("Shall I delete the groceries task?" before
                    # "… delete the task 'Schedule eye exam'?" would tell another).
                    piece = ""
                    asked_otherwise = True
                if piece and judged:
                    instead = said_instead(
                        state, piece, self._writes, held=state.pending is not None
                    )
                    if instead is not None:
                        # Said once, in place of the first false claim; later ones dropped.
                        false_claims += 1
                        piece = _in_place_of(piece, instead) if false_claims == 1 else ""
                    elif false_claims and _INVITES_REPEAT.search(piece):
                        piece = ""  # "Please try again." after the line said instead
                    elif (fixed := fixed_figures(state, piece, self._writes)) is not None:
                        piece = _in_place_of(piece, fixed)
                if piece:
                    if state.told and len(state.answer) == state.told_pieces:
                        # The second part of a progressive answer: "…your billing." +
                        # "You owe…" must not run together.
                        piece = piece if piece[:1].isspace() else " " + piece
                    state.answer.append(piece)
                    await state.emit(AnswerDelta(state.turn_id, piece))
            if asked_otherwise and state.pending is not None:
                prompt = state.pending.prompt
                if _flat(prompt) not in _flat("".join(state.answer)):
                    # Its own question dropped, the narrator asked none: ours is asked.
                    piece = f" {prompt}" if state.answer else prompt
                    state.answer.append(piece)
                    await state.emit(AnswerDelta(state.turn_id, piece))
        finally:
            await pieces.aclose()  # type: ignore[attr-defined]  # narrators are generators
        if state.afterword:
            piece = f" {state.afterword}" if state.answer else state.afterword
            state.afterword = None
            state.answer.append(piece)
            await state.emit(AnswerDelta(state.turn_id, piece))
        if done:
            await state.emit(AnswerDone(state.turn_id, "".join(state.answer).strip()))

    @tracing.traced("narration", fixed=True)
    async def speak(self, state: TurnState, text: str) -> None:
        """A fixed answer, streamed sentence by sentence like a narration."""
        started = time.perf_counter()
        await self.say_preface(state)
        for piece in split_sentences(text):
            state.answer.append(piece)
            await state.emit(AnswerDelta(state.turn_id, piece))
        await state.emit(AnswerDone(state.turn_id, "".join(state.answer).strip()))
        state.timings["answer"] += time.perf_counter() - started

    async def say_preface(self, state: TurnState) -> None:
        """What became of calls dropped this turn, said before the answer (once)."""
        if state.preface and not state.answer and not _held_again(state):
            piece = state.preface + " "
            state.answer.append(piece)
            await state.emit(AnswerDelta(state.turn_id, piece))
        state.preface = None


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


# The words of a question that say nothing of what it asks about ("Are you sure?",
# "Would you like me to go ahead?").
_ASKING = frozenset(
    {"shall", "would", "do", "does", "you", "want", "like", "are", "sure", "should", "can",
     "could", "go", "ahead", "me", "i", "we", "yes", "confi", "just", "okay", "ok", "so",
     "still", "reall", "proce", "that", "those", "them", "these", "then", "now", "wish"}
)  # fmt: skip


def _another_question(piece: str, state: TurnState) -> bool:
    """A model's question about something the pending one does not name ("Shall I delete
    the groceries task?" beside "… delete the task 'Schedule eye exam'?"), while one
    waits for a yes; "Are you sure?" asks nothing else."""
    if state.pending is None or not piece.rstrip().endswith("?"):
        return False
    if _flat(piece) == _flat(state.pending.prompt):
        return False
    return bool(stems(piece) - stems(state.pending.prompt) - _ASKING)


# A model's invitation to ask again, dropped after a line said in place of its words:
# "Sorry, I couldn't add that task. Please try again." when the task was added.
_INVITES_REPEAT = re.compile(
    r"\b(?:try (?:that |it |this )?again|ask (?:me )?(?:that |it )?again|once more)\b",
    re.IGNORECASE,
)

# The end of a sentence: its stop, and any closing quote or bracket after it.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*(?=\s|$)")


def _without_broken_off(state: TurnState, start: int) -> bool:
    """Drops from the answer the words of the sentence a model broke off in (its stream
    cut after a piece the sentence grouper let out mid-sentence: a long one is cut between
    words), from `start` on; True when some were dropped."""
    said = "".join(state.answer[start:])
    ends = [match.end() for match in _SENTENCE_END.finditer(said)]
    cut = ends[-1] if ends else 0
    if not said[cut:].strip():
        return False
    state.answer[start:] = [said[:cut]] if cut else []
    return True


def _held_again(state: TurnState) -> bool:
    """ "No, just the haircut": what waits now is some of what was left, and its question
    names it; "I didn't cancel the haircut" before it would contradict it. So too "and the
    cleaning as well": all that was left waits again, with more."""
    if state.pending is None or not state.dropped_calls:
        return False
    left = {call_key(call) for call in state.dropped_calls}
    now = {call_key(call) for call in state.pending.calls}
    return now <= left or left <= now


def fixed_figures(state: TurnState, text: str, writes: Collection[str]) -> str | None:
    """`text` with the amounts, hours and counts this conversation's results contradict
    put right (assistant/figures.py), or None when it states none wrongly. A model's
    words only: the embedded narrator speaks from the results."""
    if not figures.has_figure(text):
        return None  # most sentences: no result is read
    results = tuple(
        result
        for message in state.session.history
        if isinstance(message, ToolExchange)
        for result in message.results
    )
    held = state.pending.calls if state.pending is not None else ()
    customer = state.session.customer
    zone = customer.timezone if customer else "UTC"
    if any(not r.ok and r.call.tool_name in writes for r in results) and claims_a_change(text):
        # "Your haircut is now at 5 PM" beside a move to 5 PM that was refused: what was
        # tried is no figure of what is so (a sentence of what failed may still name it).
        tried = tuple(r for r in results if r.ok or r.call.tool_name not in writes)
        fixed = figures.corrected(text, figures.facts_of(tried, held, zone, writes))
        return fixed.strip() if fixed is not None else None
    # Every sentence of the answer is judged against the same results: read once a turn.
    read = state.figures_read
    if read is not None and read[0] == zone and read[1] is held and _same(read[2], results):
        facts = read[3]
    else:
        facts = figures.facts_of(results, held, zone, writes)
        state.figures_read = (zone, held, results, facts)
    said = None
    if "$" in text and not facts.amounts and not any(_BILLING in r.call.tool_name for r in results):
        # Nothing billed was read: an amount owed may only come from the customer's words.
        words = [state.text, *(m.text for m in state.session.history if isinstance(m, UserTurn))]
        said = {n.replace(",", "") for text_ in words for n in _NUMBERS.findall(text_)}
    fixed = figures.corrected(text, facts, said)
    if fixed == figures.UNSURE and (done := went_through(state.results, zone)):
        # "You're all set for Sunday at 3 PM" over a booking made for Saturday: what went
        # through, not only that a figure cannot be given (the booking went untold).
        return f"Here's what went through: {done}."
    return fixed.strip() if fixed is not None else None


_NUMBERS = re.compile(r"\d[\d,]*")
# In the name of every tool that reads what the customer owes (crm.getOpenInvoices, …).
_BILLING = "nvoice"


def _same(kept: tuple[ToolResult, ...], results: tuple[ToolResult, ...]) -> bool:
    return len(kept) == len(results) and all(a is b for a, b in zip(kept, results, strict=True))


def error_text(code: str) -> str:
    """The `error` event's message for a model that failed (`code`)."""
    if code == "model_unavailable":
        return "The assistant's model could not be reached; please try again shortly."
    return "Something went wrong while answering; it has been logged."


__all__ = ["APOLOGY", "INTERNAL_APOLOGY", "Answerer", "error_text", "fixed_figures"]


def _in_place_of(piece: str, instead: str) -> str:
    """`instead`, spaced as `piece` was, so that it joins the pieces around it."""
    lead = piece[: len(piece) - len(piece.lstrip())]
    trail = piece[len(piece.rstrip()) :]
    return f"{lead}{instead}{trail}"
