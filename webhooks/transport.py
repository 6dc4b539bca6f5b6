"""The HTTP client deliveries go through: it connects to exactly the addresses it checked.

Checking a name's addresses and then letting the HTTP client look the name up again to
connect would let a DNS server answer a public address to the check and a private one
to the connection (DNS rebinding). Here the name is looked up once for each new
connection, every address it has is checked (addresses.resolved), and the socket is
opened to those addresses themselves, the next one when one does not answer. Nothing
else changes: the Host header is the URL's, and for https the TLS server name (SNI) and
the certificate check are the host name's (httpcore starts TLS with the URL's host,
whichever address the socket reached). A kept-alive connection stays on the address it
was opened to.

Deliveries go straight to the receiver: no proxy, the HTTP(S)_PROXY variables included
(httpx ignores them once it is handed a transport). A proxy would look the name up
again itself; an egress firewall or proxy that refuses private destinations is what an
operator adds for a second line (docs/operations.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx
from django.conf import settings

from . import addresses

# httpx's default limits, which a pool built here does not get by itself (httpcore's
# own defaults keep idle connections forever).
LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20, keepalive_expiry=5.0)


class CheckedBackend(httpcore.SyncBackend):
    """Opens TCP connections only to the checked addresses of the host asked for."""

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        failure: Exception | None = None
        for address in addresses.resolved(host, port):
            try:
                # An address, not a name: the system parses it, it looks nothing up.
                return super().connect_tcp(
                    address,
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None  # resolved() answers at least one address
        raise failure


class CheckedTransport(httpx.HTTPTransport):
    """httpx's transport with its connections opened by CheckedBackend."""

    def __init__(self) -> None:
        super().__init__(limits=LIMITS)
        # httpx (0.28) takes no network backend, so the pool it built is replaced by the
        # same pool with one; handle_request sends through `_pool`. Were that ever to
        # change, a delivery must fail rather than go out unchecked.
        if not isinstance(getattr(self, "_pool", None), httpcore.ConnectionPool):
            raise RuntimeError("httpx.HTTPTransport has no `_pool` to replace")
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            max_connections=LIMITS.max_connections,
            max_keepalive_connections=LIMITS.max_keepalive_connections,
            keepalive_expiry=LIMITS.keepalive_expiry,
            network_backend=CheckedBackend(),
        )


_client: tuple[int, httpx.Client] | None = None


def http_client() -> httpx.Client:
    """One client per process (connections are not shared across a fork): keep-alive to
    receivers that allow it, never following a redirect."""
    global _client
    if _client is None or _client[0] != os.getpid():
        timeout = httpx.Timeout(
            settings.WEBHOOK_READ_TIMEOUT, connect=settings.WEBHOOK_CONNECT_TIMEOUT
        )
        client = httpx.Client(timeout=timeout, follow_redirects=False, transport=CheckedTransport())
        _client = (os.getpid(), client)
    return _client[1]
