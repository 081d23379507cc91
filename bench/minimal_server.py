"""The yardstick for `bench/load.py`: the least server that does the same turn.

One aiohttp app with `/v1/ws`: a Bearer token checked like the assistant's, and for
each `user.message` the same frames (turn.started, the acknowledgement, two tool calls
started and finished, the answer, turn.done) around the same two concurrent CRM calls
(appointments and invoices). No planner, no narrator, no policies: what is left is the
cost of the websocket, the JSON and the CRM hop, which the assistant cannot avoid.

    python -m bench.minimal_server --port 8090 --crm-url http://127.0.0.1:8081 --crm-token T
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import aiohttp
from aiohttp import web

from assistant.auth import verify_session
from assistant.errors import AuthError

ACK = "Sure, I'll look up your upcoming appointments and check your billing."
CRM = web.AppKey("crm", aiohttp.ClientSession)


async def _turn(ws: web.WebSocketResponse, app: web.Application, customer: str, n: int) -> None:
    turn_id = f"t_{n}"
    send = ws.send_str
    await send(json.dumps({"type": "turn.started", "turn_id": turn_id, "message_id": None}))
    await send(json.dumps({"type": "ack.delta", "turn_id": turn_id, "round": 1, "text": ACK}))
    await send(json.dumps({"type": "ack.done", "turn_id": turn_id, "round": 1, "text": ACK}))
    base = app["crm_url"]
    routes = {"c_1": "appointments", "c_2": "invoices"}
    for call_id, route in routes.items():
        await send(
            json.dumps(
                {
                    "type": "tool.started",
                    "turn_id": turn_id,
                    "call_id": call_id,
                    "tool": route,
                    "round": 1,
                    "arguments": {},
                }
            )
        )

    async def fetch(call_id: str, route: str) -> dict[str, Any]:
        started = time.perf_counter()
        async with app[CRM].get(f"{base}/v1/customers/{customer}/{route}") as response:
            body = await response.json()
        await send(
            json.dumps(
                {
                    "type": "tool.finished",
                    "turn_id": turn_id,
                    "call_id": call_id,
                    "tool": route,
                    "round": 1,
                    "status": "ok",
                    "error": None,
                    "latency_ms": round((time.perf_counter() - started) * 1000),
                    "attempts": 1,
                }
            )
        )
        return dict(body)

    appointments, invoices = await asyncio.gather(*(fetch(c, r) for c, r in routes.items()))
    answer = (
        f"You have {len(appointments.get('appointments', []))} upcoming appointments, and "
        f"your balance is {invoices.get('balance_cents', 0) / 100:.2f} dollars."
    )
    await send(json.dumps({"type": "answer.delta", "turn_id": turn_id, "text": answer}))
    await send(json.dumps({"type": "answer.done", "turn_id": turn_id, "text": answer}))
    await send(
        json.dumps(
            {
                "type": "turn.done",
                "turn_id": turn_id,
                "status": "ok",
                "tool_calls": [],
                "truncated_calls": 0,
                "awaiting_confirmation": None,
                "timings_ms": {},
            }
        )
    )


async def _socket(request: web.Request) -> web.StreamResponse:
    header = request.headers.get("Authorization", "")
    try:
        claims = verify_session(request.app["secret"], header.removeprefix("Bearer "))
    except AuthError:
        raise web.HTTPUnauthorized() from None
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    await ws.send_str(json.dumps({"type": "session.ready", "customer_id": claims.customer_id}))
    turns = 0
    async for message in ws:
        if message.type is aiohttp.WSMsgType.TEXT and json.loads(message.data).get("type") == (
            "user.message"
        ):
            turns += 1
            await _turn(ws, request.app, claims.customer_id, turns)
    return ws


def create_app(secret: str, crm_url: str, crm_token: str) -> web.Application:
    app = web.Application()
    app["secret"], app["crm_url"] = secret, crm_url

    async def crm_session(app: web.Application):  # type: ignore[no-untyped-def]
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {crm_token}"}) as http:
            app[CRM] = http
            yield

    app.cleanup_ctx.append(crm_session)
    app.router.add_get("/v1/ws", _socket)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--crm-url", required=True)
    parser.add_argument("--crm-token", required=True)
    parser.add_argument("--secret", required=True)
    args = parser.parse_args()
    web.run_app(
        create_app(args.secret, args.crm_url, args.crm_token),
        host="127.0.0.1",
        port=args.port,
        print=None,
        access_log=None,
    )


if __name__ == "__main__":
    main()
