"""CrmTools: every tool of config/tools.yaml performed against the real CRM stub.

Each scenario invokes one catalog tool for cust_001 (seeded: Maria Garcia, a dental
cleaning coming up, $150.00 owed, "Buy groceries" among three pending tasks, one open
ticket) and checks what a customer would expect to hear, and, for writes, that the
CRM's data changed accordingly.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from assistant.errors import ToolFailure
from assistant.schema import CustomerContext
from assistant.settings import PROJECT_ROOT
from assistant.tools.catalog import Catalog, load_catalog
from assistant.tools.crm import CrmClient
from assistant.tools.crm_tools import CrmTools
from tests.fixtures.crm import CrmAdmin

Invoke = Callable[..., Awaitable[dict[str, Any]]]
CUSTOMER = "cust_001"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(PROJECT_ROOT / "config" / "tools.yaml")


@pytest.fixture
async def tools(crm_url: str, crm_token: str, catalog: Catalog) -> AsyncIterator[CrmTools]:
    async with aiohttp.ClientSession() as session:
        yield CrmTools(CrmClient(session, crm_url, crm_token), catalog)


@pytest.fixture
def invoke(tools: CrmTools, catalog: Catalog) -> Invoke:
    """Invoke a catalog tool for cust_001 with arguments the catalog accepts."""

    async def call(
        name: str, *, key: str | None = None, trace_id: str = "trace-1", **arguments: Any
    ) -> dict[str, Any]:
        tool = catalog.get(name)
        assert tool is not None, name
        assert catalog.argument_error(name, arguments) is None
        return await tools.invoke(tool, CUSTOMER, arguments, idempotency_key=key, trace_id=trace_id)

    return call


def _later(days: int, hour: int = 15) -> str:
    day = dt.date.today() + dt.timedelta(days=days)
    return dt.datetime(day.year, day.month, day.day, hour, 0, tzinfo=dt.UTC).isoformat()


async def _titles(invoke: Invoke, status: str = "all") -> list[str]:
    return [task["title"] for task in (await invoke("crm.listTasks", status=status))["tasks"]]


async def _task_id(invoke: Invoke, title: str) -> str:
    listing = await invoke("crm.listTasks")
    return str(next(task["id"] for task in listing["tasks"] if task["title"] == title))


async def _upcoming(invoke: Invoke) -> list[dict[str, Any]]:
    return list((await invoke("crm.listUpcomingAppointments"))["appointments"])


# --- one scenario per catalog tool -----------------------------------------------------


async def get_customer_profile(invoke: Invoke) -> None:
    profile = await invoke("crm.getCustomerProfile")
    assert (profile["id"], profile["name"]) == (CUSTOMER, "Maria Garcia")
    assert profile["timezone"] == "America/Los_Angeles"


async def list_upcoming_appointments(invoke: Invoke) -> None:
    appointments = await _upcoming(invoke)
    assert len(appointments) >= 2
    assert appointments[0]["service"] == "Dental cleaning"
    assert {a["status"] for a in appointments} == {"upcoming"}
    starts = [a["starts_at"] for a in appointments]
    assert starts == sorted(starts, key=dt.datetime.fromisoformat)


async def get_next_appointment(invoke: Invoke) -> None:
    result = await invoke("crm.getNextAppointment")
    assert result["appointment"]["service"] == "Dental cleaning"
    assert result["appointment"] == (await _upcoming(invoke))[0]


async def book_appointment(invoke: Invoke) -> None:
    booked = await invoke("crm.bookAppointment", service="Massage", starts_at=_later(12))
    assert (booked["service"], booked["status"]) == ("Massage", "upcoming")
    assert booked["id"] in [a["id"] for a in await _upcoming(invoke)]


async def reschedule_appointment(invoke: Invoke) -> None:
    haircut = next(a for a in await _upcoming(invoke) if a["service"] == "Haircut")
    moved = await invoke(
        "crm.rescheduleAppointment", appointment_id=haircut["id"], starts_at=_later(9, 17)
    )
    assert moved["id"] == haircut["id"]
    assert dt.datetime.fromisoformat(moved["starts_at"]) == dt.datetime.fromisoformat(_later(9, 17))


async def cancel_appointment(invoke: Invoke) -> None:
    haircut = next(a for a in await _upcoming(invoke) if a["service"] == "Haircut")
    cancelled = await invoke("crm.cancelAppointment", appointment_id=haircut["id"])
    assert (cancelled["id"], cancelled["status"]) == (haircut["id"], "cancelled")
    assert haircut["id"] not in [a["id"] for a in await _upcoming(invoke)]


async def get_open_invoices(invoke: Invoke) -> None:
    billing = await invoke("crm.getOpenInvoices")
    assert billing["balance_cents"] == 15000
    assert billing["currency"] == "USD"
    assert [(i["description"], i["status"]) for i in billing["invoices"]] == [
        ("Dental cleaning", "open")
    ]


async def list_tasks(invoke: Invoke) -> None:
    everything = await _titles(invoke)
    assert "Buy groceries" in everything
    assert "Call the pharmacy" in everything  # the completed one: the default is all
    pending = await _titles(invoke, "pending")
    assert sorted(pending) == ["Buy groceries", "Renew car insurance", "Schedule eye exam"]
    assert await _titles(invoke, "completed") == ["Call the pharmacy"]


async def add_task(invoke: Invoke) -> None:
    task = await invoke(
        "crm.addTask", title="Water the plants", priority="high", due_on="2099-01-01"
    )
    assert (task["title"], task["status"], task["priority"]) == (
        "Water the plants",
        "pending",
        "high",
    )
    assert "Water the plants" in await _titles(invoke, "pending")


async def complete_task(invoke: Invoke) -> None:
    task_id = await _task_id(invoke, "Buy groceries")
    done = await invoke("crm.completeTask", task_id=task_id)
    assert (done["id"], done["status"]) == (task_id, "completed")
    assert "Buy groceries" in await _titles(invoke, "completed")


async def update_task(invoke: Invoke) -> None:
    task_id = await _task_id(invoke, "Schedule eye exam")
    updated = await invoke("crm.updateTask", task_id=task_id, title="Book the eye exam")
    assert (updated["id"], updated["title"], updated["priority"]) == (
        task_id,
        "Book the eye exam",
        "low",
    )
    assert "Schedule eye exam" not in await _titles(invoke)


async def delete_task(invoke: Invoke) -> None:
    task_id = await _task_id(invoke, "Renew car insurance")
    assert await invoke("crm.deleteTask", task_id=task_id) == {"deleted": True, "task_id": task_id}
    assert "Renew car insurance" not in await _titles(invoke)


async def list_open_tickets(invoke: Invoke) -> None:
    tickets = (await invoke("crm.listOpenTickets"))["tickets"]
    assert [(t["subject"], t["status"]) for t in tickets] == [
        ("Question about my last invoice", "open")
    ]


async def create_ticket(invoke: Invoke) -> None:
    ticket = await invoke(
        "crm.createTicket", subject="Charged twice", body="My card was charged twice in May."
    )
    assert (ticket["subject"], ticket["status"]) == ("Charged twice", "open")
    subjects = [t["subject"] for t in (await invoke("crm.listOpenTickets"))["tickets"]]
    assert "Charged twice" in subjects


async def update_contact_info(invoke: Invoke) -> None:
    profile = await invoke("crm.updateContactInfo", email="maria@example.org")
    assert profile["email"] == "maria@example.org"
    assert (await invoke("crm.getCustomerProfile"))["email"] == "maria@example.org"


async def list_appointments(invoke: Invoke) -> None:
    past = (await invoke("crm.listAppointments", status="past"))["appointments"]
    assert [a["service"] for a in past] == ["Haircut", "Annual checkup"]
    cancelled = (await invoke("crm.listAppointments", status="cancelled"))["appointments"]
    assert [(a["service"], a["status"]) for a in cancelled] == [("Consultation", "cancelled")]
    assert len((await invoke("crm.listAppointments"))["appointments"]) == 5


async def list_invoices(invoke: Invoke) -> None:
    paid = (await invoke("crm.listInvoices", status="paid"))["invoices"]
    assert sorted((i["description"], i["amount_cents"]) for i in paid) == [
        ("Annual checkup", 9500),
        ("Haircut", 4500),
    ]
    assert len((await invoke("crm.listInvoices"))["invoices"]) == 3


async def list_tickets(invoke: Invoke) -> None:
    closed = (await invoke("crm.listTickets", status="closed"))["tickets"]
    assert [t["subject"] for t in closed] == ["Cannot log in to the portal"]
    assert len((await invoke("crm.listTickets"))["tickets"]) == 2


SCENARIOS: dict[str, Callable[[Invoke], Awaitable[None]]] = {
    "crm.getCustomerProfile": get_customer_profile,
    "crm.listUpcomingAppointments": list_upcoming_appointments,
    "crm.getNextAppointment": get_next_appointment,
    "crm.bookAppointment": book_appointment,
    "crm.rescheduleAppointment": reschedule_appointment,
    "crm.cancelAppointment": cancel_appointment,
    "crm.getOpenInvoices": get_open_invoices,
    "crm.listTasks": list_tasks,
    "crm.addTask": add_task,
    "crm.completeTask": complete_task,
    "crm.updateTask": update_task,
    "crm.deleteTask": delete_task,
    "crm.listOpenTickets": list_open_tickets,
    "crm.createTicket": create_ticket,
    "crm.updateContactInfo": update_contact_info,
    "crm.listAppointments": list_appointments,
    "crm.listInvoices": list_invoices,
    "crm.listTickets": list_tickets,
}


@pytest.mark.parametrize("name", list(SCENARIOS))
async def test_tool_against_the_stub(name: str, invoke: Invoke) -> None:
    """Each catalog tool, run for cust_001, gives what the customer would expect."""
    await SCENARIOS[name](invoke)


async def test_every_catalog_tool_is_supported_and_exercised(catalog: Catalog) -> None:
    """CrmTools performs every tool of config/tools.yaml, and each has a scenario here."""
    async with aiohttp.ClientSession() as session:
        tools = CrmTools(CrmClient(session, "http://crm.invalid", "token"), catalog)
    names = {tool.name for tool in catalog.tools}
    assert {name for name in names if not tools.supports(name)} == set()
    assert set(SCENARIOS) == names
    assert not tools.supports("crm.launchRocket")


# --- what else a caller relies on --------------------------------------------------------


async def test_next_appointment_is_null_when_none_is_upcoming(
    tools: CrmTools, catalog: Catalog
) -> None:
    """A customer with nothing booked gets `{"appointment": null}`, not an error."""
    tool = catalog.get("crm.getNextAppointment")
    assert tool is not None
    result = await tools.invoke(tool, "cust_003", {}, idempotency_key=None, trace_id="t")
    assert result == {"appointment": None}


async def test_writes_carry_their_key_and_trace_id_to_the_crm(
    invoke: Invoke, crm_admin: CrmAdmin
) -> None:
    """A write's key and trace id reach the CRM's request log; a repeat applies once."""
    first = await invoke("crm.addTask", title="Call mom", key="s1:t1:c1", trace_id="trace-9")
    again = await invoke("crm.addTask", title="Call mom", key="s1:t1:c1", trace_id="trace-9")
    assert again == first
    writes = [r for r in await crm_admin.requests(limit=10) if r["method"] == "POST"]
    assert [(r["idempotency_key"], r["trace_id"]) for r in writes] == [("s1:t1:c1", "trace-9")] * 2
    assert (await _titles(invoke)).count("Call mom") == 1


async def test_another_customers_task_is_not_found_and_untouched(
    invoke: Invoke, crm_admin: CrmAdmin
) -> None:
    """Completing cust_002's task from cust_001's session fails `not_found`; it stays pending."""
    _, listing = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    theirs = listing["tasks"][0]["id"]
    with pytest.raises(ToolFailure) as caught:
        await invoke("crm.completeTask", task_id=theirs)
    assert caught.value.code == "not_found"
    _, after = await crm_admin.get("/v1/customers/cust_002/tasks?status=pending")
    assert theirs in [task["id"] for task in after["tasks"]]


async def test_missing_argument_never_reaches_the_crm(
    tools: CrmTools, catalog: Catalog, crm_admin: CrmAdmin
) -> None:
    """A call without its required id fails `invalid_arguments` before any CRM request."""
    tool = catalog.get("crm.completeTask")
    assert tool is not None
    with pytest.raises(ToolFailure) as caught:
        await tools.invoke(tool, CUSTOMER, {}, idempotency_key=None, trace_id="t")
    assert (caught.value.code, caught.value.message) == ("invalid_arguments", "task_id is required")
    assert (await crm_admin.stats())["total_requests"] == 0


async def test_crm_failures_pass_through_with_their_code(
    invoke: Invoke, crm_admin: CrmAdmin
) -> None:
    """Billing down makes getOpenInvoices fail `unavailable`, while appointments still answer."""
    await crm_admin.add_fault(method="GET", path="/v1/customers/*/invoices", status=503)
    with pytest.raises(ToolFailure) as caught:
        await invoke("crm.getOpenInvoices")
    assert (caught.value.code, caught.value.message) == (
        "unavailable",
        "the billing system answered 503",
    )
    assert (await invoke("crm.getNextAppointment"))["appointment"] is not None


async def test_customer_context_for_session_start(tools: CrmTools) -> None:
    """A session for cust_001 knows the customer's name and timezone."""
    context = await tools.customer_context(CUSTOMER, trace_id="t")
    assert context == CustomerContext(
        customer_id=CUSTOMER, name="Maria Garcia", timezone="America/Los_Angeles"
    )


