"""Telephony calls already seen: a second connection for one `callSid` is a replay.

Twilio opens one ConversationRelay websocket per call. Its signature covers only the
URL, so whoever captured one upgrade (a proxy or tunnel log) could open it again; a
call's `callSid` never comes twice from Twilio, so a `setup` naming one already seen
is refused. The registry is a small seam: `InMemoryCalls` (one process, bounded) is
the default, and a shared one (Redis `SET NX` with a TTL) can replace it when several
workers or instances take calls.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

from aiohttp import web


class CallRegistry(Protocol):
    async def claim(self, call_sid: str) -> bool:
        """True the first time `call_sid` is claimed; False for every later claim."""
        ...


class InMemoryCalls:
    """The last `capacity` call sids of this process; the oldest are forgotten first.

    Forgetting is safe enough: a replay needs a captured URL, and with per-call tokens
    (`relay_call_token_required`) such a URL expires within minutes anyway.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._capacity = capacity
        self._seen: OrderedDict[str, None] = OrderedDict()

    def __len__(self) -> int:
        return len(self._seen)

    async def claim(self, call_sid: str) -> bool:
        if call_sid in self._seen:
            return False
        self._seen[call_sid] = None
        while len(self._seen) > self._capacity:
            self._seen.popitem(last=False)
        return True


CALL_REGISTRY = web.AppKey("relay_call_registry", CallRegistry)

__all__ = ["CALL_REGISTRY", "CallRegistry", "InMemoryCalls"]
