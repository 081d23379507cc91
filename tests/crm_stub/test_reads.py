"""The read routes against the real stub: profiles, appointments, invoices, tasks, tickets."""

from __future__ import annotations

import datetime as dt

import aiohttp
import pytest

from tests.fixtures.crm import CrmAdmin

PROFILE_FIELDS = {"id", "name", "email", "phone", "timezone", "tier"}


async def test_healthz_answers_without_a_token(crm_url: str) -> None:
    """GET /healthz is open: a load balancer probes it without credentials."""
    async with aiohttp.ClientSession() as session, session.get(crm_url + "/healthz") as response:
        assert response.status == 200
        assert await response.json() == {"status": "ok"}


async def test_profile_has_exactly_the_documented_fields(crm_admin: CrmAdmin) -> None:
    """GET /v1/customers/{cid} answers the profile of CRM_API.md."""
    status, body = await crm_admin.get("/v1/customers/cust_001")
    assert status == 200
    assert set(body) == PROFILE_FIELDS
    assert body["phone"] == "+14155550101"
    assert body["timezone"] == "America/Los_Angeles"


@pytest.mark.parametrize("phone", ["%2B14155550102", "+14155550102"])
async def test_lookup_by_phone_accepts_encoded_and_literal_plus(
    crm_admin: CrmAdmin, phone: str
) -> None:
    """The telephony bridge finds a caller by E.164 number, '+' encoded or not."""
    status, body = await crm_admin.get(f"/v1/customers/by-phone/{phone}")
    assert status == 200
    assert body["id"] == "cust_002"


async def test_lookup_by_unknown_phone_is_404(crm_admin: CrmAdmin) -> None:
    """A number no customer has answers 404 not_found."""
    status, body = await crm_admin.get("/v1/customers/by-phone/%2B19995550000")
    assert status == 404
    assert body["error"]["code"] == "not_found"


async def test_lookup_by_malformed_phone_is_400(crm_admin: CrmAdmin) -> None:
    """A value that is not E.164 is the client's mistake: 400 naming the parameter."""
    status, body = await crm_admin.get("/v1/customers/by-phone/415-555-0101")
    assert status == 400
    assert body["error"]["code"] == "invalid_request"
    assert "e164" in body["error"]["message"]


async def test_unknown_customer_is_404_on_every_collection(crm_admin: CrmAdmin) -> None:
    """An unknown customer id answers 404, not an empty list."""
    for path in ("", "/appointments", "/invoices", "/tasks", "/tickets"):
        status, body = await crm_admin.get(f"/v1/customers/cust_999{path}")
        assert status == 404, path
        assert body["error"]["code"] == "not_found"


async def test_upcoming_appointments_are_sorted_and_start_with_dental_cleaning(
    crm_admin: CrmAdmin,
) -> None:
    """cust_001 has two or more upcoming appointments, in time order, a dental cleaning first."""
    status, body = await crm_admin.get("/v1/customers/cust_001/appointments")
    assert status == 200
    found = body["appointments"]
    assert len(found) >= 2
    assert found[0]["service"] == "Dental cleaning"
    starts = [dt.datetime.fromisoformat(a["starts_at"]) for a in found]
    assert starts == sorted(starts)
    assert all(start > dt.datetime.now(dt.UTC) for start in starts)
    assert {a["status"] for a in found} == {"upcoming"}
    assert set(found[0]) == {"id", "service", "starts_at", "ends_at", "status", "location", "notes"}


async def test_appointment_times_carry_the_customers_offset(crm_admin: CrmAdmin) -> None:
    """starts_at is ISO 8601 with the offset of the customer's timezone, in business hours."""
    _, body = await crm_admin.get("/v1/customers/cust_002/appointments?status=all")
    for appointment in body["appointments"]:
        start = dt.datetime.fromisoformat(appointment["starts_at"])
        assert start.utcoffset() in (dt.timedelta(hours=-5), dt.timedelta(hours=-4))
        assert 8 <= start.hour <= 17


@pytest.mark.parametrize(
    ("status", "expected"),
    [("past", {"past"}), ("cancelled", {"cancelled"}), ("all", {"past", "upcoming", "cancelled"})],
)
async def test_appointment_status_filter(
    crm_admin: CrmAdmin, status: str, expected: set[str]
) -> None:
    """?status= selects past, cancelled or all appointments."""
    _, body = await crm_admin.get(f"/v1/customers/cust_001/appointments?status={status}")
    assert {a["status"] for a in body["appointments"]} == expected


