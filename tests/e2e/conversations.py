"""Playing a written conversation through the websocket against the CRM stub, and scoring it.

A case (one line of tests/data/conversations*.jsonl) is a session of turns:

    {"id": "...", "turns": [{"say": "...", "writes": [...], "reads": [...],
      "confirm": "crm.deleteTask", "has": ["haircut", ["moved", "changed"]],
      "not": ["sorry"], "crm": [{"task": "Buy groceries", "status": "completed"}]}]}

Per turn: `writes` the write and destructive calls that succeeded this turn (exactly;
none when absent: nothing is written unasked; `writes_alt` other fair outcomes), `reads`
lookups that must be among the calls (others are allowed), `confirm` the call left
awaiting a yes (none when absent, "*" either way), `has` words the answer must contain
(a list inside is "any of these"), `not` words it must not contain (besides the
refusals no turn may give; and no sentence may claim a change no write of the turn made),
`crm` checks of the CRM's data after the turn:

    {"task": TITLE, "status": "completed" | "pending" | "gone", "due": DAY, "priority": P}
    {"task_like": WORDS, "due": DAY, "priority": P, "count": N}   new tasks, by title words
        (N may be a list of fair counts: [0, 1] where asking first is as fair as adding)
        ("without": [WORD, ...] words the new title must not hold: a date or request said
        around the title, "remind", "friday", is a garbled title)
    {"appt": SERVICE, "at": WHEN, "status": "scheduled" | "cancelled", "count": N}   ahead
        (N may be a list of fair counts, as for tasks; "only": true, none of that service
        and status ahead is at another time)
    {"tickets": "+N"}                                       tickets opened this session
        (or a list of fair counts)
    {"ticket_like": [WORD | [WORD, ...], ...], "count": N}   tickets opened this session
        whose subject and body (as the calls sent them) hold every WORD (a list inside is
        "any of these")
    {"invoices": ["open 15000", "paid 9500", ...]}           every invoice's status and cents
    {"profile": "phone" | "email", "is": [VALUE, ...]}       the detail on file is one of these

DAY is "+N" (days from the customer's today), "+N..+M" (any day from N to M days on),
"2030-12-30" (that date), "2030-12-30..2031-01-05" (any day of the span), DAY|DAY (either),
"wd:fri" (a Friday in the next two weeks),
"dom:14" (a 14th in the next 45 days), "md:12-10" (the next 10 December) or "none";
WHEN is DAY + "@HH:MM", or "seed+1d", "seed-1h", "seed@HH:MM" (the service's seeded
upcoming time, shifted or at another hour), "seed" (where it was), SEED|SEED (either).
Times are the customer's (cust_001, Maria, America/Los_Angeles; read in the zone of the
moment `now` a session is played at, so a test that gives her another zone reads them there).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import weakref
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from assistant.claims import unbacked_claim
from assistant.schema import ToolCall, ToolError, ToolResult
from assistant.tools.catalog import Catalog
from tests.fixtures.app import AssistantHarness
from tests.fixtures.crm import CrmAdmin

CUSTOMER = "cust_001"
ZONE = ZoneInfo("America/Los_Angeles")
# The pinned moment every session is played at (the CRM stub and the engine share it), so
# that a score does not depend on the day the suite runs: a Monday noon in LA.
NOW = datetime(2030, 1, 14, 12, 0, tzinfo=ZONE)
# No turn may answer with a refusal or a shrug: the complaint.
NEVER = ("can't help with that", "didn't quite catch")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


# Cases that fail on the pinned Monday as written (their own sets' tests say so and why):
# a way of playing every conversation leaves them out.
FAILS_AS_WRITTEN = frozenset(
    {
        "pending-delete-then-read-then-yes",
        "due-this-week",
        "nobody-called-back",
        "d2-remove-the-due-date",
        "long-it-after-two-tasks-asked",
        "u12-email-eighty-eight-no-eighty-nine",
        "u12b-balance-overcharged-open-a-case",
        "lo7a-physio-monday-and-wednesday",
        "lo7a-physio-tuesday-thursday-unpunct",
        "lo8a-if-cleaning-before-11-afternoon",
        "lo8a-cancel-haircut-when-cleaning-go-ahead",
        "lo8a-delete-eye-exam-what-else-on-list",
        "lo8a-remove-groceries-how-many-tasks-unpunct",
        "lo8a-eye-exam-can-go",
        "lo8a-haircut-friday-10-facial-as-well-unpunct",
        "lo8b-eye-exam-task-wait-till-next-month",
        "u16-eye-exam-when-answered-late",
        "u16-groceries-changed-in-parts",
        "u18-haircut-day-asked-answered-by-cleaning",
        "u22-cancel-cleaning-false-start-when-is-it-yes",
        "u23-pharmacy-call-already-done-then-optician-one",
        "u23-hair-appointment-another-two-weeks-after",
        "u24-cancel-haircut-asks-cleaning-time-yeah-go-on",
        "u24-delete-eye-exam-moves-groceries-do-it",
        "u24-cancel-both-asks-balance-then-both",
        "u24-delete-two-tasks-only-the-first",
        "u24b-cleaning-monday-wrong-one-the-haircut",
        # the KNOWN_OPEN of unseen11, 13, 14 and 15 (each writes nothing wrong; their tests
        # say what), added by leftopen15 so that no way of replaying every set plays them
        "u11-delete-checked-then-one-more",
        "u11-same-day-as-my-dentist",
        "u11b-checkup-time-asked-day-checked-then-fast",
        "u13-what-was-the-charge-for",
        "u13-refund-asked-then-case",
        "u13-phone-in-two-parts",
        "u13-work-email-for-invoices-keep-personal",
        "u13-change-my-ticket-to-urgent",
        "u14-elderly-asks-again",
        "u14-haircut-right-after-cleaning",
        "u14-insurance-due-moved-up",
        "u14b-move-haircut-monday-time-after",
        "u15-portal-case-chased-and-email",
        "u15-bad-line-haircut",
        "u15-amounts-read-aloud",
        "u15b-bad-line-insurance-done-and-dry-cleaning",
        # leftopen16's KNOWN_OPEN (writes nothing: the cancel is asked again, the house's rule)
        "lo16a-cancel-haircut-balance-between-yes",
    }
)


def stable_number(key: str) -> int:
    """A number for `key` (a case's "set/id") that no other case changes: a sample picked
    by it keeps its cases when a data file is added (Python's hash() is salted per run)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


# The ways of replaying every written conversation (said aloud, on another day, …) each
# play a sample, and every set added grows it: the suite keeps one in REPLAY_SHARE of
# each way's sample (3 unless set; 1 keeps the whole sample, and each way's own "=ALL"
# every case). A second stable number picks the share, so a kept case is said the same
# way, on the same day, in the same group as in the whole sample.
REPLAY_SHARE = int(os.environ.get("REPLAY_SHARE", "3"))


def in_share(key: str) -> bool:
    """Whether the case `key` ("set/id"), in a way's sample, is in the share played."""
    return stable_number(f"share:{key}") % REPLAY_SHARE == 0


def played_here(key: str, group: int, groups: int, stride: int, every: bool) -> bool:
    """Whether the case `key` ("set/id") is played by test `group` of `groups`: about every
    `stride`th case, picked by its key's stable number, the group by it too, in the share
    played (each case when `every`: exploring)."""
    number = stable_number(key)
    if every:
        return number % groups == group
    return number % stride == 0 and (number // stride) % groups == group and in_share(key)


async def failing_variants(
    assistant: AssistantHarness,
    admin: CrmAdmin,
    variants: list[tuple[str, dict[str, Any], dict[str, Any]]],
    catalog: Catalog,
    *,
    exploring: bool = False,
) -> list[str]:
    """The ids ("set/variant id") of the `variants` (set, case as written, case said
    another way) that fail where the case as written passes (one that fails as written
    too is its own set's to report). `exploring` notes each failure in $OUT."""
    failed: list[str] = []
    for stem, case, variant in variants:
        verdict = await play_case(assistant, admin, variant, catalog)
        if verdict.passed or not (await play_case(assistant, admin, case, catalog)).passed:
            continue
        failed.append(f"{stem}/{variant['id']}")
        print(failed[-1], verdict.problems[:3])
        if exploring:
            note_exploring([failed[-1], verdict.problems])
    return failed


def note_exploring(row: list[Any]) -> None:
    """A failure of an exploring run (every case every way), added to the file $OUT names."""
    if out := os.environ.get("OUT"):
        with Path(out).open("a") as report:
            report.write(json.dumps(row) + "\n")


def read_cases(path: Path, *, own_moments: bool = False) -> list[dict[str, Any]]:
    """The cases of a set. A case that names its own moment (`now`, tests/e2e/test_calendar.py)
    is played at it only: the ways of replaying every set, at the pinned moment or another
    Monday, leave it out unless `own_moments`; so is one that adds rows of its own to the
    stub's seed (`seed`) or has the office change the CRM before a turn (`office`,
    tests/e2e/test_honest23.py), which only its own test plays."""
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return cases if own_moments else [case for case in cases if not _own_world(case)]


def _own_world(case: dict[str, Any]) -> bool:
    """Whether a case is played in a world of its own (a moment, rows, an office's change)."""
    return "now" in case or "seed" in case or any("office" in turn for turn in case["turns"])


# The ways of replaying every set read every set in each of their tests (a dozen tests a
# way, two reads in some): parsing them again each time, and collecting what the parse
# made, cost seconds of the suite's CPU. They share one parse per process.
_SHARED: dict[Path, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}


def shared_cases(path: Path) -> list[dict[str, Any]]:
    """`read_cases(path)`, parsed once per process. The cases are shared between tests: a
    way makes its variants as new dicts (`{**case, ...}`), never changes a case in place
    (each test of a module using them fails if one did: `shared_cases_changed`)."""
    if path not in _SHARED:
        _SHARED[path] = (read_cases(path), read_cases(path))  # shared, and kept as read
    return list(_SHARED[path][0])


def shared_cases_changed() -> list[str]:
    """The sets whose shared cases were changed in place (a few ms for every set)."""
    return [path.name for path, (shared, as_read) in _SHARED.items() if shared != as_read]


@dataclass
class World:
    """What the CRM held when the session started, to compare against."""

    now: datetime  # the moment the session is played at (local)
    seeded: dict[str, datetime]  # service → its first upcoming scheduled start (local)
    tickets: int
    task_titles: set[str]
    # (a to-do added again under a title that was there, done, is new by its id)
    task_ids: set[str] = field(default_factory=set)

    @property
    def today(self) -> date:
        return self.now.date()


@dataclass
class Verdict:
    case_id: str
    problems: list[str] = field(default_factory=list)
    turns: int = 0
    turns_failed: int = 0

    @property
    def passed(self) -> bool:
        return not self.problems


async def _get(admin: CrmAdmin, path: str) -> Any:
    status, body = await admin.get(f"/v1/customers/{CUSTOMER}{path}")
    assert status == 200, body
    return body


def _local(iso: str, zone: tzinfo | None = ZONE) -> datetime:
    """`iso` on the customer's clock (`zone`: the one of the moment the session is played at)."""
    return datetime.fromisoformat(iso).astimezone(zone or ZONE)


async def snapshot(admin: CrmAdmin, now: datetime = NOW) -> World:
    appointments = (await _get(admin, "/appointments?status=upcoming"))["appointments"]
    seeded: dict[str, datetime] = {}
    for appointment in appointments:
        seeded.setdefault(appointment["service"], _local(appointment["starts_at"], now.tzinfo))
    tickets = len((await _get(admin, "/tickets?status=all"))["tickets"])
    tasks = (await _get(admin, "/tasks?status=all"))["tasks"]
    return World(now, seeded, tickets, {t["title"] for t in tasks}, {t["id"] for t in tasks})


# What a reset stub holds is its seed, the same after every reset: read once per stub (the
# admin of one test) and moment, not before each session (three reads of each of some
# 3,000 sessions).
_SEEDED: weakref.WeakKeyDictionary[CrmAdmin, dict[tuple[datetime, tzinfo | None], World]] = (
    weakref.WeakKeyDictionary()
)


async def _seeded_world(admin: CrmAdmin, now: datetime) -> World:
    """`snapshot(admin, now)` of the stub just reset (`now` and its zone: one moment read
    in two zones is two worlds)."""
    worlds = _SEEDED.setdefault(admin, {})
    key = (now, now.tzinfo)
    if key not in worlds:
        worlds[key] = await snapshot(admin, now)
    return worlds[key]


def _day_ok(spec: str, day: date | None, today: date) -> bool:
    if "|" in spec:  # any of these
        return any(_day_ok(option, day, today) for option in spec.split("|"))
    if re.fullmatch(r"\d{4}-\d\d-\d\d(\.\.\d{4}-\d\d-\d\d)?", spec):  # a date, or a span
        first, _, last = spec.partition("..")
        start, end = date.fromisoformat(first), date.fromisoformat(last or first)
        return day is not None and start <= day <= end
    if spec == "none":
        return day is None
    if day is None:
        return False
    if spec.startswith("+") and ".." in spec:
        first, last = (int(x) for x in spec[1:].split("..+"))
        return first <= (day - today).days <= last
    if spec.startswith(("+", "-")):  # days from today, either way
        return day == today + timedelta(days=int(spec))
    if spec.startswith("wd:"):
        offset = (day - today).days
        return day.weekday() == _WEEKDAYS.index(spec[3:6]) and 0 < offset <= 14
    if spec.startswith("dom:"):
        return day.day == int(spec[4:]) and 0 < (day - today).days <= 45
    if spec.startswith("md:"):
        month, dom = (int(x) for x in spec[3:].split("-"))
        return (day.month, day.day) == (month, dom) and day >= today
    raise ValueError(f"unknown day spec {spec!r}")


def _when_ok(spec: str, moment: datetime, world: World) -> bool:
    if spec.startswith("seed"):
        raise AssertionError("seed specs are resolved by the caller")
    day_spec, _, clock = spec.partition("@")
    if clock and moment.strftime("%H:%M") != clock:
        return False
    return _day_ok(day_spec, moment.date(), world.today)


def _seed_when(spec: str, service: str, world: World) -> datetime | None:
    base = world.seeded.get(service)
    if base is None:
        return None
    rest = spec[4:]
    if not rest:
        return base
    if rest.startswith("@"):
        hour, minute = (int(x) for x in rest[1:].split(":"))
        return base.replace(hour=hour, minute=minute)
    match = re.fullmatch(r"([+-]\d+)([dhm])", rest)
    assert match, spec
    amount, unit = int(match.group(1)), match.group(2)
    delta = {"d": timedelta(days=amount), "h": timedelta(hours=amount)}.get(
        unit, timedelta(minutes=amount)
    )
    return base + delta


async def check_crm(
    admin: CrmAdmin, checks: list[dict[str, Any]], world: World, opened: Collection[str] = ()
) -> list[str]:
    problems: list[str] = []
    # Each list read once, and only when a check looks at it.
    kinds = {kind for check in checks for kind in check}
    tasks = (
        (await _get(admin, "/tasks?status=all"))["tasks"] if kinds & {"task", "task_like"} else []
    )
    appointments = (
        (await _get(admin, "/appointments?status=all"))["appointments"] if "appt" in kinds else []
    )
    profile: dict[str, Any] | None = None  # read once for the phone and the email
    for check in checks:
        if "task" in check:
            found = [t for t in tasks if t["title"] == check["task"]]
            status = check.get("status")
            if status == "gone":
                if found:
                    problems.append(f"task {check['task']!r} still exists")
                continue
            if not found:
                problems.append(f"task {check['task']!r} is gone")
                continue
            problems += _task_problems(found[0], check, world)
        elif "task_like" in check:
            wanted = check["task_like"].lower().split()
            like = [
                t
                for t in tasks
                if (t["title"] not in world.task_titles or t["id"] not in world.task_ids)
                and all(word in t["title"].lower() for word in wanted)
            ]
            counts = check.get("count", 1)
            if len(like) not in (counts if isinstance(counts, list) else [counts]):
                titles = [
                    t["title"]
                    for t in tasks
                    if t["title"] not in world.task_titles or t["id"] not in world.task_ids
                ]
                problems.append(f"new tasks like {check['task_like']!r}: {titles}")
                continue
            for task in like:
                problems += _task_problems(task, check, world)
                problems += _title_problems(task["title"], check.get("without", []))
        elif "appt" in check:
            problems += _appointment_problems(appointments, check, world)
        elif "profile" in check:
            profile = profile if profile is not None else await _get(admin, "")
            held = profile[check["profile"]]
            if held not in check["is"]:
                problems.append(f"{check['profile']} on file is {held!r}, not one of {check['is']}")
        elif "tickets" in check:
            now = len((await _get(admin, "/tickets?status=all"))["tickets"])
            fair = check["tickets"] if isinstance(check["tickets"], list) else [check["tickets"]]
            if now - world.tickets not in [int(n) for n in fair]:
                problems.append(f"tickets opened: {now - world.tickets}, not {check['tickets']}")
        elif "ticket_like" in check:
            problems += _ticket_problems(opened, check)
        elif "invoices" in check:
            invoices = (await _get(admin, "/invoices?status=all"))["invoices"]
            held = sorted(f"{i['status']} {i['amount_cents']}" for i in invoices)
            if held != sorted(check["invoices"]):
                problems.append(f"invoices are {held}, not {sorted(check['invoices'])}")
        else:
            raise ValueError(f"unknown check {check}")
    return problems


def _ticket_problems(opened: Collection[str], check: dict[str, Any]) -> list[str]:
    """The cases opened this session (subject and body, as sent) that hold the check's
    words, counted."""
    wanted = [[w] if isinstance(w, str) else w for w in check["ticket_like"]]
    like = [
        said
        for said in opened
        if all(any(option.lower() in said.lower() for option in options) for options in wanted)
    ]
    if len(like) != check.get("count", 1):
        return [f"new tickets like {check['ticket_like']!r}: {list(opened)}"]
    return []


def _task_problems(task: dict[str, Any], check: dict[str, Any], world: World) -> list[str]:
    problems = []
    if "status" in check and task["status"] != check["status"]:
        problems.append(f"task {task['title']!r} is {task['status']}, not {check['status']}")
    if "priority" in check and task["priority"] != check["priority"]:
        problems.append(f"task {task['title']!r} priority {task['priority']}")
    if "due" in check:
        due = date.fromisoformat(task["due_on"]) if task["due_on"] else None
        if not _day_ok(check["due"], due, world.today):
            problems.append(f"task {task['title']!r} due {due}, not {check['due']}")
    return problems


def _title_problems(title: str, without: list[str]) -> list[str]:
    words = re.findall(r"[\w']+", title.lower())
    said = " ".join(words)
    return [
        f"task title {title!r} holds {word!r}"
        for word in without
        if re.search(rf"\b{re.escape(word.lower())}\b", said)
    ]


def _appointment_problems(
    appointments: list[dict[str, Any]], check: dict[str, Any], world: World
) -> list[str]:
    service = check["appt"]
    # The stub says "upcoming" for a scheduled appointment still ahead.
    status = {"scheduled": "upcoming"}.get(check.get("status", "scheduled"), check.get("status"))
    now = world.now
    zone = now.tzinfo
    found = [
        a
        for a in appointments
        if a["service"].lower() == service.lower()
        and a["status"] == status
        and _local(a["starts_at"], zone) > now
    ]
    spec = check.get("at")
    every = len(found)
    if spec is not None:
        if spec.startswith("seed"):
            # "seed@09:00|seed": either (moved, or left where it was while asked)
            expected = {_seed_when(alt, service, world) for alt in spec.split("|")}
            found = [a for a in found if _local(a["starts_at"], zone) in expected]
        else:
            found = [a for a in found if _when_ok(spec, _local(a["starts_at"], zone), world)]
    if check.get("only") and len(found) != every:
        return [f"{service} {status}: {every - len(found)} not at {spec}"]
    counts = check.get("count", 1)
    if len(found) not in (counts if isinstance(counts, list) else [counts]):
        held = [
            (a["status"], _local(a["starts_at"], zone).strftime("%a %d %H:%M"))
            for a in appointments
            if a["service"].lower() == service.lower()
        ]
        return [f"{service} {status} at {spec}: {len(found)} found; there are {held}"]
    return []


def _answer(events: list[dict[str, Any]]) -> str:
    texts = [e["text"] for e in events if e["type"] == "answer.done"]
    return texts[-1] if texts else ""


def _pending_tools(done: dict[str, Any]) -> list[str]:
    pending = done.get("awaiting_confirmation")
    if not pending:
        return []
    if "calls" in pending:
        return [call["tool"] for call in pending["calls"]]
    return [pending["tool"]]


# A sentence about a change made earlier in the session ("I already booked that massage a
# few minutes ago"), backed by a write no call of this turn shows.
_EARLIER = re.compile(r"(?i)\b(?:already|ago|earlier|last time|before)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def unbacked_claims(
    text: str,
    calls: list[dict[str, Any]],
    catalog: Catalog,
    *,
    held: bool,
    earlier: Collection[str] = (),
) -> list[str]:
    """Every sentence of the answer that claims a change no write of this turn made (the
    check assistant/claims.py makes of a model's words, made of every answer here): an
    answer that says the opposite of what happened fails whatever the turn checks."""
    writes = {tool.name for tool in catalog.tools if tool.effect != "read"}
    results = [
        ToolResult(
            call=ToolCall(call_id=call["call_id"], tool_name=call["tool"]),
            round=1,
            status="ok" if call["status"] == "ok" else "error",
            result={} if call["status"] == "ok" else None,
            error=None if call["status"] == "ok" else ToolError(code="internal", message="-"),
        )
        for call in calls
    ]
    return [
        f"claims a change not made: {sentence!r}"
        for sentence in _SENTENCE_END.split(text)
        if not _EARLIER.search(sentence)
        and unbacked_claim(sentence, results, writes, held=held, earlier=earlier)
    ]


def _written(calls: list[dict[str, Any]], catalog: Catalog) -> list[str]:
    """The tools of the calls that wrote, and went through."""
    return sorted(
        c["tool"]
        for c in calls
        if c["status"] == "ok" and (tool := catalog.get(c["tool"])) and tool.effect != "read"
    )


def turn_problems(
    turn: dict[str, Any],
    events: list[dict[str, Any]],
    catalog: Catalog,
    earlier: Collection[str] = (),
) -> list[str]:
    """What is wrong with a turn's outcome; `earlier`: the tools of the writes the session
    made before it."""
    done = events[-1]
    problems: list[str] = []
    calls = done["tool_calls"]
    written = _written(calls, catalog)
    allowed = [sorted(turn.get("writes", []))] + [sorted(w) for w in turn.get("writes_alt", [])]
    if written not in allowed:
        problems.append(f"wrote {written}, expected {allowed[0]}")
    called = {c["tool"] for c in calls}
    missing = [tool for tool in turn.get("reads", []) if tool not in called]
    if missing:
        problems.append(f"did not read {missing} (called {sorted(called)})")
    confirm = turn.get("confirm")
    pending = _pending_tools(done)
    expected = [confirm] if isinstance(confirm, str) else list(confirm or [])
    if confirm != "*" and sorted(pending) != sorted(expected):
        problems.append(f"awaiting {pending}, expected {expected}")
    text = _answer(events)
    problems += unbacked_claims(text, calls, catalog, held=bool(pending), earlier=earlier)
    problems += word_problems(turn, text)
    if problems:
        problems.append(f"answer was: {text!r}")
    return problems


def word_problems(turn: dict[str, Any], text: str) -> list[str]:
    """The turn's `has` words the answer lacks, and the `not` words (or refusals) it says."""
    problems: list[str] = []
    low = text.lower()
    for wanted in turn.get("has", []):
        options = [wanted] if isinstance(wanted, str) else wanted
        if not any(option.lower() in low for option in options):
            problems.append(f"answer lacks {wanted!r}")
    for unwanted in [*NEVER, *turn.get("not", [])]:
        if unwanted.lower() in low:
            problems.append(f"answer says {unwanted!r}")
    return problems


async def add_rows(admin: CrmAdmin, rows: dict[str, Any], now: datetime) -> None:
    """Visits and to-dos added to the stub's seed through its API, days from `now`."""
    base = f"/v1/customers/{CUSTOMER}"
    for service, days, clock in rows.get("appts", []):
        day = now.date() + timedelta(days=days)
        hour, minute = (int(x) for x in clock.split(":"))
        starts = datetime(day.year, day.month, day.day, hour, minute, tzinfo=now.tzinfo)
        status, made = await admin.post(
            f"{base}/appointments", {"service": service, "starts_at": starts.isoformat()}
        )
        assert status == 201, made
    for title, priority, days, done in rows.get("tasks", []):
        body: dict[str, Any] = {"title": title, "priority": priority}
        if days is not None:
            body["due_on"] = (now.date() + timedelta(days=days)).isoformat()
        status, made = await admin.post(f"{base}/tasks", body)
        assert status == 201, made
        if done:
            status, made = await admin.post(f"{base}/tasks/{made['id']}/complete")
            assert status == 200, made


async def play_case(
    assistant: AssistantHarness,
    admin: CrmAdmin,
    case: dict[str, Any],
    catalog: Catalog,
    now: datetime = NOW,
) -> Verdict:
    """One session, on freshly seeded data: every turn said and checked.

    `now` is the moment the CRM stub and the assistant were pinned to (NOW unless a test
    plays the sessions on another day). A case's `seed` of rows ({"appts": [[SERVICE, DAYS,
    "HH:MM"], ...], "tasks": [[TITLE, PRIORITY, DAYS | null, DONE], ...]}) is added through
    the stub's API first (a second visit or to-do like one seeded: which one "it" is)."""
    await admin.reset()
    if isinstance(case.get("seed"), dict):
        await add_rows(admin, case["seed"], now)
        world = await snapshot(admin, now)
    else:
        world = await _seeded_world(admin, now)
    chat = await assistant.connect(CUSTOMER)
    verdict = Verdict(case["id"])
    written: set[str] = set()  # the tools of the writes made in the session so far
    opened: list[str] = []  # the cases opened in the session: subject and body
    try:
        for number, turn in enumerate(case["turns"], start=1):
            events = await chat.say(turn["say"])
            problems = turn_problems(turn, events, catalog, written)
            written |= set(_written(events[-1]["tool_calls"], catalog))
            opened += [
                f"{call['arguments'].get('subject', '')} {call['arguments'].get('body', '')}"
                for call in events[-1]["tool_calls"]
                if call["tool"] == "crm.createTicket" and call["status"] == "ok"
            ]
            problems += await check_crm(admin, turn.get("crm", []), world, opened)
            verdict.turns += 1
            verdict.turns_failed += bool(problems)
            verdict.problems += [f"turn {number} {turn['say']!r}: {p}" for p in problems]
    finally:
        await chat.close()
    return verdict
