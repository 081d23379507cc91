"""Session tokens: HS256 JWTs naming the customer in `sub`, signed by the service."""

from __future__ import annotations

import time

import jwt

from assistant.errors import AuthError

_ALGORITHM = "HS256"
_AUDIENCE = "assistant-session"


def mint_token(secret: str, customer_id: str, ttl_s: int = 3600) -> str:
    """A token for `customer_id` that expires after `ttl_s` seconds."""
    now = int(time.time())
    claims = {"sub": customer_id, "aud": _AUDIENCE, "iat": now, "exp": now + ttl_s}
    return jwt.encode(claims, secret, algorithm=_ALGORITHM)


def verify_token(secret: str, token: str) -> str:
    """The customer id a valid token names; AuthError saying why otherwise."""
    if not token:
        raise AuthError("missing session token")
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[_ALGORITHM],
            audience=_AUDIENCE,
            options={"require": ["sub", "exp", "aud"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise AuthError("session token expired") from exc
    except jwt.InvalidTokenError as exc:
        raise AuthError(f"invalid session token: {exc}") from exc
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        raise AuthError("session token names no customer")
    return subject
