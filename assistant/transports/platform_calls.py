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
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from assistant.conversation import Conversation, open_conversation
from assistant.dialogue_state import Dialogue
from assistant.errors import StoreUnavailable
from assistant.heard import words
from assistant.heard_state import said_since_request
from assistant.schema import Message, UserTurn
from assistant.services import Services
from assistant.session import Session
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
    # The platform's histories have carried an assistant message in this call: one
    # without any from then on has dropped what we said (completions_wire.heard).
    records_said: bool = False

    @property
    def answered(self) -> LastAnswer:
        """The answers given in full: the same messages again are a retry, or a late copy
        (platform_retry). Kept in the session, so another worker's are seen too."""
        return LastAnswer(self.conversation.session.answered)

    async def keep_answer(
        self, services: Services, asked: str, response_id: str, text: str, status: str
    ) -> None:
        """After a turn: its answer kept, and the session saved with it, so that the
        platform's retry or late copy landing on another worker finds it (the turn's own
        save may have gone before the answer was complete). Under this process's lock the
        save goes with its release; after it, it is written at once."""
        self.answered.keep(asked, response_id, text, status)
        with contextlib.suppress(StoreUnavailable):
            await services.sessions.save(self.conversation.session)

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


# A platform asks again within its own timeout (seconds); the same first words later are
# the caller's next call, not a retry (was: answered as before, "Done" and nothing done).
RETRY_WITHIN_S = 60.0


def _begins_again(
    call: PlatformCall, earlier: tuple[Message, ...], asked: str, now: float | None = None
) -> bool:
    """A request with no earlier words of the customer's, to a conversation that has
    answered some already (and is not a retry of its last answer, nor answering now)."""
    if any(isinstance(message, UserTurn) for message in earlier):
        return False
    return (
        call.idle
        and call.conversation.session.turns > 0
        # (a copy of its first request within a retry's time, the last one's or an
        # earlier one's: answered as before, from the answers the session keeps)
        and not call.answered.copied(asked, _retry_within(), now)
    )


def _retry_within() -> float:
    return RETRY_WITHIN_S  # (read when asked: a test sets it)


def _missed_turns(
    session: Session, earlier: tuple[Message, ...], said_between: str | None = None
) -> bool:
    """The customer's last words before this request, as the platform has them, are not
    the last we hold: turns were answered elsewhere (or the platform says otherwise).
    Not when the platform's record has lost words of the caller's that we hold (its
    last are among ours) and says the caller last heard our last answer: the caller
    answers what we asked last (was: rebuilt from the shorter record, our question
    dropped, and the yes to it told that nothing waits)."""
    theirs = [m.text for m in earlier if isinstance(m, UserTurn)]
    if not theirs:
        return False  # a platform sending the newest words only: ours is the history
    ours = [words(m.text) for m in session.history if isinstance(m, UserTurn)]
    if ours and ours[-1] == words(theirs[-1]):
        return False
    last_said = words(said_since_request(session))
    # (what was played since their last words ends with our last answer: the answers
    # of the turns whose words they lost come before it)
    return not (
        said_between is not None
        and last_said
        and words(said_between)[-len(last_said) :] == last_said
        and words(theirs[-1]) in ours
    )


def _continues(session: Session, last_words: list[str], between: list[str]) -> bool:
    """The session's last words of the customer's are `last_words`, and `between` (what
    was played since, as words) ends with all we said since."""
    ours = next((m.text for m in reversed(session.history) if isinstance(m, UserTurn)), None)
    said = words(said_since_request(session))
    return (
        ours is not None
        and words(ours) == last_words
        and bool(said)
        and between[-len(said) :] == said
    )


