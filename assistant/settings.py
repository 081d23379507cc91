"""Settings: config/default.toml, then `--config`, then ASSISTANT_* variables, then flags.

Read only here. An invalid value stops the start with a message naming the setting.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from assistant.errors import ConfigError

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = PROJECT_ROOT / "config" / "default.toml"
# Accepted only in demo mode: anyone who reads this file can mint tokens with it.
DEV_SECRET = "dev-secret-demo-mode-only-0123456789abcdef"
# The CRM stub's default service token: for demo mode only (app.crm_service_token).
DEV_CRM_TOKEN = "dev-crm-token"

log = logging.getLogger(__name__)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ASSISTANT_", extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535)
    demo: bool = False
    backend: Literal["embedded", "openai", "replay"] = "embedded"
    secret: SecretStr | None = None
    crm_url: str = ""
    crm_port: int = Field(8081, ge=0, le=65535)
    crm_token: SecretStr = SecretStr(DEV_CRM_TOKEN)
    crm_db: str = "var/crm.db"
    allowed_origins: Annotated[list[str], NoDecode] = []
    tools_path: Path = Path("config/tools.yaml")
    record_dir: str = ""

    max_tool_calls_per_round: int = Field(4, ge=1, le=16)
    max_rounds: int = Field(3, ge=1, le=8)
    turn_deadline_s: float = Field(8.0, gt=0, le=120)
    dedupe_calls: bool = True
    confirmation_ttl_s: float = Field(300.0, gt=0)
    # Bookings and moves further ahead than this are refused before the CRM is called.
    booking_horizon_days: int = Field(365, ge=1, le=3650)
    # The same write asked again within this many seconds is asked about first.
    duplicate_window_s: float = Field(600.0, ge=0)
    # Latency with streaming models: reads start as their calls stream in; when some
    # results are in and a call has run this long, the answer begins with what is
    # ready (0: wait for all); a model's answer is spoken as it is written.
    start_tools_early: bool = True
    progress_after_s: float = Field(1.5, ge=0, le=60)
    stream_answers: bool = True
    # Shares of the turn deadline kept for the tools and for the answer (engine.py).
    turn_tool_reserve_s: float = Field(2.0, ge=0)
    turn_answer_reserve_s: float = Field(2.0, ge=0)

    max_text_chars: int = Field(2000, ge=1)
    max_frame_bytes: int = Field(65536, ge=1024)
    max_queued_messages: int = Field(4, ge=0)
    session_token_ttl_s: int = Field(3600, ge=1)
    session_messages_per_minute: float = Field(30, gt=0)
    customer_messages_per_minute: float = Field(60, gt=0)
    heartbeat_s: float = Field(20.0, gt=0)
    # Abuse limits: refused before the upgrade (503 when full, 429 for one address or
    # customer), so no client can run the server out of file descriptors.
    max_connections: int = Field(1000, ge=1)
    max_connections_per_address: int = Field(50, ge=1)
    max_sessions_per_customer: int = Field(10, ge=1)
    # Load balancers whose X-Forwarded-For names the client (addresses or networks,
    # comma-separated): the per-address cap counts clients, not the balancer. Only their
    # header is believed (transports/client_address.py).
    trusted_proxies: Annotated[list[str], NoDecode] = []
    # A client that does not read: one send may wait this long, and this many frames
    # may wait behind it, before the socket is closed.
    send_timeout_s: float = Field(10.0, gt=0)
    max_outgoing_frames: int = Field(256, ge=8)
    # A session ends at its token's expiry, and after this long whatever the token says.
    max_session_lifetime_s: float = Field(43200.0, gt=0)
    # Stopping the server: how long in-flight turns get to finish before sockets close.
    shutdown_grace_s: float = Field(10.0, gt=0)

    # The CRM: every request has a timeout; a bulkhead keeps one route (or one customer)
    # from taking the whole connection pool; session set-up waits only so long for the
    # profile and goes on without it.
    crm_timeout_s: float = Field(5.0, gt=0)
    crm_setup_timeout_s: float = Field(2.0, gt=0)
    crm_pool_size: int = Field(100, ge=2)
    crm_route_concurrency: int = Field(40, ge=1)
    crm_customer_concurrency: int = Field(8, ge=1)

    breaker_failure_threshold: int = Field(5, ge=1)
    breaker_cooldown_s: float = Field(15.0, gt=0)

    openai_model: str = "gpt-4o-mini"
    openai_timeout_s: float = Field(10.0, gt=0)
    openai_max_retries: int = Field(2, ge=0, le=10)
    openai_temperature: float = Field(0.2, ge=0, le=2)

    twilio_auth_token: SecretStr | None = None
    public_url: str = ""
    # Telephony hardening: a per-call token in the ConversationRelay URL (required when
    # set), how long one stays valid, how many call sids are remembered against
    # replays, how long `setup` may take, and the bound on a caller's partial prompts.
    relay_call_token_required: bool = False
    relay_call_token_ttl_s: int = Field(120, ge=5)
    relay_seen_calls: int = Field(10000, ge=10)
    relay_setup_timeout_s: float = Field(10.0, gt=0)
    relay_max_partial_chars: int = Field(8000, ge=100)
    relay_max_partial_prompts: int = Field(200, ge=1)

    # Voice platforms (shared/PLATFORMS.md): keys a platform sends as its Bearer token on
    # /v1/chat/completions (comma-separated, several allowed), the tool call that asks it
    # to transfer, how long a platform conversation is kept after its last request, and
    # Retell's websocket key (in its URL) and transfer number ("" ends the call instead).
    platform_keys: Annotated[list[SecretStr], NoDecode] = []
    platform_transfer_tool: str = Field("transferCall", pattern=r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
    platform_idle_s: float = Field(900.0, gt=0)
    # A platform sends the whole conversation every time (Vapi's messages with its system
    # prompt, Retell's transcript): a long call outgrows the websocket's 64 KiB frames, and
    # a 413 or a 1009 there would drop the call. The turn's own text still has
    # max_text_chars.
    platform_max_body_bytes: int = Field(1_048_576, ge=1024)
    retell_key: SecretStr | None = None
    retell_transfer_number: str = ""

    # Admission control: past this many turns in flight, or this much event-loop lag, a
    # worker answers new messages `busy` and new connections 503 (transports/saturation.py).
    # The default matches the CRM bulkhead's per-route cap: more turns in flight than a
    # route may have requests only queue there and miss their deadline (bench/load.py).
    saturation_turns_in_flight: int = Field(40, ge=1)
    # Smoothed lateness of the event loop. Lower keeps accepted turns faster under
    # overload, but a busy moment (a long collection, a burst of sessions opening) then
    # refuses people too: at 50 ms the test suite's own sessions were refused.
    saturation_loop_lag_ms: float = Field(250.0, gt=0)

    # Shared state for several workers or instances (rate limits, replay guard,
    # sessions): redis://host:port/db. Empty: this process's memory.
    redis_url: str = ""
    # How long a session is kept after its last turn, so a reconnect resumes it.
    resume_window_s: float = Field(600.0, gt=0)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Traces: the OTLP endpoint comes from OpenTelemetry's own OTEL_EXPORTER_OTLP_* variables.
    otel_exporter: Literal["none", "console", "otlp"] = "none"

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [origin.strip().rstrip("/") for origin in value.split(",") if origin.strip()]
        return value

    @field_validator("platform_keys", mode="before")
    @classmethod
    def _split_keys(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [key.strip() for key in value.split(",") if key.strip()]
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [proxy.strip() for proxy in value.split(",") if proxy.strip()]
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_networks(cls, value: list[str]) -> list[str]:
        for proxy in value:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"{proxy!r} is not an IP address or network") from None
        return value

    @field_validator("secret", "twilio_auth_token", "retell_key", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        return None if value == "" else value

    @model_validator(mode="after")
    def _secret_outside_demo(self) -> Settings:
        if self.secret is not None and len(self.secret.get_secret_value()) < 32:
            raise ValueError("secret: ASSISTANT_SECRET must be at least 32 characters")
        return self

    @model_validator(mode="after")
    def _bulkhead_below_pool(self) -> Settings:
        if self.crm_route_concurrency >= self.crm_pool_size:
            raise ValueError(
                "crm_route_concurrency: must be below crm_pool_size, or one slow CRM route "
                "can take every connection"
            )
        return self

    @property
    def public_origin(self) -> str:
        """The service's own origin from ASSISTANT_PUBLIC_URL ("" when not configured)."""
        url = self.public_url.strip().rstrip("/")
        scheme, sep, rest = url.partition("://")
        if not sep:
            return ""
        scheme = {"wss": "https", "ws": "http"}.get(scheme.lower(), scheme.lower())
        return f"{scheme}://{rest.split('/', 1)[0]}"

    def resolve(self, path: Path | str) -> Path:
        """A configured relative path, relative to the project root."""
        path = Path(path)
        return path if path.is_absolute() else PROJECT_ROOT / path

    def signing_secret(self, *, for_server: bool) -> str:
        """The token secret. Without ASSISTANT_SECRET only demo mode may use the dev one."""
        if self.secret is not None:
            return self.secret.get_secret_value()
        if for_server and not self.demo:
            raise ConfigError(
                "secret: ASSISTANT_SECRET must be set (32+ characters) outside demo mode; "
                "pass --demo to use the development secret"
            )
        return DEV_SECRET


