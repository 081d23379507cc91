"""Waiting hints → one spoken acknowledgement ("Sure, I'll look up … and check …")."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from assistant.language.verbs import base_form

# "that task", "your appointment": the object a hint speaks of, made plural when the same
# hint stands for several calls ("mark those three tasks complete"). A hint in other
# words is said as it is: never a wrong plural.
_ONE_THING = re.compile(r"\b(that|this|the|your) (appointment|task|case|invoice|reminder)\b")
_COUNTS = {2: "two", 3: "three", 4: "four"}


def hint_to_clause(hint: str) -> str:
    """'checking your billing' → 'check your billing' (only the leading gerund changes)."""
    first, _, rest = hint.strip().partition(" ")
    verb = base_form(first)
    return f"{verb} {rest}" if rest else verb


def _for_several(clause: str, count: int) -> str:
    """'mark that task complete' said for three calls: 'mark those three tasks complete'."""
    if count < 2:
        return clause
    number = _COUNTS.get(count, str(count))
    return _ONE_THING.sub(
        lambda thing: f"{'your' if thing[1] == 'your' else 'those'} {number} {thing[2]}s",
        clause,
        count=1,
    )


def ack_pieces(hints: Iterable[str], lead: str = "Sure, I'll") -> list[str]:
    """The acknowledgement as streamable pieces; joined they make one sentence.

    One hint: "Sure, I'll check your billing."; two: "… A and B."; three or four:
    "… A, B, and C." (serial comma). A hint repeated is spoken once, for as many things
    as there are calls: three completions are "mark those three tasks complete", never
    "that task" while three change.
    """
    counts = Counter(hint_to_clause(hint) for hint in hints if hint.strip())
    clauses = [_for_several(clause, count) for clause, count in counts.items()]
    if not clauses:
        return []
    pieces = [f"{lead} {clauses[0]}"]
    if len(clauses) == 2:
        pieces.append(f" and {clauses[1]}")
    elif len(clauses) > 2:
        pieces.extend(f", {clause}" for clause in clauses[1:-1])
        pieces.append(f", and {clauses[-1]}")
    pieces[-1] += "."
    return pieces


def merge_hints(hints: Iterable[str]) -> str:
    """The whole acknowledgement sentence for these waiting hints ('' for none)."""
    return "".join(ack_pieces(hints))
