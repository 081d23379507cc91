"""Creates sent to the CRM whose outcome is not known yet, by customer, across every
conversation: in this process by default, in Redis when `ASSISTANT_REDIS_URL` is set
(every worker and instance).

A caller who rings back while the first call's task is still being added, or the
widget asking what a call is booking at that moment, cannot be told apart from a new
request by the CRM's listing (the first has not landed). The duplicate checks
(guard.py) ask about a create its customer has in flight from another turn instead of
making it a second time.

    await in_flight.sent(customer_id, owner, [(write_key, "adding 'Buy milk'")], ttl_s)
    await in_flight.elsewhere(customer_id, owner)     # {write_key: "adding 'Buy milk'"}
    await in_flight.settled(customer_id, owner, write_key, keep_s)   # 0: gone now

`owner` is the turn that sent it ("session_id/turn_id"): a turn never doubts its own.
An entry lasts until it is settled, or its `ttl_s` (a turn that never reported).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis


class WritesInFlight(Protocol):
    async def sent(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> None: ...

    async def elsewhere(self, customer_id: str, owner: str) -> dict[str, str]: ...

    async def settled(self, customer_id: str, owner: str, key: str, keep_s: float) -> None: ...


@dataclass(slots=True)
class _Entry:
    key: str
    owner: str
    doing: str
    until: float  # monotonic seconds


class InMemoryWritesInFlight:
    """This process's creates in flight."""

    def __init__(self) -> None:
        self._by_customer: dict[str, list[_Entry]] = {}

    async def sent(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> None:
        until = time.monotonic() + ttl_s
        self._by_customer.setdefault(customer_id, []).extend(
            _Entry(key, owner, doing, until) for key, doing in writes
        )

    async def elsewhere(self, customer_id: str, owner: str) -> dict[str, str]:
        entries = self._by_customer.get(customer_id)
        if not entries:
            return {}
        now = time.monotonic()
        entries[:] = [entry for entry in entries if entry.until > now]
        if not entries:
            del self._by_customer[customer_id]
        return {entry.key: entry.doing for entry in entries if entry.owner != owner}

    async def settled(self, customer_id: str, owner: str, key: str, keep_s: float) -> None:
        for entry in self._by_customer.get(customer_id, ()):
            if entry.owner == owner and entry.key == key:
                entry.until = time.monotonic() + keep_s if keep_s > 0 else 0.0
                return


# The hash outlives every entry in it (each carries its own end); it only goes with the
# customer's last write.
_HASH_TTL_S = 300


class RedisWritesInFlight:
    """Creates in flight for every worker and instance: one hash per customer, a field
    per sent write (`owner|key`), its value what it does and until when (epoch seconds)."""

    def __init__(self, client: Redis, *, prefix: str = "assistant") -> None:
        self._client = client
        self._prefix = prefix

    def _hash(self, customer_id: str) -> str:
        return f"{self._prefix}:sent:{customer_id}"

    async def sent(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> None:
        until = time.time() + ttl_s
        name = self._hash(customer_id)
        async with self._client.pipeline(transaction=False) as pipe:
            for key, doing in writes:
                pipe.hset(name, f"{owner}|{key}", json.dumps({"doing": doing, "until": until}))
            pipe.expire(name, _HASH_TTL_S)
            await pipe.execute()

    async def elsewhere(self, customer_id: str, owner: str) -> dict[str, str]:
        stored = await self._client.hgetall(self._hash(customer_id))  # decoded: str
        now = time.time()
        found: dict[str, str] = {}
        over: list[str] = []
        for name, value in stored.items():
            field = str(name)
            sender, _, key = field.partition("|")
            entry = json.loads(value)
            if entry["until"] <= now:
                over.append(field)
            elif sender != owner:
                found[key] = entry["doing"]
        if over:
            await self._client.hdel(self._hash(customer_id), *over)
        return found

    async def settled(self, customer_id: str, owner: str, key: str, keep_s: float) -> None:
        name, field = self._hash(customer_id), f"{owner}|{key}"
        if keep_s <= 0:
            await self._client.hdel(name, field)
            return
        value = await self._client.hget(name, field)
        if value is None:
            return
        entry = json.loads(value)
        entry["until"] = time.time() + keep_s
        async with self._client.pipeline(transaction=False) as pipe:
            pipe.hset(name, field, json.dumps(entry))
            pipe.expire(name, _HASH_TTL_S)
            await pipe.execute()
