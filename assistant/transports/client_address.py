"""The client's address behind a load balancer: `X-Forwarded-For`, from trusted proxies only.

Behind a balancer every connection comes from the balancer's address, so the per-address
connection cap (admission.py) would count every customer as one. With
`trusted_proxies` set (ASSISTANT_TRUSTED_PROXIES, comma-separated addresses or networks),
a request whose peer is one of them is counted by the address its `X-Forwarded-For`
gives: walking from the right (the proxies append), the first address that is not a
trusted proxy. Anyone can send the header, so it is never read from an untrusted peer:
a client cannot dodge its cap by naming another address. A header that names nothing
valid leaves the peer's address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler, Middleware

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(values: Sequence[str]) -> tuple[Network, ...]:
    """'10.0.0.0/8', '192.168.1.7', '::1' as networks (settings.py has checked them)."""
    return tuple(ipaddress.ip_network(value, strict=False) for value in values)


def _trusted(address: str | None, networks: Sequence[Network]) -> bool:
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(
    peer: str | None, forwarded_for: Sequence[str], networks: Sequence[Network]
) -> str | None:
    """The client's address: the peer's, unless the peer is a trusted proxy."""
    if not networks or not _trusted(peer, networks):
        return peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer  # a hop that is not an address: the chain cannot be trusted past it
        if not _trusted(hop, networks):
            return hop
    return peer


def forwarded_client_middleware(networks: Sequence[Network]) -> Middleware:
    """Requests from a trusted proxy carry the client's address as `request.remote`."""

    @web.middleware
    async def forwarded_client(request: web.Request, handler: Handler) -> web.StreamResponse:
        remote = request.remote
        if not _trusted(remote, networks):
            return await handler(request)
        address = client_address(remote, request.headers.getall(hdrs.X_FORWARDED_FOR, []), networks)
        if address is None or address == remote:
            return await handler(request)
        return await handler(request.clone(remote=address))

    return forwarded_client


__all__ = ["client_address", "forwarded_client_middleware", "parse_networks"]