async def test_unknown_customer_context_is_not_found(tools: CrmTools) -> None:
    """A session token naming a customer the CRM does not know fails `not_found`."""
    with pytest.raises(ToolFailure) as caught:
        await tools.customer_context("cust_999", trace_id="t")
    assert caught.value.code == "not_found"


async def test_find_customer_by_phone(tools: CrmTools, crm_admin: CrmAdmin) -> None:
    """A caller's number finds their account; a number nobody has finds no one."""
    _, profile = await crm_admin.get(f"/v1/customers/{CUSTOMER}")
    found = await tools.find_customer_by_phone(profile["phone"], trace_id="t")
    assert found is not None
    assert (found.customer_id, found.name) == (CUSTOMER, "Maria Garcia")
    assert await tools.find_customer_by_phone("+19995550000", trace_id="t") is None


async def test_a_status_the_route_does_not_know_is_refused_by_name(
    tools: CrmTools, catalog: Catalog
) -> None:
    """A listing's unknown status filter is refused naming the allowed ones: by the
    catalog before any request, and by the CRM should one be sent anyway."""
    assert catalog.argument_error("crm.listTickets", {"status": "lost"}) == (
        "crm.listTickets: status: 'lost' is not one of ['open', 'closed', 'all']"
    )
    tool = catalog.get("crm.listTickets")
    assert tool is not None
    with pytest.raises(ToolFailure, match="must be one of open, closed, all") as refused:
        await tools.invoke(tool, CUSTOMER, {"status": "lost"}, idempotency_key=None, trace_id="t")
    assert refused.value.code == "invalid_arguments"
