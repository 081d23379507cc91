"""State shared through Redis, when `ASSISTANT_REDIS_URL` is set: what must hold across
every worker and instance, not per process.

- `RedisLimits`: the per-session and per-customer message budgets. Both are checked and
  charged in one Lua script (atomic on the server), with the cell rate algorithm
  (GCRA): `rate` messages per period with bursts up to `rate`, as the in-process
  leaky buckets. Time is Redis's own (`TIME`), so workers' clocks never disagree.
- `RedisCalls`: the telephony `callSid` replay guard (`SET NX` with a TTL).
- Sessions, with the resume window as their TTL, are in `assistant.redis_sessions`.

Circuit breakers stay per process: each worker judges the CRM routes from its own
calls, which needs no coordination and fails safe (a worker that sees failures opens
its breaker; the others keep trying).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from assistant.errors import StoreUnavailable
from assistant.transports.ratelimit import Refusal, SessionLimits

# KEYS: session bucket, customer bucket. ARGV: session interval, session tolerance,
# customer interval, customer tolerance (ms). A bucket's value is its theoretical
# arrival time (ms): the moment it would be empty again. Returns {0, 0} when admitted,
# {1 (session) or 2 (customer), milliseconds until one more fits} when refused.
_ADMIT = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local tats = {}
for i = 1, 2 do
  local interval = tonumber(ARGV[2 * i - 1])
  local tolerance = tonumber(ARGV[2 * i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < now then tat = now end
  if tat - now > tolerance then
    return {i, tat - now - tolerance}
  end
  tats[i] = tat + interval
end
for i = 1, 2 do
  redis.call('SET', KEYS[i], tats[i], 'PX', tats[i] - now + 1000)
end
return {0, 0}
"""

_SCOPES = {1: "session", 2: "customer"}


def connect(url: str) -> Redis:
    """A client for `url` (redis://host:port/db); connections open on first use.

    A command whose connection turns out closed (Redis restarted, or a proxy dropped an
    idle connection) is sent once more on a new one: it never reached a server, so it
    cannot apply twice. Timeouts are not resent (the command may have run)."""
    client: Redis = Redis.from_url(
        url,
        decode_responses=True,
        retry=Retry(NoBackoff(), 1),
        retry_on_error=[RedisConnectionError],
    )
    return client


@contextlib.contextmanager
def reached() -> Iterator[None]:
    """Redis's connection failures, mapped once to `StoreUnavailable`."""
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError) as exc:
        raise StoreUnavailable(f"the session store cannot be reached: {exc}") from exc


def _gcra(rate: float, period_s: float) -> tuple[int, int]:
    """(emission interval, burst tolerance) in ms for `rate` messages per `period_s`."""
    interval = period_s * 1000 / rate
    return math.ceil(interval), math.ceil(interval * (max(rate, 1) - 1))


class _RedisSession:
    def __init__(self, limits: RedisLimits, session_id: str, customer_id: str) -> None:
        self._limits = limits
        self._keys = (
            f"{limits.prefix}:rate:s:{session_id}",
            f"{limits.prefix}:rate:c:{customer_id}",
        )

    async def admit(self) -> Refusal | None:
        return await self._limits.admit(self._keys)


class RedisLimits:
    """Message budgets in Redis, correct across workers and instances."""

    def __init__(
        self,
        client: Redis,
        session_rate: float,
        customer_rate: float,
        period_s: float = 60.0,
        *,
        prefix: str = "assistant",
    ) -> None:
        self._client = client
        self._script = client.register_script(_ADMIT)
        self._args = (*_gcra(session_rate, period_s), *_gcra(customer_rate, period_s))
        self.prefix = prefix

    def for_session(self, session_id: str, customer_id: str) -> SessionLimits:
        return _RedisSession(self, session_id, customer_id)

    async def admit(self, keys: tuple[str, str]) -> Refusal | None:
        with reached():
            answer: Any = await self._script(keys=list(keys), args=list(self._args))
        refused, wait_ms = int(answer[0]), int(answer[1])
        if not refused:
            return None
        return Refusal(_SCOPES[refused], math.ceil(wait_ms / 100) / 10)  # type: ignore[arg-type]


class RedisCalls:
    """Telephony call sids already seen, for every worker: a `setup` naming one is a replay."""

    def __init__(self, client: Redis, *, ttl_s: int = 24 * 3600, prefix: str = "assistant") -> None:
        self._client = client
        self._ttl_s = ttl_s
        self._prefix = prefix

    async def claim(self, call_sid: str) -> bool:
        created = await self._client.set(
            f"{self._prefix}:call:{call_sid}", "1", nx=True, ex=self._ttl_s
        )
        return bool(created)
