"""What is said around a request never changes what it writes.

"um, …", "hi there, …", "…, thanks", "… for me", a full stop, a capital letter, CAPITALS, a
double space, "so yeah …", "could you please …": each of the held-out requests, said with
each of these around it, must write (or hold for a yes) nothing the request alone does not.
Found by saying them so (a probe over every held-out request, 17,720 variants): 48 wrote
something else, among them "…no ten no actually nine, thanks" BOOKED 10, "Open a ticket no
actually just tell me my open tickets." OPENED A CASE, "Delete all my tasks except the
groceries and the insurance." asked to DELETE THE INSURANCE TASK, "so yeah have i finished
the pharmacy one" COMPLETED it, "so yeah if I have nothing on thursday book me a facial at
3" BOOKED it unchecked, "MARK THE SECOND TASK ON MY LIST DONE" completed one by the CRM's
order, and "could you please add a new to-do" added a to-do titled "Could you".

A request may lose a part when so wrapped (13 do: a question asked instead), never gain
one. The suite tries a stable share of the requests (a fifth) with every wrapper;
`SAID_AROUND=ALL` tries every one (tests/data/heldout18.jsonl with them: 919 variants, none
wrote more; tests/data/heldout19.jsonl: 800, one wrote more at first: "…, or maybe not, Ill
think about it" typed without its apostrophe added the to-do the request alone held back;
tests/data/heldout20.jsonl (spoken requests as a phone line's recogniser writes them): 937,
none wrote more or less).
A title typed without its apostrophes is the same title ("Bills birthday").
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.fakes.world import Turn, play

DATA = Path(__file__).resolve().parents[1] / "data"
_SHARE = 1 if os.environ.get("SAID_AROUND") == "ALL" else 5
_FREE_TEXT = ("title", "subject", "body", "description")
_VERBS = frozenset(
    [
        "cancel",
        "move",
        "book",
        "add",
        "delete",
        "mark",
        "change",
        "update",
        "reschedule",
        "complete",
        "set",
        "push",
        "put",
        "remind",
    ]
)


def _asked(text: str) -> str | None:
    return text if text.split()[0].lower() in _VERBS else None


WRAPPERS: dict[str, Callable[[str], str | None]] = {
    "filler first": lambda t: "um, " + t,
    "greeting first": lambda t: "hi there, " + t,
    "please after": lambda t: t.rstrip(".!?") + " please",
    "thanks after": lambda t: t.rstrip(".!?") + ", thanks",
    "ok so first": lambda t: "ok so " + t,
    "as a sentence": lambda t: t[0].upper() + t[1:] + ".",
    "in capitals": lambda t: t.upper(),
    "for me after": lambda t: t.rstrip(".!?") + " for me",
    "so yeah first": lambda t: "so yeah " + t,
    "no apostrophes": lambda t: t.replace("'", ""),
    "double spaces": lambda t: "  ".join(t.split()),
    "could you please": lambda t: "could you please " + t if _asked(t) else None,
    "hey can you": lambda t: "hey can you " + t if _asked(t) else None,
}


def _lines(path: Path) -> list[str]:
    return [json.loads(line)["text"] for line in path.read_text().splitlines() if line.strip()]


@functools.cache
def _requests() -> list[str]:
    texts = [text for path in sorted(DATA.glob("heldout*.jsonl")) for text in _lines(path)]
    return [t for t in texts if zlib.crc32(t.encode()) % _SHARE == 0]


def _written(turn: Turn) -> frozenset[tuple[str, str]]:
    """The writes a turn made or held, free text compared without its case."""
    calls = [call for calls in turn.rounds for call in calls]
    if turn.held is not None:
        calls.append(turn.held)
    found = set()
    for call in calls:
        if call.tool_name.split(".")[-1].startswith(("list", "get")):
            continue
        arguments = {
            # (a title typed without its apostrophes is the same title: "Bills birthday")
            key: value.lower().replace("'", "")
            if isinstance(value, str) and key in _FREE_TEXT
            else value
            for key, value in call.arguments.items()
        }
        found.add((call.tool_name, json.dumps(arguments, sort_keys=True)))
    return frozenset(found)


@functools.cache
def _alone(text: str) -> frozenset[tuple[str, str]]:
    return _written(asyncio.run(play(text)))


def test_the_share_tried_holds_requests_of_every_kind() -> None:
    texts = _requests()
    assert len(texts) > 150
    # every held-out set is read, the newest too (a set missed by the glob would pass)
    assert len(sorted(DATA.glob("heldout*.jsonl"))) >= 19
    assert any(t in texts for t in _lines(DATA / "heldout18.jsonl")) or _SHARE > 1
    # (the newest sets have requests in the share the suite tries, not only under ALL)
    assert any(t in texts for t in _lines(DATA / "heldout19.jsonl"))
    assert any(t in texts for t in _lines(DATA / "heldout20.jsonl"))
    for word in ("cancel", "move", "book", "task", "email", "ticket", "no"):
        assert any(word in text.lower() for text in texts), word


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_what_is_said_around_a_request_writes_nothing_more(wrapper: str) -> None:
    wrap = WRAPPERS[wrapper]
    more: list[str] = []
    for text in _requests():
        said = wrap(text)
        if said is None or said == text:
            continue
        extra = _written(asyncio.run(play(said))) - _alone(text)
        if extra:
            more.append(f"{said!r} wrote or held {sorted(extra)} beyond {sorted(_alone(text))}")
    assert not more, "\n".join(more)
