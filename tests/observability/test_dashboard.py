"""The Grafana dashboard and the compose profile that provisions it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from assistant.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "assistant.json"
_SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}


def exposed_names() -> set[str]:
    """Every series name the app's /metrics can show."""
    names: set[str] = set()
    for family in Metrics().registry.collect():
        names.update(family.name + suffix for suffix in _SUFFIXES.get(family.type, ("",)))
    return names


def queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [t["expr"] for p in dashboard["panels"] for t in p["targets"]]


def metric_names(expr: str) -> set[str]:
    without_labels = re.sub(r"\{[^}]*\}|by \([^)]*\)|\[[^\]]*\]", " ", expr)
    words = set(re.findall(r"[a-z_][a-z0-9_]*", without_labels))
    return {w for w in words if "_" in w and w not in {"histogram_quantile"}}


def test_every_query_names_a_metric_the_app_exposes() -> None:
    """No panel stays empty because of a misspelt series: each one /metrics really has."""
    exposed = exposed_names()
    used = set().union(*(metric_names(expr) for expr in queries()))
    assert used and used <= exposed, used - exposed


def test_the_dashboard_covers_what_operators_ask() -> None:
    """Turns by status, turn and ack p50/p99, tool outcomes, truncations, breakers, sessions."""
    text = "\n".join(queries())
    for needle in (
        "sum by (status) (rate(turn_count_total",
        "histogram_quantile(0.5, sum by (le) (rate(turn_seconds_bucket",
        "histogram_quantile(0.99, sum by (le) (rate(turn_seconds_bucket",
        "histogram_quantile(0.99, sum by (le) (rate(ack_seconds_bucket",
        "sum by (outcome) (rate(tool_call_count_total",
        "tool_call_truncated_total",
        "circuit_state",
        "active_sessions",
    ):
        assert needle in text, needle


def test_compose_profile_provisions_prometheus_and_grafana() -> None:
    """`docker compose --profile observability up` mounts files that exist, and Grafana's
    provider reads the directory holding the dashboard."""
    compose: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    profiled = {name for name, s in services.items() if "observability" in s.get("profiles", [])}
    assert profiled == {"prometheus", "grafana"}
    mounts: dict[str, str] = {}
    for name in profiled:
        for volume in services[name]["volumes"]:
            source, target = volume.split(":")[:2]
            assert (ROOT / source).exists(), source
            mounts[target] = source
    provider = yaml.safe_load(
        (ROOT / "deploy/grafana/provisioning/dashboards/assistant.yaml").read_text()
    )
    folder = provider["providers"][0]["options"]["path"]
    assert (ROOT / mounts[folder] / DASHBOARD.name).is_file()
    scrape = yaml.safe_load((ROOT / "deploy/prometheus.yml").read_text())
    assert scrape["scrape_configs"][0]["metrics_path"] == "/metrics"
