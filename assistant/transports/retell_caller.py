"""Who is calling through Retell: from its `call_details` frame.

A session token in the agent's dynamic variables (`retell_llm_dynamic_variables.token`)
names the customer; otherwise the caller's number (`from_number`) is looked up in the
CRM, as on the phone bridge. Neither: an unknown caller, who can ask general questions.
"""

from __future__ import annotations

import logging
from typing import Any

from assistant.auth import verify_token
from assistant.errors import AssistantError, AuthError
from assistant.settings import Settings
from assistant.tools.crm_tools import CrmTools
from assistant.transports.relay_caller import customer_by_phone

log = logging.getLogger(__name__)


async def identify(
    call: dict[str, Any], settings: Settings, crm: CrmTools | None, trace_id: str
) -> tuple[str | None, bool]:
    """(customer id or None, whether the CRM could not be asked)."""
    variables = call.get("retell_llm_dynamic_variables")
    token = variables.get("token") if isinstance(variables, dict) else None
    if isinstance(token, str) and token:
        try:
            return verify_token(settings.signing_secret(for_server=True), token), False
        except AuthError as exc:
            log.warning("retell: ignoring the token in the dynamic variables: %s", exc)
        except AssistantError as exc:
            log.warning("retell: cannot check the token in the dynamic variables: %s", exc)
    phone = call.get("from_number")
    return await customer_by_phone(crm, phone if isinstance(phone, str) else "", trace_id)


__all__ = ["identify"]
