"""Customer scoping: another customer's resource answers 404, exactly like a missing one."""

from __future__ import annotations

import datetime as dt

from tests.fixtures.crm import CrmAdmin

C1 = "/v1/customers/cust_001"


async def ids_of(admin: CrmAdmin, cid: str) -> tuple[str, str]:
    """One upcoming appointment id and one task id of `cid`."""
    _, appointments = await admin.get(f"/v1/customers/{cid}/appointments")
    _, tasks = await admin.get(f"/v1/customers/{cid}/tasks")
    return appointments["appointments"][0]["id"], tasks["tasks"][0]["id"]


async def test_cust_002_resources_are_invisible_under_cust_001(crm_admin: CrmAdmin) -> None:
    """Every route on cust_002's appointment or task, asked under cust_001, answers 404."""
    appt, task = await ids_of(crm_admin, "cust_002")
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(days=10)).isoformat()
    attempts = [
        ("PATCH", f"{C1}/appointments/{appt}", {"starts_at": later}),
        ("POST", f"{C1}/appointments/{appt}/cancel", None),
        ("PATCH", f"{C1}/tasks/{task}", {"title": "mine now"}),
        ("POST", f"{C1}/tasks/{task}/complete", None),
        ("DELETE", f"{C1}/tasks/{task}", None),
    ]
    for method, path, body in attempts:
        status, answer = await crm_admin.call(method, path, json=body)
        assert status == 404, (method, path)
        assert answer["error"]["code"] == "not_found"


async def test_other_customers_resource_looks_exactly_like_a_missing_one(
    crm_admin: CrmAdmin,
) -> None:
    """The 404 for cust_002's task under cust_001 matches that of a made-up id, bar the id."""
    _, task = await ids_of(crm_admin, "cust_002")
    _, foreign = await crm_admin.post(f"{C1}/tasks/{task}/complete")
    _, missing = await crm_admin.post(f"{C1}/tasks/task_nope/complete")
    assert foreign["error"]["message"].replace(task, "ID") == missing["error"]["message"].replace(
        "task_nope", "ID"
    )


async def test_scoped_refusal_leaves_the_owner_untouched(crm_admin: CrmAdmin) -> None:
    """After cust_001's attempts on them, cust_002's appointment and task are unchanged."""
    appt, task = await ids_of(crm_admin, "cust_002")
    _, before_tasks = await crm_admin.get("/v1/customers/cust_002/tasks")
    await crm_admin.post(f"{C1}/appointments/{appt}/cancel")
    await crm_admin.delete(f"{C1}/tasks/{task}")
    _, after_tasks = await crm_admin.get("/v1/customers/cust_002/tasks")
    _, appointments = await crm_admin.get("/v1/customers/cust_002/appointments")
    assert after_tasks == before_tasks
    assert appt in {a["id"] for a in appointments["appointments"]}
