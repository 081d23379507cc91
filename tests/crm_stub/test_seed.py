"""The seed data: deterministic, relative to today, and shaped for the tests that rely on it."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from crm_stub.seed import build_seed

TODAY = dt.date(2025, 3, 10)


def test_seed_is_deterministic_for_a_day() -> None:
    """The same day gives the same data, so tests and recordings can name ids."""
    assert build_seed(TODAY) == build_seed(TODAY)


def test_twenty_customers_with_valid_contact_details() -> None:
    """cust_001…cust_020 each have an E.164 phone (+1415555 01NN), an email and a real timezone."""
    customers = build_seed(TODAY).customers
    assert [c["id"] for c in customers][:20] == [f"cust_{n:03d}" for n in range(1, 21)]
    for n, customer in enumerate(customers, start=1):
        assert customer["phone"] == f"+141555501{n:02d}"
        assert re.fullmatch(r"[a-z.]+@example\.com", str(customer["email"]))
        ZoneInfo(str(customer["timezone"]))
    assert len({c["timezone"] for c in customers}) > 5


def test_dates_move_with_today() -> None:
    """Seeded a day later, every appointment is a day later: upcoming stays upcoming."""
    before = build_seed(TODAY).appointments
    after = build_seed(TODAY + dt.timedelta(days=1)).appointments
    for old, new in zip(before, after, strict=True):
        shift = dt.datetime.fromisoformat(str(new["starts_at"])) - dt.datetime.fromisoformat(
            str(old["starts_at"])
        )
        assert abs(shift - dt.timedelta(days=1)) <= dt.timedelta(hours=1)  # DST may shift an hour


def test_every_customer_has_a_varied_history() -> None:
    """Each customer has past appointments and paid invoices; most have upcoming ones and tasks."""
    seed = build_seed(TODAY)
    for customer in seed.customers:
        cid = customer["id"]
        mine = [a for a in seed.appointments if a["customer_id"] == cid]
        assert any(str(a["starts_at"]) < TODAY.isoformat() for a in mine), cid
        assert any(i["status"] == "paid" for i in seed.invoices if i["customer_id"] == cid), cid
    with_tasks = {t["customer_id"] for t in seed.tasks}
    assert len(with_tasks) == 19
    assert {t["status"] for t in seed.tasks} == {"pending", "completed"}
    assert {t["priority"] for t in seed.tasks} == {"low", "normal", "high"}


def test_upcoming_appointments_are_in_business_hours() -> None:
    """Seeded appointments start between 9:00 and 17:00 local time, on their customer's offset."""
    seed = build_seed(TODAY)
    zones = {c["id"]: ZoneInfo(str(c["timezone"])) for c in seed.customers}
    for appointment in seed.appointments:
        start = dt.datetime.fromisoformat(str(appointment["starts_at"]))
        local = start.astimezone(zones[appointment["customer_id"]])
        assert start.utcoffset() == local.utcoffset()
        assert 9 <= local.hour <= 17


def test_a_customer_seeded_in_another_zone_has_her_visits_at_the_same_hours_there() -> None:
    """`zones` seeds a customer living elsewhere: her profile says the zone, and her visits
    are at the hours they are at in Los Angeles, on her own clock; the others are as seeded."""
    zone = "Pacific/Kiritimati"
    seed = build_seed(TODAY, (("cust_001", zone),))
    assert [c["timezone"] for c in seed.customers][:2] == [zone, "America/New_York"]
    at_home = [a["starts_at"] for a in build_seed(TODAY).appointments]
    elsewhere = [a["starts_at"] for a in seed.appointments]
    maria = [a for a in seed.appointments if a["customer_id"] == "cust_001"]
    for appointment in maria:
        start = dt.datetime.fromisoformat(str(appointment["starts_at"]))
        assert start.utcoffset() == dt.timedelta(hours=14)
    assert [s[:16] for s in elsewhere[: len(maria)]] == [s[:16] for s in at_home[: len(maria)]]
    assert elsewhere[len(maria) :] == at_home[len(maria) :]
