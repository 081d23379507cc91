"""The customer-facing routes of CRM_API.md: profiles, appointments, invoices, tasks, tickets.

Handlers only translate: validate the request at the edge (models.py), call the
store, shape the answer. Errors are raised as ApiError and enveloped by the
middleware.
"""

from __future__ import annotations

from aiohttp import web

from crm_stub.errors import InvalidRequest
from crm_stub.models import (
    E164,
    AppointmentBooking,
    AppointmentMove,
    Body,
    CustomerPatch,
    Empty,
    TaskDraft,
    TaskPatch,
    TicketDraft,
    fields_set,
    parse_body,
)
from crm_stub.state import STATE
from crm_stub.store import Store

routes = web.RouteTableDef()

APPOINTMENT_STATUSES = ("upcoming", "past", "cancelled", "all")
INVOICE_STATUSES = ("open", "paid", "all")
TASK_STATUSES = ("pending", "completed", "all")
TICKET_STATUSES = ("open", "closed", "all")


def store_of(request: web.Request) -> Store:
    return request.app[STATE].store


def status_param(request: web.Request, allowed: tuple[str, ...], default: str) -> str:
    value = request.query.get("status", default)
    if value not in allowed:
        raise InvalidRequest(f"status: must be one of {', '.join(allowed)}, not {value!r}")
    return value


def changes_of(body: Body, *, nullable: frozenset[str] = frozenset()) -> dict[str, object]:
    """The fields a PATCH sent; at least one, and null only where null means 'clear'."""
    changes = fields_set(body)
    if not changes:
        raise InvalidRequest(f"nothing to update: send one of {', '.join(type(body).model_fields)}")
    for name, value in changes.items():
        if value is None and name not in nullable:
            raise InvalidRequest(f"{name}: may not be null")
    return changes


@routes.get("/healthz")
async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


# -- customers ---------------------------------------------------------------


@routes.get("/v1/customers/by-phone/{e164}")
async def customer_by_phone(request: web.Request) -> web.Response:
    phone = request.match_info["e164"].strip()
    if phone[:1].isdigit() and request.match_info["e164"].startswith(" "):
        # A '+' sent form-encoded arrives as a space; take it as the '+' it was.
        phone = "+" + phone
    if not E164.match(phone):
        raise InvalidRequest(f"e164: {phone!r} is not an E.164 number such as +14155550101")
    return web.json_response(store_of(request).customer_by_phone(phone))


@routes.get("/v1/customers/{cid}")
async def customer(request: web.Request) -> web.Response:
    return web.json_response(store_of(request).customer(request.match_info["cid"]))


@routes.patch("/v1/customers/{cid}")
async def update_customer(request: web.Request) -> web.Response:
    body = parse_body(CustomerPatch, await request.read())
    changes = changes_of(body)
    return web.json_response(store_of(request).update_customer(request.match_info["cid"], changes))


# -- appointments ------------------------------------------------------------


@routes.get("/v1/customers/{cid}/appointments")
async def appointments(request: web.Request) -> web.Response:
    status = status_param(request, APPOINTMENT_STATUSES, "upcoming")
    found = store_of(request).appointments(request.match_info["cid"], status)
    return web.json_response({"appointments": found})


@routes.post("/v1/customers/{cid}/appointments")
async def book_appointment(request: web.Request) -> web.Response:
    body = parse_body(AppointmentBooking, await request.read())
    booked = store_of(request).book_appointment(
        request.match_info["cid"], body.service, body.starts_at
    )
    return web.json_response(booked, status=201)


@routes.patch("/v1/customers/{cid}/appointments/{aid}")
async def reschedule_appointment(request: web.Request) -> web.Response:
    body = parse_body(AppointmentMove, await request.read())
    cid, aid = request.match_info["cid"], request.match_info["aid"]
    return web.json_response(store_of(request).reschedule_appointment(cid, aid, body.starts_at))


@routes.post("/v1/customers/{cid}/appointments/{aid}/cancel")
async def cancel_appointment(request: web.Request) -> web.Response:
    parse_body(Empty, await request.read())
    cid, aid = request.match_info["cid"], request.match_info["aid"]
    return web.json_response(store_of(request).cancel_appointment(cid, aid))


# -- invoices ----------------------------------------------------------------


@routes.get("/v1/customers/{cid}/invoices")
async def invoices(request: web.Request) -> web.Response:
    status = status_param(request, INVOICE_STATUSES, "open")
    found, balance = store_of(request).invoices(request.match_info["cid"], status)
    return web.json_response({"invoices": found, "balance_cents": balance, "currency": "USD"})


# -- tasks -------------------------------------------------------------------


@routes.get("/v1/customers/{cid}/tasks")
async def tasks(request: web.Request) -> web.Response:
    status = status_param(request, TASK_STATUSES, "all")
    return web.json_response({"tasks": store_of(request).tasks(request.match_info["cid"], status)})


@routes.post("/v1/customers/{cid}/tasks")
async def add_task(request: web.Request) -> web.Response:
    body = parse_body(TaskDraft, await request.read())
    added = store_of(request).add_task(
        request.match_info["cid"], body.title, body.description, body.priority, body.due_on
    )
    return web.json_response(added, status=201)


@routes.patch("/v1/customers/{cid}/tasks/{tid}")
async def update_task(request: web.Request) -> web.Response:
    body = parse_body(TaskPatch, await request.read())
    changes = changes_of(body, nullable=frozenset({"description", "due_on"}))
    cid, tid = request.match_info["cid"], request.match_info["tid"]
    return web.json_response(store_of(request).update_task(cid, tid, changes))


@routes.post("/v1/customers/{cid}/tasks/{tid}/complete")
async def complete_task(request: web.Request) -> web.Response:
    parse_body(Empty, await request.read())
    cid, tid = request.match_info["cid"], request.match_info["tid"]
    return web.json_response(store_of(request).complete_task(cid, tid))


@routes.delete("/v1/customers/{cid}/tasks/{tid}")
async def delete_task(request: web.Request) -> web.Response:
    parse_body(Empty, await request.read())
    store_of(request).delete_task(request.match_info["cid"], request.match_info["tid"])
    return web.Response(status=204)


# -- tickets -----------------------------------------------------------------


@routes.get("/v1/customers/{cid}/tickets")
async def tickets(request: web.Request) -> web.Response:
    status = status_param(request, TICKET_STATUSES, "open")
    found = store_of(request).tickets(request.match_info["cid"], status)
    return web.json_response({"tickets": found})


@routes.post("/v1/customers/{cid}/tickets")
async def open_ticket(request: web.Request) -> web.Response:
    body = parse_body(TicketDraft, await request.read())
    opened = store_of(request).open_ticket(request.match_info["cid"], body.subject, body.body)
    return web.json_response(opened, status=201)
