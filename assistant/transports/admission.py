"""Admission of new connections: caps on open sockets in total, per address, per customer.

Every websocket holds a file descriptor and some memory from its upgrade to its close,
authenticated or not. Without caps, a few hundred idle sockets exhaust descriptors and
then nobody can connect. So the transports ask here *before* the upgrade and answer
with HTTP, never by running out:

    503 server_busy        the server holds `max_connections` sockets   (Retry-After)
    429 too_many_connections   this client address holds its share      (Retry-After)
    429 too_many_sessions      this customer holds `max_sessions_per_customer`

A slot is held for the socket's whole life and given back when it closes. The
customer is known before the upgrade only on the Bearer path; a browser names its
customer in `session.start`, so its customer slot is claimed then (a refusal closes
with 1013, try again later). Behind a reverse proxy every client has the proxy's
address: raise the per-address cap there, or let the proxy enforce it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from aiohttp import hdrs, web

RETRY_AFTER_S: Final = 5


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a connection is not admitted, as an HTTP answer."""

    status: int
    code: str
    message: str

    def response(self) -> web.Response:
        return web.json_response(
            {"error": {"code": self.code, "message": self.message}},
            status=self.status,
            headers={hdrs.RETRY_AFTER: str(RETRY_AFTER_S)},
        )


# A worker past its capacity (transports/saturation.py) refuses new connections too.
SATURATED = Refusal(503, "server_busy", "the server is saturated; try again shortly")


class ConnectionLimits:
    """Counts open sockets; `admit` hands out slots until a cap is reached."""

    def __init__(self, *, total: int, per_address: int, per_customer: int) -> None:
        self._total_cap = total
        self._address_cap = per_address
        self._customer_cap = per_customer
        self.open = 0
        self._by_address: Counter[str] = Counter()
        self._by_customer: Counter[str] = Counter()

    def admit(self, address: str | None, *, per_address: bool = True) -> Slot | Refusal:
        """A slot for one more socket from `address`, or why not."""
        if self.open >= self._total_cap:
            return Refusal(503, "server_busy", "the server is at its connection limit; retry")
        key = address or "?"
        if per_address and self._by_address[key] >= self._address_cap:
            return Refusal(
                429, "too_many_connections", "too many open connections from this address"
            )
        self.open += 1
        if per_address:
            self._by_address[key] += 1
        return Slot(self, key if per_address else None)

    def _claim_customer(self, customer_id: str) -> Refusal | None:
        if self._by_customer[customer_id] >= self._customer_cap:
            return Refusal(429, "too_many_sessions", "too many open sessions for this customer")
        self._by_customer[customer_id] += 1
        return None

    def _release(self, address: str | None, customer_id: str | None) -> None:
        self.open -= 1
        for counter, key in ((self._by_address, address), (self._by_customer, customer_id)):
            if key is not None:
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]  # memory stays bounded by what is open


class Slot:
    """One admitted socket; `release()` once it is closed (idempotent)."""

    def __init__(self, limits: ConnectionLimits, address: str | None) -> None:
        self._limits = limits
        self._address = address
        self._customer: str | None = None
        self._released = False

    def claim_customer(self, customer_id: str) -> Refusal | None:
        """Count this socket against its customer's cap (once); why not, if full."""
        if self._customer is not None:
            return None
        refusal = self._limits._claim_customer(customer_id)
        if refusal is None:
            self._customer = customer_id
        return refusal

    def release(self) -> None:
        if not self._released:
            self._released = True
            self._limits._release(self._address, self._customer)


CONNECTION_LIMITS = web.AppKey("connection_limits", ConnectionLimits)


def setup_connection_limits(app: web.Application, limits: ConnectionLimits) -> None:
    app[CONNECTION_LIMITS] = limits


__all__ = [
    "CONNECTION_LIMITS",
    "SATURATED",
    "ConnectionLimits",
    "Refusal",
    "Slot",
    "setup_connection_limits",
]
