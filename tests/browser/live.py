"""A live stack for browser tests: the CRM stub and the whole assistant app, for real.

The browser tests are plain sync tests (Playwright's sync API runs its own loop), so
the servers run in a background thread with an event loop of their own, on free
ports. The assistant can be stopped and started again on the same port, as a
restart of the service would look to a page that stays open.

Outside demo mode the stack also serves a customer's own site on another origin
(another port): a page that embeds the widget as the README says, and the
site's back end handing that page a session token.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.request
from collections.abc import Coroutine
from typing import Any, TypeVar

from aiohttp import web

from assistant.app import create_app
from assistant.auth import mint_token
from assistant.settings import load_settings
from crm_stub.app import create_app as create_crm_app
from tests.fixtures.app import SATURATION_LAG_MS

CRM_TOKEN = "browser-test-crm-token"  # outside demo mode the dev token is refused
SECRET = "browser-tests-secret-0123456789abcdefghij"
_T = TypeVar("_T")
# A restart must not wait for open websockets to finish by themselves.
_SHUTDOWN_TIMEOUT_S = 2.0

EMBEDDING_PAGE = """<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Example Clinic: support</title></head>
  <body style="font-family: sans-serif; margin: 2rem">
    <h1>Example Clinic</h1>
    <div id="assistant" style="height: 560px; max-width: 40rem"></div>
    <script type="module">
      import { mount } from "ASSISTANT/static/widget.js";
      mount(document.getElementById("assistant"), {
        getToken: async () => (await (await fetch("/assistant-token")).json()).token,
      });
    </script>
  </body>
</html>
"""

# The no-code way: the site writes a token into the page and loads the module.
EMBEDDING_BY_ATTRIBUTE = """<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Example Clinic: account</title></head>
  <body>
    <div data-assistant-widget data-token="TOKEN" style="height: 560px"></div>
    <script type="module" src="ASSISTANT/static/widget.js"></script>
  </body>
</html>
"""


class LiveStack:
    """The CRM stub and the assistant served from a background thread.

    `demo=False` runs the assistant with a real secret and no demo routes, and serves
    an embedding site (`site_url`) allowed as a websocket origin.
    """

    def __init__(self, *, demo: bool = True, site_customer: str = "cust_002") -> None:
        self.demo = demo
        self.site_customer = site_customer
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="live-stack")
        self._crm: web.AppRunner | None = None
        self._assistant: web.AppRunner | None = None
        self._site: web.AppRunner | None = None
        self.crm_port = 0
        self.site_port = 0
        # The embedding site's token endpoint: how many it minted; the first one's ttl.
        self.site_tokens_minted = 0
        self.first_site_token_ttl_s = 600
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------

    def start(self) -> LiveStack:
        self._thread.start()
        self.crm_port = self._run(self._serve_crm())
        if not self.demo:
            self.site_port = self._run(self._serve_site())
        self.port = self._run(self._serve_assistant(0))
        return self

    def stop_assistant(self) -> None:
        """Stops the assistant; open websockets are closed, as by a process restart."""
        self._run(self._stop_assistant())

    def start_assistant(self) -> None:
        """Starts a fresh assistant app on the port it had before."""
        self._run(self._serve_assistant(self.port))

    def close(self) -> None:
        try:
            self._run(self._stop_all())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()

    def __enter__(self) -> LiveStack:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def site_url(self) -> str:
        return f"http://127.0.0.1:{self.site_port}/"

    def token(self, customer_id: str, ttl_s: int = 600) -> str:
        """A session token the running assistant accepts (outside demo mode)."""
        return mint_token(SECRET, customer_id, ttl_s)

    # --- the CRM, as a test inspects it ------------------------------------------------

    def crm(self, method: str, path: str, body: Any = None) -> Any:
        """One request to the CRM stub with its service token; the decoded JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.crm_port}{path}",
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {CRM_TOKEN}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def task_titles(self, customer_id: str) -> list[str]:
        listing = self.crm("GET", f"/v1/customers/{customer_id}/tasks?status=all")
        return [task["title"] for task in listing["tasks"]]

    # --- inside the loop ---------------------------------------------------------------

    def _run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    async def _serve_crm(self) -> int:
        self._crm = _runner(create_crm_app(db_path=":memory:", token=CRM_TOKEN))
        return await _listen(self._crm, 0)

    async def _serve_assistant(self, port: int) -> int:
        settings = load_settings(
            demo=self.demo,
            host="127.0.0.1",
            port=port,
            crm_url=f"http://127.0.0.1:{self.crm_port}",
            crm_token=CRM_TOKEN,
            backend="embedded",
            secret=None if self.demo else SECRET,
            allowed_origins=[] if self.demo else [self.site_url.rstrip("/")],
            saturation_loop_lag_ms=SATURATION_LAG_MS,  # a busy test machine is not overload
        )
        self._assistant = _runner(create_app(settings))
        return await _listen(self._assistant, port)

    async def _serve_site(self) -> int:
        async def page(request: web.Request) -> web.Response:
            html = EMBEDDING_PAGE.replace("ASSISTANT", self.url.rstrip("/"))
            return web.Response(text=html, content_type="text/html")

        async def page_with_attribute(request: web.Request) -> web.Response:
            html = EMBEDDING_BY_ATTRIBUTE.replace("ASSISTANT", self.url.rstrip("/"))
            html = html.replace("TOKEN", self.token(self.site_customer))
            return web.Response(text=html, content_type="text/html")

        async def assistant_token(request: web.Request) -> web.Response:
            # The site's own back end knows who is signed in and mints the token.
            ttl_s = self.first_site_token_ttl_s if not self.site_tokens_minted else 600
            self.site_tokens_minted += 1
            return web.json_response({"token": self.token(self.site_customer, ttl_s)})

        site = web.Application()
        site.router.add_get("/", page)
        site.router.add_get("/by-attribute", page_with_attribute)
        site.router.add_get("/assistant-token", assistant_token)
        self._site = _runner(site)
        return await _listen(self._site, 0)

    async def _stop_assistant(self) -> None:
        if self._assistant is not None:
            runner, self._assistant = self._assistant, None
            await runner.cleanup()

    async def _stop_all(self) -> None:
        await self._stop_assistant()
        for runner in (self._site, self._crm):
            if runner is not None:
                await runner.cleanup()
        self._site = self._crm = None
        # What asyncio.run does on the way out: a request the CRM still holds (a slowed
        # one a test stopped waiting for) is cancelled, not destroyed with the loop.
        leftovers = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in leftovers:
            task.cancel()
        await asyncio.gather(*leftovers, return_exceptions=True)
        await self._loop.shutdown_asyncgens()
        await self._loop.shutdown_default_executor()


def _runner(app: web.Application) -> web.AppRunner:
    return web.AppRunner(app, access_log=None, shutdown_timeout=_SHUTDOWN_TIMEOUT_S)


async def _listen(runner: web.AppRunner, port: int) -> int:
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    return int(runner.addresses[0][1])  # the bound port when asked for port 0
