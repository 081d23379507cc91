"""The write routes against the real stub: contact details, bookings, tasks, tickets."""

from __future__ import annotations

import datetime as dt

from tests.fixtures.crm import CrmAdmin

C1 = "/v1/customers/cust_001"


def in_days(days: int, hour: int = 10) -> str:
    day = dt.datetime.now(dt.UTC) + dt.timedelta(days=days)
    return day.replace(hour=hour, minute=0, second=0, microsecond=0).isoformat()


async def first_upcoming(admin: CrmAdmin, cid: str = "cust_001") -> dict[str, str]:
    _, body = await admin.get(f"/v1/customers/{cid}/appointments")
    return dict(body["appointments"][0])


async def test_update_contact_details(crm_admin: CrmAdmin) -> None:
    """PATCH a customer's email and phone; the profile (and the phone lookup) follow."""
    status, body = await crm_admin.patch(
        C1, {"email": "maria@example.org", "phone": "+14155550199"}
    )
    assert status == 200
    assert body["email"] == "maria@example.org"
    assert body["phone"] == "+14155550199"
    _, found = await crm_admin.get("/v1/customers/by-phone/%2B14155550199")
    assert found["id"] == "cust_001"


async def test_update_contact_rejects_bad_email_and_phone(crm_admin: CrmAdmin) -> None:
    """A malformed email or a non-E.164 phone is a 400 naming the field; nothing changes."""
    status, body = await crm_admin.patch(C1, {"email": "not-an-email"})
    assert status == 400
    assert body["error"]["message"].startswith("email:")
    status, body = await crm_admin.patch(C1, {"phone": "415 555 0101"})
    assert status == 400
    assert body["error"]["message"].startswith("phone:")
    _, profile = await crm_admin.get(C1)
    assert profile["email"] == "maria.garcia@example.com"


async def test_update_contact_needs_a_field_and_no_nulls(crm_admin: CrmAdmin) -> None:
    """An empty PATCH or a null email is a 400, not a silent no-op."""
    status, body = await crm_admin.patch(C1, {})
    assert status == 400
    assert "nothing to update" in body["error"]["message"]
    status, body = await crm_admin.patch(C1, {"email": None})
    assert status == 400
    assert body["error"]["message"] == "email: may not be null"


async def test_phone_of_another_customer_is_a_conflict(crm_admin: CrmAdmin) -> None:
    """Taking cust_002's phone number would make the phone lookup ambiguous: 409."""
    status, body = await crm_admin.patch(C1, {"phone": "+14155550102"})
    assert status == 409
    assert body["error"]["code"] == "conflict"


async def test_book_an_appointment(crm_admin: CrmAdmin) -> None:
    """POST an appointment: 201, shown in the customer's timezone, listed as upcoming."""
    status, body = await crm_admin.post(
        f"{C1}/appointments", {"service": "Haircut", "starts_at": in_days(3, 18)}
    )
    assert status == 201
    assert body["id"].startswith("appt_")
    assert body["status"] == "upcoming"
    assert dt.datetime.fromisoformat(body["starts_at"]) == dt.datetime.fromisoformat(in_days(3, 18))
    assert body["starts_at"].endswith(("-08:00", "-07:00"))
    assert dt.datetime.fromisoformat(body["ends_at"]) > dt.datetime.fromisoformat(body["starts_at"])
    _, listed = await crm_admin.get(f"{C1}/appointments")
    assert body["id"] in {a["id"] for a in listed["appointments"]}


async def test_booking_in_the_past_is_invalid_state(crm_admin: CrmAdmin) -> None:
    """A start time in the past answers 422 invalid_state and books nothing."""
    status, body = await crm_admin.post(
        f"{C1}/appointments", {"service": "Haircut", "starts_at": in_days(-1)}
    )
    assert status == 422
    assert body["error"]["code"] == "invalid_state"
    assert "starts_at" in body["error"]["message"]
    _, listed = await crm_admin.get(f"{C1}/appointments?status=all")
    assert len(listed["appointments"]) == 5


