"""Deterministic seed data, with every date relative to `today`.

Twenty customers, `cust_001` … `cust_020`. A few are shaped for tests:

- `cust_001` (Maria Garcia, Los Angeles): two upcoming appointments, the first a
  "Dental cleaning"; exactly one open invoice of $150.00; three pending tasks
  ("Buy groceries", "Renew car insurance", "Schedule eye exam"), one completed
  task; one open ticket.
- `cust_002` (James Smith, New York): two pending tasks sharing a word
  ("Pay water bill", "Pay phone bill"), for ambiguous-title tests.
- `cust_003` (Aisha Khan, Chicago): no upcoming appointments, nothing owed and
  no tasks, for empty-result tests.

The others get a varied, repeatable mix. Upcoming appointments start two days
out at the earliest, so they stay upcoming all day, whatever the customer's
timezone.
"""

from __future__ import annotations

import datetime as dt
import functools
import unicodedata
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

Row = dict[str, object]

# (name, timezone, tier)
CUSTOMERS: tuple[tuple[str, str, str], ...] = (
    ("Maria Garcia", "America/Los_Angeles", "gold"),
    ("James Smith", "America/New_York", "standard"),
    ("Aisha Khan", "America/Chicago", "standard"),
    ("Liam O'Brien", "America/Denver", "platinum"),
    ("Sofia Rossi", "America/Phoenix", "gold"),
    ("Kenji Tanaka", "Pacific/Honolulu", "standard"),
    ("Emma Johnson", "America/Anchorage", "standard"),
    ("Noah Williams", "America/Los_Angeles", "gold"),
    ("Olivia Brown", "America/New_York", "platinum"),
    ("Lucas Martin", "Europe/London", "standard"),
    ("Chloe Dubois", "Europe/Paris", "gold"),
    ("Mateo Fernandez", "America/Chicago", "standard"),
    ("Priya Patel", "America/New_York", "gold"),
    ("Ethan Davis", "America/Denver", "standard"),
    ("Hannah Müller", "Europe/Berlin", "platinum"),
    ("Daniel Kim", "America/Los_Angeles", "standard"),
    ("Grace Lee", "America/Toronto", "gold"),
    ("Samuel Okafor", "America/New_York", "standard"),
    ("Isabella Silva", "America/Sao_Paulo", "standard"),
    ("Jack Wilson", "Australia/Sydney", "gold"),
)

#: service → (duration in minutes, location)
SERVICES: dict[str, tuple[int, str]] = {
    "Dental cleaning": (60, "Downtown Dental, 120 Market St"),
    "Haircut": (45, "Studio Nine, 48 Valencia St"),
    "Annual checkup": (30, "Bayview Clinic, 300 Third St"),
    "Consultation": (30, "Main office, 1 Embarcadero Center"),
    "Eye exam": (40, "ClearView Optometry, 77 Geary St"),
    "Physical therapy": (50, "MoveWell Studio, 9 Howard St"),
}
DEFAULT_DURATION_MIN = 60
DEFAULT_LOCATION = "Main office, 1 Embarcadero Center"

TASK_TITLES = (
    "Book a follow-up visit",
    "Update insurance details",
    "Send signed consent form",
    "Pick up prescription",
    "Upload ID document",
    "Review treatment plan",
    "Confirm new address",
    "Order contact lenses",
)
TICKET_SUBJECTS = (
    "Question about my last invoice",
    "Cannot log in to the portal",
    "Request a copy of my records",
    "Wrong address on my account",
    "Refund for a cancelled visit",
)
INVOICE_ITEMS = ("Dental cleaning", "Haircut", "Annual checkup", "Consultation", "Eye exam")


@dataclass
class Seed:
    """Rows for every table, in insertion order."""

    customers: list[Row] = field(default_factory=list)
    appointments: list[Row] = field(default_factory=list)
    invoices: list[Row] = field(default_factory=list)
    tasks: list[Row] = field(default_factory=list)
    tickets: list[Row] = field(default_factory=list)


Zones = tuple[tuple[str, str], ...]


@functools.lru_cache(maxsize=8)
def build_seed(today: dt.date, zones: Zones = ()) -> Seed:
    """The whole seed, identical for a given `today`: built once a day and shared, so it
    is read, never changed (the suite resets the stub before every conversation).

    `zones` (customer id, timezone): customers living elsewhere than CUSTOMERS says, their
    visits seeded at the same hours on their own clocks (a test of another zone)."""
    builder = _Builder(today)
    elsewhere = dict(zones)
    for number, (name, timezone, tier) in enumerate(CUSTOMERS, start=1):
        builder.customer(number, name, elsewhere.get(f"cust_{number:03d}", timezone), tier)
    return builder.seed


