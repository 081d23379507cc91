"""The catalog's `crm.*` tools performed against the CRM: the production `ToolBackend`.

Every tool is one REST request, described by its `http` binding in config/tools.yaml
(method, path, query, body fields): the customer id always comes from the session,
never from the arguments, and the arguments were checked against the tool's schema
before they get here. So a tool whose request is plain REST needs no code at all.
Only where a result must be reshaped for a narrator to read is there a function here
(`getNextAppointment` → `{"appointment": … | null}`, `deleteTask` →
`{"deleted": true, "task_id": …}`). Failures are the client's `ToolFailure`s.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import lru_cache
from typing import Any

from assistant.errors import ToolFailure
from assistant.schema import CustomerContext, HttpBinding, ToolDefinition
from assistant.tools.catalog import Catalog
from assistant.tools.crm import SYSTEM_NAMES, CrmClient, Json

# The answer as the narrators read it, from the CRM's answer and the call's arguments.
_Shape = Callable[[Json, Mapping[str, Any]], Json]


def _next_appointment(answer: Json, arguments: Mapping[str, Any]) -> Json:
    # The CRM sorts by start time, so the first upcoming one is the next.
    appointments = answer["appointments"]
    return {"appointment": appointments[0] if appointments else None}


def _deleted_task(answer: Json, arguments: Mapping[str, Any]) -> Json:
    return {"deleted": True, "task_id": arguments["task_id"]}


_SHAPES: dict[str, _Shape] = {
    "crm.getNextAppointment": _next_appointment,
    "crm.deleteTask": _deleted_task,
}


class CrmTools:
    """Performs the catalog's bound tools through a `CrmClient` (implements `ToolBackend`)."""

    def __init__(self, client: CrmClient, catalog: Catalog) -> None:
        self._client = client
        self._catalog = catalog

    def supports(self, tool_name: str) -> bool:
        tool = self._catalog.get(tool_name)
        return tool is not None and tool.http is not None and tool.system is not None

    def invoke(
        self,
        tool: ToolDefinition,
        customer_id: str,
        arguments: Mapping[str, Any],
        *,
        idempotency_key: str | None,
        trace_id: str,
    ) -> Awaitable[Json]:
        """The request's coroutine itself (no coroutine around it: every call of every
        turn comes here), or one that reshapes its answer (`_SHAPES`)."""
        binding, system = tool.http, tool.system
        if binding is None or system is None:
            # The app checks `supports` at start, so reaching this is a wiring bug.
            raise ToolFailure("internal", f"no CRM binding for tool {tool.name}")
        request = self._client.request(
            binding.method,
            SYSTEM_NAMES[system],
            (customer_id, *_path(binding, arguments)),
            trace_id=trace_id,
            idempotency_key=idempotency_key if binding.method != "GET" else None,
            params=_query(tool, binding, arguments) or None,
            body=_body(binding, arguments) if binding.method in ("POST", "PATCH") else None,
            expect=binding.expect,
        )
        shape = _SHAPES.get(tool.name)
        return request if shape is None else _shaped(request, shape, arguments)

    # --- session start and the telephony bridge ----------------------------------------

    async def customer_context(self, customer_id: str, trace_id: str) -> CustomerContext:
        """Who a session speaks for, from the CRM profile (ToolFailure when unknown)."""
        return _context(await self._client.get_customer(customer_id, trace_id=trace_id))

    async def find_customer_by_phone(self, e164: str, trace_id: str) -> CustomerContext | None:
        """The customer a caller's number belongs to, or None when no one has it."""
        try:
            profile = await self._client.get_customer_by_phone(e164, trace_id=trace_id)
        except ToolFailure as failure:
            if failure.code == "not_found":
                return None
            raise
        return _context(profile)


async def _shaped(request: Awaitable[Json], shape: _Shape, arguments: Mapping[str, Any]) -> Json:
    return shape(await request, arguments)


def _argument(arguments: Mapping[str, Any], name: str) -> str:
    value = arguments.get(name)
    if not isinstance(value, str) or not value:
        raise ToolFailure("invalid_arguments", f"{name} is required")
    return value


@lru_cache(maxsize=256)
def _path_parts(path: str) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """A binding's path split once: its parts (a `{name}` as the name), and which are
    names to fill from the arguments."""
    parts = [part for part in path.split("/") if part]
    fills = tuple(part.startswith("{") for part in parts)
    names = tuple(part[1:-1] if fill else part for part, fill in zip(parts, fills, strict=True))
    return names, fills


def _path(binding: HttpBinding, arguments: Mapping[str, Any]) -> tuple[str, ...]:
    """The path's parts after the customer id, `{name}` parts filled from the arguments."""
    parts, fills = _path_parts(binding.path)
    if not any(fills):
        return parts  # a collection (most reads): nothing to fill
    filled = zip(parts, fills, strict=True)
    return tuple(_argument(arguments, part) if fill else part for part, fill in filled)


def _query(
    tool: ToolDefinition, binding: HttpBinding, arguments: Mapping[str, Any]
) -> dict[str, str]:
    """Fixed values, and "{name}" from the argument or else its schema default."""
    properties = tool.parameters.get("properties", {})
    query = {}
    for key, value in binding.query.items():
        if value.startswith("{"):
            name = value[1:-1]
            given = arguments.get(name, properties.get(name, {}).get("default"))
            if given is not None:
                query[key] = str(given)
        else:
            query[key] = value
    return query


def _body(binding: HttpBinding, arguments: Mapping[str, Any]) -> Json | None:
    """The listed arguments that were given: None means 'leave unchanged', so not sent."""
    if not binding.body:
        return None
    return {name: arguments[name] for name in binding.body if arguments.get(name) is not None}


def _context(profile: Json) -> CustomerContext:
    customer_id = profile.get("id")
    if not isinstance(customer_id, str):
        raise ToolFailure("internal", "the customer records answered a profile without an id")
    name, timezone = profile.get("name"), profile.get("timezone")
    return CustomerContext(
        customer_id=customer_id,
        name=name if isinstance(name, str) else None,
        timezone=timezone if isinstance(timezone, str) and timezone else "UTC",
    )