async def test_customer_with_nothing_upcoming_gets_an_empty_list(crm_admin: CrmAdmin) -> None:
    """cust_003 has no upcoming appointment (its future one is cancelled): an empty list."""
    status, body = await crm_admin.get("/v1/customers/cust_003/appointments")
    assert status == 200
    assert body == {"appointments": []}


@pytest.mark.parametrize(
    "path",
    [
        "/v1/customers/cust_001/appointments?status=soon",
        "/v1/customers/cust_001/invoices?status=overdue",
        "/v1/customers/cust_001/tasks?status=done",
        "/v1/customers/cust_001/tickets?status=pending",
    ],
)
async def test_bad_status_filter_is_400(crm_admin: CrmAdmin, path: str) -> None:
    """An unknown ?status= value is a 400 naming the parameter, not an empty list."""
    status, body = await crm_admin.get(path)
    assert status == 400
    assert body["error"]["code"] == "invalid_request"
    assert body["error"]["message"].startswith("status:")


async def test_open_invoices_and_balance(crm_admin: CrmAdmin) -> None:
    """cust_001 owes exactly one open invoice of $150.00, in integer cents."""
    status, body = await crm_admin.get("/v1/customers/cust_001/invoices")
    assert status == 200
    assert body["balance_cents"] == 15000
    assert body["currency"] == "USD"
    [invoice] = body["invoices"]
    assert invoice["amount_cents"] == 15000
    assert invoice["status"] == "open"
    assert set(invoice) == {
        "id", "description", "amount_cents", "currency", "issued_on", "due_on", "status"
    }  # fmt: skip


async def test_all_invoices_include_paid_ones_but_balance_counts_open_only(
    crm_admin: CrmAdmin,
) -> None:
    """?status=all lists paid invoices too; the balance is still what is owed."""
    _, body = await crm_admin.get("/v1/customers/cust_001/invoices?status=all")
    assert {i["status"] for i in body["invoices"]} == {"open", "paid"}
    assert body["balance_cents"] == 15000
    _, paid = await crm_admin.get("/v1/customers/cust_001/invoices?status=paid")
    assert paid["invoices"]
    assert {i["status"] for i in paid["invoices"]} == {"paid"}


async def test_customer_who_owes_nothing(crm_admin: CrmAdmin) -> None:
    """cust_003 has no open invoice and a zero balance."""
    _, body = await crm_admin.get("/v1/customers/cust_003/invoices")
    assert body == {"invoices": [], "balance_cents": 0, "currency": "USD"}


async def test_tasks_of_cust_001(crm_admin: CrmAdmin) -> None:
    """cust_001 has three pending tasks, one titled 'Buy groceries', and one completed task."""
    status, body = await crm_admin.get("/v1/customers/cust_001/tasks")
    assert status == 200
    pending = [t for t in body["tasks"] if t["status"] == "pending"]
    completed = [t for t in body["tasks"] if t["status"] == "completed"]
    assert len(pending) == 3
    assert len(completed) == 1
    assert "Buy groceries" in {t["title"] for t in pending}
    assert completed[0]["completed_at"] is not None
    assert {t["priority"] for t in body["tasks"]} <= {"low", "normal", "high"}
    _, only_pending = await crm_admin.get("/v1/customers/cust_001/tasks?status=pending")
    assert only_pending["tasks"] == pending


async def test_cust_002_has_two_tasks_sharing_a_word(crm_admin: CrmAdmin) -> None:
    """cust_002's 'Pay water bill' and 'Pay phone bill' make an ambiguous 'pay bill' request."""
    _, body = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    titles = {t["title"] for t in body["tasks"]}
    assert {"Pay water bill", "Pay phone bill"} <= titles


async def test_customer_without_tasks(crm_admin: CrmAdmin) -> None:
    """cust_003 has no task at all."""
    _, body = await crm_admin.get("/v1/customers/cust_003/tasks")
    assert body == {"tasks": []}


async def test_open_tickets(crm_admin: CrmAdmin) -> None:
    """cust_001 has one open ticket by default; ?status=all shows the closed one too."""
    _, body = await crm_admin.get("/v1/customers/cust_001/tickets")
    [ticket] = body["tickets"]
    assert ticket["status"] == "open"
    assert set(ticket) == {"id", "subject", "status", "priority", "opened_at", "updated_at"}
    _, everything = await crm_admin.get("/v1/customers/cust_001/tickets?status=all")
    assert {t["status"] for t in everything["tickets"]} == {"open", "closed"}