def rebuild(session: Session, earlier: tuple[Message, ...]) -> None:
    """The session's history made the platform's, with no dialogue state of ours left."""
    for entry_id in list(session.entry_ids):
        session.drop_entry(entry_id)
    session.remember(*earlier)
    session.dialogue = Dialogue()
    session.pending = None


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
        asked: str = "",
        named: bool = True,
        said_between: str | None = None,
    ) -> PlatformCall:
        """The conversation `caller` holds under `key`; a new one, for the customer
        `find_customer` names (its history rebuilt from `earlier`,
        what the platform says was said) when we have none. A conversation the platform
        does not name (`named` false) is known by its caller and first words, so a request
        that begins again is another call; `asked`, the request's fingerprint, tells a
        retry of the last answer's request from it."""
        await self._close_idle()
        slot = (caller, key)
        call = self._calls.get(slot)
        if not named and (found := self._continued(slot, call, earlier, said_between)):
            # An unnamed call (known by its first words) whose thread this request carries
            # on though its key is another's: a framework that trimmed the history's first
            # turns (its key changed). Was: another call, our question lost, "nothing
            # waiting".
            if call is not None:  # opened under the other key: nobody's thread
                del self._calls[slot]
                await call.conversation.close()
                await self._services.sessions.delete(call.conversation.session.session_id)
            call = self._calls[slot] = self._calls.pop(found)
        if call is not None and not named and _begins_again(call, earlier, asked):
            # The first words of a conversation, where ours went on past them: another
            # call opening the same way, not this one's thread. Was: the second call
            # inherited the first's pending question, focus and writes ("I already
            # added that a few minutes ago").
            # (A late copy of its first request is not this: it is answered as before
            # from the answers the session keeps, on this worker or any other; it was
            # set aside here, in this process only, and answered by a fresh call, which
            # ran the request again: a second task for an add.)
            del self._calls[slot]
            ended = call.conversation.session
            await self._services.sessions.delete(ended.session_id)
            await call.conversation.close()
            call, turns_before = None, ended.turns
        else:
            turns_before = 0
        if call is None:
            # One opening per conversation: a second request waits for the first's.
            opening = self._opening.setdefault(slot, asyncio.Lock())
            async with opening:
                call = self._calls.get(slot)
                if call is None:
                    call = await self._open(slot, find_customer, earlier, trace_id, turns_before)
            if not opening.locked():
                self._opening.pop(slot, None)
        call.used_at = time.monotonic()
        call.requests += 1  # the transport calls `done()` when it has answered
        return call

    def _continued(
        self,
        slot: tuple[str, str],
        call: PlatformCall | None,
        earlier: tuple[Message, ...],
        said_between: str | None,
    ) -> tuple[str, str] | None:
        """The one other call of the caller's this request carries on, when `call` (the
        slot's own) does not: the caller's last words before it are that call's last,
        and what the request says was played since ends with that call's last answer."""
        theirs = [words(m.text) for m in earlier if isinstance(m, UserTurn)]
        if not theirs or said_between is None or not (between := words(said_between)):
            return None
        if call is not None and _continues(call.conversation.session, theirs[-1], between):
            return None
        found = [
            other
            for other, each in self._calls.items()
            if other != slot
            and other[0] == slot[0]
            and each.conversation.session.turns > 0
            and _continues(each.conversation.session, theirs[-1], between)
        ]
        return found[0] if len(found) == 1 else None

    async def _open(
        self,
        slot: tuple[str, str],
        find_customer: Callable[[], Awaitable[str | None]],
        earlier: tuple[Message, ...],
        trace_id: str,
        turns_before: int = 0,
    ) -> PlatformCall:
        """`turns_before`: the turns of the call that began under the same key before
        (its session id is this one's too): numbered on from them, so no write of this
        call has the key of one of that call's (the CRM would answer it as done again)."""
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
        conversation.session.turns = turns_before
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

    async def refresh(
        self,
        call: PlatformCall,
        earlier: tuple[Message, ...] = (),
        asked: str = "",
        said_between: str | None = None,
    ) -> None:
        """Take the stored session when another worker has answered since (a shared
        store): only between turns, so a running turn keeps what it started with. Then,
        when the platform's history (`earlier`) holds words of the customer's we never
        answered (another instance sharing no store did), the session is rebuilt from it."""
        conversation = call.conversation
        if conversation.turn is not None or conversation.outstanding:
            return
        stored = await self._services.sessions.load(conversation.session.session_id)
        if stored is not None and stored.turns > conversation.session.turns:
            conversation.session = stored
        # (answered as before; a copy of an earlier request only when it carries history)
        with_history = any(isinstance(message, UserTurn) for message in earlier)
        retried = call.answered.for_retry(asked, late_copies=with_history) is not None
        if not retried and _missed_turns(conversation.session, earlier, said_between):
            # What we hold is from an older point of the call: its question, its pending
            # change and what it had listed are not what the caller heard last (was: "4"
            # to "what time in the morning?", asked by the other instance, answered our
            # older "what time?" and BOOKED 4 PM).
            log.info("platform: history rebuilt from the platform's, ours is behind it")
            rebuild(conversation.session, earlier)

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
