"""Who may open a ConversationRelay websocket: checked before the upgrade.

- Twilio's signature over the URL (relay_signature.py), unless in demo mode without
  an auth token configured;
- a `call_token` in the URL (relay_twiml.py mints them), when present or required:
  it names the one call, and caller, that may use this URL.
"""

from __future__ import annotations

import logging

from aiohttp import web

from assistant.auth import CallClaims, verify_call_token
from assistant.errors import AuthError
from assistant.settings import Settings
from assistant.transports.relay_signature import is_valid_signature, signed_url

log = logging.getLogger(__name__)


def signature_refusal(request: web.Request, settings: Settings) -> web.Response | None:
    """403 unless the upgrade is signed by Twilio (or, unsigned, in demo mode)."""
    token = settings.twilio_auth_token
    if token is None:
        if settings.demo:
            log.warning(
                "relay: ASSISTANT_TWILIO_AUTH_TOKEN is not set; accepting an unsigned "
                "ConversationRelay connection because this is demo mode"
            )
            return None
        log.warning("relay: refusing a connection: ASSISTANT_TWILIO_AUTH_TOKEN is not set")
        return web.Response(status=403, text="telephony is not configured")
    base = settings.public_url or f"{request.scheme}://{request.host}"
    url = signed_url(base, request.raw_path)
    if is_valid_signature(token.get_secret_value(), url, request.headers.get("X-Twilio-Signature")):
        return None
    log.warning("relay: refusing a connection with a bad X-Twilio-Signature for %s", url)
    return web.Response(status=403, text="invalid signature")


def call_claims(request: web.Request, settings: Settings) -> CallClaims | None:
    """The call a `call_token` in the URL admits; None without one (if allowed)."""
    token = request.query.get("call_token", "")
    if not token:
        if settings.relay_call_token_required:
            raise AuthError("a call_token is required on the ConversationRelay URL")
        return None
    return verify_call_token(settings.signing_secret(for_server=True), token)


__all__ = ["call_claims", "signature_refusal"]
