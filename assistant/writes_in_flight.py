"""Creates sent to the CRM whose outcome is not known yet, by customer, across every
conversation: in this process by default, in Redis when `ASSISTANT_REDIS_URL` is set
(every worker and instance).

A caller who rings back while the first call's task is still being added, or the
widget asking what a call is booking at that moment, cannot be told apart from a new
request by the CRM's listing (the first has not landed). The duplicate checks
(guard.py) ask about a create its customer has in flight from another turn instead of
making it a second time.

    await in_flight.claim(customer_id, owner, [(write_key, "adding 'Buy milk'")], ttl_s)
        # → what other turns have in flight: {write_key: "adding 'Buy milk'"}
    await in_flight.sent(customer_id, owner, [(write_key, "adding 'Buy milk'")], ttl_s)
    await in_flight.settled(customer_id, owner, write_key, keep_s)   # 0: gone now

`owner` is the turn that sent it ("session_id/turn_id"): a turn never doubts its own.
An entry lasts until it is settled, or its `ttl_s` (a turn that never reported).

`claim` reads the others' creates and notes this turn's in one step (a Lua script in
Redis): two rings landing within the same milliseconds on two instances cannot both
find nothing in flight and both send. A write claimed but then held (asked about for
another reason) is settled at once; one already in flight elsewhere is not noted.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis


class WritesInFlight(Protocol):
    async def claim(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> dict[str, str]: ...

    async def sent(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> None: ...

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

    def forget_all(self) -> None:
        """Every customer's entries gone: for a bench that resets the CRM between the
        sessions it plays (bench/said_around.py), each a world of its own."""
        self._by_customer.clear()

    async def sent(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> None:
        until = time.monotonic() + ttl_s
        entries = self._by_customer.setdefault(customer_id, [])
        for key, doing in writes:
            # One entry per turn and write, as in Redis (noted when claimed, then sent).
            entries[:] = [e for e in entries if not (e.owner == owner and e.key == key)]
            entries.append(_Entry(key, owner, doing, until))

    async def claim(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> dict[str, str]:
        # No await between the read and the note: one step for this process's turns.
        entries = self._by_customer.get(customer_id, [])
        now = time.monotonic()
        entries[:] = [entry for entry in entries if entry.until > now]
        others = {entry.key: entry.doing for entry in entries if entry.owner != owner}
        mine = [(key, doing) for key, doing in writes if key not in others]
        if mine:
            await self.sent(customer_id, owner, mine, ttl_s)
        elif not entries:
            self._by_customer.pop(customer_id, None)
        return others

    async def settled(self, customer_id: str, owner: str, key: str, keep_s: float) -> None:
        for entry in self._by_customer.get(customer_id, ()):
            if entry.owner == owner and entry.key == key:
                entry.until = time.monotonic() + keep_s if keep_s > 0 else 0.0
                return


# KEYS[1]: the customer's hash; ARGV: now, hash ttl, owner, then key and entry
# pairs. Drops ended entries, answers the others' live ones (field, value, ...), and
# notes this owner's writes that no other owner has in flight: all in one step.
_CLAIM = """
local others = {}
local taken = {}
local stored = redis.call('HGETALL', KEYS[1])
local now = tonumber(ARGV[1])
for i = 1, #stored, 2 do
  local field, value = stored[i], stored[i + 1]
  if cjson.decode(value)['until'] <= now then
    redis.call('HDEL', KEYS[1], field)
  else
    local sep = string.find(field, '|', 1, true)
    local sender = string.sub(field, 1, sep - 1)
    if sender ~= ARGV[3] then
      taken[string.sub(field, sep + 1)] = true
      others[#others + 1] = field
      others[#others + 1] = value
    end
  end
end
local noted = false
for i = 4, #ARGV, 2 do
  if not taken[ARGV[i]] then
    redis.call('HSET', KEYS[1], ARGV[3] .. '|' .. ARGV[i], ARGV[i + 1])
    noted = true
  end
end
if noted and redis.call('TTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return others
"""

# The hash outlives every entry in it (each carries its own end); it only goes with the
# customer's last write. Its life is only ever lengthened: an entry noted for longer (a
# move by a shift, kept for the duplicate window: integrity.py) is not cut short by a
# create noted after it.
_HASH_TTL_S = 300


def _hash_ttl(ttl_s: float) -> int:
    return max(_HASH_TTL_S, math.ceil(ttl_s) + 1)


class RedisWritesInFlight:
    """Creates in flight for every worker and instance: one hash per customer, a field
    per sent write (`owner|key`), its value what it does and until when (epoch seconds)."""

    def __init__(self, client: Redis, *, prefix: str = "assistant") -> None:
        self._client = client
        self._prefix = prefix
        self._claim = client.register_script(_CLAIM)

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
            _lengthen(pipe, name, _hash_ttl(ttl_s))
            await pipe.execute()

    async def claim(
        self, customer_id: str, owner: str, writes: Sequence[tuple[str, str]], ttl_s: float
    ) -> dict[str, str]:
        now = time.time()
        args: list[str | float] = [now, _hash_ttl(ttl_s), owner]
        for key, doing in writes:
            args += [key, json.dumps({"doing": doing, "until": now + ttl_s})]
        answer: Any = await self._claim(keys=[self._hash(customer_id)], args=args)
        pairs = list(answer)  # decoded: field, value, field, value, ...
        return {
            str(field).partition("|")[2]: json.loads(value)["doing"]
            for field, value in zip(pairs[::2], pairs[1::2], strict=True)
        }

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
            _lengthen(pipe, name, _hash_ttl(keep_s))
            await pipe.execute()


def _lengthen(pipe: Any, name: str, ttl_s: int) -> None:
    """The hash's life set to `ttl_s` if it has none (just made), else lengthened to it,
    never shortened (Redis 7's EXPIRE NX and GT)."""
    pipe.expire(name, ttl_s, nx=True)
    pipe.expire(name, ttl_s, gt=True)
