"""DESIGN.md "Running it" and the contracts' defaults: the commands, flags, environment
variables and default limits that people and tools rely on, by the names given there."""

from __future__ import annotations

import pytest

from assistant.__main__ import _parser
from assistant.__main__ import main as assistant_main
from assistant.auth import verify_session
from assistant.settings import load_settings
from assistant.transports.ws import WsTuning
from crm_stub.__main__ import build_parser as crm_stub_parser

SECRET = "s" * 32


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            "serve --host 0.0.0.0 --port 9000 --backend openai --crm-url http://crm:8081 "
            "--crm-port 9001 --config a.toml --record rec --workers 2",
            {
                "command": "serve",
                "host": "0.0.0.0",
                "port": 9000,
                "backend": "openai",
                "crm_url": "http://crm:8081",
                "crm_port": 9001,
                "config": "a.toml",
                "record": "rec",
                "workers": "2",
            },
        ),
        ("token --customer cust_001 --ttl-s 60", {"customer": "cust_001", "ttl_s": 60}),
        (
            "chat --url ws://127.0.0.1:8080/v1/ws --customer cust_002",
            {"url": "ws://127.0.0.1:8080/v1/ws", "customer": "cust_002"},
        ),
        ("replay a.jsonl b.jsonl --update", {"command": "replay", "update": True}),
    ],
    ids=["serve", "token", "chat", "replay"],
)
def test_the_assistant_commands_take_the_flags_the_design_names(
    argv: str, expected: dict[str, object]
) -> None:
    """Each `assistant` command line DESIGN.md shows is accepted, each flag landing as given."""
    args = vars(_parser().parse_args(argv.split()))
    assert {name: args.get(name) for name in expected} == expected


def test_crm_stub_serve_takes_the_flags_the_design_names() -> None:
    """`crm-stub serve --host --port --db --latency-ms --jitter-ms --token` parse, with
    port 8081 by default."""
    parser = crm_stub_parser()
    flags = "--host 0.0.0.0 --port 9100 --db x.db --latency-ms 80 --jitter-ms 20 --token T"
    given = parser.parse_args(["serve", *flags.split(" ")])
    default = parser.parse_args(["serve"])
    assert (given.host, given.port, given.db, given.token) == ("0.0.0.0", 9100, "x.db", "T")
    assert (given.latency_ms, given.jitter_ms) == (80, 20)
    assert default.port == 8081


def test_assistant_token_prints_a_token_the_server_accepts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`assistant token --customer cust_003 --ttl-s 120` prints a token the service (same
    ASSISTANT_SECRET) verifies as cust_003's, expiring 120 s after it was issued."""
    import jwt

    monkeypatch.setenv("ASSISTANT_SECRET", SECRET)

    assert assistant_main(["token", "--customer", "cust_003", "--ttl-s", "120"]) == 0
    token = capsys.readouterr().out.strip()

    server_secret = load_settings().signing_secret(for_server=True)
    assert verify_session(server_secret, token).customer_id == "cust_003"
    claims = jwt.decode(token, options={"verify_signature": False})
    assert (claims["sub"], claims["exp"] - claims["iat"]) == ("cust_003", 120)


@pytest.mark.parametrize(
    ("variable", "value", "setting", "expected"),
    [
        ("ASSISTANT_SECRET", SECRET, "secret", SECRET),
        ("ASSISTANT_BACKEND", "openai", "backend", "openai"),
        ("ASSISTANT_CRM_URL", "http://crm.internal:8081", "crm_url", "http://crm.internal:8081"),
        ("ASSISTANT_CRM_TOKEN", "crm-secret-token", "crm_token", "crm-secret-token"),
        ("ASSISTANT_OPENAI_MODEL", "llama3.1", "openai_model", "llama3.1"),
        ("ASSISTANT_REDIS_URL", "redis://cache:6379/0", "redis_url", "redis://cache:6379/0"),
        ("ASSISTANT_PLATFORM_KEYS", "vapi-key-1,eleven-key-2", "platform_keys", None),
        ("ASSISTANT_RETELL_KEY", "retell-key-1", "retell_key", "retell-key-1"),
        ("ASSISTANT_OTEL_EXPORTER", "otlp", "otel_exporter", "otlp"),
    ],
    ids=lambda value: value if isinstance(value, str) and value.startswith("ASSISTANT") else "",
)
def test_each_environment_variable_the_design_names_sets_its_setting(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, setting: str, expected: str | None
) -> None:
    """Setting one of DESIGN.md's environment variables changes the setting it names."""
    monkeypatch.setenv(variable, value)
    loaded = getattr(load_settings(), setting)
    if setting == "platform_keys":  # comma-separated, several allowed
        assert [key.get_secret_value() for key in loaded] == ["vapi-key-1", "eleven-key-2"]
        return
    plain = loaded.get_secret_value() if hasattr(loaded, "get_secret_value") else loaded
    assert plain == expected


def test_the_defaults_are_the_contracts_numbers() -> None:
    """With no configuration, the limits the contracts state: 2000 characters, 4 calls a
    round, 3 rounds, 4 queued messages, 64 KiB frames, a 10-minute resume window, 10 s
    for session.start, and transferCall as the platforms' transfer tool."""
    settings = load_settings()
    assert (settings.max_text_chars, settings.max_tool_calls_per_round) == (2000, 4)
    assert (settings.max_rounds, settings.max_queued_messages) == (3, 4)
    assert settings.max_frame_bytes == 64 * 1024
    assert settings.resume_window_s == 600
    assert WsTuning().session_start_timeout_s == 10
    assert settings.platform_transfer_tool == "transferCall"
