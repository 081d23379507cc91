"""Tool names on the wire: catalog names mapped to what OpenAI-style APIs accept, and back.

OpenAI (and every server copying its validation) rejects a function name that does not
match `^[a-zA-Z0-9_-]{1,64}$`, so `crm.getOpenInvoices` travels as `crm_getOpenInvoices`.
The mapping is built from one tool list so that it is reversible; a name the model made
up passes back unchanged, and the engine answers it as an unknown tool.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

MAX_NAME_LENGTH = 64
_INVALID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
WIRE_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def sanitize_name(name: str) -> str:
    """A name the API accepts, as close to `name` as possible (any input, even empty)."""
    cleaned = _INVALID_CHARS.sub("_", name)[:MAX_NAME_LENGTH]
    return cleaned or "unnamed_tool"


def _disambiguate(name: str, wire: str) -> str:
    # Two catalog names that sanitise alike ("crm.a" and "crm_a") get a suffix derived
    # from the original name, so the result does not depend on catalog order.
    suffix = "_" + hashlib.sha256(name.encode()).hexdigest()[:8]
    return wire[: MAX_NAME_LENGTH - len(suffix)] + suffix


class ToolNames:
    """A two-way map between catalog tool names and API function names."""

    def __init__(self, catalog_names: Iterable[str]) -> None:
        self._to_wire: dict[str, str] = {}
        self._to_catalog: dict[str, str] = {}
        for name in catalog_names:
            wire = sanitize_name(name)
            if wire in self._to_catalog and self._to_catalog[wire] != name:
                wire = _disambiguate(name, wire)
            self._to_wire[name] = wire
            self._to_catalog[wire] = name

    def to_wire(self, name: str) -> str:
        """The API name of a catalog tool; any other name is sanitised so history stays valid."""
        return self._to_wire.get(name) or sanitize_name(name)

    def to_catalog(self, wire: str) -> str:
        """The catalog name the model meant; names it made up pass through unchanged."""
        if wire in self._to_catalog:
            return self._to_catalog[wire]
        # Some models echo the dotted catalog name from the description; accept it as is.
        return wire