@functools.lru_cache(maxsize=16)
def _settings_from(files: tuple[Path, ...]) -> type[Settings]:
    """Settings read from `files` (the last first), under the environment and the flags.
    One class per set of files: pydantic builds a class's validators when it is made, a
    cost paid at every load when it was made inside `load_settings`. The files themselves
    are read at every load."""

    class _Loaded(Settings):
        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            tomls = [TomlConfigSettingsSource(settings_cls, toml_file=f) for f in files]
            return (init_settings, env_settings, *reversed(tomls))

    return _Loaded


def load_settings(config: Path | None = None, **overrides: Any) -> Settings:
    """Settings from defaults, config files, environment and explicit overrides (flags)."""
    files = (DEFAULT_CONFIG, *([config] if config else []))
    for file in files:
        if not file.is_file():
            raise ConfigError(f"config: {file} does not exist")
    try:
        return _settings_from(files)(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ".".join(str(part) for part in first["loc"])
        if not name:  # a check across settings: its message names them itself
            message = str(first["msg"]).removeprefix("Value error, ")
            raise ConfigError(f"setting {message}") from exc
        env = f"ASSISTANT_{name.upper()}"
        raise ConfigError(f"setting {name} ({env}): {first['msg']}") from exc
    except ValueError as exc:  # a TOML syntax error
        raise ConfigError(f"config: {exc}") from exc
