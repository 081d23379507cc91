"""The widget's HTTP side: its files, and the demo-only token and customer routes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from assistant.auth import verify_token
from assistant.errors import ToolFailure
from assistant.schema import CustomerContext
from assistant.settings import Settings
from assistant.transports.demo import setup_demo_routes
from assistant.transports.web import setup_web_routes

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]


class SeededCustomers:
    """Knows cust_001 and cust_002 by name, like a CRM with two customers."""

    names: ClassVar[dict[str, str]] = {"cust_001": "Ada Lovelace", "cust_002": "Alan Turing"}

    async def customer_context(self, customer_id: str, trace_id: str) -> CustomerContext:
        if customer_id not in self.names:
            raise ToolFailure("not_found", f"{customer_id} not found")
        return CustomerContext(customer_id=customer_id, name=self.names[customer_id])


class DownCrm:
    async def customer_context(self, customer_id: str, trace_id: str) -> CustomerContext:
        raise ToolFailure("unavailable", "the customer records answered 503")


def widget_app(settings: Settings, directory: object | None = None) -> web.Application:
    app = web.Application()
    setup_web_routes(app)
    setup_demo_routes(app, settings, directory)  # type: ignore[arg-type]
    return app


@pytest.fixture
def demo_settings() -> Settings:
    return Settings(demo=True, session_token_ttl_s=600)


async def test_page_and_assets_are_served(aiohttp_client: MakeClient) -> None:
    """GET / is the chat page; its modules come as JavaScript that other sites may import."""
    client = await aiohttp_client(widget_app(Settings()))
    page = await client.get("/")
    assert page.status == 200
    assert page.content_type == "text/html"
    assert 'id="assistant"' in await page.text()
    assert "connect-src 'self'" in page.headers["Content-Security-Policy"]

    script = await client.get("/static/widget.js")
    assert script.status == 200
    assert script.content_type == "text/javascript"
    assert script.headers["Access-Control-Allow-Origin"] == "*"
    assert "export function mount" in await script.text()
    assert (await client.get("/static/widget.css")).content_type == "text/css"


@pytest.mark.parametrize("path", ["/static/nope.js", "/static/..%2Fapp.py", "/static/index.html"])
async def test_only_the_widget_files_are_served(aiohttp_client: MakeClient, path: str) -> None:
    """A request for anything but the widget's own assets is a 404."""
    client = await aiohttp_client(widget_app(Settings()))
    assert (await client.get(path)).status == 404


async def test_demo_token_names_the_customer(
    aiohttp_client: MakeClient, demo_settings: Settings
) -> None:
    """In demo mode a token for cust_002 is one the service accepts, for cust_002."""
    client = await aiohttp_client(widget_app(demo_settings))
    response = await client.post("/v1/demo/token", json={"customer_id": "cust_002"})
    assert response.status == 200
    body = await response.json()
    assert body["customer_id"] == "cust_002"
    assert body["expires_in"] == 600
    secret = demo_settings.signing_secret(for_server=True)
    assert verify_token(secret, body["token"]) == "cust_002"


@pytest.mark.parametrize(
    "body", [{"customer_id": ""}, {"customer_id": "../cust_001"}, {"customer": "cust_001"}, [1]]
)
async def test_demo_token_refuses_a_bad_customer_id(
    aiohttp_client: MakeClient, demo_settings: Settings, body: object
) -> None:
    """A missing or malformed customer id is a 400 that says what is expected."""
    client = await aiohttp_client(widget_app(demo_settings))
    response = await client.post("/v1/demo/token", json=body)
    assert response.status == 400
    assert "customer_id" in (await response.json())["error"]["message"]


async def test_demo_routes_do_not_exist_outside_demo_mode(aiohttp_client: MakeClient) -> None:
    """Without demo mode nobody can get a token or the customer list: both answer 404."""
    settings = Settings(demo=False, secret="x" * 40)
    client = await aiohttp_client(widget_app(settings, SeededCustomers()))
    token = await client.post("/v1/demo/token", json={"customer_id": "cust_001"})
    assert token.status == 404
    assert (await token.json())["error"]["code"] == "not_found"
    customers = await client.get("/v1/demo/customers")
    assert customers.status == 404


async def test_customer_picker_lists_the_crm_customers_by_name(
    aiohttp_client: MakeClient, demo_settings: Settings
) -> None:
    """The picker gets the customers the CRM knows, with their names, in id order."""
    client = await aiohttp_client(widget_app(demo_settings, SeededCustomers()))
    body = await (await client.get("/v1/demo/customers")).json()
    assert body["customers"] == [
        {"id": "cust_001", "name": "Ada Lovelace"},
        {"id": "cust_002", "name": "Alan Turing"},
    ]


async def test_customer_picker_still_works_when_the_crm_is_down(
    aiohttp_client: MakeClient, demo_settings: Settings
) -> None:
    """With the CRM down the picker offers the seeded ids without names."""
    client = await aiohttp_client(widget_app(demo_settings, DownCrm()))
    body = await (await client.get("/v1/demo/customers")).json()
    assert [c["id"] for c in body["customers"]][:2] == ["cust_001", "cust_002"]
    assert len(body["customers"]) == 20
    assert all(c["name"] is None for c in body["customers"])
