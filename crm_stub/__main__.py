"""The `crm-stub` command line.

crm-stub serve [--host] [--port] [--db] [--latency-ms] [--jitter-ms] [--token]
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from aiohttp import web

from crm_stub.app import DEFAULT_TOKEN, create_app

DEFAULT_DB = "var/crm.db"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="crm-stub", description="The CRM stub (CRM_API.md).")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the CRM API over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8081)
    serve.add_argument("--db", default=DEFAULT_DB, help="SQLite file, or :memory:")
    serve.add_argument("--latency-ms", type=_non_negative, default=0.0)
    serve.add_argument("--jitter-ms", type=_non_negative, default=0.0)
    serve.add_argument(
        "--token",
        default=os.environ.get("CRM_STUB_TOKEN", DEFAULT_TOKEN),
        help="service token clients send as Bearer (env CRM_STUB_TOKEN)",
    )
    serve.add_argument("--reseed", action="store_true", help="reload the seed data at start")
    serve.add_argument(
        "--no-admin", action="store_true", help="leave out /admin (fault injection, stats)"
    )
    return parser


def _non_negative(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    app = create_app(
        db_path=args.db,
        token=args.token,
        latency_ms=args.latency_ms,
        jitter_ms=args.jitter_ms,
        faults_enabled=not args.no_admin,
        reseed=args.reseed,
    )
    print(f"CRM stub on http://{args.host}:{args.port} (db {args.db})", flush=True)
    # Hung requests are released on shutdown; no need to wait a minute for them.
    web.run_app(app, host=args.host, port=args.port, print=None, shutdown_timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
