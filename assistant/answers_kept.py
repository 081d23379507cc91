"""The answers a platform conversation gave in full, kept in its session (so in the
session store): a platform's retry or late copy of a request is answered as before on any
worker or instance (assistant/transports/platform_retry.py reads them)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Final

# Answers kept for copies of earlier requests (a conversation's recent turns).
KEPT_ANSWERS: Final = 16


@dataclass(frozen=True, slots=True)
class Answered:
    """An answer given in full, and what it answered (the request's fingerprint)."""

    fingerprint: str
    response_id: str
    text: str
    # When it was given, wall-clock seconds: read by other processes too (a monotonic
    # clock is one process's).
    at: float = field(default_factory=time.time)


@dataclass(slots=True)
class KeptAnswers:
    """The answers kept, oldest first, and whether the newest is the last turn's (a turn
    that ended without a full answer keeps none, and its request is no retry)."""

    answers: list[Answered] = field(default_factory=list)
    last_kept: bool = False


__all__ = ["KEPT_ANSWERS", "Answered", "KeptAnswers"]
