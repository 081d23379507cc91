"""The assistant's exception tree.

AssistantError
├── ConfigError          a setting or the tool catalog is invalid; stops the start
├── ToolFailure          one tool call failed; carries a PROTOCOL.md tool error code.
│                        Raised by tool backends (the CRM client maps HTTP statuses and
│                        aiohttp exceptions to it, once, at its boundary) and turned into
│                        a ToolResult by the executor: a failed call is data, never a
│                        failed turn.
├── ModelUnavailable     the planner or narrator model could not be reached
├── StoreUnavailable     the shared session store (Redis) could not be reached; a message
│                        is then not acted on, and the customer is told so
└── AuthError            a session token is missing, malformed, expired or forged
"""

from __future__ import annotations

from typing import Literal

ToolErrorCode = Literal[
    "invalid_arguments",
    "not_found",
    "permission_denied",
    "conflict",
    "rate_limited",
    "timeout",
    "unavailable",
    "circuit_open",
    "round_limit",
    "cancelled",
    "internal",
]

#: Codes worth another attempt: the CRM may answer differently next time.
RETRYABLE_CODES: frozenset[str] = frozenset({"timeout", "unavailable"})


class AssistantError(Exception):
    """Base of every error the assistant raises on purpose."""


class ConfigError(AssistantError):
    """A setting or the tool catalog is invalid; the message names what is wrong."""


class ToolFailure(AssistantError):
    """One tool call failed with a PROTOCOL.md tool error code."""

    def __init__(
        self,
        code: ToolErrorCode,
        message: str,
        *,
        retry_after_s: float | None = None,
        connection_error: bool = False,
    ) -> None:
        super().__init__(message)
        self.code: ToolErrorCode = code
        self.message = message
        self.retry_after_s = retry_after_s
        # A connection-level failure (reset, refused) is retryable like `unavailable`.
        self.connection_error = connection_error
        # A write whose outcome is unknown: it may have been applied (its reply was lost,
        # it timed out, or the CRM still had it in progress when the turn ran out).
        self.unconfirmed = False

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE_CODES or self.connection_error

    def __repr__(self) -> str:
        return f"ToolFailure({self.code!r}, {self.message!r})"


class ModelUnavailable(AssistantError):
    """The planner or narrator model could not be reached or answered garbage."""


class StoreUnavailable(AssistantError):
    """The shared session store could not be reached (Redis down or unreachable)."""


class AuthError(AssistantError):
    """A session token is missing, malformed, expired or forged."""
