"""Where a webhook may point: http(s) to a public address.

Deliveries are requests the server makes on a player's behalf, so a URL that resolves to
loopback, a private or link-local network (cloud metadata at 169.254.169.254), or any
other address that is not globally routable would let a player probe the server's own
network. The host is resolved when the webhook is created, and again for every
connection a delivery opens (a name can be re-pointed later): that connection goes to
the very addresses checked (`resolved`, through webhooks.transport), so a DNS server
answering a public address to the check and a private one to a second lookup (DNS
rebinding) gains nothing. Every address a name has must be public: one public and one
private is refused. WEBHOOK_ALLOW_PRIVATE_URLS lifts the rule for development and tests.

Some IPv6 addresses lead to an IPv4 one, and `ipaddress` calls most of them global: on
an IPv6-only network with NAT64 `64:ff9b::a00:1` reaches 10.0.0.1. So an address that
carries an IPv4 one is judged by where it leads, or refused outright where that cannot
be told or no receiver needs it (`address_public`).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

SCHEMES = ("http", "https")


class AddressRefused(Exception):
    """The server does not send to this host; `reason` is `unresolvable` or
    `private_address` (the `details.reason` of webhook_url_refused)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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
        resolved(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except AddressRefused as refused:
        return refused.reason
    return None


def resolved(host: str, port: int) -> list[str]:
    """The addresses `host` has, looked up once, in the resolver's order of preference,
    when the server may send to every one of them (any, with WEBHOOK_ALLOW_PRIVATE_URLS).
    Raises AddressRefused otherwise. Connect to these, never to the name again."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError) as exc:
        raise AddressRefused("unresolvable") from exc
    found = list(
        dict.fromkeys(
            str(info[4][0]) for info in infos if info[0] in (socket.AF_INET, socket.AF_INET6)
        )
    )
    if not found:
        raise AddressRefused("unresolvable")
    if not settings.WEBHOOK_ALLOW_PRIVATE_URLS:
        for address in found:
            # A link-local address has a zone (fe80::1%eth0): not public either way.
            if not address_public(ipaddress.ip_address(address.split("%", 1)[0])):
                raise AddressRefused("private_address")
    return found


# NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. DNS64
# answers it for every IPv4-only name on an IPv6-only network, so it is judged by that
# address rather than refused.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# Forms that carry or reach an IPv4 address and are refused whatever it is: a receiver
# has an address of its own, and newer Pythons call most of these not global anyway.
IPV4_CARRIERS = (
    # IPv4-compatible, ::a.b.c.d (deprecated by RFC 4291; also :: and ::1).
    ipaddress.IPv6Network("::/96"),
    # Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the prefix
    # length the network chose.
    ipaddress.IPv6Network("64:ff9b:1::/48"),
    # 6to4 (deprecated by RFC 7526): the IPv4 address is bits 16-48.
    ipaddress.IPv6Network("2002::/16"),
    # Teredo: a server's and a client's IPv4 address, for tunnelling to hosts behind NAT.
    ipaddress.IPv6Network("2001::/32"),
)


def address_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether the server may send to `address`: globally routable, not multicast, and,
    for an IPv6 address that leads to an IPv4 one, that one public too."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address_public(address.ipv4_mapped)
        if address in NAT64:
            return address_public(ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF))
        # Site-local (fec0::/10, deprecated) is private in use, global to `ipaddress`.
        if address.is_site_local or any(address in net for net in IPV4_CARRIERS):
            return False
    return address.is_global and not address.is_multicast
