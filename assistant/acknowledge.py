"""Waiting hints → one spoken acknowledgement ("Sure, I'll look up … and check …")."""

from __future__ import annotations

from collections.abc import Iterable

from assistant.language.verbs import base_form


def hint_to_clause(hint: str) -> str:
    """'checking your billing' → 'check your billing' (only the leading gerund changes)."""
    first, _, rest = hint.strip().partition(" ")
    verb = base_form(first)
    return f"{verb} {rest}" if rest else verb


def ack_pieces(hints: Iterable[str], lead: str = "Sure, I'll") -> list[str]:
    """The acknowledgement as streamable pieces; joined they make one sentence.

    One hint: "Sure, I'll check your billing."; two: "… A and B."; three or four:
    "… A, B, and C." (serial comma). Repeated hints are spoken once.
    """
    clauses = list(dict.fromkeys(hint_to_clause(hint) for hint in hints if hint.strip()))
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
