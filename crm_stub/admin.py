"""The admin routes: fault injection, stats, the request log and reset.

For tests, benchmarks and demos. Behind the service token like everything
else, and left out entirely when the app is made with `faults_enabled=False`.
"""

from __future__ import annotations

from aiohttp import web

from crm_stub.errors import InvalidRequest, NotFound
from crm_stub.faults import FaultSpec
from crm_stub.models import parse_body
from crm_stub.seed import build_seed
from crm_stub.state import STATE

routes = web.RouteTableDef()

DEFAULT_LOG_LIMIT = 50
MAX_LOG_LIMIT = 1000


@routes.post("/admin/faults")
async def add_fault(request: web.Request) -> web.Response:
    spec = parse_body(FaultSpec, await request.read())
    fault = request.app[STATE].faults.add(spec)
    return web.json_response(fault.as_json(), status=201)


@routes.get("/admin/faults")
async def list_faults(request: web.Request) -> web.Response:
    active = request.app[STATE].faults.active()
    return web.json_response({"faults": [fault.as_json() for fault in active]})


@routes.delete("/admin/faults")
async def clear_faults(request: web.Request) -> web.Response:
    request.app[STATE].faults.clear()
    return web.Response(status=204)


@routes.delete("/admin/faults/{fid}")
async def remove_fault(request: web.Request) -> web.Response:
    fid = request.match_info["fid"]
    if not request.app[STATE].faults.remove(fid):
        raise NotFound(f"no active fault {fid}")
    return web.Response(status=204)


@routes.post("/admin/faults/{fid}/release")
async def release_fault(request: web.Request) -> web.Response:
    """The requests a `hold` fault holds go on (and those it hits from now on)."""
    fid = request.match_info["fid"]
    if not request.app[STATE].faults.release(fid):
        raise NotFound(f"no hold fault {fid} waiting for its release")
    return web.Response(status=204)


@routes.get("/admin/stats")
async def stats(request: web.Request) -> web.Response:
    state = request.app[STATE]
    return web.json_response(
        {**state.traffic.stats(), "idempotency_in_flight": sorted(state.keys.in_flight)}
    )


@routes.get("/admin/requests")
async def recent_requests(request: web.Request) -> web.Response:
    raw = request.query.get("limit", str(DEFAULT_LOG_LIMIT))
    try:
        limit = int(raw)
    except ValueError:
        raise InvalidRequest(f"limit: {raw!r} is not an integer") from None
    if not 1 <= limit <= MAX_LOG_LIMIT:
        raise InvalidRequest(f"limit: must be between 1 and {MAX_LOG_LIMIT}")
    return web.json_response({"requests": request.app[STATE].traffic.recent(limit)})


@routes.post("/admin/reset")
async def reset(request: web.Request) -> web.Response:
    """Reload the seed; forget stats, the request log, faults and idempotency keys."""
    state = request.app[STATE]
    today = state.today()
    state.store.load_seed(build_seed(today, state.config.zones), today)
    state.traffic.clear()
    state.faults.clear()
    state.keys.clear()
    return web.json_response({"status": "reset", "seeded_on": today.isoformat()})
