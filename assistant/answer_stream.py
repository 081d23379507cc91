"""A model's final answer, spoken sentence by sentence while the model writes it.

After a round of tools, a model writes its answer in one to three seconds; holding it
until complete is that much silence on the phone. The planner passes the text it
streams before any tool call (`PlanRequest.on_text`); this cuts it at sentence
boundaries (models_openai's SentenceGrouper, which also drops markdown) and speaks
each sentence once it has been judged:

- The engine never speaks a claim of a change no tool made (assistant/claims.py).
  Each sentence is judged before it goes out, so a claim is never spoken: from that
  sentence on, the answer is the "I haven't actually made that change" line instead.
  (Judging every sentence rather than holding the whole text keeps the first sentence
  as fast as the model makes it; a claim in the first sentence is caught all the same.)
- When the engine would follow up on the model's final text with calls of its own
  (the deterministic follow-up planner proposes some), nothing is streamed: that
  text may never be the answer. This is asked once, at the first whole sentence.
- A sentence that announces an action ("Let me…", "Now I'll…") is how a model begins
  a preamble to more tool calls, not an answer; it and everything after it are held
  until the stream ends, and spoken then only if no tool call followed.

Text that has been spoken cannot be taken back: if a model calls tools after answer
sentences went out (not seen with the announcement rule), those calls are not run and
the answer ends by saying so (the engine logs it).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from assistant.schema import AnswerDelta, AnswerDone
from assistant.sentence_grouper import SentenceGrouper
from assistant.turn import TurnState

_ANNOUNCES = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|sure|alright|all right|great|got it)\W+)*"
    r"(?:let me|let's|i'll|i will|i'm going to|i am going to|now i|one moment|just a moment"
    r"|give me a|hold on|i need to|first,? i)\b",
    re.IGNORECASE,
)
NOT_RUN = "I didn't get to the rest of that just now; please ask me again if you'd like it done."


def announces_action(sentence: str) -> bool:
    return bool(_ANNOUNCES.search(sentence))


class AnswerStream:
    def __init__(
        self,
        state: TurnState,
        *,
        truth: Callable[[str], str | None],
        figures: Callable[[str], str | None] = lambda _: None,
        may_stream: Callable[[], Awaitable[bool]],
        before_first: Callable[[], Awaitable[None]],
    ) -> None:
        self._state = state
        # A sentence claiming a change no write made → the line to say instead.
        self._truth = truth
        # A sentence stating a figure the results contradict → it put right.
        self._figures = figures
        self._may_stream = may_stream
        self._before_first = before_first
        self._sentences = SentenceGrouper()
        self._held: list[str] = []
        self._holding = False
        self._allowed: bool | None = None
        self._stopped = False  # a claim was caught: nothing more of the model's is said
        self.spoke = False

    async def push(self, text: str) -> None:
        """The planner's `on_text` sink."""
        for sentence in self._sentences.push(text):
            await self._offer(sentence)

    async def _offer(self, sentence: str) -> None:
        if self._holding or self._stopped:
            self._held.append(sentence)
            return
        if self._allowed is None:
            self._allowed = await self._may_stream()
        if not self._allowed or announces_action(sentence):
            self._holding = True
            self._held.append(sentence)
            return
        await self._say(sentence)

    async def _say(self, sentence: str) -> None:
        """One judged sentence out (or the not-done line instead of a claim)."""
        if self._stopped:
            return
        if (instead := self._truth(sentence)) is not None:
            self._stopped = True
            sentence = instead
        elif (fixed := self._figures(sentence)) is not None:
            sentence = fixed
        if not self.spoke:
            self.spoke = True
            await self._before_first()
        answer = self._state.answer
        if answer and not answer[-1][-1:].isspace() and not sentence[:1].isspace():
            sentence = " " + sentence
        answer.append(sentence)
        await self._state.emit(AnswerDelta(self._state.turn_id, sentence))

    async def finish(self, *, calls_dropped: bool = False) -> None:
        """The decision ended: say what was held (now known to be the answer), end it."""
        for sentence in [*self._held, *self._sentences.flush()]:
            await self._say(sentence)
        self._held.clear()
        if calls_dropped:
            await self._say(NOT_RUN)
        await self._state.emit(AnswerDone(self._state.turn_id, "".join(self._state.answer).strip()))
