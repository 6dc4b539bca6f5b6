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
import ssl

import httpcore
import pytest
from django.test import override_settings

from tests.api.helpers import client_for
from tests.factories import PlayerFactory
from webhooks import services
from webhooks.models import MessageState, WebhookDelivery, WebhookMessage

from .helpers import event_payload

pytestmark = pytest.mark.django_db


class FakeDns:
    """Answers for some names: one list of addresses per lookup, the last one repeating
    (an empty one: the name is not known). Other hosts (IP literals among them) go to the
    system's resolver."""

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
        if not found:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
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


# --- Connecting to the address that was checked ----------------------------------------


def test_a_name_answering_a_private_address_to_a_second_lookup_is_not_delivered_to(
    dns, connections, receiver
):
    port = receiver.server.server_address[1]
    # DNS rebinding: a public address to the first lookup, loopback to every later one.
    dns.answers["rebind.example.com"] = [["93.184.215.14"], ["127.0.0.1"]]
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False):
        message = deliver_once(f"http://rebind.example.com:{port}/hook")

    assert receiver.requests == []
    # Resolved once; the connection went to the address that was checked.
    assert dns.lookups == ["rebind.example.com"]
    assert connections == ["93.184.215.14"]
    assert message.state == MessageState.PENDING
    log = WebhookDelivery.objects.get()
    assert log.status_code is None
    assert log.error.startswith("ConnectError: ")


def test_a_name_with_a_public_and_a_private_address_is_refused_at_delivery(
    dns, connections, receiver
):
    port = receiver.server.server_address[1]
    dns.answers["mixed.example.com"] = [["93.184.215.14", "127.0.0.1"]]
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False):
        deliver_once(f"http://mixed.example.com:{port}/hook")
    assert receiver.requests == []
    assert connections == []
    assert WebhookDelivery.objects.get().error == "refused: private_address"


def test_a_name_that_no_longer_resolves_is_logged_as_refused(dns, connections):
    dns.answers["gone.example.com"] = [[]]
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False):
        deliver_once("https://gone.example.com/hook")
    assert WebhookDelivery.objects.get().error == "refused: unresolvable"
    assert connections == []


def test_a_delivery_by_name_goes_to_the_resolved_address_with_the_names_host_header(
    dns, connections, receiver
):
    port = receiver.server.server_address[1]
    dns.answers["receiver.example.test"] = [["127.0.0.1"]]
    message = deliver_once(f"http://receiver.example.test:{port}/hook")  # private allowed

    assert message.state == MessageState.DELIVERED
    (request,) = receiver.requests
    assert request.headers["Host"] == f"receiver.example.test:{port}"
    assert request.path == "/hook"
    assert dns.lookups == ["receiver.example.test"]
    assert connections == ["127.0.0.1"]


def test_an_address_that_does_not_answer_is_followed_by_the_names_next_one(
    dns, connections, receiver
):
    port = receiver.server.server_address[1]
    dns.answers["two.example.test"] = [["192.0.2.7", "127.0.0.1"]]
    message = deliver_once(f"http://two.example.test:{port}/hook")  # private allowed
    assert message.state == MessageState.DELIVERED
    assert len(receiver.requests) == 1
    assert connections == ["192.0.2.7", "127.0.0.1"]
    assert dns.lookups == ["two.example.test"]


class RecordingStream(httpcore.NetworkStream):
    """Stands for the TCP connection: records the TLS handshake's parameters and the
    bytes written, and answers 204."""

    def __init__(self, log: list) -> None:
        self.log = log

    def start_tls(self, ssl_context, server_hostname=None, timeout=None):
        self.log.append(("tls", server_hostname, ssl_context))
        return self

    def write(self, buffer, timeout=None):
        self.log.append(("write", buffer))

    def read(self, max_bytes, timeout=None):
        return b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"

    def close(self):
        pass

    def get_extra_info(self, info):
        return None


def test_https_connects_to_the_checked_address_and_verifies_the_host_name(dns, monkeypatch):
    dns.answers["hooks.example.com"] = [["93.184.215.14"], ["127.0.0.1"]]
    log: list = []

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        log.append(("connect", host, port))
        return RecordingStream(log)

    monkeypatch.setattr(httpcore.SyncBackend, "connect_tcp", connect_tcp)
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False):
        message = deliver_once("https://hooks.example.com/pusoy")

    assert message.state == MessageState.DELIVERED
    assert dns.lookups == ["hooks.example.com"]
    (connect, tls, write, *_) = log
    assert connect == ("connect", "93.184.215.14", 443)
    # The TLS server name and the certificate check are the host name's, not the address's.
    _, server_hostname, context = tls
    assert server_hostname == "hooks.example.com"
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname is True
    head = write[1].split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    assert head[0] == b"POST /pusoy HTTP/1.1"
    assert b"Host: hooks.example.com" in head
