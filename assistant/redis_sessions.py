"""Sessions in Redis, so that a reconnect continues the conversation on any worker or
instance: kept for the resume window (their TTL), a turn at a time (a lock).

A session is stored in two keys:

- `{prefix}:session:{id}`: everything but the history (customer, dialogue state,
  pending confirmation, counters), as JSON. The tool catalog, which every worker has,
  is left out.
- `{prefix}:history:{id}`: the history, a list of `"<entry id> <message JSON>"`.

After a turn only what changed is written: the head, the turn's new entries pushed and
the oldest trimmed past the history's cap. Written whole, a session costs more to
serialise with every turn it has had (60 entries, ~0.3 ms of a worker's CPU per turn).
The store remembers which entries it last wrote for each session; when the history
changed in another way (an entry replaced by what a caller heard before barging in, or
a session this process did not write), or Redis does not hold what it remembers, the
history is written whole.

A session's lock is a `SET NX PX` key with a random token, released only by its holder;
the turn's save travels with the release, so the end of a turn is one round trip. Taking
the lock also reads how many turns the stored session has had: when another connection
or worker ran one since this copy was read (two tabs, a reconnect elsewhere while the
dropped socket's turn finished), `latest` reads the session again before the turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass

from redis.asyncio import Redis

from assistant.errors import StoreUnavailable
from assistant.redis_state import reached
from assistant.schema import Message, ToolDefinition
from assistant.session import Session
from assistant.session_store import (
    ForeignSession,
    message_to_text,
    session_from_parts,
    session_head_to_text,
    stamped,
)

log = logging.getLogger(__name__)

# KEYS: lock, head, history. ARGV: lock token ('' when no lock is held), head JSON (''
# when there is nothing to save), TTL (ms), the id of the last entry Redis should hold
# ('' to write the history whole), how many entries to keep, then the entries to push.
# Returns 1, or -1 without changing anything when Redis does not hold that last entry.
_SAVE = """
if ARGV[2] ~= '' then
  if ARGV[4] ~= '' then
    local last = redis.call('LINDEX', KEYS[3], -1)
    local mark = ARGV[4] .. ' '
    if not last or string.sub(last, 1, string.len(mark)) ~= mark then
      return -1
    end
  else
    redis.call('DEL', KEYS[3])
  end
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
  if #ARGV >= 6 then
    redis.call('RPUSH', KEYS[3], unpack(ARGV, 6))
  end
  local keep = tonumber(ARGV[5])
  if keep == 0 then
    redis.call('DEL', KEYS[3])
  else
    redis.call('LTRIM', KEYS[3], -keep, -1)
    redis.call('PEXPIRE', KEYS[3], ARGV[3])
  end
end
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 1
"""
# KEYS: lock, head. ARGV: lock token, lock TTL (ms). Returns nil when the lock is held
# by another; else the stored session's turn count, or -1 when none can be read.
_LOCK = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return false
end
local head = redis.call('GET', KEYS[2])
if not head then
  return -1
end
local ok, stored = pcall(cjson.decode, head)
if not ok or type(stored) ~= 'table' or type(stored['turns']) ~= 'number' then
  return -1
end
return stored['turns']
"""
# Sessions whose stored history this process remembers; past this, the least recently
# saved are forgotten (and written whole at their next save).
_REMEMBERED_SESSIONS = 4096


@dataclass(frozen=True, slots=True)
class _Written:
    """The history as this process last wrote it: its entry ids and the messages."""

    ids: tuple[int, ...]
    messages: tuple[Message, ...]


@dataclass(frozen=True, slots=True)
class _Save:
    head: str
    last_id: str  # '' to write the history whole
    keep: int
    entries: tuple[str, ...]
    written: _Written


def deployment_stamp(secret: str) -> str:
    """What tells this deployment's sessions from another's in a shared Redis: derived
    from its signing secret (which also tells its customers apart), never the secret."""
    return hmac.new(secret.encode(), b"assistant session store", hashlib.sha256).hexdigest()[:16]


