"""Settings and the tool catalog: invalid input stops the start with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.errors import ConfigError
from assistant.settings import load_settings
from assistant.tools.catalog import load_catalog

CATALOG = Path(__file__).resolve().parents[2] / "config" / "tools.yaml"
DESIGN_TOOLS = {
    "crm.getCustomerProfile",
    "crm.listUpcomingAppointments",
    "crm.getNextAppointment",
    "crm.bookAppointment",
    "crm.rescheduleAppointment",
    "crm.cancelAppointment",
    "crm.getOpenInvoices",
    "crm.listTasks",
    "crm.addTask",
    "crm.completeTask",
    "crm.updateTask",
    "crm.deleteTask",
    "crm.listOpenTickets",
    "crm.createTicket",
    "crm.updateContactInfo",
}


def test_the_catalog_has_every_tool_of_the_design() -> None:
    """Every tool the design names is in config/tools.yaml, destructive ones marked."""
    catalog = load_catalog(CATALOG)
    assert {tool.name for tool in catalog.tools} >= DESIGN_TOOLS
    destructive = {tool.name for tool in catalog.tools if tool.effect == "destructive"}
    assert destructive == {"crm.cancelAppointment", "crm.deleteTask"}


def test_a_broken_catalog_names_the_tool_and_field(tmp_path: Path) -> None:
    """A hint that is not a gerund phrase is refused, naming the tool."""
    broken = tmp_path / "tools.yaml"
    broken.write_text(
        "tools:\n  - name: crm.x\n    description: d\n    effect: read\n    timeout_s: 1\n"
        "    waiting_hint: your billing\n    parameters: {type: object}\n"
    )
    with pytest.raises(ConfigError, match=r"crm\.x\.waiting_hint"):
        load_catalog(broken)


def test_a_catalog_missing_a_field_names_it(tmp_path: Path) -> None:
    """A tool missing required fields: the message says which tool and which field."""
    broken = tmp_path / "tools.yaml"
    broken.write_text("tools:\n  - name: crm.y\n    description: d\n    waiting_hint: checking\n")
    with pytest.raises(ConfigError, match=r"crm\.y\.\w+: Field required"):
        load_catalog(broken)


def test_a_customer_id_parameter_is_refused(tmp_path: Path) -> None:
    """The customer id is never a model argument, not even by configuration."""
    broken = tmp_path / "tools.yaml"
    broken.write_text(
        "tools:\n  - name: crm.z\n    description: d\n    effect: read\n    timeout_s: 1\n"
        "    waiting_hint: checking it\n"
        "    parameters: {type: object, properties: {customerId: {type: string}}}\n"
    )
    with pytest.raises(ConfigError, match="customer id"):
        load_catalog(broken)


def test_arguments_are_checked_against_the_schema() -> None:
    """A wrong enum value is reported with the argument's name."""
    catalog = load_catalog(CATALOG)
    message = catalog.argument_error("crm.addTask", {"title": "x", "priority": "urgent"})
    assert message is not None
    assert "priority" in message
    assert catalog.argument_error("crm.addTask", {"title": "x", "priority": "high"}) is None


def test_an_invalid_environment_setting_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """ASSISTANT_PORT=abc stops the start with a message naming the variable."""
    monkeypatch.setenv("ASSISTANT_PORT", "abc")
    with pytest.raises(ConfigError, match="ASSISTANT_PORT"):
        load_settings()


def test_allowed_origins_come_comma_separated(monkeypatch: pytest.MonkeyPatch) -> None:
    """ASSISTANT_ALLOWED_ORIGINS takes a comma-separated list."""
    monkeypatch.setenv("ASSISTANT_ALLOWED_ORIGINS", "https://a.example, https://b.example/")
    assert load_settings().allowed_origins == ["https://a.example", "https://b.example"]


def test_a_trusted_proxy_that_is_not_an_address_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """ASSISTANT_TRUSTED_PROXIES with a typo stops the start naming the bad entry."""
    monkeypatch.setenv("ASSISTANT_TRUSTED_PROXIES", "10.0.0.0/8, 10.0.0.300")
    with pytest.raises(ConfigError, match=r"ASSISTANT_TRUSTED_PROXIES.*'10\.0\.0\.300'"):
        load_settings()


def test_outside_demo_mode_a_secret_is_required() -> None:
    """No ASSISTANT_SECRET and no demo mode: the server refuses to start."""
    settings = load_settings(demo=False, secret="")
    with pytest.raises(ConfigError, match="ASSISTANT_SECRET"):
        settings.signing_secret(for_server=True)


def test_a_missing_config_file_is_named(tmp_path: Path) -> None:
    """--config pointing nowhere says which file."""
    with pytest.raises(ConfigError, match=r"nowhere\.toml"):
        load_settings(tmp_path / "nowhere.toml")
