"""The tool catalog: config/tools.yaml loaded, validated, and used to check arguments."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError
from pydantic import ValidationError

from assistant.errors import ConfigError
from assistant.language.address import mail_can_reach
from assistant.schema import ToolDefinition

# Keys naming a customer, in any casing or separator style ("customerId", "customer_id").
_CUSTOMER_KEY = re.compile(r"^customer[_-]?id$", re.IGNORECASE)
# The formats arguments are checked against: an email's is the shape mail can reach, not
# JSON Schema's "has an @" ("maria..new@example.com" passed and would have been asked
# about and written).
_FORMATS = FormatChecker()


@_FORMATS.checks("email")
def _an_email(instance: object) -> bool:
    return not isinstance(instance, str) or mail_can_reach(instance)


@dataclass(frozen=True, slots=True)
class _Entry:
    definition: ToolDefinition
    validator: Draft202012Validator


class Catalog:
    """The validated tools, by name, in catalog order."""

    def __init__(self, tools: Iterable[ToolDefinition], *, digest: str = "") -> None:
        self._entries: dict[str, _Entry] = {}
        for tool in tools:
            if tool.name in self._entries:
                raise ConfigError(f"tool catalog: duplicate tool name {tool.name!r}")
            try:
                Draft202012Validator.check_schema(tool.parameters)
            except SchemaError as exc:
                raise ConfigError(
                    f"tool catalog: {tool.name}.parameters is not a valid JSON Schema: "
                    f"{exc.message}"
                ) from exc
            if tool.parameters.get("type") != "object":
                raise ConfigError(f"tool catalog: {tool.name}.parameters must be of type object")
            if any(_CUSTOMER_KEY.match(key) for key in tool.parameters.get("properties", {})):
                raise ConfigError(
                    f"tool catalog: {tool.name} must not take the customer id as a parameter; "
                    "the engine binds it from the session"
                )
            first_word = tool.waiting_hint.split()[0]
            if not first_word.endswith("ing"):
                raise ConfigError(
                    f"tool catalog: {tool.name}.waiting_hint must be a gerund phrase "
                    f"such as 'checking your billing', got {tool.waiting_hint!r}"
                )
            _check_binding(tool)
            validator = Draft202012Validator(tool.parameters, format_checker=_FORMATS)
            self._entries[tool.name] = _Entry(tool, validator)
        self.digest = digest

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, name: str) -> ToolDefinition | None:
        entry = self._entries.get(name)
        return entry.definition if entry else None

    @property
    def tools(self) -> tuple[ToolDefinition, ...]:
        return tuple(entry.definition for entry in self._entries.values())

    def argument_error(self, name: str, arguments: Mapping[str, Any]) -> str | None:
        """A message naming what is wrong with `arguments`, or None when they are valid."""
        entry = self._entries.get(name)
        if entry is None:
            return f"unknown tool {name!r}"
        error = next(iter(entry.validator.iter_errors(dict(arguments))), None)
        if error is None:
            return None
        where = ".".join(str(part) for part in error.absolute_path)
        return f"{name}: {where + ': ' if where else ''}{error.message}"


def _check_binding(tool: ToolDefinition) -> None:
    """A binding names only the tool's own parameters, and says which system it touches."""
    binding = tool.http
    if binding is None:
        return
    if tool.system is None:
        raise ConfigError(f"tool catalog: {tool.name} has an http binding but no system")
    named = [part[1:-1] for part in binding.path.split("/") if part.startswith("{")]
    named += [value[1:-1] for value in binding.query.values() if value.startswith("{")]
    named += list(binding.body)
    properties = tool.parameters.get("properties", {})
    unknown = [name for name in named if name not in properties]
    if unknown:
        raise ConfigError(
            f"tool catalog: {tool.name}.http names {', '.join(unknown)}, "
            "which are not among its parameters"
        )


def bind_customer(
    arguments: Mapping[str, Any], customer_id: str | None
) -> tuple[dict[str, Any], bool]:
    """Strip customer keys from a model's arguments; True when one names another customer.

    The customer id is never a model argument: a key repeating the session's own
    customer is harmless and dropped, a key naming anyone else refuses the call.
    """
    cleaned: dict[str, Any] = {}
    refused = False
    for key, value in arguments.items():
        if _CUSTOMER_KEY.match(str(key)):
            refused = refused or value != customer_id
        else:
            cleaned[key] = value
    return cleaned, refused


# libyaml's loader when PyYAML was built with it (the wheels are): ten times the speed of
# the pure-Python one, the same documents and errors.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Catalogs already validated in this process, by their text: every app a process makes
# (the test suite makes hundreds) reads the same file, and validating it is ~40 ms.
_LOADED: dict[str, Catalog] = {}


def load_catalog(path: Path) -> Catalog:
    """Load and validate the catalog; a broken file raises ConfigError naming the problem."""
    try:
        raw_text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"tool catalog: cannot read {path}: {exc.strerror}") from exc
    if (known := _LOADED.get(raw_text)) is not None:
        return known
    catalog = _validated(path, raw_text)
    _LOADED[raw_text] = catalog
    return catalog


def _validated(path: Path, raw_text: str) -> Catalog:
    try:
        document = yaml.load(raw_text, Loader=_YAML_LOADER)
    except yaml.YAMLError as exc:
        raise ConfigError(f"tool catalog: {path} is not valid YAML: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("tools"), list):
        raise ConfigError(f"tool catalog: {path} must have a 'tools' list")
    defaults = document.get("defaults") or {}
    tools = []
    for index, raw in enumerate(document["tools"]):
        if not isinstance(raw, dict):
            raise ConfigError(f"tool catalog: tools[{index}] must be a mapping")
        merged = {**defaults.get(raw.get("effect"), {}), **raw}
        label = raw.get("name", f"tools[{index}]")
        try:
            tools.append(ToolDefinition.model_validate(merged))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ConfigError(f"tool catalog: {label}.{where}: {first['msg']}") from exc
    return Catalog(tools, digest=hashlib.sha256(raw_text.encode()).hexdigest()[:16])
