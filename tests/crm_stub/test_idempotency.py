"""Idempotency-Key: replay, different body, in flight, concurrent duplicates, expiry scope."""

from __future__ import annotations

import asyncio

from tests.fixtures.crm import CrmAdmin

C1 = "/v1/customers/cust_001"
TASKS_ROUTE = "POST /v1/customers/{cid}/tasks"


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


async def pending_titles(admin: CrmAdmin) -> list[str]:
    _, body = await admin.get(f"{C1}/tasks?status=pending")
    return [task["title"] for task in body["tasks"]]


async def test_same_key_and_body_replays_the_first_answer(crm_admin: CrmAdmin) -> None:
    """A repeat answers the stored 201 and body again, marked as replayed, and adds nothing."""
    url = crm_admin.base_url + f"{C1}/tasks"
    async with crm_admin.session.post(url, json={"title": "Once"}, headers=key("k-1")) as first:
        first_body = await first.json()
        assert first.status == 201
        assert "Idempotent-Replayed" not in first.headers
    async with crm_admin.session.post(url, json={"title": "Once"}, headers=key("k-1")) as again:
        assert again.status == 201
        assert again.headers["Idempotent-Replayed"] == "true"
        assert await again.json() == first_body
    assert (await pending_titles(crm_admin)).count("Once") == 1
    assert (await crm_admin.stats())["writes_applied"][TASKS_ROUTE] == 1


async def test_body_is_compared_by_content_not_spacing(crm_admin: CrmAdmin) -> None:
    """The same JSON with other spacing and key order is the same request."""
    url = crm_admin.base_url + f"{C1}/tasks"
    headers = {**key("k-space"), "Content-Type": "application/json"}
    async with crm_admin.session.post(
        url, data=b'{"title":"Spaced","priority":"high"}', headers=headers
    ) as first:
        assert first.status == 201
    async with crm_admin.session.post(
        url, data=b'{ "priority": "high",  "title": "Spaced" }', headers=headers
    ) as again:
        assert again.status == 201
        assert again.headers["Idempotent-Replayed"] == "true"


async def test_errors_are_replayed_too(crm_admin: CrmAdmin) -> None:
    """A first answer that was an error is the answer to every repeat, and nothing is applied."""
    body = {"service": "Haircut", "starts_at": "2001-01-01T10:00:00+00:00"}
    first = await crm_admin.post(f"{C1}/appointments", body, headers=key("k-err"))
    again = await crm_admin.post(f"{C1}/appointments", body, headers=key("k-err"))
    assert first[0] == 422
    assert again == first
    assert (
        "POST /v1/customers/{cid}/appointments" not in (await crm_admin.stats())["writes_applied"]
    )


async def test_same_key_with_another_body_is_invalid_state(crm_admin: CrmAdmin) -> None:
    """Reusing a key for a different request answers 422 and applies nothing."""
    await crm_admin.post(f"{C1}/tasks", {"title": "First"}, headers=key("k-2"))
    status, body = await crm_admin.post(f"{C1}/tasks", {"title": "Second"}, headers=key("k-2"))
    assert status == 422
    assert body["error"]["code"] == "invalid_state"
    assert "Second" not in await pending_titles(crm_admin)


async def test_same_key_on_another_route_is_invalid_state(crm_admin: CrmAdmin) -> None:
    """The key's fingerprint includes method and path, not only the body."""
    await crm_admin.post(f"{C1}/tasks", {"title": "Here"}, headers=key("k-3"))
    status, _ = await crm_admin.post(
        "/v1/customers/cust_002/tasks", {"title": "Here"}, headers=key("k-3")
    )
    assert status == 422


async def test_duplicate_while_in_flight_is_a_conflict(crm_admin: CrmAdmin) -> None:
    """A repeat sent while the first is still processing answers 409; the first still lands."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=1500, times=1)
    first = asyncio.create_task(
        crm_admin.post(f"{C1}/tasks", {"title": "Slow"}, headers=key("k-slow"))
    )
    await crm_admin.wait_until_in_flight("k-slow")
    status, body = await crm_admin.post(f"{C1}/tasks", {"title": "Slow"}, headers=key("k-slow"))
    assert status == 409
    assert body["error"]["code"] == "conflict"
    assert (await first)[0] == 201
    assert (await pending_titles(crm_admin)).count("Slow") == 1


async def test_concurrent_duplicates_apply_once(crm_admin: CrmAdmin) -> None:
    """Eight simultaneous requests with one key create one task, proven by stats and data."""
    await crm_admin.add_fault(method="POST", path="/v1/customers/*/tasks", latency_ms=200)
    answers = await asyncio.gather(
        *(crm_admin.post(f"{C1}/tasks", {"title": "Racy"}, headers=key("k-race")) for _ in range(8))
    )
    statuses = sorted(status for status, _ in answers)
    assert set(statuses) <= {201, 409}
    assert statuses.count(201) >= 1
    created = {body["id"] for status, body in answers if status == 201}
    assert len(created) == 1
    assert (await pending_titles(crm_admin)).count("Racy") == 1
    assert (await crm_admin.stats())["writes_applied"][TASKS_ROUTE] == 1


async def test_writes_without_a_key_apply_each_time(crm_admin: CrmAdmin) -> None:
    """Without Idempotency-Key, two identical POSTs make two tasks (the key is what dedupes)."""
    await crm_admin.post(f"{C1}/tasks", {"title": "Twice"})
    await crm_admin.post(f"{C1}/tasks", {"title": "Twice"})
    assert (await pending_titles(crm_admin)).count("Twice") == 2
    assert (await crm_admin.stats())["writes_applied"][TASKS_ROUTE] == 2


async def test_delete_with_a_key_replays_204(crm_admin: CrmAdmin) -> None:
    """A retried DELETE with its key answers 204 again, not 404."""
    _, tasks = await crm_admin.get(f"{C1}/tasks")
    path = f"{C1}/tasks/{tasks['tasks'][0]['id']}"
    assert await crm_admin.delete(path, headers=key("k-del")) == (204, None)
    assert await crm_admin.delete(path, headers=key("k-del")) == (204, None)
    assert (await crm_admin.delete(path))[0] == 404


async def test_quoted_key_and_empty_key(crm_admin: CrmAdmin) -> None:
    """The draft's quoted sf-string form is the same key as plain; an empty key is a 400."""
    await crm_admin.post(f"{C1}/tasks", {"title": "Quoted"}, headers=key('"k-q"'))
    status, _ = await crm_admin.post(f"{C1}/tasks", {"title": "Quoted"}, headers=key("k-q"))
    assert status == 201
    assert (await pending_titles(crm_admin)).count("Quoted") == 1
    status, body = await crm_admin.post(f"{C1}/tasks", {"title": "x"}, headers=key('""'))
    assert status == 400
    assert "Idempotency-Key" in body["error"]["message"]


async def test_reset_forgets_keys(crm_admin: CrmAdmin) -> None:
    """After /admin/reset a key can be used again for a new request."""
    await crm_admin.post(f"{C1}/tasks", {"title": "Before"}, headers=key("k-reset"))
    await crm_admin.reset()
    status, _ = await crm_admin.post(f"{C1}/tasks", {"title": "After"}, headers=key("k-reset"))
    assert status == 201
    assert "After" in await pending_titles(crm_admin)
