"""The conversations a voice platform holds with us over stateless HTTP requests.

A chat completions request carries no connection: the platform calls once per turn.
So the conversation (its runner, session, recording, budgets) is kept here between
requests, under the conversation's key, and closed after `platform_idle_s` without a
request or when the server stops. The key is paired with who the request says is
calling (the session token's customer, the platform's `customer_id` or the caller's
number), so that one caller can never continue another caller's conversation by naming
its id, and the caller is looked up in the CRM only when a conversation opens, not on
every turn.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from assistant.conversation import Conversation, open_conversation
from assistant.schema import Message
from assistant.services import Services
from assistant.transports.platform_retry import LastAnswer
from assistant.transports.platform_turns import RoutedFrames, TurnStream
from assistant.transports.ratelimit import MessageLimits, SessionLimits

log = logging.getLogger(__name__)


@dataclass(slots=True)
class PlatformCall:
    """One platform conversation: its runner, its frames, its budgets, its last request."""

    conversation: Conversation
    frames: RoutedFrames
    budgets: SessionLimits
    customer_id: str | None
    used_at: float = field(default_factory=time.monotonic)
    current: TurnStream | None = None  # the request being answered now
    requests: int = 0  # requests holding it: it is not closed under them
    # The last answer given in full: the same messages again are a retry (platform_retry).
    answered: LastAnswer = field(default_factory=LastAnswer)
    # The platform's histories have carried an assistant message in this call: one
    # without any from then on has dropped what we said (completions_wire.heard).
    records_said: bool = False

    def done(self) -> None:
        """A request has been answered."""
        self.requests -= 1

    @property
    def idle(self) -> bool:
        conversation = self.conversation
        return self.requests == 0 and conversation.turn is None and conversation.outstanding == 0

    def barge_in(self) -> bool:
        """A new request: the one still answering gives way (PLATFORMS.md, barge-in).
        Its stream ends now; its turn stops by the usual rules (writes finish)."""
        current, self.current = self.current, None
        if current is None:
            return False
        current.abandon()
        self.conversation.cancel()
        return True

    def give_up(self, stream: TurnStream | None) -> None:
        """The platform stopped listening to `stream` (it hung up): its turn stops,
        unless a newer request has replaced it already."""
        if stream is not None and self.current is stream:
            self.barge_in()


class TooManyCalls(Exception):
    """Every slot holds a conversation with a turn running or queued."""


class PlatformCalls:
    def __init__(
        self, services: Services, limits: MessageLimits, idle_s: float, *, most: int
    ) -> None:
        self._services = services
        self._limits = limits
        self._idle_s = idle_s
        self._most = most  # open conversations; past it the least recently used goes
        self._calls: dict[tuple[str, str], PlatformCall] = {}
        self._opening: dict[tuple[str, str], asyncio.Lock] = {}

    def __len__(self) -> int:
        return len(self._calls)

    async def get(
        self,
        key: str,
        caller: str,
        find_customer: Callable[[], Awaitable[str | None]],
        *,
        earlier: tuple[Message, ...] = (),
        trace_id: str = "",
    ) -> PlatformCall:
        """The conversation `caller` holds under `key`; a new one, for the customer
        `find_customer` names (its history rebuilt from `earlier`,
        what the platform says was said) when we have none."""
        await self._close_idle()
        slot = (caller, key)
        call = self._calls.get(slot)
        if call is None:
            # One opening per conversation: a second request waits for the first's.
            opening = self._opening.setdefault(slot, asyncio.Lock())
            async with opening:
                call = self._calls.get(slot)
                if call is None:
                    call = await self._open(slot, find_customer, earlier, trace_id)
            if not opening.locked():
                self._opening.pop(slot, None)
        call.used_at = time.monotonic()
        call.requests += 1  # the transport calls `done()` when it has answered
        return call

    async def _open(
        self,
        slot: tuple[str, str],
        find_customer: Callable[[], Awaitable[str | None]],
        earlier: tuple[Message, ...],
        trace_id: str,
    ) -> PlatformCall:
        if len(self._calls) >= self._most:
            await self._close_least_recent()
        customer_id = await find_customer()
        frames = RoutedFrames()
        conversation = await open_conversation(
            self._services,
            customer_id,
            frames,
            transport="platform",
            trace_id=trace_id,
            history=earlier,
        )
        session_id = stored_session_id(self._services, "completions", *slot)
        await continue_stored(self._services, conversation, session_id, customer_id)
        conversation.start()
        budgets = self._limits.for_session(
            conversation.session.session_id, customer_id or f"unknown:{slot[1]}"
        )
        call = self._calls[slot] = PlatformCall(conversation, frames, budgets, customer_id)
        log.info(
            "platform conversation opened",
            extra={"customer_id": customer_id, "rebuilt_entries": len(earlier)},
        )
        return call

    async def refresh(self, call: PlatformCall) -> None:
        """Take the stored session when another worker has answered since (a shared
        store): only between turns, so a running turn keeps what it started with."""
        conversation = call.conversation
        if conversation.turn is not None or conversation.outstanding:
            return
        stored = await self._services.sessions.load(conversation.session.session_id)
        if stored is not None and stored.turns > conversation.session.turns:
            conversation.session = stored

    async def _close_idle(self) -> None:
        now = time.monotonic()
        for key, call in list(self._calls.items()):
            if call.idle and now - call.used_at > self._idle_s:
                del self._calls[key]
                await call.conversation.close()

    async def _close_least_recent(self) -> None:
        idle = [(call.used_at, key) for key, call in self._calls.items() if call.idle]
        if not idle:
            raise TooManyCalls(f"{len(self._calls)} platform conversations are answering")
        _, key = min(idle)
        await self._calls.pop(key).conversation.close()

    async def close_all(self) -> None:
        calls, self._calls = list(self._calls.values()), {}
        for call in calls:
            call.barge_in()
            await call.conversation.close()


def stored_session_id(services: Services, *parts: str) -> str:
    """A platform conversation's session id in the store: the same on every worker and
    instance, and not guessable from its parts (the service's secret is in it)."""
    secret = services.settings.signing_secret(for_server=True).encode()
    digest = hmac.new(secret, "\n".join(parts).encode(), hashlib.sha256).hexdigest()
    return f"p_{digest[:24]}"


async def continue_stored(
    services: Services, conversation: Conversation, session_id: str, customer_id: str | None
) -> bool:
    """Continue the session the store keeps under `session_id` (another worker or
    instance began it, or this one before a restart): True. Else the fresh session,
    rebuilt from what the platform sent, is kept under that id: False."""
    if await conversation.resume(session_id, customer_id):
        log.info("platform conversation continued from the session store")
        return True
    store, fresh = services.sessions, conversation.session
    await store.delete(fresh.session_id)
    fresh.session_id = session_id
    await store.save(fresh)
    return False


PLATFORM_CALLS = web.AppKey("platform_calls", PlatformCalls)

__all__ = [
    "PLATFORM_CALLS",
    "PlatformCall",
    "PlatformCalls",
    "TooManyCalls",
    "continue_stored",
    "stored_session_id",
]
