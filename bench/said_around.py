"""A probe for wrong writes: every written conversation said with words around each turn
that change nothing, and every yes or no said in other words; what the session writes
must be no more than what it writes as written.

    python -m bench.said_around [--sets 'tests/data/conversations*.jsonl']
                                [--ways thanks,sentence,um,caps,spaces,for_me,so_yeah,hi,
                                        verbs,nouns,in_full,dotted_hours,this_day]
                                [--answers] [--json]

Each session of the sets (two turns or more) is played through the websocket, the real
engine and the real CRM stub (in this process, at the sets' pinned moment), once as
written and once per way, every turn rewritten that way (`--answers`: instead, each turn
that is a plain yes or no is said in each other word for it). The CRM writes of each are
compared, free text (titles, notes, case words) as words: a variant that writes something
the written session does not is printed WRONG (a wrong write), one that writes less LOST
(an ask not done: a question asked instead, as a rule). Not a test: it plays every way on
every session (some 20,000 variants, about 15 minutes); tests/e2e/test_said_otherwise.py
plays one way a case in the suite, and tests/e2e/test_said_around.py keeps what this
found.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from assistant.app import create_app
from assistant.auth import mint_token
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.services import WRITES_IN_FLIGHT
from assistant.settings import Settings, load_settings
from assistant.writes_in_flight import InMemoryWritesInFlight
from crm_stub.app import DEFAULT_TOKEN
from crm_stub.app import create_app as create_crm
from tests.e2e.conversations import NOW

_SECRET = "said-around-" + "x" * 32
_FREE_TEXT = ("title", "subject", "body", "description")
# An id the stub's seed gives ("appt_0003", "task_0001"); any other was made this session,
# at random, and is compared as "made here".
_SEEDED_ID = re.compile(r"[a-z]+_\d{4}")

WAYS: dict[str, Callable[[str], str]] = {
    "thanks": lambda t: t.rstrip(".!?") + ", thanks",
    "sentence": lambda t: t[:1].upper() + t[1:].rstrip(".!?") + ".",
    "um": lambda t: "um, " + t,
    "caps": lambda t: t.upper(),
    "spaces": lambda t: "  ".join(t.split(" ")),
    "for_me": lambda t: t.rstrip(".!?") + " for me",
    "so_yeah": lambda t: "so yeah " + t,
    "hi": lambda t: "hi there, " + t,
}


# Other words for the same thing, inside the turn: each way swaps one kind of word. The
# free text a write carries (a title, a case's words) is compared after the same swap.
def _dotted(hour: re.Match[str]) -> str:
    return f"{hour.group(1)} {hour.group(2).lower()}.m."


_CALL_OFF = re.compile(r"(?i)\bcancel (it|that|this|them|those|both)\b")
_SWAPS: dict[str, tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...]] = {
    "verbs": (
        (_CALL_OFF, r"call \1 off"),
        (re.compile(r"(?i)\bcancel\b"), "call off"),
        (re.compile(r"(?i)\bdelete\b"), "remove"),
        (re.compile(r"(?i)\breschedule\b"), "move"),
        (re.compile(r"(?i)\bbook me\b"), "schedule me"),
    ),
    "nouns": (
        (re.compile(r"(?i)\bappointments\b"), "bookings"),
        (re.compile(r"(?i)\bappointment\b"), "booking"),
        (re.compile(r"(?i)\btasks\b"), "to-dos"),
        (re.compile(r"(?i)\btask\b"), "to-do"),
    ),
    # "don't" → "do not", "what's" → "what is", "I'm" → "I am": said in full
    "in_full": tuple(
        (re.compile(rf"(?i)\b{short}\b"), full)
        for short, full in (
            ("don't", "do not"),
            ("doesn't", "does not"),
            ("didn't", "did not"),
            ("can't", "cannot"),
            ("won't", "will not"),
            ("isn't", "is not"),
            ("wasn't", "was not"),
            ("i'm", "I am"),
            ("i'd", "I would"),
            ("i've", "I have"),
            ("i'll", "I will"),
            ("it's", "it is"),
            ("that's", "that is"),
            ("what's", "what is"),
            ("when's", "when is"),
            ("there's", "there is"),
        )
    ),
    # "3pm" → "3 p.m.", "10:30am" → "10:30 a.m."
    "dotted_hours": ((re.compile(r"(?i)\b(\d{1,2}(?::\d\d)?)\s?([ap])\.?m\b\.?"), _dotted),),
    # "on friday" → "on this friday": the sets' moment is a Monday, so every other weekday
    # named bare is the coming one either way.
    "this_day": (
        (
            re.compile(
                r"(?i)\b(on|to|for|until|till|by)"
                r" (tuesday|wednesday|thursday|friday|saturday|sunday)\b"
            ),
            r"\1 this \2",
        ),
    ),
}


def _swapped(way: str) -> Callable[[str], str]:
    def swap(text: str) -> str:
        for pattern, into in _SWAPS[way]:
            text = pattern.sub(into, text)
        return text

    return swap


WAYS.update({way: _swapped(way) for way in _SWAPS})
YES = (
    "yes", "yes please", "yep", "yeah", "sure", "go ahead", "yes go ahead", "do it", "ok do it",
    "Yes.", "yes thanks", "absolutely", "that's right, go ahead", "yeah go for it", "correct",
    "please do", "y", "YES",
)  # fmt: skip
NO = (
    "no", "no thanks", "nope", "no, leave it", "don't", "No.", "nah", "no don't", "no, keep it",
    "not now", "no thank you", "leave it",
)  # fmt: skip

Writes = Counter[tuple[str, str]]


def _words(text: str) -> str:
    text = re.sub(r"\b(?:um|uh|thanks|thank you|please|so yeah|hi there|for me)\b", " ", text)
    return " ".join(re.sub(r"[^\w$@ ]", " ", text.lower()).split())


def _written(calls: list[dict[str, Any]], said: Callable[[str], str] = str) -> Writes:
    """The writes of `calls`; free text as words, after `said` (a way that swaps words
    inside a turn swaps them in what the turn wrote as well)."""
    found: Writes = Counter()
    for call in calls:
        if call["tool"] not in WRITE_TOOLS or call["status"] != "ok":
            continue
        arguments = dict(call.get("arguments") or {})
        for key, value in arguments.items():
            if key in _FREE_TEXT and isinstance(value, str):
                arguments[key] = _words(said(value))
            elif key.endswith("_id") and isinstance(value, str) and not _SEEDED_ID.fullmatch(value):
                arguments[key] = "made here"
        found[(call["tool"], json.dumps(arguments, sort_keys=True))] += 1
    return found


async def _play(
    client: TestClient,
    admin: aiohttp.ClientSession,
    crm_url: str,
    settings: Settings,
    turns: list[str],
) -> list[dict[str, Any]]:
    await admin.post(crm_url + "/admin/reset")
    # A world of its own: the app's memory of the customer's recent writes (creates in
    # flight, moves by a shift) goes with the CRM's data, or one variant's move would be
    # the next one's "I already moved that appointment" (attacks18).
    in_flight = client.server.app[WRITES_IN_FLIGHT]
    if isinstance(in_flight, InMemoryWritesInFlight):
        in_flight.forget_all()
    token = mint_token(settings.signing_secret(for_server=True), "cust_001", 3600)
    ws = await client.ws_connect("/v1/ws", headers={"Authorization": f"Bearer {token}"})
    await ws.receive_json()  # session.ready
    calls: list[dict[str, Any]] = []
    for text in turns:
        await ws.send_str(json.dumps({"type": "user.message", "text": text}))
        while True:
            event = await ws.receive_json(timeout=20)
            if event["type"] == "turn.done" or (
                event["type"] == "error" and not event.get("turn_id")
            ):
                break
        if event["type"] == "turn.done":
            calls += event.get("tool_calls", [])
    await ws.close()
    return calls


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def _variants(turns: list[str], ways: list[str], answers: bool) -> list[tuple[str, list[str]]]:
    if not answers:
        return [(way, [WAYS[way](turn) for turn in turns]) for way in ways]
    found = []
    for index, turn in enumerate(turns):
        for words in (YES, NO):
            said = turn.strip().lower()
            if said in (word.lower() for word in words):
                found.extend(
                    (f"{turn} → {other}", [*turns[:index], other, *turns[index + 1 :]])
                    for other in words
                    if other.lower() != said
                )
    return found


async def probe(sets: str, ways: list[str], answers: bool) -> dict[str, Any]:
    crm_server = TestServer(
        create_crm(token=DEFAULT_TOKEN, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)
    )
    await crm_server.start_server()
    crm_url = str(crm_server.make_url("/")).rstrip("/")
    settings = load_settings(
        demo=True,
        secret=_SECRET,
        crm_url=crm_url,
        crm_token=DEFAULT_TOKEN,
        customer_messages_per_minute=100_000,
        saturation_loop_lag_ms=10_000.0,
        max_sessions_per_customer=100_000,
    )
    client = TestClient(TestServer(create_app(settings, clock=lambda: NOW)))
    await client.start_server()
    counts = Counter[str]()
    try:
        async with aiohttp.ClientSession(
            headers={"Authorization": f"Bearer {DEFAULT_TOKEN}"}
        ) as admin:
            await admin.delete(crm_url + "/admin/faults")
            for path in sorted(glob.glob(sets)):
                for line in _lines(path):
                    if not line.strip():
                        continue
                    case = json.loads(line)
                    turns = [turn["say"] for turn in case.get("turns", []) if turn.get("say")]
                    if len(turns) < 2:
                        continue
                    as_written = await _play(client, admin, crm_url, settings, turns)
                    for way, said in _variants(turns, ways, answers):
                        swap = WAYS[way] if way in _SWAPS else str
                        written = _written(as_written, swap)
                        got = _written(await _play(client, admin, crm_url, settings, said), swap)
                        counts["variants"] += 1
                        if more := got - written:
                            counts["wrong"] += 1
                            print(f"WRONG [{way}] {case['id']}: {said}\n  wrote more: {dict(more)}")
                        elif less := written - got:
                            counts["lost"] += 1
                            print(f"LOST [{way}] {case['id']}: {said}\n  not written: {dict(less)}")
    finally:
        await client.close()
        await crm_server.close()
    return dict(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="tests/data/conversations*.jsonl")
    parser.add_argument("--ways", default=",".join(WAYS))
    parser.add_argument("--answers", action="store_true", help="say each yes and no otherwise")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ways = [way for way in args.ways.split(",") if way]
    unknown = [way for way in ways if way not in WAYS]
    if unknown:
        parser.error(f"unknown ways {unknown}; the ways are {', '.join(WAYS)}")
    counts = asyncio.run(probe(args.sets, ways, args.answers))
    if args.json:
        print(json.dumps(counts))
    else:
        print(
            f"{counts.get('variants', 0)} variants: {counts.get('wrong', 0)} wrote more, "
            f"{counts.get('lost', 0)} wrote less"
        )


if __name__ == "__main__":
    main()
