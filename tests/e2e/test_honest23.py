"""What is read back is true of the CRM: every task, visit, bill and case the answer names,
every count, every "and N more", every day, hour and amount, is checked against the stub's
rows as they are at that turn, not against a fixed string.

tests/data/conversations_honest23.jsonl: lookups with a filter said ("only my high priority
tasks", "what's overdue", "anything due this week", "which appointments are in the
morning", "my completed tasks", "unpaid invoices only", "my open cases"), several lookups
at once over a larger account (12 to-dos, 8 visits ahead, 6 bills, 5 cases), days and hours
across the time-zone edge (a visit at 11:30 PM in Los Angeles is the next day in UTC, a to-do
due "today", "tomorrow" said on a Saturday night), amounts (cents, nothing owed, a credit,
two currencies), and a visit or to-do changed by the office between two turns. A turn's
`told` names the rows it reads back, by kind and filter (below); `seed` (the rows added to
the stub's, by name: SEEDS), `now` (the moment, her clock) and a turn's `office` (a change
made before it) are played here only (the ways of replaying every set leave them out).

    "told": {"tasks": {"status": "pending", "priority": "high", "due": "+0..+6",
                       "may": {"due": "-400..-1"}},
             "appts": {"before": "12:00", "day": "+1", "service": "Haircut"},
             "invoices": {"status": "open"}, "tickets": {"status": "open"},
             "names": false}

For each kind told: every row of the filter is named (or the rest said: "and 4 more", the
number true), no row of that kind outside it is named (`may`: rows that may be named or
not), a count said of that kind ("you have three tasks") is the rows' count, visits are
named soonest first, each with its weekday and hour on her clock; every amount said is a
row's, or a sum of rows', and every "Wednesday, January 16" said is that weekday
(`names: false`: a count or total asked, the rows need not be named).

The 27 first sessions were written before the narrator was read. FIRST RUN, on the code as
it was: 15/27 (20/33 turns). WRONG WRITES: none. Five failures were checks of mine, put right
(an "and N more" of the visits counted against the to-dos; "what do I have on thursday?"
naming the next visit after it, which is fair; "book a massage on wednesday at 11:30 pm"
asked first, "when places are usually closed", which is fair: now confirmed with a yes;
"You have a massage at 10 AM tomorrow" is right without "Sunday"): 18/27. Told untrue, or
not what was asked:
- "how much do I owe?" with $150 and €40 open: "Your balance is $190.00" (the CRM's one
  balance adds euros to dollars);
- a to-do list with two overdue: "Return the library books is overdue and four are high
  priority" (the water bill was overdue too; a check added after the first run, which
  failed two sessions more);
- "which appointments are in the morning?": all eight read, "a physical therapy … at 4:00
  PM" among them;
- "anything due this week?": "Due soon: …, and three more", the renewal due next Monday
  among them;
- "what's the date of my dental cleaning?": both visits read out;
- a credit of $25: "Your balance is -$25.00";
- "do I still need to buy groceries?" after the office ticked it off: "I can't help with
  that."
Held: "is my haircut still on?" after the office cancelled it, "what time is my haircut
again?" after it moved it (both from a fresh read), the counts and "and N more" said, the
visits soonest first, cents ($355.55, $120.05), "You have no open invoices, so you don't owe
anything right now", an 11:30 PM visit never said on the Thursday it is in UTC, "cancel my
appointment tomorrow" on a Saturday night cancelling Sunday's.

Fixed (general rules, each gated by a cheap word test): bills in two currencies are owed in
each ("You owe €40.00 and $150.00"), a balance below zero is a credit ("You don't owe
anything: you have a credit of $25.00") (billing.py `_owed`); two or more to-dos overdue are
counted ("Two are overdue", tasks.py `_details`); a part of the day asked with no day
("in the morning", "after 2 pm") reads the visits of it only, of the week said in the
visits' own words (appointments.py `_in_part`); "due this week" is to Sunday, the overdue
apart (answers.py `due_this_week`, questions.py), asked beside another lookup too
(tasks.py); "what date is / what's the date of my X" asks when X is (question_words.py
`WHEN`); "do I still need/have to <to-do>?" asks whether it is on the list now
(lookups.py, question_words.py `ON_LIST`). Now 25/27; KNOWN_OPEN below.

Seven sessions (h23b-) were written after the fixes: FIRST RUN 5/7. "what's due this week
and which of my appointments are in the afternoon?" read every to-do (the week lost beside
another ask) and "in the afternoon this week" (the week of the to-dos' words); "which of my
bills are overdue?" read all three, "One of them is overdue". Now the to-dos' week is read
in their clause (tasks.py), the visits' week in theirs (appointments.py), and overdue bills
asked are those only ("One open invoice is overdue: $120.05 for physical therapy…", or
"None of your bills is past due." before the balance, billing.py `_overdue_asked`): 7/7.

Found by probing after that (h23c-, seven sessions, first run 5/7): "which of my high
priority tasks are overdue?" was "Yes: Return the library books and Pay the water bill are
overdue." (the library books are of normal priority: now "Of your high-priority tasks, Pay
the water bill is overdue.", questions.py, answers.py); "what tasks are due next week?" was
"Due soon: …", today's and the overdue among them (now Monday to Sunday of next week, as
"and the week after?" was read). Now 7/7. Also seen, not checked: "which invoices have I
paid?" reads the paid ones and then, apart, "Still open: …" (true, and said as open).
Five more (h23c-tonight-) at 9 PM on a Wednesday, a massage at 11:30 PM (Thursday in UTC)
and a facial at 12:30 AM: first run 4/5, the one failure a check of mine ("today at 11:30
PM" is as true as "tonight"); each read on her day ("You have a massage at 11:30 PM today",
"You have a facial at 12:30 AM tomorrow"), and "cancel my appointment tonight" cancels the
massage. And "which is my largest open invoice?" read all three bills and the balance: now
"Your largest open invoice is $150.00 for dental cleaning, due February 3." (billing.py).

`bench.decisions --dump` (3,857 decisions): two changed, both "what's due this week" on the
fake world's Saturday, from "Due soon: Buy groceries, due tomorrow and Renew car insurance,
due March 8." (next Saturday: not this week) to "Due this week: Buy groceries, due
tomorrow."; every other the same after each change. `bench.said_around --sets` this set:
104 variants, `--answers` 48, `--ways verbs,nouns,in_full,this_day` 32: none wrote more or
less.
"""

