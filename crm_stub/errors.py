"""The CRM stub's error envelope: `{"error": {"code", "message"}}` for every failure.

    ApiError                 an answer the stub gives on purpose (status + code + message)
    ├── InvalidRequest       400 invalid_request: the client's request is malformed
    ├── Unauthorized         401 unauthorized: missing or wrong service token
    ├── NotFound             404 not_found: no such resource for this customer
    ├── Conflict             409 conflict: an idempotency key in flight, a taken phone number
    └── InvalidState         422 invalid_state: well-formed but not allowed now

aiohttp's own HTTP exceptions (unknown route, wrong method, body too large) and
any unexpected exception are turned into the same envelope by
`envelope_middleware`, so a client never sees HTML or a bare 500 page.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from aiohttp import web
from aiohttp.typedefs import Handler

log = logging.getLogger(__name__)

#: The code each status carries in the envelope (CRM_API.md "Errors").
CODE_BY_STATUS: Mapping[int, str] = {
    400: "invalid_request",
    401: "unauthorized",
    404: "not_found",
    409: "conflict",
    422: "invalid_state",
    429: "rate_limited",
    500: "internal",
    503: "unavailable",
}


def code_for_status(status: int) -> str:
    """The envelope code for any status, the nearest listed one for unlisted statuses."""
    if status in CODE_BY_STATUS:
        return CODE_BY_STATUS[status]
    if status == 500 or status == 501:
        return "internal"
    # 502, 504 and friends: something between us and the data is down.
    return "unavailable" if status >= 500 else "invalid_request"


class ApiError(Exception):
    """An error answer: HTTP status, envelope code, a message naming what is wrong."""

    status = 500
    code = "internal"

    def __init__(self, message: str, *, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.headers = dict(headers or {})


class InvalidRequest(ApiError):
    status = 400
    code = "invalid_request"


class Unauthorized(ApiError):
    status = 401
    code = "unauthorized"


class NotFound(ApiError):
    status = 404
    code = "not_found"


class Conflict(ApiError):
    status = 409
    code = "conflict"


class InvalidState(ApiError):
    status = 422
    code = "invalid_state"


def error_response(
    status: int,
    message: str,
    *,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> web.Response:
    """A JSON error envelope with the given status."""
    return web.json_response(
        {"error": {"code": code or code_for_status(status), "message": message}},
        status=status,
        headers=headers,
    )


def response_for(exc: Exception) -> web.Response:
    """The envelope for an exception raised by a handler or a middleware."""
    if isinstance(exc, ApiError):
        return error_response(exc.status, exc.message, code=exc.code, headers=exc.headers)
    if isinstance(exc, web.HTTPException):
        if exc.status < 400:
            raise exc  # redirects and the like are answers, not errors
        headers = {}
        if isinstance(exc, web.HTTPMethodNotAllowed):
            headers["Allow"] = ", ".join(sorted(exc.allowed_methods))
        message = _HTTP_MESSAGES.get(exc.status, exc.reason)
        return error_response(exc.status, message, headers=headers)
    log.exception("unexpected error in the CRM stub", exc_info=exc)
    return error_response(500, "internal error", code="internal")


_HTTP_MESSAGES: Mapping[int, str] = {
    404: "no such route",
    405: "method not allowed on this route",
    413: "request body too large",
}


@web.middleware
async def envelope_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every exception from the layers inside into the error envelope."""
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return response_for(exc)
    except Exception as exc:  # the envelope is the whole point: no bare 500 page
        return response_for(exc)
