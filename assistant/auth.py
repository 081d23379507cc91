"""Tokens signed by the service (HS256 JWTs), told apart by their audience:

- session tokens (`assistant-session`) name the customer in `sub` and expire;
- call tokens (`assistant-call`) admit one telephony call: `sub` is its CallSid, and
  `caller` the number Twilio reported, so a replayed upgrade cannot claim another.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import jwt

from assistant.errors import AuthError

_ALGORITHM = "HS256"
_AUDIENCE = "assistant-session"
_CALL_AUDIENCE = "assistant-call"


@dataclass(frozen=True, slots=True)
class SessionClaims:
    customer_id: str
    expires_at: float  # epoch seconds (the token's `exp`)


@dataclass(frozen=True, slots=True)
class CallClaims:
    call_sid: str
    caller: str  # "" when the call token names no number


def mint_token(secret: str, customer_id: str, ttl_s: int = 3600) -> str:
    """A token for `customer_id` that expires after `ttl_s` seconds."""
    now = int(time.time())
    claims = {"sub": customer_id, "aud": _AUDIENCE, "iat": now, "exp": now + ttl_s}
    return jwt.encode(claims, secret, algorithm=_ALGORITHM)


def verify_token(secret: str, token: str) -> str:
    """The customer id a valid token names; AuthError saying why otherwise."""
    return verify_session(secret, token).customer_id


def verify_session(secret: str, token: str) -> SessionClaims:
    """Who a valid session token names and when it expires; AuthError otherwise."""
    claims = _decode(secret, token, _AUDIENCE, "session token")
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        raise AuthError("session token names no customer")
    expires_at = claims["exp"]
    if not isinstance(expires_at, int | float):  # PyJWT has checked it is a number
        raise AuthError("session token has no valid expiry")
    return SessionClaims(subject, float(expires_at))


def mint_call_token(secret: str, call_sid: str, caller: str = "", ttl_s: int = 120) -> str:
    """A token admitting the telephony call `call_sid` (from `caller`) for `ttl_s` seconds."""
    now = int(time.time())
    claims = {"sub": call_sid, "aud": _CALL_AUDIENCE, "iat": now, "exp": now + ttl_s}
    if caller:
        claims["caller"] = caller
    return jwt.encode(claims, secret, algorithm=_ALGORITHM)


def verify_call_token(secret: str, token: str) -> CallClaims:
    """The call a valid call token admits; AuthError saying why otherwise."""
    claims = _decode(secret, token, _CALL_AUDIENCE, "call token")
    call_sid, caller = claims.get("sub"), claims.get("caller", "")
    if not isinstance(call_sid, str) or not call_sid or not isinstance(caller, str):
        raise AuthError("call token names no call")
    return CallClaims(call_sid, caller)


def _decode(secret: str, token: str, audience: str, what: str) -> dict[str, object]:
    if not token:
        raise AuthError(f"missing {what}")
    try:
        claims: dict[str, object] = jwt.decode(
            token,
            secret,
            algorithms=[_ALGORITHM],
            audience=audience,
            options={"require": ["sub", "exp", "aud"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise AuthError(f"{what} expired") from exc
    except jwt.InvalidTokenError as exc:
        raise AuthError(f"invalid {what}: {exc}") from exc
    return claims
