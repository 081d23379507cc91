"""Every written conversation played while another customer talks to the same server.

One app, one engine, one CRM stub; the service keeps module-level caches keyed by text or
by object, per-session dialogue state and per-customer budgets. A case of
tests/data/conversations*.jsonl is played for cust_001 (Maria) as written, its checks
unchanged, while at the same moments a second session plays another case's turns (or the
same case's) for another seeded customer (cust_002 … cust_020, picked by the case's
stable number). Three ways (`_WAYS`):

- "turns": the two sessions' turns interleaved one by one (Maria's first, then the other's);
- "gather": each pair of turns said at once (asyncio.gather), so the turns overlap; that
  they did is proven by the events' order (one session's turn began before the other's
  was done, for some pair of the run);
- "tabs": Maria in two sessions at once, the second only reading (balance, tasks, visits,
  tickets), each pair said at once.

Checked, besides the first case's own checks: the other session's writes went to its own
customer only and each was one it reported (the stub's request log: every write applied
to a customer's data is one a session of that customer reported, no more, no fewer); the
other customer's data changed only where that session wrote (nothing at all when it wrote
nothing); the other session's turns come to what the same words come to said alone (its
answer's words, its writes, a question left), its own checks; no answer names what only
the other customer holds (a name, a phone, an email, a to-do, a ticket, never said in that
session); the reading tab writes nothing and leaves nothing awaiting a yes.

About every `_STRIDE`th case by its id's stable number, in one of the ways by the same
number, beside the same case's words half the time and another case's the other half.
TOGETHER=ALL plays every case every way (OUT=FILE notes each failure; TOGETHER_SAME=1 the
same case's words beside each, TOGETHER_WAYS=offset,tabs some ways; run it with --timeout=0). A
case that fails beside another is played alone too: one that fails alone is its own set's
to report.

FIRST RUN, every case (1,467; the 11 that fail alone as written left out) every way of the
first three, beside another case's words (4,401 pairs, on the code as it was): NO WRONG
WRITE and NO LEAK: every write the stub applied to a customer was one that customer's
session reported, the other customer's data changed only where its session wrote, the
reading tab never wrote nor left a question, and Maria's checks held in every pair but
the case that fails alone too (leftopen5's "the eye exam one can wait till the end of the
month", known open there). The 8 other failures were this harness's own: an answer naming
"the other customer's" to-do or name that was the session's own words said back ("I
couldn't find a task matching 'buy groceries tick'" to "bought groceries, tick", "james pay
water bill"; "maria" in an email spelled out letter by letter, "mariag@outlook.com").
Fixed first: a name is matched as a whole word, and a to-do of which a word was said is
the session's own words. Then beside the same case's words (TOGETHER_SAME=1, 4,401 pairs,
what is kept by its text met by both at the same moments): 0 failures.

Written after those runs, not tuned on: "offset", the other session a turn ahead (each of
Maria's turns meets the other's next: the question it left, or its yes), and the other
customer's own checks: what its session hears and writes beside Maria's is what the same
words come to alone (`_as_alone`). First run of "offset" (1,467 pairs): 24 failures, all
the harness's: beside the same case, the other customer, a turn ahead, changed their phone
to the number Maria then asked for, and the CRM refused hers ("that one is already on
another account, so nothing was changed"), as it should: a number is one account's. A case
that changes a phone or an email is now played beside words that change none. (The
overlap was first looked for only between turns of the same place, which "offset" never
says at once; any two turns now.) First run of the comparison with the session alone
(4,401 pairs): 16 failures. 15 were the stub's: two to-dos made at the same pinned moment
are listed by its random ids, so "Which task do you mean: …, Book a vet visit, or Buy
printer ink?" came in either order, alone or not (the answers are now compared as words).
One was the service's: "add tasks to call mom and to pay rent, then read me my list" said
"I added a task: Pay rent. You have four pending tasks: … Call mom, and Pay rent" beside
Maria and "…two pending tasks" alone (three, another time): the list was read at the same
time as the adds and held those that had landed. A read asked after writes to the same
part of the CRM in one round now waits for them (tools/executor.py; the last test here
holds it). Then, every case (1,576 with the sets merged since) every way, the four, on
the code with main merged (6,304 pairs): no wrong write, no leak; 3 failures, the
harness's: the same list in another order compared as words kept "mom." apart from "mom"
(the stops are now left out of the comparison).

Otherwise the service needed no change: what is kept by text (a message's reading) is
keyed by the words, the moment and the zone; what is kept by an object (the figures a
result holds, a dialogue's readings, a round's listing) is checked by identity and dropped
with the object; the dialogue state lives in the session.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from assistant.services import WRITES_IN_FLIGHT
from assistant.writes_in_flight import InMemoryWritesInFlight
from tests.e2e.conversations import (
    CUSTOMER,
    FAILS_AS_WRITTEN,
    NEVER,
    NOW,
    REPLAY_SHARE,
    Verdict,
    _written,
    check_crm,
    in_share,
    note_exploring,
    play_case,
    shared_cases,
    snapshot,
    stable_number,
    turn_problems,
)
from tests.e2e.test_conversations import CATALOG, DATA, crm_app  # noqa: F401  (the fixture)
from tests.fixtures.app import AssistantHarness, MakeAssistant, WsConversation
from tests.fixtures.crm import CrmAdmin

_SETS = sorted(DATA.glob("conversations*.jsonl"))
KNOWN_OPEN: list[str] = []
_WAYS = ("turns", "gather", "tabs", "offset")
# Written after the first run of the others, not tuned on.
WRITTEN_AFTER = ("offset",)
_ONLY = os.environ.get("TOGETHER_WAYS", "").split(",") if os.environ.get("TOGETHER_WAYS") else None
_STRIDE = 64
_EVERY = os.environ.get("TOGETHER") == "ALL"
# Exploring: the other session says the same case's words (TOGETHER_SAME=1).
_SAME = os.environ.get("TOGETHER_SAME") == "1"
_OTHERS = [f"cust_{n:03d}" for n in range(2, 21)]
# What the reading tab says, one a turn, in turn.
_READS = (
    "what's my balance?",
    "what tasks do I have?",
    "when is my next appointment?",
    "do I have any open tickets?",
    "what's on my schedule this week?",
)
_WRITE_METHODS = {"POST", "PATCH", "PUT", "DELETE"}


@dataclass
class Session:
    """One side of a pair: its socket, what it said, and every event it got, in the order
    both sessions got them (`seq`: a number shared by the pair)."""

    customer: str
    chat: WsConversation
    said: list[str] = field(default_factory=list)
    turns: list[list[dict[str, Any]]] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)  # (first event, turn.done)
    writes: int = 0


async def _say(session: Session, text: str, seq: itertools.count[int]) -> list[dict[str, Any]]:
    await session.chat.send_message(text)
    events: list[dict[str, Any]] = []
    first = -1
    while True:
        event = await session.chat.next_event()
        number = next(seq)
        first = number if first < 0 else first
        events.append(event)
        if event["type"] == "turn.done":
            break
    session.said.append(text)
    session.turns.append(events)
    session.spans.append((first, number))
    session.writes += sum(
        1
        for call in events[-1]["tool_calls"]
        if call["status"] == "ok"
        and (tool := CATALOG.get(call["tool"])) is not None
        and tool.effect != "read"
    )
    return events


async def _holdings(admin: CrmAdmin, customer: str) -> dict[str, Any]:
    """Everything the stub holds for `customer`, to compare before and after."""
    held: dict[str, Any] = {}
    for part, key in (
        ("", None),
        ("/tasks?status=all", "tasks"),
        ("/appointments?status=all", "appointments"),
        ("/tickets?status=all", "tickets"),
        ("/invoices?status=all", "invoices"),
    ):
        status, body = await admin.get(f"/v1/customers/{customer}{part}")
        assert status == 200, body
        held[part or "profile"] = body[key] if key else body
    return held


def _rows_changed(before: dict[str, Any], after: dict[str, Any]) -> int:
    """How many rows (or the profile) differ: changed, added or gone."""
    changed = int(before["profile"] != after["profile"])
    for part in before:
        if part == "profile":
            continue
        old = {row["id"]: row for row in before[part]}
        new = {row["id"]: row for row in after[part]}
        changed += sum(1 for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    return changed


def _markers(held: dict[str, Any]) -> set[str]:
    """What names this customer's data and no one else's: their name, phone and email,
    to-dos and tickets."""
    profile = held["profile"]
    names = {profile["name"], profile["name"].split()[0], profile["phone"], profile["email"]}
    names |= {t["title"] for t in held["/tasks?status=all"]}
    names |= {t["subject"] for t in held["/tickets?status=all"]}
    return names


def _echoes(marker: str, said: str) -> bool:
    """Whether a to-do or ticket of the other customer's may be this session's own words
    said back ("I couldn't find a task matching 'buy groceries'" to "bought groceries"):
    a word of it (longer than three letters) was said."""
    words = {w for w in re.findall(r"[a-z']+", marker.lower()) if len(w) > 3}
    return " " in marker and any(re.search(rf"\b{w}\b", said) for w in words)


def _leaks(session: Session, foreign: set[str]) -> list[str]:
    """Answers naming what only the other customer holds (and this session never said)."""
    said = " ".join(session.said).lower()
    problems = []
    for number, events in enumerate(session.turns, start=1):
        text = " ".join(e["text"] for e in events if e["type"] == "answer.done").lower()
        for marker in foreign:
            # As a whole word: "mariag@outlook.com", spelled out by the customer, is theirs.
            found = re.compile(rf"(?<![\w@.+]){re.escape(marker.lower())}(?![\w@])")
            if found.search(text) and not found.search(said) and not _echoes(marker, said):
                problems.append(f"{session.customer} turn {number}: names {marker!r}: {text!r}")
    return problems


async def _logged_writes(admin: CrmAdmin) -> dict[str, int]:
    """Writes the stub applied since the reset, per customer."""
    status, body = await admin.get("/admin/requests?limit=1000")
    assert status == 200, body
    counts: dict[str, int] = {}
    for record in body["requests"]:
        if record["method"] not in _WRITE_METHODS or not (200 <= (record["status"] or 0) < 300):
            continue
        if record.get("replayed"):
            continue
        found = re.match(r"/v1/customers/([^/]+)", record["path"])
        customer = found.group(1) if found else "?"
        counts[customer] = counts.get(customer, 0) + 1
    return counts


def _overlapped(first: Session, second: Session) -> bool:
    """Whether some pair of turns overlapped: each began before the other was done."""
    return any(
        a_start < b_done and b_start < a_done
        for a_start, a_done in first.spans
        for b_start, b_done in second.spans
    )


async def play_together(
    assistant: AssistantHarness,
    admin: CrmAdmin,
    case: dict[str, Any],
    other_case: dict[str, Any],
    other: str,
    way: str,
) -> tuple[Verdict, bool]:
    """`case` played for Maria, checked as written, beside `other_case` played for `other`
    (or, "tabs", a reading tab of Maria's); the verdict, and whether turns overlapped."""
    await admin.reset()
    world = await snapshot(admin, NOW)
    second_customer = CUSTOMER if way == "tabs" else other
    before = await _holdings(admin, second_customer)
    mine = await _holdings(admin, CUSTOMER)
    seq = itertools.count()
    first = Session(CUSTOMER, await assistant.connect(CUSTOMER))
    second = Session(second_customer, await assistant.connect(second_customer))
    verdict = Verdict(case["id"])
    written: set[str] = set()
    opened: list[str] = []  # Maria's cases opened in the session: subject and body
    if way == "tabs":
        their_turns = [_READS[n % len(_READS)] for n in range(len(case["turns"]))]
    else:
        their_turns = [turn["say"] for turn in other_case["turns"]]
    # "offset": the other session a turn ahead, its first turn said before Maria's first,
    # so each of her turns meets the other's next one (a question it left, or its answer).
    shift = 1 if way == "offset" else 0
    try:
        if shift and their_turns:
            await _say(second, their_turns[0], seq)
        for number, turn in enumerate(case["turns"], start=1):
            index = number - 1 + shift
            theirs = their_turns[index] if index < len(their_turns) else None
            if way == "turns":
                events = await _say(first, turn["say"], seq)
                if theirs is not None:
                    await _say(second, theirs, seq)
            elif theirs is not None:
                events, _ = await asyncio.gather(
                    _say(first, turn["say"], seq), _say(second, theirs, seq)
                )
            else:
                events = await _say(first, turn["say"], seq)
            problems = turn_problems(turn, events, CATALOG, written)
            written |= set(_written(events[-1]["tool_calls"], CATALOG))
            opened += [
                f"{call['arguments'].get('subject', '')} {call['arguments'].get('body', '')}"
                for call in events[-1]["tool_calls"]
                if call["tool"] == "crm.createTicket" and call["status"] == "ok"
            ]
            problems += await check_crm(admin, turn.get("crm", []), world, opened)
            verdict.turns += 1
            verdict.turns_failed += bool(problems)
            verdict.problems += [f"turn {number} {turn['say']!r}: {p}" for p in problems]
        for theirs in their_turns[len(case["turns"]) + shift :]:
            await _say(second, theirs, seq)
    finally:
        await first.chat.close()
        await second.chat.close()
    logged = await _logged_writes(admin)
    if way == "tabs":
        for number, events in enumerate(second.turns, start=1):
            done = events[-1]
            text = " ".join(e["text"] for e in events if e["type"] == "answer.done")
            wrote = _written(done["tool_calls"], CATALOG)
            if wrote or done.get("awaiting_confirmation"):
                verdict.problems.append(
                    f"reading tab turn {number} {second.said[number - 1]!r}: wrote {wrote}, "
                    f"awaiting {done.get('awaiting_confirmation')}: {text!r}"
                )
            if any(never in text.lower() for never in NEVER):
                verdict.problems.append(f"reading tab turn {number}: {text!r}")
        if logged.get(CUSTOMER, 0) != first.writes:
            verdict.problems.append(
                f"the stub applied {logged.get(CUSTOMER, 0)} writes to {CUSTOMER}, "
                f"the writing tab reported {first.writes}"
            )
    else:
        after = await _holdings(admin, other)
        changed = _rows_changed(before, after)
        if changed > second.writes:
            verdict.problems.append(
                f"{other}: {changed} rows changed, its session reported {second.writes} writes"
            )
        for customer, session in ((CUSTOMER, first), (other, second)):
            if logged.get(customer, 0) != session.writes:
                verdict.problems.append(
                    f"the stub applied {logged.get(customer, 0)} writes to {customer}, "
                    f"its session reported {session.writes}"
                )
        strays = {c: n for c, n in logged.items() if c not in (CUSTOMER, other)}
        if strays:
            verdict.problems.append(f"writes to customers in no session: {strays}")
        theirs_only = _markers(before) - _markers(mine)
        mine_only = _markers(mine) - _markers(before)
        verdict.problems += _leaks(first, theirs_only) + _leaks(second, mine_only)
    if way != "tabs" and other != CUSTOMER:
        # The other customer's own checks: what their session heard and wrote beside Maria's
        # is what it hears and writes alone (the engine decides the same words the same way).
        verdict.problems += await _as_alone(assistant, admin, second)
    return verdict, _overlapped(first, second)


def _heard(events: list[dict[str, Any]]) -> tuple[list[str], list[str], bool]:
    """What a turn came to: its answer's words (in any order: two to-dos made at the same
    pinned moment are listed by the stub's random ids, in either order, alone or not), what
    it wrote, whether it waits for a yes."""
    text = " ".join(e["text"] for e in events if e["type"] == "answer.done")
    done = events[-1]
    words = sorted(word.strip(".:") for word in re.findall(r"[\w'$@+:.-]+", text.lower()))
    return words, _written(done["tool_calls"], CATALOG), bool(done.get("awaiting_confirmation"))


async def _as_alone(assistant: AssistantHarness, admin: CrmAdmin, played: Session) -> list[str]:
    """Where the session `played` beside another differs from the same words said alone."""
    await admin.reset()
    # A world of its own, as bench.said_around plays one: the app's memory of the customer's
    # recent writes goes with the CRM's data, or the move made beside Maria is "I already
    # moved that appointment a few minutes ago" alone (found when a new set moved the sample)
    in_flight = assistant.app[WRITES_IN_FLIGHT]
    if isinstance(in_flight, InMemoryWritesInFlight):
        in_flight.forget_all()
    alone = Session(played.customer, await assistant.connect(played.customer))
    seq = itertools.count()
    try:
        for text in played.said:
            await _say(alone, text, seq)
    finally:
        await alone.chat.close()
    return [
        f"{played.customer} turn {number} {text!r}: beside Maria {_heard(together)}, "
        f"alone {_heard(by_itself)}"
        for number, (text, together, by_itself) in enumerate(
            zip(played.said, played.turns, alone.turns, strict=True), start=1
        )
        if _heard(together) != _heard(by_itself)
    ]


def _changes_contact(case: dict[str, Any]) -> bool:
    """Whether the case changes a phone or an email (a value one account holds at a time)."""
    return any(
        "crm.updateContactInfo" in json.dumps(turn.get("writes", []) + turn.get("writes_alt", []))
        or any("profile" in check for check in turn.get("crm", []))
        for turn in case["turns"]
    )


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(path.stem, case) for path in _SETS for case in shared_cases(path)]


