"""Where deliveries may go, as a client and a receiver see it: IPv6 forms that carry an
IPv4 address are judged by where they lead, and a delivery connects to exactly the
address that was checked (a name answering differently to a second lookup, DNS
rebinding, never reaches a private receiver).

Names are answered by a fake resolver (`dns`); outgoing connections are recorded, and
any to an address other than loopback is refused on the spot (`connections`), so no
test leaves the machine."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from django.test import override_settings

from tests.api.helpers import client_for
from tests.factories import PlayerFactory
from webhooks import services
from webhooks.models import MessageState, WebhookDelivery, WebhookMessage

from .helpers import Receiver, event_payload

pytestmark = pytest.mark.django_db


class FakeDns:
    """Answers for some names: one list of addresses per lookup, the last one repeating.
    Other hosts (IP literals among them) go to the system's resolver."""

    def __init__(self) -> None:
        self.answers: dict[str, list[list[str]]] = {}
        self.lookups: list[str] = []
        self.system = socket.getaddrinfo

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self.answers:
            return self.system(host, port, family, type, proto, flags)
        self.lookups.append(name)
        queue = self.answers[name]
        found = queue.pop(0) if len(queue) > 1 else queue[0]
        port = int(port or 0)
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (a, port, 0, 0))
            if ":" in a
            else (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (a, port))
            for a in found
        ]


@pytest.fixture
def dns(monkeypatch) -> FakeDns:
    fake = FakeDns()
    monkeypatch.setattr(socket, "getaddrinfo", fake.getaddrinfo)
    return fake


@pytest.fixture
def connections(monkeypatch) -> list[str]:
    """The host of every TCP connection opened (an address, or a name that the system
    then resolves). Connections to an address that is not loopback are refused."""
    made: list[str] = []
    system = socket.create_connection

    def create_connection(address, *args, **kwargs):
        made.append(address[0])
        try:
            literal = ipaddress.ip_address(str(address[0]).split("%", 1)[0])
        except ValueError:
            literal = None  # a name: resolved (by the fake resolver) and connected
        if literal is not None and not literal.is_loopback:
            raise ConnectionRefusedError(111, "no connections leave the tests")
        return system(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    return made


@pytest.fixture
def receiver():
    receiver = Receiver()
    yield receiver
    receiver.close()


def deliver_once(url: str) -> WebhookMessage:
    """A webhook to `url` (taken: private addresses are allowed while it is made), one
    event, and its first attempt, made with whatever the settings are now."""
    ana = PlayerFactory(username="ana")
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=True):
        services.webhook_create(owner=ana, url=url, events=["your_turn"])
    services.webhook_events_publish(events=[event_payload(ana)])
    message = WebhookMessage.objects.get()
    services.message_deliver(message_id=message.pk, attempt=1)
    message.refresh_from_db()
    return message


# --- IPv6 forms that carry an IPv4 address ---------------------------------------------

EMBEDDED_PRIVATE = [
    # NAT64, the well-known prefix (RFC 6052): 10.0.0.1, 127.0.0.1, cloud metadata.
    "64:ff9b::a00:1",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::c0a8:1",
    # NAT64, the local-use prefix (RFC 8215): refused whatever it carries.
    "64:ff9b:1::a00:1",
    "64:ff9b:1:a00:1::",
    "64:ff9b:1::808:808",
    # 6to4 (RFC 3056, deprecated): the IPv4 address is bits 16-48; refused outright.
    "2002:a00:1::1",
    "2002:7f00:1::",
    "2002:808:808::1",
    # IPv4-compatible (::a.b.c.d, deprecated): refused outright.
    "::a00:1",
    "::7f00:1",
    "::808:808",
    # IPv4-mapped: judged by the IPv4 address.
    "::ffff:a00:1",
    "::ffff:a9fe:a9fe",
    "::ffff:0:0",
    # Teredo (2001::/32): server 65.54.227.120, client 192.168.0.1 (obfuscated).
    "2001:0:4136:e378:8000:63bf:3f57:fffe",
    "2001:0:a00:1::1",
]


@override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False)
@pytest.mark.parametrize("address", EMBEDDED_PRIVATE)
def test_ipv6_forms_carrying_an_ipv4_address_are_refused_at_subscribing(address):
    ana = client_for("ana")
    response = ana.post(
        "/api/v1/webhooks", {"url": f"http://[{address}]/hook", "events": ["move"]}, format="json"
    )
    assert response.status_code == 422, response.json()
    assert response.json()["error"] == {
        "code": "webhook_url_refused",
        "message": "The server does not send webhooks to this address.",
        "details": {"reason": "private_address"},
    }
    assert ana.get("/api/v1/webhooks").json()["count"] == 0


@override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False)
def test_a_name_resolving_to_a_nat64_address_of_a_private_one_is_refused(dns):
    dns.answers["hooks.example.com"] = [["93.184.215.14", "64:ff9b::a00:1"]]
    ana = client_for("ana")
    response = ana.post(
        "/api/v1/webhooks",
        {"url": "https://hooks.example.com/x", "events": ["move"]},
        format="json",
    )
    assert response.status_code == 422, response.json()
    assert response.json()["error"]["details"] == {"reason": "private_address"}


@override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False)
@pytest.mark.parametrize(
    "address",
    [
        # NAT64 of 8.8.8.8: what DNS64 answers for every IPv4-only name on an
        # IPv6-only network, so a public one is taken.
        "64:ff9b::808:808",
        "::ffff:808:808",
        "2606:4700:4700::1111",
    ],
)
def test_ipv6_forms_leading_to_a_public_address_are_taken(address):
    response = client_for("ana").post(
        "/api/v1/webhooks", {"url": f"http://[{address}]/hook", "events": ["move"]}, format="json"
    )
    assert response.status_code == 201, response.json()


@pytest.mark.parametrize("address", EMBEDDED_PRIVATE)
def test_ipv6_forms_carrying_an_ipv4_address_are_refused_at_delivery(address, connections):
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False):
        message = deliver_once(f"http://[{address}]:8080/hook")
    assert message.state == MessageState.PENDING  # to be retried
    log = WebhookDelivery.objects.get()
    assert (log.status_code, log.error) == (None, "refused: private_address")
    assert connections == []
