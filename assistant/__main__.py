"""The `assistant` command: serve, token, chat, replay."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sys
from pathlib import Path
from typing import Any

from assistant.errors import ConfigError
from assistant.settings import Settings, load_settings

log = logging.getLogger("assistant")


def _settings(args: argparse.Namespace, **overrides: Any) -> Settings:
    config = Path(args.config) if getattr(args, "config", None) else None
    return load_settings(config, **overrides)


def _serve(args: argparse.Namespace) -> int:
    from assistant.logs import configure_logging

    settings = _settings(
        args,
        host=args.host,
        port=args.port,
        backend=args.backend,
        crm_url=args.crm_url,
        crm_port=args.crm_port,
        # A directory named on the command line is relative to where the command runs.
        record_dir=str(Path(args.record).resolve()) if args.record else None,
        demo=True if args.demo else None,
    )
    configure_logging(settings.log_level)
    settings.signing_secret(for_server=True)  # no secret outside demo mode: stop here
    if not args.reuse_port:
        from assistant.workers import serve_workers, worker_count

        try:
            workers = worker_count(args.workers)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if workers > 1:
            return serve_workers(settings, workers, _worker_argv(sys.argv[1:]))
    # Only a server imports the app (most of a second of CPU): a supervisor of workers
    # starts them the sooner without it.
    from aiohttp import web

    from assistant import tracing
    from assistant.app import create_app
    from assistant.memory import settle_after_start

    if settings.demo:
        log.warning(
            "demo mode: session tokens are signed with the fixed development secret and "
            "/v1/demo/token hands them out; never run demo mode in production"
        )
    app = create_app(settings)
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    worker = os.environ.get("ASSISTANT_WORKER")
    who = f"Assistant worker {worker}" if args.reuse_port and worker else "Assistant"
    banner = (
        f"{who} on http://{host}:{settings.port}/ (websocket ws://{host}:{settings.port}"
        "/v1/ws); Ctrl-C to stop."
    )
    tracing.configure(settings.otel_exporter)

    async def settle(_app: web.Application) -> None:
        settle_after_start()

    app.on_startup.append(settle)
    try:
        # run_app calls `print` once the port is bound: the banner never announces a
        # server that failed to start.
        web.run_app(
            app,
            host=settings.host,
            port=settings.port,
            print=lambda _: print(banner, flush=True),
            access_log=None,
            reuse_port=args.reuse_port or None,
        )
    except OSError as exc:
        if exc.errno not in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL):
            raise
        print(f"error: {_bind_problem(exc.errno, settings.host, settings.port)}", file=sys.stderr)
        return 2
    finally:
        tracing.shutdown()
    return 0


def _worker_argv(argv: list[str]) -> list[str]:
    """The command line for each worker: the same, without `--workers`."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--workers":
            skip = True
            continue
        if arg.startswith("--workers="):
            continue
        kept.append(arg)
    return kept


def _bind_problem(code: int | None, host: str, port: int) -> str:
    if code == errno.EADDRINUSE:
        return (
            f"port {port} on {host} is already in use (another assistant?); stop that "
            f"process or pick another port with --port"
        )
    if code == errno.EACCES:
        return f"not allowed to listen on port {port}; use a port above 1023 with --port"
    return f"cannot listen on {host}: no such address on this machine; check --host"


def _token(args: argparse.Namespace) -> int:
    from assistant.auth import mint_call_token, mint_token

    settings = _settings(args)
    if settings.secret is None:
        print(
            "warning: ASSISTANT_SECRET is not set; signing with the development secret, "
            "which only a demo-mode server accepts",
            file=sys.stderr,
        )
    secret = settings.signing_secret(for_server=False)
    if args.call_sid:
        # A per-call token for the ConversationRelay URL (`?call_token=…`).
        ttl_s = args.ttl_s or settings.relay_call_token_ttl_s
        print(mint_call_token(secret, args.call_sid, args.caller or "", ttl_s))
        return 0
    ttl_s = args.ttl_s or settings.session_token_ttl_s
    print(mint_token(secret, args.customer, ttl_s))
    return 0


def _chat(args: argparse.Namespace) -> int:
    from assistant import chat

    return chat.run(args)


def _replay(args: argparse.Namespace) -> int:
    from assistant import replay

    return replay.run(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="assistant", description="A voice and chat assistant for CRM customers."
    )
    parser.add_argument("--config", help="a TOML settings file (overrides config/default.toml)")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the assistant service")
    serve.add_argument("--host", default=None, help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port to listen on (8080)")
    serve.add_argument(
        "--backend", choices=["embedded", "openai", "replay"], default=None, help="the models"
    )
    serve.add_argument("--crm-url", default=None, help="an external CRM (default: in-process)")
    serve.add_argument(
        "--crm-port", type=int, default=None, help="port of the in-process CRM stub (8081)"
    )
    # SUPPRESS as the default: `assistant --config X serve` keeps X.
    serve.add_argument(
        "--config",
        default=argparse.SUPPRESS,
        metavar="PATH",
        help="a TOML settings file (overrides config/default.toml)",
    )
    serve.add_argument("--record", default=None, metavar="DIR", help="record sessions here")
    serve.add_argument("--demo", action="store_true", help="demo mode (development secret)")
    serve.add_argument(
        "--workers",
        default="1",
        metavar="N",
        help="processes sharing the port, each its own event loop: a number, or 'auto' "
        "for one per core (1)",
    )
    # Set by the supervisor of --workers on each worker it starts.
    serve.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    serve.set_defaults(handler=_serve)

    token = commands.add_parser(
        "token", help="print a session token for a customer, or a call token for a phone call"
    )
    whom = token.add_mutually_exclusive_group(required=True)
    whom.add_argument("--customer", help="a session token naming this customer")
    whom.add_argument("--call-sid", help="a call token admitting this telephony call")
    token.add_argument("--caller", default=None, help="with --call-sid: the caller's number")
    token.add_argument("--ttl-s", type=int, default=None)
    token.set_defaults(handler=_token)

    chat = commands.add_parser("chat", help="talk to a running assistant in the terminal")
    try:
        from assistant.chat import add_arguments
    except ImportError:  # pragma: no cover - only while the client is being written
        chat.add_argument("--url", default="ws://127.0.0.1:8080/v1/ws")
        chat.add_argument("--customer", default="cust_001")
        chat.add_argument("--token", default=None)
    else:
        add_arguments(chat)
    chat.set_defaults(handler=_chat)

    replay = commands.add_parser("replay", help="replay recorded conversations")
    try:
        from assistant.replay import add_arguments as add_replay_arguments
    except ImportError:  # pragma: no cover - only while replay is being written
        replay.add_argument("paths", nargs="+")
    else:
        add_replay_arguments(replay)
    replay.set_defaults(handler=_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
