"""Where a webhook may point: http(s) to a public address.

Deliveries are requests the server makes on a player's behalf, so a URL that resolves to
loopback, a private or link-local network (cloud metadata at 169.254.169.254), or any
other address that is not globally routable would let a player probe the server's own
network. The host is resolved when the webhook is created and again before every
attempt (a name can be re-pointed later). WEBHOOK_ALLOW_PRIVATE_URLS lifts the rule for
development and tests.

Known gap: the address is checked, then the HTTP client resolves the name again to
connect, so a DNS server that answers differently within those milliseconds (DNS
rebinding) can still pass; an egress proxy or firewall is the complete defence.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

SCHEMES = ("http", "https")


def url_refusal(url: str) -> str | None:
    """Why the server must not send to `url` (`invalid`, `unresolvable`, `private_address`),
    or None when it may."""
    try:
        URLValidator(schemes=list(SCHEMES))(url)
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises on a port out of range)
    except (ValidationError, ValueError):
        return "invalid"
    if not parts.hostname:
        return "invalid"
    if settings.WEBHOOK_ALLOW_PRIVATE_URLS:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        infos = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError):
        return "unresolvable"
    if not infos:
        return "unresolvable"
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
            address = address.ipv4_mapped
        if not address.is_global or address.is_multicast:
            return "private_address"
    return None
