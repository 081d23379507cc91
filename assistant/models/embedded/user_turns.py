"""Where the customer's own messages are in a conversation, found from its end.

Every planner round and the narrator ask for the last one, two or three of them. A long
call's history holds sixty messages; walking all of them for each of those questions cost
a third of a turn's reading at that length, and only the last few are ever wanted.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.schema import Message, UserTurn


def last_users(conversation: Sequence[Message], count: int) -> list[int] | None:
    """The positions of the last `count` user turns, oldest first, or None when there
    are fewer."""
    found = up_to_last_users(conversation, count)
    return found if len(found) == count else None


def up_to_last_users(conversation: Sequence[Message], most: int) -> list[int]:
    """The positions of the last `most` user turns, oldest first (fewer when there are)."""
    found: list[int] = []
    for index in range(len(conversation) - 1, -1, -1):
        if isinstance(conversation[index], UserTurn):
            found.append(index)
            if len(found) == most:
                break
    return found[::-1]


def last_two_users(conversation: Sequence[Message]) -> tuple[int, int] | None:
    """The positions of the last two user turns, oldest first, or None."""
    last: int | None = None
    for index in range(len(conversation) - 1, -1, -1):
        if isinstance(conversation[index], UserTurn):
            if last is not None:
                return index, last
            last = index
    return None


def last_user(conversation: Sequence[Message]) -> int | None:
    """The position of the last user turn, or None."""
    for index in range(len(conversation) - 1, -1, -1):
        if isinstance(conversation[index], UserTurn):
            return index
    return None