from __future__ import annotations

import dataclasses
import os
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from aiohttp import web

from crm_stub.app import create_app
from crm_stub.state import STATE
from tests.e2e.conversations import (
    CUSTOMER,
    NOW,
    World,
    _local,
    check_crm,
    read_cases,
    snapshot,
    turn_problems,
)
from tests.e2e.test_conversations import CATALOG, DATA
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import answer

HONEST23: Path = DATA / "conversations_honest23.jsonl"
ZONE = ZoneInfo("America/Los_Angeles")
# Does less than asked, or says less; writes nothing wrong.
KNOWN_OPEN: list[str] = [
    # (h23-last-haircut-and-next passes since leftopen15: "the next one" after one service
    # named in the message is that service's next)
    # (h23-acupuncture-late-wednesday-night passes since leftopen16: "when is my
    # acupuncture?", a kind of visit the words do not know, is looked for by that name)
]

_CLOCK: list[datetime] = [NOW]
SHOW = bool(os.environ.get("H23_SHOW"))

# The rows added to cust_001's seed (days from the session's today, her clock).
SEEDS: dict[str, dict[str, list[Any]]] = {
    "busy": {
        # (title, priority, due, completed)
        "tasks": [
            ("Pay the water bill", "high", -2, False),
            ("Return the library books", "normal", -5, False),
            ("Email the landlord", "high", 3, False),
            ("Book flights to Denver", "normal", 4, False),
            ("Fix the garden gate", "low", 12, False),
            ("Send the tax forms", "high", 20, False),
            ("Water the plants", "normal", -3, True),
            ("Buy a birthday card", "low", None, True),
        ],
        # (service, days, "HH:MM")
        "appts": [
            ("Massage", 1, "09:00"),
            ("Physical therapy", 3, "16:00"),
            ("Eye exam", 5, "08:30"),
            ("Facial", 8, "11:00"),
            ("Yoga class", 9, "18:00"),
            ("Annual checkup", 15, "09:30"),
        ],
        # (description, cents, due, status, currency)
        "invoices": [
            ("Massage", 8550, 10, "open", "USD"),
            ("Physical therapy", 12005, -3, "open", "USD"),
            ("Facial", 6000, -20, "paid", "USD"),
        ],
        # (subject, status)
        "tickets": [
            ("Refund for a cancelled visit", "open"),
            ("Wrong address on my account", "open"),
            ("Request a copy of my records", "closed"),
        ],
    },
    "late_night": {"appts": [("Acupuncture", 2, "23:30")]},
    # tonight at 11:30 PM (already tomorrow in UTC), and tomorrow at 12:30 AM
    "tonight": {"appts": [("Massage", 0, "23:30"), ("Facial", 1, "00:30")]},
    "weekend": {"appts": [("Massage", 1, "10:00"), ("Facial", 2, "09:00")]},
    # every bill paid
    "paid_up": {"paid": ["all"]},
    # the $150 paid, a credit of $25 open
    "credit": {
        "paid": ["all"],
        "invoices": [("Credit for a missed visit", -2500, 10, "open", "USD")],
    },
    # the $150 open, and 40 euros
    "euros": {"invoices": [("Facial in Paris", 4000, 12, "open", "EUR")]},
}


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The stub at the moment of the session played (the clock of `_CLOCK`)."""
    return create_app(token=crm_token, today=NOW.date(), clock=lambda: _CLOCK[0].astimezone(UTC))


async def _seed(app: web.Application, admin: CrmAdmin, name: str, today: date) -> None:
    """The rows of SEEDS[name] added to the stub (tasks and visits through the API, bills
    and cases into its tables: the API opens no bill)."""
    rows = SEEDS[name]
    base = f"/v1/customers/{CUSTOMER}"
    for title, priority, due, done in rows.get("tasks", []):
        body: dict[str, Any] = {"title": title, "priority": priority}
        if due is not None:
            body["due_on"] = (today + timedelta(days=due)).isoformat()
        status, made = await admin.post(f"{base}/tasks", body)
        assert status == 201, made
        if done:
            status, made = await admin.post(f"{base}/tasks/{made['id']}/complete")
            assert status == 200, made
    for service, days, clock in rows.get("appts", []):
        status, made = await admin.post(
            f"{base}/appointments",
            {"service": service, "starts_at": _at(today, days, clock).isoformat()},
        )
        assert status == 201, made
    db = app[STATE].store.db
    with db:
        if rows.get("paid"):
            db.execute("UPDATE invoices SET status = 'paid' WHERE customer_id = ?", (CUSTOMER,))
        for number, (item, cents, due, status_, currency) in enumerate(rows.get("invoices", []), 1):
            db.execute(
                "INSERT INTO invoices (id, customer_id, description, amount_cents, currency,"
                " issued_on, due_on, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (f"inv_h23{number}", CUSTOMER, item, cents, currency,
                 (today - timedelta(days=30)).isoformat(),
                 (today + timedelta(days=due)).isoformat(), status_),
            )  # fmt: skip
        stamp = datetime.combine(today - timedelta(days=3), datetime.min.time(), UTC).isoformat()
        for number, (subject, status_) in enumerate(rows.get("tickets", []), 1):
            db.execute(
                "INSERT INTO tickets (id, customer_id, subject, body, status, priority, opened_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, 'normal', ?, ?)",
                (f"tkt_h23{number}", CUSTOMER, subject, subject + ".", status_, stamp, stamp),
            )


def _at(today: date, days: int, clock: str) -> datetime:
    day = today + timedelta(days=days)
    hour, minute = (int(x) for x in clock.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)


async def _office(admin: CrmAdmin, change: dict[str, Any], today: date) -> None:
    """A change the office makes between two turns."""
    base = f"/v1/customers/{CUSTOMER}"
    _, body = await admin.get(f"{base}/appointments")
    visits = {a["service"]: a["id"] for a in reversed(body["appointments"])}
    _, body = await admin.get(f"{base}/tasks?status=pending")
    todos = {t["title"]: t["id"] for t in body["tasks"]}
    if "cancel" in change:
        status, made = await admin.post(f"{base}/appointments/{visits[change['cancel']]}/cancel")
    elif "move" in change:
        service, when = change["move"]
        days, _, clock = when.partition("@")
        starts = _at(today, int(days), clock)
        status, made = await admin.patch(
            f"{base}/appointments/{visits[service]}", {"starts_at": starts.isoformat()}
        )
    elif "complete" in change:
        status, made = await admin.post(f"{base}/tasks/{todos[change['complete']]}/complete")
    else:
        raise ValueError(f"unknown office change {change}")
    assert status == 200, made


# -- what the answer names, against the rows ---------------------------------------------

_WORDS = (
    *("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen"),
)
_NUMBERS = {word: number for number, word in enumerate(_WORDS)}
_NUMBER = r"(no|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|\d+)"
_NOUNS = {
    "tasks": r"tasks?|to-?dos?|items?|reminders?",
    "appts": r"appointments?|visits?|bookings?",
    "invoices": r"invoices?|bills?",
    "tickets": r"cases?|tickets?|requests?",
}
_COUNT = rf"\b{_NUMBER}\s+(?:[\w-]+\s+){{0,3}}?(?:%s)\b"
_MORE = re.compile(rf"\b(?:and|plus)\s+{_NUMBER}\s+(?:[\w-]+\s+)?(?:more|others?)\b")
_DATE_SAID = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+(?:the\s+)?"
    r"(january|february|march|april|may|june|july|august|september|october|november|december)"
    r"\s+(\d{1,2})(?:st|nd|rd|th)?\b"
)
_MONTHS = (
    *("january", "february", "march", "april", "may", "june", "july", "august"),
    *("september", "october", "november", "december"),
)
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_AMOUNT = re.compile(r"(?:\$|€|usd\s?|eur\s?)\s?(-?[\d,]+(?:\.\d\d)?)|(-?[\d,]+\.\d\d)")


def _number(word: str) -> int:
    return _NUMBERS[word] if word in _NUMBERS else int(word)


def _days_in(spec: str, day: date | None, today: date) -> bool:
    if day is None:
        return spec == "none"
    first, _, last = spec.partition("..")
    return int(first) <= (day - today).days <= int(last or first)


def _matches(kind: str, row: dict[str, Any], where: dict[str, Any], today: date) -> bool:
    for key, want in where.items():
        if key in ("may",):
            continue
        if kind in ("tasks", "invoices") and key == "due":
            due = date.fromisoformat(row["due_on"]) if row["due_on"] else None
            if not _days_in(want, due, today):
                return False
        elif kind == "appts" and key == "before":
            if _local(row["starts_at"], ZONE).strftime("%H:%M") >= want:
                return False
        elif kind == "appts" and key == "after":
            if _local(row["starts_at"], ZONE).strftime("%H:%M") < want:
                return False
        elif kind == "appts" and key == "day":
            if not _days_in(want, _local(row["starts_at"], ZONE).date(), today):
                return False
        elif key in row and row[key] != want:
            return False
    return True


def _name(kind: str, row: dict[str, Any]) -> str:
    return str(
        {"tasks": row.get("title"), "appts": row.get("service"), "tickets": row.get("subject")}.get(
            kind
        )
        or ""
    ).lower()


def _money(cents: int) -> set[str]:
    whole = f"{abs(cents) / 100:,.2f}"
    said = {whole, whole.replace(",", "")}
    if cents % 100 == 0:
        said |= {f"{abs(cents) // 100:,}", f"{abs(cents) // 100}"}
    return said


def _amounts_said(low: str) -> list[str]:
    return [(a or b).lstrip("-").rstrip(",") for a, b in _AMOUNT.findall(low)]


def _hour_said(moment: datetime) -> tuple[str, ...]:
    h12 = moment.hour % 12 or 12
    half = "am" if moment.hour < 12 else "pm"
    said = [f"{h12}:{moment.minute:02d} {half}", f"{h12}:{moment.minute:02d}{half}"]
    if moment.minute == 0:
        said += [f"{h12} {half}", f"{h12}{half}", f"{h12} o'clock"]
    return tuple(said)


async def _rows(admin: CrmAdmin, kind: str) -> list[dict[str, Any]]:
    base = f"/v1/customers/{CUSTOMER}"
    path = {"tasks": "/tasks?status=all", "appts": "/appointments?status=upcoming",
            "invoices": "/invoices?status=all", "tickets": "/tickets?status=all"}[kind]  # fmt: skip
    status, body = await admin.get(base + path)
    assert status == 200, body
    key = {"appts": "appointments"}.get(kind, kind)
    return list(body[key])


async def told_problems(admin: CrmAdmin, told: dict[str, Any], text: str, today: date) -> list[str]:
    """What the answer says of the rows that is not so (the turn's `told`, module doc)."""
    low = text.lower()
    problems: list[str] = []
    names = told.get("names", True)
    for kind in ("tasks", "appts", "invoices", "tickets"):
        if kind not in told:
            continue
        where = told[kind]
        rows = await _rows(admin, kind)
        inside = [r for r in rows if _matches(kind, r, where, today)]
        may = [
            r
            for r in rows
            if "may" in where and r not in inside and _matches(kind, r, where["may"], today)
        ]
        outside = [r for r in rows if r not in inside and r not in may]
        for count in re.findall(_COUNT % _NOUNS[kind], low):
            if _number(count) not in (len(inside), len(inside) + len(may)):
                problems.append(f"says {count} {kind}, the CRM holds {len(inside)}")
        if kind == "invoices":
            problems += _amount_problems(low, inside, outside, rows, names)
            continue
        inside_names = {_name(kind, r) for r in inside}
        named = [r for r in inside if _name(kind, r) in low]
        for row in outside:
            name = _name(kind, row)
            if name and name not in inside_names and name in low:
                problems.append(f"names {name!r}, outside what was asked")
        if names:
            more = [_number(m) for m in _MORE.findall(low)]
            left = len({_name(kind, r) for r in inside}) - len({_name(kind, r) for r in named})
            if more and left and not {left, left + len(may)} & set(more):
                problems.append(f"says {more} more, {left} {kind} were not named")
            elif left and not more:
                missing = sorted({_name(kind, r) for r in inside} - {_name(kind, r) for r in named})
                problems.append(f"leaves out {missing} with no word of more")
        if kind == "appts":
            problems += _visit_problems(low, named)
        if kind == "tasks":
            problems += _overdue_problems(low, rows, inside, today)
    problems += _weekday_problems(low, today)
    return problems


def _amount_problems(
    low: str,
    inside: list[dict[str, Any]],
    outside: list[dict[str, Any]],
    rows: list[dict[str, Any]],
    names: bool,
) -> list[str]:
    problems: list[str] = []
    said = set(_amounts_said(low))
    cents = [int(r["amount_cents"]) for r in inside]
    true: set[str] = set()
    for amount in cents:
        true |= _money(amount)
    by_currency: dict[str, int] = {}
    for row in inside:
        by_currency[row["currency"]] = by_currency.get(row["currency"], 0) + int(
            row["amount_cents"]
        )
    for total in by_currency.values():
        true |= _money(total)
    true |= {"0", "0.00"}
    for amount in said - true:
        problems.append(f"says the amount {amount}, no bill of what was asked holds it")
    if names:
        for row in inside:
            if not _money(int(row["amount_cents"])) & said and not any(
                _money(total) & said for total in by_currency.values()
            ):
                problems.append(f"leaves out the bill of {row['amount_cents']} cents")
    return problems


def _overdue_problems(
    low: str, rows: list[dict[str, Any]], inside: list[dict[str, Any]], today: date
) -> list[str]:
    """ "N are overdue" is the count of the to-dos that are (of all, or of those asked);
    "X is overdue" alone, of several asked that are, says one where there are more."""
    late = [
        r for r in rows
        if r["status"] == "pending" and r["due_on"] and date.fromisoformat(r["due_on"]) < today
    ]  # fmt: skip
    late_asked = [r for r in late if r in inside]
    problems = []
    # the sentences about to-dos: a bill's "One of them is overdue" is not of them
    about, kept = "", []
    for sentence in re.split(r"(?<=[.!?])\s+", low):
        if re.search(r"\b(?:tasks?|to-?dos?)\b", sentence):
            about = "tasks"
        elif re.search(r"\b(?:invoices?|bills?|balance|appointments?)\b", sentence):
            about = "other"
        if about == "tasks":
            kept.append(sentence)
    low = " ".join(kept)
    for count in re.findall(rf"\b{_NUMBER} (?:of them )?(?:are|is) overdue", low):
        if _number(count) not in (len(late), len(late_asked)):
            problems.append(f"says {count} overdue, {len(late)} are")
    singled = [r["title"] for r in rows if f"{r['title'].lower()} is overdue" in low]
    if len(singled) == 1 and len(late_asked) > 1 and not re.search(r"\bare overdue", low):
        problems.append(f"says {singled[0]!r} is overdue, of {len(late_asked)} overdue")
    return problems


def _visit_problems(low: str, named: list[dict[str, Any]]) -> list[str]:
    """Each visit named with its weekday and hour (her clock), soonest first."""
    problems: list[str] = []
    positions = []
    for row in named:
        moment = _local(row["starts_at"], ZONE)
        name = _name("appts", row)
        spots = [m.start() for m in re.finditer(re.escape(name), low)]
        near = [low[spot : spot + 90] for spot in spots]
        right = [
            spot
            for spot, words in zip(spots, near, strict=True)
            if any(hour in words for hour in _hour_said(moment))
            and (_DAYS[moment.weekday()] in words or "today" in words or "tomorrow" in words)
        ]
        if not right:
            problems.append(f"{name!r} not said with {moment:%A} {_hour_said(moment)[0]}")
        positions.append(right[0] if right else (spots[0] if spots else 0))
    if positions != sorted(positions):
        problems.append("the visits are not read soonest first")
    return problems


def _weekday_problems(low: str, today: date) -> list[str]:
    problems = []
    for weekday, month, dom in _DATE_SAID.findall(low):
        month_number = _MONTHS.index(month) + 1
        options = []
        for year in (today.year - 1, today.year, today.year + 1):
            try:
                options.append(date(year, month_number, int(dom)))
            except ValueError:
                continue
        said = min(options, key=lambda d: abs((d - today).days))
        if _DAYS[said.weekday()] != weekday:
            problems.append(f"says {weekday}, {month} {dom}: that is a {_DAYS[said.weekday()]}")
    return problems


# -- a session ------------------------------------------------------------------------


async def play(
    make_assistant: MakeAssistant, app: web.Application, admin: CrmAdmin, case: dict[str, Any]
) -> list[str]:
    now = datetime.fromisoformat(case["now"]).replace(tzinfo=ZONE) if "now" in case else NOW
    _CLOCK[0] = now
    state = app[STATE]
    state.config = dataclasses.replace(state.config, today=now.date())
    await admin.reset()
    if "seed" in case:
        await _seed(app, admin, case["seed"], now.date())
    world: World = await snapshot(admin, now)
    assistant = await make_assistant(
        customer_messages_per_minute=100_000, clock=lambda: _CLOCK[0].astimezone(UTC)
    )
    chat = await assistant.connect(CUSTOMER)
    problems: list[str] = []
    written: set[str] = set()
    try:
        for number, turn in enumerate(case["turns"], start=1):
            if "office" in turn:
                await _office(admin, turn["office"], now.date())
            events = await chat.say(turn["say"])
            if SHOW:
                print(f"\n[{case['id']}] > {turn['say']}\n  < {answer(events)}")
            found = turn_problems(turn, events, CATALOG, written)
            written |= {c["tool"] for c in events[-1]["tool_calls"] if c["status"] == "ok"}
            found += await check_crm(admin, turn.get("crm", []), world)
            found += await told_problems(admin, turn.get("told", {}), answer(events), now.date())
            if found and not any(p.startswith("answer was") for p in found):
                found.append(f"answer was: {answer(events)!r}")
            problems += [f"turn {number} {turn['say']!r}: {p}" for p in found]
    finally:
        await chat.close()
        _CLOCK[0] = NOW
    return problems


CASES = read_cases(HONEST23, own_moments=True)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
async def test_what_is_read_back_is_so(
    make_assistant: MakeAssistant,
    crm_app: web.Application,
    crm_admin: CrmAdmin,
    case: dict[str, Any],
) -> None:
    problems = await play(make_assistant, crm_app, crm_admin, case)
    if case["id"] in KNOWN_OPEN:
        assert problems, f"{case['id']} passes now: take it out of KNOWN_OPEN"
        return
    assert not problems, "\n".join(problems)