async def test_booking_needs_an_offset_and_a_service(crm_admin: CrmAdmin) -> None:
    """A start time without offset, or a missing service, is a 400 naming the field."""
    status, body = await crm_admin.post(
        f"{C1}/appointments", {"service": "Haircut", "starts_at": "2099-01-01T10:00:00"}
    )
    assert status == 400
    assert body["error"]["message"].startswith("starts_at:")
    status, body = await crm_admin.post(f"{C1}/appointments", {"starts_at": in_days(2)})
    assert status == 400
    assert body["error"]["message"].startswith("service:")


async def test_reschedule_an_appointment(crm_admin: CrmAdmin) -> None:
    """PATCH starts_at moves an upcoming appointment and keeps its length."""
    first = await first_upcoming(crm_admin)
    status, body = await crm_admin.patch(
        f"{C1}/appointments/{first['id']}", {"starts_at": in_days(9, 17)}
    )
    assert status == 200
    assert dt.datetime.fromisoformat(body["starts_at"]) == dt.datetime.fromisoformat(in_days(9, 17))
    old_length = dt.datetime.fromisoformat(first["ends_at"]) - dt.datetime.fromisoformat(
        first["starts_at"]
    )
    new_length = dt.datetime.fromisoformat(body["ends_at"]) - dt.datetime.fromisoformat(
        body["starts_at"]
    )
    assert new_length == old_length


async def test_reschedule_into_the_past_or_of_a_cancelled_one_is_invalid_state(
    crm_admin: CrmAdmin,
) -> None:
    """Moving to a past time, or moving a cancelled or past appointment, answers 422."""
    first = await first_upcoming(crm_admin)
    status, body = await crm_admin.patch(
        f"{C1}/appointments/{first['id']}", {"starts_at": in_days(-2)}
    )
    assert status == 422
    _, cancelled = await crm_admin.get(f"{C1}/appointments?status=cancelled")
    _, past = await crm_admin.get(f"{C1}/appointments?status=past")
    for appointment in (cancelled["appointments"][0], past["appointments"][0]):
        status, body = await crm_admin.patch(
            f"{C1}/appointments/{appointment['id']}", {"starts_at": in_days(8)}
        )
        assert status == 422
        assert body["error"]["code"] == "invalid_state"


async def test_cancel_an_appointment_once(crm_admin: CrmAdmin) -> None:
    """Cancelling answers the appointment with status cancelled; cancelling again is 422."""
    first = await first_upcoming(crm_admin)
    status, body = await crm_admin.post(f"{C1}/appointments/{first['id']}/cancel")
    assert status == 200
    assert body["status"] == "cancelled"
    _, upcoming = await crm_admin.get(f"{C1}/appointments")
    assert first["id"] not in {a["id"] for a in upcoming["appointments"]}
    status, body = await crm_admin.post(f"{C1}/appointments/{first['id']}/cancel")
    assert status == 422
    assert body["error"]["code"] == "invalid_state"


async def test_add_a_task(crm_admin: CrmAdmin) -> None:
    """POST a task: 201 with defaults, and it is listed as pending."""
    status, body = await crm_admin.post(f"{C1}/tasks", {"title": "Water the plants"})
    assert status == 201
    assert body["id"].startswith("task_")
    assert body["priority"] == "normal"
    assert body["status"] == "pending"
    assert body["due_on"] is None
    assert body["completed_at"] is None
    assert dt.datetime.fromisoformat(body["created_at"]).tzinfo is not None
    _, listed = await crm_admin.get(f"{C1}/tasks?status=pending")
    assert "Water the plants" in {t["title"] for t in listed["tasks"]}