class RedisSessionStore:
    """Sessions in Redis for the resume window; turns of a session serialised by a lock."""

    def __init__(
        self,
        client: Redis,
        *,
        ttl_s: float = 600.0,
        lock_ttl_s: float = 60.0,
        prefix: str = "assistant",
        catalog: tuple[ToolDefinition, ...] = (),
        deployment: str = "",
    ) -> None:
        self._client = client
        # Stamped on every session written, so that another deployment sharing this Redis
        # (its own secret, its own customers under the same ids) never resumes one.
        self._deployment = deployment
        self._catalog = catalog  # the tools every worker has: not stored with each session
        self._ttl_ms = max(1, round(ttl_s * 1000))
        self._lock_ttl_ms = max(1, round(lock_ttl_s * 1000))
        self._prefix = prefix
        self._save = client.register_script(_SAVE)
        self._take_lock = client.register_script(_LOCK)
        # Sessions whose lock this process holds, with the save to make at its release.
        self._held: dict[str, Session | None] = {}
        # ... and how many turns the stored session had when the lock was taken.
        self._stored_turns: dict[str, int] = {}
        self._written: OrderedDict[str, _Written] = OrderedDict()
        # Locks this process took and could not release: their tokens, by session.
        self._unreleased: dict[str, str] = {}

    def _keys(self, session_id: str) -> tuple[str, str, str]:
        prefix = self._prefix
        return (
            f"{prefix}:lock:{session_id}",
            f"{prefix}:session:{session_id}",
            f"{prefix}:history:{session_id}",
        )

    async def load(self, session_id: str) -> Session | None:
        """The stored session; None when there is none, or when what is stored cannot be
        read as one (bytes that are not text, JSON of another shape, a version this code
        does not know): a resume then starts a new conversation, never an error."""
        _, head_key, history_key = self._keys(session_id)
        try:
            with reached():
                async with self._client.pipeline(transaction=True) as pipe:
                    pipe.get(head_key)
                    pipe.lrange(history_key, 0, -1)
                    head, stored = await pipe.execute()
            if head is None:
                return None
            entries = [_entry(text) for text in stored]
            session = session_from_parts(head, entries, self._catalog, self._deployment)
        except ForeignSession:
            log.warning("the stored session %s is another deployment's; not resumed", session_id)
            return None
        except (ValueError, TypeError):  # UnicodeDecodeError and pydantic's are ValueErrors
            log.warning("the stored session %s cannot be read; it is not resumed", session_id)
            return None
        if len(session.history) == len(entries):  # read from the list: appended to next
            self._remember(session_id, _Written(tuple(session.entry_ids), tuple(session.history)))
        return session

    async def save(self, session: Session) -> None:
        if session.session_id in self._held:
            # Under this process's lock: written with the release, in the same round trip.
            self._held[session.session_id] = session
            return
        with reached():
            await self._write(session, token="")

    async def latest(self, session: Session) -> Session:
        stored = self._stored_turns.get(session.session_id, -1)
        if stored <= session.turns:
            # Not under this process's lock, nothing stored, current, or older than this
            # copy (a turn here whose save was lost while Redis was unreachable: the
            # stored copy still holds what that turn changed, a question it answered).
            return session
        return await self.load(session.session_id) or session

    async def delete(self, session_id: str) -> None:
        self._written.pop(session_id, None)
        with reached():
            await self._client.delete(*self._keys(session_id)[1:])

    @contextlib.asynccontextmanager
    async def lock(self, session_id: str) -> AsyncIterator[None]:
        """Held across one turn. Its TTL outlasts any turn (deadlines are seconds), so a
        worker that dies holding it blocks the session only until the TTL passes. One this
        process could not release (Redis unreachable at the turn's end) is released when
        the session is next locked here, instead of holding its next turn for the TTL."""
        keys, token = list(self._keys(session_id)[:2]), secrets.token_hex(8)
        # Polled: the holder may be another process, so there is no local event to wait on.
        args: list[str | int] = [token, self._lock_ttl_ms]
        with reached():
            if (ours := self._unreleased.get(session_id)) is not None:
                await self._save(keys=list(self._keys(session_id)), args=[ours, "", 0, "", 0])
                del self._unreleased[session_id]
            while (turns := await self._take_lock(keys=keys, args=args)) is None:  # noqa: ASYNC110
                await asyncio.sleep(0.02)
        self._held[session_id] = None
        self._stored_turns[session_id] = int(turns)
        try:
            yield
        finally:
            self._stored_turns.pop(session_id, None)
            session = self._held.pop(session_id, None)
            try:
                with reached():
                    if session is None:
                        await self._save(
                            keys=list(self._keys(session_id)), args=[token, "", 0, "", 0]
                        )
                    else:
                        await self._write(session, token=token)
            except StoreUnavailable:
                self._unreleased[session_id] = token
                raise

    async def _write(self, session: Session, *, token: str) -> None:
        """Save `session` (only its new entries when possible), releasing the lock when
        `token` is its holder's."""
        keys = list(self._keys(session.session_id))
        save = self._prepare(session)
        args: list[str | int] = [token, save.head, self._ttl_ms, save.last_id, save.keep]
        args += save.entries
        if await self._save(keys=keys, args=args) == -1:
            # Redis does not hold what this process wrote last (written elsewhere since).
            save = self._prepare(session, whole=True)
            args = [token, save.head, self._ttl_ms, "", save.keep, *save.entries]
            await self._save(keys=keys, args=args)
        self._remember(session.session_id, save.written)

    def _prepare(self, session: Session, *, whole: bool = False) -> _Save:
        ids, messages = tuple(session.entry_ids), tuple(session.history)
        written = _Written(ids, messages)
        head = stamped(session_head_to_text(session, self._catalog), self._deployment)
        before = None if whole else self._written.get(session.session_id)
        kept = _kept_from(before, written) if before is not None else None
        if before is None or kept is None or not before.ids:
            entries = tuple(_entry_text(i, m) for i, m in zip(ids, messages, strict=True))
            return _Save(head, "", len(ids), entries, written)
        new = zip(ids[kept:], messages[kept:], strict=True)
        entries = tuple(_entry_text(i, m) for i, m in new)
        return _Save(head, str(before.ids[-1]), len(ids), entries, written)

    def _remember(self, session_id: str, written: _Written) -> None:
        self._written[session_id] = written
        self._written.move_to_end(session_id)
        if len(self._written) > _REMEMBERED_SESSIONS:
            self._written.popitem(last=False)


def _kept_from(before: _Written, now: _Written) -> int | None:
    """How many of `now`'s first entries are `before`'s last ones, untouched (the rest
    are new); None when the history changed otherwise (then it is written whole)."""
    if not before.ids:
        return 0
    if not now.ids:
        return None
    try:
        start = before.ids.index(now.ids[0])
    except ValueError:
        # Every entry written before was trimmed: all of `now` must be newer.
        return 0 if now.ids[0] > before.ids[-1] else None
    kept = len(before.ids) - start
    if now.ids[:kept] != before.ids[start:]:
        return None
    if any(a is not b for a, b in zip(now.messages[:kept], before.messages[start:], strict=True)):
        return None  # an entry was replaced (what a caller heard before barging in)
    return kept


def _entry_text(entry_id: int, message: Message) -> str:
    return f"{entry_id} {message_to_text(message)}"


def _entry(text: str) -> tuple[int, str]:
    entry_id, _, message = text.partition(" ")
    return int(entry_id), message


__all__ = ["RedisSessionStore", "deployment_stamp"]
