"""The chat widget's files over HTTP: `GET /` (the page) and `GET /static/{name}`.

The widget has no build step: assistant/web/ holds the HTML, CSS and JavaScript
modules as they are served. Only the files present at start-up are served, by name,
so a request can never reach outside that folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from aiohttp import web

WEB_DIR: Final = Path(__file__).resolve().parents[1] / "web"

_CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}

# The page talks only to its own origin (the websocket included).
_PAGE_POLICY: Final = (
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def _asset_headers(path: Path) -> dict[str, str]:
    return {
        "Content-Type": _CONTENT_TYPES[path.suffix],
        # Revalidate every time: a new release must not meet a stale module in a cache.
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        # Other sites embed the widget by importing widget.js from here; module scripts
        # loaded across origins need CORS. The assets are public, so any origin may.
        "Access-Control-Allow-Origin": "*",
    }


def _assets(folder: Path) -> dict[str, Path]:
    return {
        path.name: path
        for path in folder.iterdir()
        if path.is_file() and path.suffix in _CONTENT_TYPES and path.name != "index.html"
    }


def setup_web_routes(app: web.Application, folder: Path = WEB_DIR) -> None:
    """Registers `GET /` (the chat page) and `GET /static/{name}` (its assets)."""
    index = folder / "index.html"
    assets = _assets(folder)

    async def page(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(
            index,
            headers={
                "Content-Type": _CONTENT_TYPES[".html"],
                "Cache-Control": "no-cache",
                "Content-Security-Policy": _PAGE_POLICY,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
            },
        )

    async def asset(request: web.Request) -> web.StreamResponse:
        path = assets.get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound(text="no such file", content_type="text/plain")
        return web.FileResponse(path, headers=_asset_headers(path))

    app.router.add_get("/", page)
    app.router.add_get("/static/{name}", asset)
