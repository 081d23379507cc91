"""The CRM's data in SQLite: customers and their appointments, invoices, tasks, tickets.

Every query is scoped by customer id: a resource of another customer is
reported exactly like a missing one (`NotFound`). Every write is committed
before the method returns, so an answer the client sees is on disk.

Queries are small and run inline on the event loop. Because no method awaits,
each one is atomic with respect to other requests.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from crm_stub.errors import Conflict, InvalidState, NotFound
from crm_stub.seed import Row, Seed, appointment_times

log = logging.getLogger(__name__)

Clock = Callable[[], dt.datetime]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS customers (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL UNIQUE,
    timezone TEXT NOT NULL, tier TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS appointments (
    id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(id),
    service TEXT NOT NULL, starts_at TEXT NOT NULL, ends_at TEXT NOT NULL,
    starts_epoch REAL NOT NULL, status TEXT NOT NULL, location TEXT, notes TEXT);
CREATE TABLE IF NOT EXISTS invoices (
    id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(id),
    description TEXT NOT NULL, amount_cents INTEGER NOT NULL, currency TEXT NOT NULL,
    issued_on TEXT NOT NULL, due_on TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(id),
    title TEXT NOT NULL, description TEXT, priority TEXT NOT NULL, status TEXT NOT NULL,
    due_on TEXT, created_at TEXT NOT NULL, completed_at TEXT);
CREATE TABLE IF NOT EXISTS tickets (
    id TEXT PRIMARY KEY, customer_id TEXT NOT NULL REFERENCES customers(id),
    subject TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL,
    opened_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS idempotency_replies (
    key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
    body BLOB NOT NULL, content_type TEXT, created_epoch REAL NOT NULL);
CREATE INDEX IF NOT EXISTS appointments_by_customer ON appointments(customer_id, starts_epoch);
CREATE INDEX IF NOT EXISTS tasks_by_customer ON tasks(customer_id);
"""

APPOINTMENT_FIELDS = ("id", "service", "starts_at", "ends_at", "status", "location", "notes")
INVOICE_FIELDS = ("id", "description", "amount_cents", "currency", "issued_on", "due_on", "status")
TASK_FIELDS = (
    "id", "title", "description", "priority", "status", "due_on", "created_at", "completed_at"
)  # fmt: skip
TICKET_FIELDS = ("id", "subject", "status", "priority", "opened_at", "updated_at")
CUSTOMER_FIELDS = ("id", "name", "email", "phone", "timezone", "tier")


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True, slots=True)
class StoredReply:
    """A response kept for an idempotency key."""

    fingerprint: str
    status: int
    body: bytes
    content_type: str | None


# The databases made from a seed, by the seed's identity and held with it (kept alive, so
# its address cannot be another seed's): a few seeds' worth, a day's or a zone's each.
_SEEDED: dict[tuple[int, dt.date], tuple[Seed, sqlite3.Connection]] = {}
_SEEDED_KEPT = 8


def _seeded(seed: Seed, today: dt.date) -> sqlite3.Connection:
    key = (id(seed), today)
    held = _SEEDED.get(key)
    if held is not None and held[0] is seed:
        return held[1]
    # Shared by the stubs of every thread that resets one (it is only ever read).
    database = sqlite3.connect(":memory:", check_same_thread=False)
    database.executescript(SCHEMA)
    Store(database)._fill(seed, today)
    if len(_SEEDED) >= _SEEDED_KEPT:
        del _SEEDED[next(iter(_SEEDED))]  # closed when the last reset using it is done
    _SEEDED[key] = (seed, database)
    return database


