"""`POST /v1/twiml`: the voice webhook that connects a call to the bridge, with a token.

Twilio asks this URL what to do with an incoming call (a form POST signed with
`X-Twilio-Signature` over the URL and its parameters). The answer connects the call to
ConversationRelay at `ASSISTANT_PUBLIC_URL/v1/conversation-relay?call_token=…`, where
the call token (auth.py) is signed by the service, names this CallSid and caller, and
expires after `relay_call_token_ttl_s`. The upgrade's own signature covers the URL,
token included, and the bridge then checks that `setup` is for that very call.
"""

from __future__ import annotations

import logging
from typing import Final
from xml.sax.saxutils import quoteattr

from aiohttp import web
from yarl import URL

from assistant.auth import mint_call_token
from assistant.settings import Settings
from assistant.transports.relay_signature import is_valid_signature

log = logging.getLogger(__name__)

TWIML_ROUTE: Final = "/v1/twiml"
TWIML_SETTINGS = web.AppKey("twiml_settings", Settings)


def relay_url(settings: Settings, call_token: str) -> str:
    """The ConversationRelay websocket URL for one call."""
    base = URL(settings.public_url.rstrip("/"))
    scheme = {"https": "wss", "http": "ws"}.get(base.scheme, base.scheme)
    url = base.with_scheme(scheme) / "v1" / "conversation-relay"
    return str(url.with_query(call_token=call_token))


def twiml(settings: Settings, call_sid: str, caller: str) -> str:
    """The TwiML connecting `call_sid` to the bridge with a fresh call token."""
    token = mint_call_token(
        settings.signing_secret(for_server=True),
        call_sid,
        caller,
        ttl_s=settings.relay_call_token_ttl_s,
    )
    url = quoteattr(relay_url(settings, token))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f"<Response><Connect><ConversationRelay url={url} /></Connect></Response>"
    )


async def twiml_webhook(request: web.Request) -> web.Response:
    settings = request.app[TWIML_SETTINGS]
    form = {key: str(value) for key, value in (await request.post()).items()}
    if not settings.public_url:
        return web.Response(status=503, text="ASSISTANT_PUBLIC_URL must be set for telephony")
    token = settings.twilio_auth_token
    if token is None and not settings.demo:
        return web.Response(status=403, text="telephony is not configured")
    if token is not None:
        url = settings.public_url.rstrip("/") + request.raw_path
        signature = request.headers.get("X-Twilio-Signature")
        if not is_valid_signature(token.get_secret_value(), url, signature, form):
            log.warning("twiml: refusing a webhook with a bad X-Twilio-Signature")
            return web.Response(status=403, text="invalid signature")
    call_sid = form.get("CallSid", "")
    if not call_sid:
        return web.Response(status=400, text="CallSid is required")
    body = twiml(settings, call_sid, form.get("From", ""))
    return web.Response(text=body, content_type="text/xml")


__all__ = ["TWIML_ROUTE", "TWIML_SETTINGS", "relay_url", "twiml", "twiml_webhook"]
