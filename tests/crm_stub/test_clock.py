"""A stub pinned to a moment: upcoming and past, and what may be booked, follow its clock."""

from __future__ import annotations

import datetime as dt

import pytest
from aiohttp import web

from crm_stub.app import create_app
from tests.fixtures.crm import CrmAdmin

PINNED = dt.datetime(2030, 1, 14, 20, 0, tzinfo=dt.UTC)


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    return create_app(token=crm_token, today=PINNED.date(), clock=lambda: PINNED)


async def test_upcoming_and_past_are_counted_from_the_pinned_moment(crm_admin: CrmAdmin) -> None:
    """Seeded for the pinned day, Maria's two visits ahead of it are upcoming, not past."""
    _, body = await crm_admin.get("/v1/customers/cust_001/appointments?status=upcoming")
    starts = [dt.datetime.fromisoformat(a["starts_at"]) for a in body["appointments"]]
    assert len(starts) == 2
    assert all(start > PINNED for start in starts)
    assert starts[0].date() == dt.date(2030, 1, 16)


async def test_a_booking_before_the_pinned_moment_is_refused(crm_admin: CrmAdmin) -> None:
    """A time before the stub's 'now' is in the past, whatever the real date is."""
    status, body = await crm_admin.post(
        "/v1/customers/cust_001/appointments",
        {"service": "Haircut", "starts_at": "2030-01-14T09:00:00-08:00"},
    )
    assert status == 422, body
