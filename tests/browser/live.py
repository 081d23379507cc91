"""A live stack for browser tests: the CRM stub and the whole assistant app, for real.

The browser tests are plain sync tests (Playwright's sync API runs its own loop), so
the servers run in a background thread with an event loop of their own, on free
ports. The assistant can be stopped and started again on the same port, as a
restart of the service would look to a page that stays open.
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
from assistant.settings import load_settings
from crm_stub.app import create_app as create_crm_app

CRM_TOKEN = "dev-crm-token"
_T = TypeVar("_T")
# A restart must not wait for open websockets to finish by themselves.
_SHUTDOWN_TIMEOUT_S = 2.0


class LiveStack:
    """The CRM stub and the assistant (demo mode) served from a background thread."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="live-stack")
        self._crm: web.AppRunner | None = None
        self._assistant: web.AppRunner | None = None
        self.crm_port = 0
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------

    def start(self) -> LiveStack:
        self._thread.start()
        self.crm_port = self._run(self._serve_crm())
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

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

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
        self._crm = web.AppRunner(
            create_crm_app(db_path=":memory:", token=CRM_TOKEN),
            access_log=None,
            shutdown_timeout=_SHUTDOWN_TIMEOUT_S,
        )
        return await _listen(self._crm, 0)

    async def _serve_assistant(self, port: int) -> int:
        settings = load_settings(
            demo=True,
            host="127.0.0.1",
            port=port,
            crm_url=f"http://127.0.0.1:{self.crm_port}",
            crm_token=CRM_TOKEN,
            backend="embedded",
        )
        self._assistant = web.AppRunner(
            create_app(settings), access_log=None, shutdown_timeout=_SHUTDOWN_TIMEOUT_S
        )
        return await _listen(self._assistant, port)

    async def _stop_assistant(self) -> None:
        if self._assistant is not None:
            runner, self._assistant = self._assistant, None
            await runner.cleanup()

    async def _stop_all(self) -> None:
        await self._stop_assistant()
        if self._crm is not None:
            runner, self._crm = self._crm, None
            await runner.cleanup()
        # What asyncio.run does on the way out: a request the CRM still holds (a slowed
        # one a test stopped waiting for) is cancelled, not destroyed with the loop.
        leftovers = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in leftovers:
            task.cancel()
        await asyncio.gather(*leftovers, return_exceptions=True)
        await self._loop.shutdown_asyncgens()
        await self._loop.shutdown_default_executor()


async def _listen(runner: web.AppRunner, port: int) -> int:
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    return int(runner.addresses[0][1])  # the bound port when asked for port 0
