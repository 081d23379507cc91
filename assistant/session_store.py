"""Where sessions live between turns: the `SessionStore` seam and its in-memory store.

    async with store.lock(session_id):          # one turn of a session at a time
        session = await store.latest(session)   # another connection's turns included
        ...                                     # the turn runs
        await store.save(session)

The conversation runner (conversation.py) saves the session when it opens and after
every turn, and takes the session's lock around each turn, so that a store shared by
several processes serialises a session's turns wherever they run. One session may be
open on several connections at once (two tabs that resumed it, a reconnect while the
dropped socket's turn still runs): under the lock each turn starts from what the last
turn left, wherever it ran, so a question answered in one tab is not answered again
from another's copy. A session is a
plain value: `session_to_json` and `session_from_json` give the JSON a store outside
this process keeps (a Redis store and `session.resume` build on this seam).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import TypeAdapter

from assistant.schema import Message, ToolDefinition
from assistant.session import Session

_SESSION = TypeAdapter(Session)
_MESSAGE: TypeAdapter[Message] = TypeAdapter(Message)
# What a store that keeps the history apart leaves out of the rest of the session.
_HISTORY_FIELDS = {"history", "entry_ids"}


def session_to_json(session: Session) -> dict[str, Any]:
    """The session as JSON-ready data (history, pending confirmation, counters, …)."""
    data: dict[str, Any] = _SESSION.dump_python(session, mode="json")
    return data


def session_from_json(data: dict[str, Any]) -> Session:
    """The session `session_to_json` gave; a ValidationError says what is wrong."""
    return _SESSION.validate_python(data)


def session_to_text(session: Session, catalog: tuple[ToolDefinition, ...] = ()) -> str:
    """`session_to_json` as JSON text, serialised by pydantic's core in one pass (a store
    writes a session after every turn). Tools that are `catalog`'s are left out: every
    worker has the catalog, and it is most of a new session's size (~10 KiB)."""
    if catalog and session.tools == catalog:
        return _SESSION.dump_json(session, exclude={"tools"}).decode()
    return _SESSION.dump_json(session).decode()


def session_from_text(text: str | bytes, catalog: tuple[ToolDefinition, ...] = ()) -> Session:
    """The session `session_to_text` gave; a ValidationError says what is wrong."""
    data = json.loads(text)
    if isinstance(data, dict) and "tools" not in data:
        data["tools"] = catalog
    return _SESSION.validate_python(data)


def session_head_to_text(session: Session, catalog: tuple[ToolDefinition, ...] = ()) -> str:
    """`session_to_text` without the history, for a store that keeps the history's
    entries apart and adds only the new ones after a turn (`message_to_text`)."""
    exclude = _HISTORY_FIELDS | ({"tools"} if catalog and session.tools == catalog else set())
    return _SESSION.dump_json(session, exclude=exclude).decode()


class ForeignSession(ValueError):
    """A stored session of another deployment sharing the store (its own secret)."""


def stamped(head: str, deployment: str) -> str:
    """`head` (a JSON object) with the deployment that wrote it."""
    return f'{head[:-1]},"deployment":{json.dumps(deployment)}}}' if deployment else head


def message_to_text(message: Message) -> str:
    """One history entry as JSON text."""
    return _MESSAGE.dump_json(message).decode()


def session_from_parts(
    head: str | bytes,
    entries: list[tuple[int, str]],
    catalog: tuple[ToolDefinition, ...] = (),
    deployment: str = "",
) -> Session:
    """The session `session_head_to_text` and its (entry id, `message_to_text`) gave.
    A head that still holds its history (written whole) keeps it. A head stamped by
    another `deployment` (`stamped`) raises ForeignSession; one stamped by none (an
    earlier version's) is read."""
    data = json.loads(head)
    if isinstance(data, dict) and data.pop("deployment", deployment) != deployment:
        raise ForeignSession("the session belongs to another deployment")
    if isinstance(data, dict) and "history" not in data:
        data["history"] = [json.loads(text) for _, text in entries]
        data["entry_ids"] = [entry_id for entry_id, _ in entries]
    if isinstance(data, dict) and "tools" not in data:
        data["tools"] = catalog
    return _SESSION.validate_python(data)


class SessionStore(Protocol):
    async def load(self, session_id: str) -> Session | None:
        """The session saved under `session_id`, or None."""
        ...

    async def save(self, session: Session) -> None:
        """Keep `session` (under its id) for the resume window from now."""
        ...

    async def delete(self, session_id: str) -> None:
        """Forget the session at once (a fresh one replaced by a resumed one)."""
        ...

    def lock(self, session_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Held while one turn of the session runs: turns of a session never overlap."""
        ...

    async def latest(self, session: Session) -> Session:
        """Under the session's lock: the stored session when a turn of it ran elsewhere
        (another connection or worker) since `session` was read; else `session` itself."""
        ...


class InMemorySessionStore:
    """This process's memory: the session objects themselves, one lock per session.

    A session is kept `ttl_s` after its last save (the resume window), so that a client
    that reconnects to this process continues it; expired ones are dropped as others
    are saved.
    """

    def __init__(
        self, ttl_s: float = 600.0, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl_s = ttl_s
        self._clock = clock
        self._sessions: dict[str, tuple[Session, float]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    async def load(self, session_id: str) -> Session | None:
        kept = self._sessions.get(session_id)
        if kept is None or kept[1] <= self._clock():
            return None
        return kept[0]

    async def save(self, session: Session) -> None:
        now = self._clock()
        self._sessions[session.session_id] = (session, now + self._ttl_s)
        if len(self._sessions) % 256 == 0:
            self._drop_expired(now)

    async def latest(self, session: Session) -> Session:
        # Every connection of a session in this process holds the stored object itself.
        kept = self._sessions.get(session.session_id)
        return session if kept is None else kept[0]

    async def delete(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)
        lock = self._locks.get(session_id)
        if lock is not None and not lock.locked():
            del self._locks[session_id]

    def _drop_expired(self, now: float) -> None:
        for session_id in [sid for sid, (_, until) in self._sessions.items() if until <= now]:
            del self._sessions[session_id]
            lock = self._locks.get(session_id)
            if lock is not None and not lock.locked():
                del self._locks[session_id]

    def lock(self, session_id: str) -> asyncio.Lock:
        # The session's lock itself (an async context manager): a generator-based wrapper
        # and a new Lock made only to be dropped by setdefault cost more than the rest of
        # this store per turn.
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock


__all__ = [
    "ForeignSession",
    "InMemorySessionStore",
    "SessionStore",
    "message_to_text",
    "session_from_json",
    "session_from_parts",
    "session_from_text",
    "session_head_to_text",
    "session_to_json",
    "session_to_text",
    "stamped",
]