def appointment_times(starts_at: dt.datetime, service: str) -> tuple[dt.datetime, dt.datetime, str]:
    """End time and location of an appointment of `service` starting at `starts_at`."""
    minutes, location = SERVICES.get(service, (DEFAULT_DURATION_MIN, DEFAULT_LOCATION))
    return starts_at, starts_at + dt.timedelta(minutes=minutes), location


class _Builder:
    def __init__(self, today: dt.date) -> None:
        self.today = today
        self.seed = Seed()
        self.counters = {"appt": 0, "inv": 0, "task": 0, "tkt": 0}

    def next_id(self, prefix: str) -> str:
        self.counters[prefix] += 1
        return f"{prefix}_{self.counters[prefix]:04d}"

    def stamp(self, days: int, hour: int = 9, minute: int = 0) -> str:
        """A UTC timestamp `days` from today."""
        day = self.today + dt.timedelta(days=days)
        return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=dt.UTC).isoformat()

    def day(self, days: int) -> str:
        return (self.today + dt.timedelta(days=days)).isoformat()

    def customer(self, n: int, name: str, timezone: str, tier: str) -> None:
        cid = f"cust_{n:03d}"
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        first, last = ascii_name.lower().replace("'", "").split(" ", 1)
        self.seed.customers.append(
            {
                "id": cid,
                "name": name,
                "email": f"{first}.{last.replace(' ', '')}@example.com",
                "phone": f"+14155550{100 + n:03d}",
                "timezone": timezone,
                "tier": tier,
            }
        )
        tz = ZoneInfo(timezone)
        special = {1: self.maria, 2: self.james, 3: self.aisha}.get(n)
        if special is not None:
            special(cid, tz)
        else:
            self.varied(cid, tz, n)

    # -- the three customers tests rely on ------------------------------------

    def maria(self, cid: str, tz: ZoneInfo) -> None:
        notes = "Please arrive 10 minutes early."
        self.appointment(cid, tz, "Dental cleaning", 2, 10, 0, notes=notes)
        self.appointment(cid, tz, "Consultation", 4, 11, 30, status="cancelled")
        self.appointment(cid, tz, "Haircut", 6, 14, 30)
        self.appointment(cid, tz, "Annual checkup", -30, 9, 0)
        self.appointment(cid, tz, "Haircut", -60, 11, 0)
        self.invoice(cid, "Dental cleaning", 15000, -10, 20, "open")
        self.invoice(cid, "Annual checkup", 9500, -40, -10, "paid")
        self.invoice(cid, "Haircut", 4500, -65, -35, "paid")
        self.task(cid, "Buy groceries", "normal", 1, created=-3)
        self.task(cid, "Renew car insurance", "high", 7, created=-10)
        self.task(cid, "Schedule eye exam", "low", None, created=-2)
        self.task(cid, "Call the pharmacy", "normal", -1, created=-5, completed=-1)
        self.ticket(cid, "Question about my last invoice", "open", "normal", -4, -1)
        self.ticket(cid, "Cannot log in to the portal", "closed", "high", -50, -48)

    def james(self, cid: str, tz: ZoneInfo) -> None:
        self.appointment(cid, tz, "Haircut", 3, 16, 0)
        self.appointment(cid, tz, "Consultation", -14, 10, 0)
        self.invoice(cid, "Consultation", 8000, -14, 16, "open")
        self.invoice(cid, "Haircut", 4500, -45, -15, "paid")
        self.task(cid, "Pay water bill", "high", 3, created=-6)
        self.task(cid, "Pay phone bill", "normal", 5, created=-4)
        self.task(cid, "Return library books", "low", -2, created=-9, completed=-2)
        self.ticket(cid, "Wrong address on my account", "open", "low", -3, -3)

    def aisha(self, cid: str, tz: ZoneInfo) -> None:
        self.appointment(cid, tz, "Annual checkup", -21, 9, 30)
        self.appointment(cid, tz, "Eye exam", 5, 13, 0, status="cancelled")
        self.invoice(cid, "Annual checkup", 9500, -21, 9, "paid")
        self.ticket(cid, "Request a copy of my records", "closed", "normal", -20, -18)

    # -- everyone else: a varied but repeatable mix ---------------------------

    def varied(self, cid: str, tz: ZoneInfo, n: int) -> None:
        services = list(SERVICES)
        for k in range(1 + n % 3):
            # Two days out at the earliest: a customer far east of the server is
            # already on tomorrow, and their "upcoming" must not have started.
            days = 2 + (n * 7 + k * 9) % 27
            hour, minute = 9 + (n * 3 + k * 5) % 8, (0, 15, 30, 45)[(n + k) % 4]
            self.appointment(cid, tz, services[(n + k) % len(services)], days, hour, minute)
        for k in range(2):
            days = -(3 + (n * 5 + k * 11) % 60)
            hour = 9 + (n + k * 3) % 8
            self.appointment(cid, tz, services[(n * 2 + k) % len(services)], days, hour, 0)
        for k in range(n % 3):
            amount = 2500 + (n * 1375 + k * 850) % 20000 // 500 * 500
            item = INVOICE_ITEMS[(n + k) % len(INVOICE_ITEMS)]
            self.invoice(cid, item, amount, -(5 + k * 7), 25 - k * 7, "open")
        for k in range(2):
            amount = 3000 + (n * 911 + k * 1234) % 15000 // 500 * 500
            item = INVOICE_ITEMS[(n * 3 + k) % len(INVOICE_ITEMS)]
            self.invoice(cid, item, amount, -(40 + k * 30), -(10 + k * 30), "paid")
        for k in range(3):
            title = TASK_TITLES[(n * 3 + k) % len(TASK_TITLES)]
            priority = ("low", "normal", "high")[(n + k) % 3]
            due = None if (n + k) % 4 == 0 else 2 + (n + k * 5) % 20
            done = -1 - k if k == 2 else None
            self.task(cid, title, priority, due, created=-(8 + k), completed=done)
        subject = TICKET_SUBJECTS[n % len(TICKET_SUBJECTS)]
        if n % 2:
            self.ticket(cid, subject, "open", ("normal", "high")[n % 4 // 2], -(n % 6 + 1), -1)
        closed = TICKET_SUBJECTS[(n + 2) % len(TICKET_SUBJECTS)]
        self.ticket(cid, closed, "closed", "low", -(30 + n), -(28 + n))

    # -- rows ------------------------------------------------------------------

    def appointment(
        self,
        cid: str,
        tz: ZoneInfo,
        service: str,
        days: int,
        hour: int,
        minute: int,
        *,
        status: str = "scheduled",
        notes: str | None = None,
    ) -> None:
        day = self.today + dt.timedelta(days=days)
        local = dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)
        starts_at, ends_at, location = appointment_times(local, service)
        self.seed.appointments.append(
            {
                "id": self.next_id("appt"),
                "customer_id": cid,
                "service": service,
                "starts_at": starts_at.isoformat(),
                "ends_at": ends_at.isoformat(),
                "starts_epoch": starts_at.timestamp(),
                "status": status,
                "location": location,
                "notes": notes,
            }
        )

    def invoice(
        self, cid: str, item: str, amount_cents: int, issued: int, due: int, status: str
    ) -> None:
        self.seed.invoices.append(
            {
                "id": self.next_id("inv"),
                "customer_id": cid,
                "description": item,
                "amount_cents": amount_cents,
                "currency": "USD",
                "issued_on": self.day(issued),
                "due_on": self.day(due),
                "status": status,
            }
        )

    def task(
        self,
        cid: str,
        title: str,
        priority: str,
        due: int | None,
        *,
        created: int,
        completed: int | None = None,
    ) -> None:
        self.seed.tasks.append(
            {
                "id": self.next_id("task"),
                "customer_id": cid,
                "title": title,
                "description": None,
                "priority": priority,
                "status": "pending" if completed is None else "completed",
                "due_on": None if due is None else self.day(due),
                "created_at": self.stamp(created),
                "completed_at": None if completed is None else self.stamp(completed, 17),
            }
        )

    def ticket(
        self, cid: str, subject: str, status: str, priority: str, opened: int, updated: int
    ) -> None:
        self.seed.tickets.append(
            {
                "id": self.next_id("tkt"),
                "customer_id": cid,
                "subject": subject,
                "body": subject + ".",
                "status": status,
                "priority": priority,
                "opened_at": self.stamp(opened, 15, 20),
                "updated_at": self.stamp(updated, 16, 5),
            }
        )
