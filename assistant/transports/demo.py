"""Demo-only HTTP routes: session tokens for seeded customers, and the customer picker.

`make run` starts the service in demo mode so that a person can open the chat page
and talk at once, as any seeded customer. These routes hand out tokens to anyone who
asks, so outside demo mode they answer 404, exactly as if they did not exist.

    POST /v1/demo/token      {"customer_id": "cust_001"} → {"token", "customer_id", "expires_in"}
    GET  /v1/demo/customers  → {"customers": [{"id", "name"}, …]}
    GET  /v1/demo/timeline   the last turns drawn on a time axis (HTML)
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from typing import Final, Protocol

from aiohttp import web

from assistant.auth import mint_token
from assistant.errors import ToolFailure
from assistant.schema import CustomerContext
from assistant.settings import Settings

log = logging.getLogger(__name__)

# The seed data names its customers cust_001 … (shared/CRM_API.md: at least 20).
DEMO_CUSTOMER_IDS: Final = tuple(f"cust_{n:03d}" for n in range(1, 21))
_CUSTOMER_ID: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_LOOKUP_TIMEOUT_S: Final = 3.0


class CustomerDirectory(Protocol):
    """Who a customer id is (the app's `CrmTools` is one)."""

    async def customer_context(self, customer_id: str, trace_id: str) -> CustomerContext: ...


def _not_found() -> web.Response:
    # The same answer as a route that does not exist: demo mode is not advertised.
    return web.json_response(
        {"error": {"code": "not_found", "message": "not found"}},
        status=web.HTTPNotFound.status_code,
    )


def _bad_request(message: str) -> web.Response:
    return web.json_response(
        {"error": {"code": "invalid_request", "message": message}},
        status=web.HTTPBadRequest.status_code,
    )


async def demo_customers(directory: CustomerDirectory | None) -> list[dict[str, str | None]]:
    """The seeded customers with their names; ids alone when the CRM cannot say."""
    if directory is None:
        return [{"id": cid, "name": None} for cid in DEMO_CUSTOMER_IDS]
    trace_id = f"demo-{uuid.uuid4().hex[:12]}"

    async def lookup(cid: str) -> CustomerContext | BaseException | None:
        try:
            async with asyncio.timeout(_LOOKUP_TIMEOUT_S):
                return await directory.customer_context(cid, trace_id)
        except ToolFailure as failure:
            return None if failure.code == "not_found" else failure
        except TimeoutError as exc:
            return exc

    found = await asyncio.gather(*(lookup(cid) for cid in DEMO_CUSTOMER_IDS))
    customers: list[dict[str, str | None]] = []
    for cid, result in zip(DEMO_CUSTOMER_IDS, found, strict=True):
        if isinstance(result, CustomerContext):
            customers.append({"id": result.customer_id, "name": result.name})
        elif isinstance(result, BaseException):
            # The CRM is slow or down: the picker still works, with ids only.
            log.warning("demo customer lookup failed for %s: %r", cid, result)
            customers.append({"id": cid, "name": None})
    return customers


def setup_demo_routes(
    app: web.Application, settings: Settings, directory: CustomerDirectory | None = None
) -> None:
    """Registers the demo routes; they answer 404 unless `settings.demo` is on.

    `directory` names the customers for the picker; when omitted, the app's CRM tools
    are used (none when a test replaced the tool backend).
    """

    def customer_directory(request: web.Request) -> CustomerDirectory | None:
        if directory is not None:
            return directory
        from assistant.app import SERVICES  # the composition root imports this module

        services = request.app.get(SERVICES)
        return services.crm if services is not None else None

    async def customers(request: web.Request) -> web.Response:
        if not settings.demo:
            return _not_found()
        listed = await demo_customers(customer_directory(request))
        return web.json_response({"customers": listed}, headers={"Cache-Control": "no-store"})

    async def token(request: web.Request) -> web.Response:
        if not settings.demo:
            return _not_found()
        try:
            body = await request.json()
        except ValueError:
            return _bad_request("the body must be JSON")
        customer_id = body.get("customer_id") if isinstance(body, dict) else None
        if not isinstance(customer_id, str) or not _CUSTOMER_ID.match(customer_id):
            return _bad_request("customer_id must be a customer id such as cust_001")
        ttl_s = settings.session_token_ttl_s
        minted = mint_token(settings.signing_secret(for_server=True), customer_id, ttl_s)
        return web.json_response(
            {"token": minted, "customer_id": customer_id, "expires_in": ttl_s},
            headers={"Cache-Control": "no-store"},
        )

    async def timeline(request: web.Request) -> web.Response:
        from assistant.app import SERVICES
        from assistant.timeline_page import render_page

        services = request.app.get(SERVICES)
        if not settings.demo or services is None or services.timelines is None:
            return _not_found()
        page = render_page(
            [("The last turns, newest first", services.timelines.timelines())],
            title="Turn timeline",
        )
        return web.Response(
            text=page, content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    app.router.add_get("/v1/demo/customers", customers)
    app.router.add_get("/v1/demo/timeline", timeline)
    app.router.add_post("/v1/demo/token", token)
