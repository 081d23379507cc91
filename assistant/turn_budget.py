"""How one turn's deadline is shared between the models and the tools.

A turn has one deadline D (`turn_deadline_s`, from the moment it starts). Every wait
of the turn sits inside it, model calls included, and no part may starve another:

    start ── decisions ──┬── tools ──┬── answer ── D
                    D − t − a     D − a

- every planner call (each round's decision) must end by D − t − a, so a slow model
  can never eat the tools' share t (`turn_tool_reserve_s`);
- tool calls start no attempt past D − a, and each is cut there (resilience.py), so
  the answer keeps its share a (`turn_answer_reserve_s`);
- the narrator's stream is cut at D: the customer hears what was said so far and an
  apology, never silence.

Each reserve is capped at a quarter of D, so a short deadline still leaves half of it
to the decisions.
"""

from __future__ import annotations

from typing import NamedTuple


class TurnBudget(NamedTuple):
    """Loop times (`loop.time()`) by which each part of a turn must be done. A named
    tuple: made every turn, and a frozen dataclass costs twice as much to build."""

    decisions_end: float
    tools_end: float
    answer_end: float

    @classmethod
    def starting(
        cls, now: float, deadline_s: float, *, tool_reserve_s: float, answer_reserve_s: float
    ) -> TurnBudget:
        tools = min(tool_reserve_s, deadline_s / 4)
        answer = min(answer_reserve_s, deadline_s / 4)
        end = now + deadline_s
        return cls(end - answer - tools, end - answer, end)


__all__ = ["TurnBudget"]