async def test_add_a_task_with_every_field(crm_admin: CrmAdmin) -> None:
    """A task keeps its description, priority and due date."""
    status, body = await crm_admin.post(
        f"{C1}/tasks",
        {
            "title": "File taxes",
            "description": "Both forms",
            "priority": "high",
            "due_on": "2099-04-15",
        },
    )
    assert status == 201
    assert (body["description"], body["priority"], body["due_on"]) == (
        "Both forms", "high", "2099-04-15"
    )  # fmt: skip


async def test_update_a_task(crm_admin: CrmAdmin) -> None:
    """PATCH changes only the fields sent; due_on: null clears the due date."""
    _, created = await crm_admin.post(f"{C1}/tasks", {"title": "Old", "due_on": "2099-01-01"})
    status, body = await crm_admin.patch(
        f"{C1}/tasks/{created['id']}", {"title": "New", "priority": "low", "due_on": None}
    )
    assert status == 200
    assert (body["title"], body["priority"], body["due_on"]) == ("New", "low", None)
    assert body["created_at"] == created["created_at"]


async def test_update_a_task_refuses_null_title_and_empty_patch(crm_admin: CrmAdmin) -> None:
    """A null title or an empty PATCH is a 400 naming the problem."""
    _, tasks = await crm_admin.get(f"{C1}/tasks")
    tid = tasks["tasks"][0]["id"]
    status, body = await crm_admin.patch(f"{C1}/tasks/{tid}", {"title": None})
    assert (status, body["error"]["message"]) == (400, "title: may not be null")
    status, body = await crm_admin.patch(f"{C1}/tasks/{tid}", {})
    assert status == 400


async def test_complete_a_task_twice_is_a_success(crm_admin: CrmAdmin) -> None:
    """Completing sets completed_at; completing again answers the same task, not an error."""
    _, tasks = await crm_admin.get(f"{C1}/tasks?status=pending")
    groceries = next(t for t in tasks["tasks"] if t["title"] == "Buy groceries")
    status, first = await crm_admin.post(f"{C1}/tasks/{groceries['id']}/complete")
    assert status == 200
    assert first["status"] == "completed"
    assert first["completed_at"] is not None
    status, again = await crm_admin.post(f"{C1}/tasks/{groceries['id']}/complete")
    assert status == 200
    assert again == first


async def test_delete_a_task(crm_admin: CrmAdmin) -> None:
    """DELETE answers 204 with no body; the task is gone, and deleting again is 404."""
    _, tasks = await crm_admin.get(f"{C1}/tasks")
    tid = tasks["tasks"][0]["id"]
    async with crm_admin.session.delete(f"{crm_admin.base_url}{C1}/tasks/{tid}") as response:
        assert response.status == 204
        assert await response.read() == b""
    _, after = await crm_admin.get(f"{C1}/tasks")
    assert tid not in {t["id"] for t in after["tasks"]}
    assert (await crm_admin.delete(f"{C1}/tasks/{tid}"))[0] == 404


async def test_open_a_ticket(crm_admin: CrmAdmin) -> None:
    """POST a ticket: 201, open, listed with the open tickets."""
    status, body = await crm_admin.post(
        f"{C1}/tickets", {"subject": "Charged twice", "body": "I see two charges for May."}
    )
    assert status == 201
    assert body["id"].startswith("tkt_")
    assert body["status"] == "open"
    assert body["subject"] == "Charged twice"
    _, listed = await crm_admin.get(f"{C1}/tickets")
    assert body["id"] in {t["id"] for t in listed["tickets"]}


async def test_ticket_needs_subject_and_body(crm_admin: CrmAdmin) -> None:
    """A ticket with an empty subject or no body is a 400 naming the field."""
    status, body = await crm_admin.post(f"{C1}/tickets", {"subject": "  ", "body": "x"})
    assert status == 400
    assert body["error"]["message"].startswith("subject:")
    status, body = await crm_admin.post(f"{C1}/tickets", {"subject": "Help"})
    assert status == 400
    assert body["error"]["message"].startswith("body:")