def _played(group: int, groups: int) -> list[tuple[str, dict[str, Any], str]]:
    """(set/id, case, way) played by test `group` of `groups`."""
    played = []
    for stem, case in _cases():
        key = f"{stem}/{case['id']}"
        number = stable_number(key)
        if case["id"] in FAILS_AS_WRITTEN:
            continue
        if _EVERY:
            if number % groups == group:
                played += [(key, case, way) for way in _ONLY or _WAYS]
            continue
        if number % _STRIDE or (number // _STRIDE) % groups != group or not in_share(key):
            continue
        played.append((key, case, _WAYS[(number // (_STRIDE * groups)) % len(_WAYS)]))
    return played


_GROUPS = 2


@pytest.mark.parametrize("group", range(_GROUPS))
async def test_a_conversation_beside_another_customer_is_its_own(
    group: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """Each case passes beside another session as it passes alone; nothing crosses over."""
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: NOW)
    cases = _cases()
    failed: list[str] = []
    overlapped = gathered = 0
    played = _played(group, _GROUPS)
    for key, case, way in played:
        number = stable_number(key)
        other = _OTHERS[number % len(_OTHERS)]
        # The same words at the same moments half the time (what is kept by its text is
        # met by both), another case's the other half.
        same = _SAME or (number // 5) % 2 == 0
        other_case = case if same else cases[(number // 7) % len(cases)][1]
        if _changes_contact(case) and _changes_contact(other_case):
            # A phone or an email is one account's: the other's change to the same number
            # is refused to Maria, by rights. The other says words that change none.
            other_case = next(
                c for _, c in cases[number % len(cases) :] + cases if not _changes_contact(c)
            )
        verdict, overlap = await play_together(assistant, crm_admin, case, other_case, other, way)
        if way != "turns" and len(case["turns"]) > 0:
            gathered += 1
            overlapped += overlap
        if verdict.passed:
            continue
        if not (await play_case(assistant, crm_admin, case, CATALOG)).passed:
            continue  # fails alone too: its own set's test says so
        failed.append(f"{key} [{way}]")
        print(failed[-1], other, other_case["id"], verdict.problems[:4])
        if _EVERY:
            note_exploring([failed[-1], other, other_case["id"], verdict.problems])
    assert len(played) > 5 // REPLAY_SHARE
    # Said at once, the turns were in flight together (one began before the other ended).
    assert gathered == 0 or overlapped > 0, (overlapped, gathered)
    assert [f for f in failed if f not in KNOWN_OPEN] == []


def test_the_leak_check_tells_a_leak_from_words_said_back() -> None:
    """The other customer's name or to-do in an answer is a leak; the session's own words
    said back are not (the harness's first run took them for one)."""
    foreign = {"Maria", "Buy groceries", "maria.garcia@example.com"}

    def session(said: str, answer: str) -> Session:
        turn = [{"type": "answer.done", "text": answer}]
        return Session("cust_002", None, said=[said], turns=[turn])  # type: ignore[arg-type]

    assert _leaks(session("what do I owe", "Maria, you owe $150.00."), foreign)
    assert _leaks(session("my tasks", "Your tasks: buy groceries."), foreign)
    assert _leaks(session("my email?", "It is maria.garcia@example.com."), foreign)
    said_back = "I couldn't find a task matching 'buy groceries tick'."
    assert not _leaks(session("bought groceries, tick", said_back), foreign)
    spelled = "Done: your email is now mariag@outlook.com."
    assert not _leaks(session("m a r i a g at outlook dot com", spelled), foreign)


async def test_a_list_asked_after_adding_holds_what_was_added(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin
) -> None:
    """ "add tasks to call mom and to pay rent, then read me my list": the list is read
    after the adds, however slow they are. Beside another customer the answer differed from
    the same words said alone ("You have three pending tasks: …, and Call mom" right after
    "I added a task: Pay rent"): the list was read at the same time as the adds, and held
    those that had landed. Here both adds are slow."""
    assistant = await make_assistant(customer_messages_per_minute=100_000, clock=lambda: NOW)
    await crm_admin.reset()
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=100, times=2)
    chat = await assistant.connect(CUSTOMER)
    try:
        events = await chat.say("add tasks to call mom and to pay rent, then read me my list")
    finally:
        await chat.close()
    assert _written(events[-1]["tool_calls"], CATALOG) == ["crm.addTask", "crm.addTask"]
    answer = " ".join(e["text"] for e in events if e["type"] == "answer.done")
    assert "You have five pending tasks" in answer, answer
