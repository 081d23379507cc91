"""Twilio's request signature (`X-Twilio-Signature`) on the ConversationRelay upgrade.

Twilio signs the websocket handshake the way it signs a webhook sent with GET: the
base64 HMAC-SHA1, keyed with the account's auth token, of the full URL it was told to
call (the `<ConversationRelay url="wss://…">`, query string included) with no body
parameters appended. Behind a proxy or a tunnel the service cannot see that URL, so
it is rebuilt from `ASSISTANT_PUBLIC_URL` plus the path and query as received.

Like Twilio's own validators, a signature is accepted for the URL with or without its
default port; it is also accepted when the public URL is configured with its http(s)
spelling, since operators often give one base URL for both webhooks and websockets.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

_SCHEME_TWINS = {"https": "wss", "wss": "https", "http": "ws", "ws": "http"}
_DEFAULT_PORTS = {"https": 443, "wss": 443, "http": 80, "ws": 80}


def compute_signature(auth_token: str, url: str, params: Mapping[str, str] | None = None) -> str:
    """The signature Twilio sends for a request to `url`: a GET (or websocket) has no
    `params`; a form POST (a voice webhook) appends each parameter, sorted, as key+value."""
    data = url + "".join(key + value for key, value in sorted((params or {}).items()))
    digest = hmac.new(auth_token.encode(), data.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def signed_url(public_url: str, path_qs: str) -> str:
    """`ASSISTANT_PUBLIC_URL` + the request's raw path and query."""
    return public_url.rstrip("/") + path_qs


def _variants(url: str) -> list[str]:
    """The URL, with its scheme twin, each with and without the default port."""
    parts = urlsplit(url)
    schemes = [parts.scheme]
    if parts.scheme in _SCHEME_TWINS:
        schemes.append(_SCHEME_TWINS[parts.scheme])
    variants: list[str] = []
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    userinfo = parts.netloc.rpartition("@")[0]
    prefix = f"{userinfo}@" if userinfo else ""
    for scheme in schemes:
        default_port = _DEFAULT_PORTS.get(scheme)
        port = parts.port or default_port
        netlocs = [parts.netloc]
        if port is not None:
            netlocs.append(f"{prefix}{host}:{port}")
            if port == default_port:
                netlocs.append(f"{prefix}{host}")
        for netloc in dict.fromkeys(netlocs):
            variants.append(urlunsplit((scheme, netloc, parts.path, parts.query, parts.fragment)))
    return list(dict.fromkeys(variants))


def is_valid_signature(
    auth_token: str, url: str, signature: str | None, params: Mapping[str, str] | None = None
) -> bool:
    """True when `signature` is Twilio's for `url` (and `params`), in constant time."""
    if not signature:
        return False
    given = signature.strip().encode()
    return any(
        hmac.compare_digest(compute_signature(auth_token, variant, params).encode(), given)
        for variant in _variants(url)
    )


__all__ = ["compute_signature", "is_valid_signature", "signed_url"]