class Store:
    """The stub's database. Open with `Store.open(path)`, close with `close()`."""

    def __init__(self, db: sqlite3.Connection, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    @classmethod
    def open(cls, path: str, clock: Clock = utc_now) -> Store:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path)
        db.row_factory = sqlite3.Row
        if path != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed write survives a power cut, not just a crash.
            db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        return cls(db, clock)

    def close(self) -> None:
        self.db.close()

    # -- seed ------------------------------------------------------------------

    def seeded_on(self) -> dt.date | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'seeded_on'").fetchone()
        has_customers = self.db.execute("SELECT 1 FROM customers LIMIT 1").fetchone()
        if row is None or has_customers is None:
            return None
        return dt.date.fromisoformat(row["value"])

    def load_seed(self, seed: Seed, today: dt.date) -> None:
        """Replace all data (and stored idempotent replies) with `seed`: copied page by
        page (SQLite's backup) from a database that holds only it, made once per seed.
        The suite resets the stub before every written conversation; inserting the rows
        each time cost more than the conversation it reset for."""
        _seeded(seed, today).backup(self.db)

    def _fill(self, seed: Seed, today: dt.date) -> None:
        with self.db:
            self._insert("customers", seed.customers)
            self._insert("appointments", seed.appointments)
            self._insert("invoices", seed.invoices)
            self._insert("tasks", seed.tasks)
            self._insert("tickets", seed.tickets)
            self.db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('seeded_on', ?)", (today.isoformat(),)
            )

    def _insert(self, table: str, rows: Iterable[Row]) -> None:
        # One statement per set of columns, run over all its rows: a reset runs before
        # every written conversation of the suite, and row by row it cost more than the
        # turns it resets for.
        by_columns: dict[tuple[str, ...], list[Row]] = {}
        for row in rows:
            by_columns.setdefault(tuple(row), []).append(row)
        for names, same in by_columns.items():
            columns = ", ".join(names)
            marks = ", ".join(f":{name}" for name in names)
            self.db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", same)

    # -- customers -------------------------------------------------------------

    def customer(self, cid: str) -> dict[str, object]:
        row = self.db.execute("SELECT * FROM customers WHERE id = ?", (cid,)).fetchone()
        if row is None:
            raise NotFound(f"no customer {cid}")
        return _pick(row, CUSTOMER_FIELDS)

    def customer_by_phone(self, phone: str) -> dict[str, object]:
        row = self.db.execute("SELECT * FROM customers WHERE phone = ?", (phone,)).fetchone()
        if row is None:
            raise NotFound(f"no customer with phone {phone}")
        return _pick(row, CUSTOMER_FIELDS)

    def update_customer(self, cid: str, changes: dict[str, object]) -> dict[str, object]:
        self.customer(cid)
        phone = changes.get("phone")
        if phone is not None:
            owner = self.db.execute(
                "SELECT id FROM customers WHERE phone = ? AND id != ?", (phone, cid)
            ).fetchone()
            if owner is not None:
                raise Conflict("phone: that number belongs to another customer")
        self._update("customers", cid, changes)
        return self.customer(cid)

    # -- appointments ----------------------------------------------------------

    def appointments(self, cid: str, status: str) -> list[dict[str, object]]:
        self.customer(cid)
        rows = self.db.execute(
            "SELECT * FROM appointments WHERE customer_id = ? ORDER BY starts_epoch, id", (cid,)
        ).fetchall()
        shown = [self._appointment(row) for row in rows]
        return [a for a in shown if status == "all" or a["status"] == status]

    def book_appointment(self, cid: str, service: str, starts_at: dt.datetime) -> dict[str, object]:
        customer = self.customer(cid)
        self._require_future(starts_at)
        local = starts_at.astimezone(ZoneInfo(str(customer["timezone"])))
        start, end, location = appointment_times(local, service)
        aid = "appt_" + secrets.token_hex(6)
        with self.db:
            self.db.execute(
                "INSERT INTO appointments VALUES (?, ?, ?, ?, ?, ?, 'scheduled', ?, NULL)",
                (aid, cid, service, start.isoformat(), end.isoformat(), start.timestamp(),
                 location),
            )  # fmt: skip
        return self.appointment(cid, aid)

    def appointment(self, cid: str, aid: str) -> dict[str, object]:
        return self._appointment(self._owned("appointments", cid, aid))

    def reschedule_appointment(
        self, cid: str, aid: str, starts_at: dt.datetime
    ) -> dict[str, object]:
        current = self.appointment(cid, aid)
        if current["status"] != "upcoming":
            raise InvalidState(f"appointment {aid} is {current['status']}; only upcoming ones move")
        self._require_future(starts_at)
        customer = self.customer(cid)
        old_start = dt.datetime.fromisoformat(str(current["starts_at"]))
        old_end = dt.datetime.fromisoformat(str(current["ends_at"]))
        start = starts_at.astimezone(ZoneInfo(str(customer["timezone"])))
        end = start + (old_end - old_start)
        with self.db:
            self.db.execute(
                "UPDATE appointments SET starts_at = ?, ends_at = ?, starts_epoch = ? WHERE id = ?",
                (start.isoformat(), end.isoformat(), start.timestamp(), aid),
            )
        return self.appointment(cid, aid)

    def cancel_appointment(self, cid: str, aid: str) -> dict[str, object]:
        current = self.appointment(cid, aid)
        if current["status"] != "upcoming":
            raise InvalidState(f"appointment {aid} is {current['status']}; it cannot be cancelled")
        with self.db:
            self.db.execute("UPDATE appointments SET status = 'cancelled' WHERE id = ?", (aid,))
        return self.appointment(cid, aid)

    def _appointment(self, row: sqlite3.Row) -> dict[str, object]:
        shown = _pick(row, APPOINTMENT_FIELDS)
        if row["status"] != "cancelled":
            upcoming = row["starts_epoch"] > self.clock().timestamp()
            shown["status"] = "upcoming" if upcoming else "past"
        return shown

    def _require_future(self, starts_at: dt.datetime) -> None:
        if starts_at <= self.clock():
            raise InvalidState(f"starts_at: {starts_at.isoformat()} is in the past")

    # -- invoices --------------------------------------------------------------

    def invoices(self, cid: str, status: str) -> tuple[list[dict[str, object]], int]:
        """The invoices with `status` (or all), and the balance owed on open ones."""
        self.customer(cid)
        rows = self.db.execute(
            "SELECT * FROM invoices WHERE customer_id = ? ORDER BY due_on, id", (cid,)
        ).fetchall()
        balance = sum(int(row["amount_cents"]) for row in rows if row["status"] == "open")
        chosen = [_pick(r, INVOICE_FIELDS) for r in rows if status in ("all", r["status"])]
        return chosen, balance

    # -- tasks -----------------------------------------------------------------

    def tasks(self, cid: str, status: str) -> list[dict[str, object]]:
        self.customer(cid)
        rows = self.db.execute(
            "SELECT * FROM tasks WHERE customer_id = ? ORDER BY created_at, id", (cid,)
        ).fetchall()
        return [_pick(r, TASK_FIELDS) for r in rows if status in ("all", r["status"])]

    def task(self, cid: str, tid: str) -> dict[str, object]:
        return _pick(self._owned("tasks", cid, tid), TASK_FIELDS)

    def add_task(
        self, cid: str, title: str, description: str | None, priority: str, due_on: dt.date | None
    ) -> dict[str, object]:
        self.customer(cid)
        tid = "task_" + secrets.token_hex(6)
        with self.db:
            self.db.execute(
                "INSERT INTO tasks VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, NULL)",
                (tid, cid, title, description, priority, _date(due_on), self._now()),
            )
        return self.task(cid, tid)

    def update_task(self, cid: str, tid: str, changes: dict[str, object]) -> dict[str, object]:
        self.task(cid, tid)
        self._update("tasks", tid, {k: _date(v) for k, v in changes.items()})
        return self.task(cid, tid)

    def complete_task(self, cid: str, tid: str) -> dict[str, object]:
        current = self.task(cid, tid)
        if current["status"] != "completed":
            with self.db:
                self.db.execute(
                    "UPDATE tasks SET status = 'completed', completed_at = ? WHERE id = ?",
                    (self._now(), tid),
                )
        return self.task(cid, tid)

    def delete_task(self, cid: str, tid: str) -> None:
        self.task(cid, tid)
        with self.db:
            self.db.execute("DELETE FROM tasks WHERE id = ?", (tid,))

    # -- tickets ---------------------------------------------------------------

    def tickets(self, cid: str, status: str) -> list[dict[str, object]]:
        self.customer(cid)
        rows = self.db.execute(
            "SELECT * FROM tickets WHERE customer_id = ? ORDER BY opened_at, id", (cid,)
        ).fetchall()
        return [_pick(r, TICKET_FIELDS) for r in rows if status in ("all", r["status"])]

    def open_ticket(self, cid: str, subject: str, body: str) -> dict[str, object]:
        self.customer(cid)
        kid = "tkt_" + secrets.token_hex(6)
        now = self._now()
        with self.db:
            self.db.execute(
                "INSERT INTO tickets VALUES (?, ?, ?, ?, 'open', 'normal', ?, ?)",
                (kid, cid, subject, body, now, now),
            )
        return _pick(self._owned("tickets", cid, kid), TICKET_FIELDS)

    # -- idempotency replies ---------------------------------------------------

    def stored_reply(self, key: str, not_before_epoch: float) -> StoredReply | None:
        row = self.db.execute(
            "SELECT * FROM idempotency_replies WHERE key = ? AND created_epoch >= ?",
            (key, not_before_epoch),
        ).fetchone()
        if row is None:
            return None
        body = bytes(row["body"])
        return StoredReply(row["fingerprint"], row["status"], body, row["content_type"])

    def keep_reply(self, key: str, reply: StoredReply) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO idempotency_replies VALUES (?, ?, ?, ?, ?, ?)",
                (key, reply.fingerprint, reply.status, reply.body, reply.content_type,
                 self.clock().timestamp()),
            )  # fmt: skip

    def forget_replies(self, older_than_epoch: float | None = None) -> None:
        with self.db:
            if older_than_epoch is None:
                self.db.execute("DELETE FROM idempotency_replies")
            else:
                self.db.execute(
                    "DELETE FROM idempotency_replies WHERE created_epoch < ?", (older_than_epoch,)
                )

    # -- helpers ---------------------------------------------------------------

    def _owned(self, table: str, cid: str, rid: str) -> sqlite3.Row:
        self.customer(cid)
        row: sqlite3.Row | None = self.db.execute(
            f"SELECT * FROM {table} WHERE id = ? AND customer_id = ?",
            (rid, cid),
        ).fetchone()
        if row is None:
            # Another customer's resource looks exactly like a missing one.
            raise NotFound(f"no {table[:-1]} {rid} for customer {cid}")
        return row

    def _update(self, table: str, rid: str, changes: dict[str, object]) -> None:
        if not changes:
            return
        # Column names come from the request models' field names, never from the client.
        assignments = ", ".join(f"{column} = ?" for column in changes)
        with self.db:
            self.db.execute(
                f"UPDATE {table} SET {assignments} WHERE id = ?",
                (*changes.values(), rid),
            )

    def _now(self) -> str:
        return self.clock().astimezone(dt.UTC).isoformat(timespec="seconds")


def _pick(row: sqlite3.Row, fields: tuple[str, ...]) -> dict[str, object]:
    return {name: row[name] for name in fields}


def _date(value: object) -> object:
    return value.isoformat() if isinstance(value, dt.date) else value
