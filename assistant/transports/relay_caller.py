"""Who is calling: the caller of a ConversationRelay call, and what they hear first.

A signed session token in `customParameters` names the customer; otherwise the
caller's number is looked up in the CRM (briefly: a caller must not wait in silence).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Final

from assistant.auth import verify_token
from assistant.errors import AssistantError, AuthError, ToolFailure
from assistant.settings import Settings
from assistant.tools.crm_tools import CrmTools
from assistant.transports.relay_frames import SetupFrame

log = logging.getLogger(__name__)

_E164: Final = re.compile(r"^\+[1-9]\d{6,14}$")
_LOOKUP_TIMEOUT_S: Final = 3.0


def greeting(first_name: str | None, *, known: bool, lookup_failed: bool = False) -> str:
    """What a caller hears first: their name when we know them, honesty when we don't."""
    if known:
        hello = f"Hi {first_name}" if first_name else "Hi there"
        return f"{hello}, thanks for calling. How can I help you today?"
    if lookup_failed:
        return (
            "Hello, and thanks for calling. I can't reach our account records right now, "
            "so I can't look at your account. I'm happy to answer general questions, though. "
            "How can I help?"
        )
    return (
        "Hello, and thanks for calling. I couldn't find an account for the number you're "
        "calling from, so I can't look at account details. I'm happy to answer general "
        "questions, though. How can I help?"
    )


async def identify(
    frame: SetupFrame, settings: Settings, crm: CrmTools | None, trace_id: str
) -> tuple[str | None, bool]:
    """(customer id or None, whether the CRM could not be asked)."""
    token = frame.custom_parameters.get("token")
    if isinstance(token, str) and token:
        try:
            secret = settings.signing_secret(for_server=True)
            return verify_token(secret, token), False
        except AuthError as exc:
            log.warning("relay: ignoring the token in customParameters: %s", exc)
        except AssistantError as exc:
            log.warning("relay: cannot check the token in customParameters: %s", exc)
    if crm is None or not _E164.match(frame.from_):
        return None, False
    try:
        async with asyncio.timeout(_LOOKUP_TIMEOUT_S):
            context = await crm.find_customer_by_phone(frame.from_, trace_id=trace_id)
    except (ToolFailure, TimeoutError) as exc:
        log.warning("relay: could not look up the caller's number: %s", exc)
        return None, True
    return (context.customer_id if context else None), False


__all__ = ["greeting", "identify"]
