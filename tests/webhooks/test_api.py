"""The webhook endpoints through HTTP: subscribe, list, delete, the delivery log, and
every refusal with its code."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from players.services import token_issue
from tests.api.helpers import client_for
from tests.factories import PlayerFactory
from webhooks import services
from webhooks.models import MessageState, Webhook, WebhookMessage

from .helpers import event_payload

pytestmark = pytest.mark.django_db

HOOK = {"url": "http://127.0.0.1:9/hook", "events": ["your_turn", "game_finished"]}


def code_of(response) -> str:
    return response.json()["error"]["code"]


def test_subscribe_answers_the_secret_once_and_lists_without_it():
    ana = client_for("ana")
    created = ana.post("/api/v1/webhooks", HOOK, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert re.fullmatch(r"[0-9a-f]{64}", body["secret"])
    assert body["scope"] == "own"
    assert body["active"] is True
    assert body["disabled_reason"] == ""
    assert body["events"] == ["your_turn", "game_finished"]
    second = ana.post("/api/v1/webhooks", {**HOOK, "events": ["move"]}, format="json").json()
    assert second["secret"] != body["secret"]

    listed = ana.get("/api/v1/webhooks")
    assert listed.status_code == 200
    page = listed.json()
    assert page["count"] == 2
    assert [hook["id"] for hook in page["results"]] == [second["id"], body["id"]]
    assert all("secret" not in hook for hook in page["results"])
    assert body["secret"] not in listed.content.decode()
    assert ana.get("/api/v1/webhooks?limit=1").json()["results"][0]["id"] == second["id"]
    assert code_of(ana.get("/api/v1/webhooks?limit=0")) == "invalid_input"

    # Another player sees none of them.
    assert client_for("ben").get("/api/v1/webhooks").json()["count"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {**HOOK, "events": ["no_such_event"]},
        {**HOOK, "events": []},
        {**HOOK, "events": "your_turn"},
        {**HOOK, "events": ["*"]},
        {**HOOK, "url": "ftp://127.0.0.1/hook"},
        {**HOOK, "url": "javascript:alert(1)"},
        {**HOOK, "url": "not a url"},
        {**HOOK, "url": "http://host/\x00"},
        {**HOOK, "url": 7},
        {**HOOK, "scope": "everyone"},
        {"url": HOOK["url"]},
    ],
)
def test_what_the_schema_refuses_is_invalid_input(body):
    ana = client_for("ana")
    response = ana.post("/api/v1/webhooks", body, format="json")
    assert response.status_code == 400, response.json()
    assert code_of(response) == "invalid_input"
    assert ana.get("/api/v1/webhooks").json()["count"] == 0


def test_scope_all_is_for_staff_only():
    ana = client_for("ana")
    refused = ana.post("/api/v1/webhooks", {**HOOK, "scope": "all"}, format="json")
    assert refused.status_code == 403
    assert code_of(refused) == "webhook_scope_forbidden"
    assert ana.get("/api/v1/webhooks").json()["count"] == 0

    staff = PlayerFactory(username="ops", is_staff=True)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(player=staff)}")
    created = client.post("/api/v1/webhooks", {**HOOK, "scope": "all"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["scope"] == "all"


@override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False)
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "https://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://[fec0::1]/hook",
        "http://0.0.0.0/hook",
    ],
)
def test_private_addresses_are_refused_unless_allowed(url):
    ana = client_for("ana")
    response = ana.post("/api/v1/webhooks", {**HOOK, "url": url}, format="json")
    assert response.status_code == 422, response.json()
    assert code_of(response) == "webhook_url_refused"
    assert response.json()["error"]["details"] == {"reason": "private_address"}
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=True):
        assert ana.post("/api/v1/webhooks", {**HOOK, "url": url}, format="json").status_code == 201


@override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False)
def test_a_public_address_is_taken_and_an_unresolvable_host_refused():
    ana = client_for("ana")
    public = ana.post("/api/v1/webhooks", {**HOOK, "url": "https://93.184.215.14/x"}, format="json")
    assert public.status_code == 201, public.json()
    unresolvable = ana.post(
        "/api/v1/webhooks", {**HOOK, "url": "https://hooks.example.invalid/x"}, format="json"
    )
    assert unresolvable.status_code == 422
    assert unresolvable.json()["error"]["details"] == {"reason": "unresolvable"}


@pytest.mark.parametrize(
    "url", ["http://", "https://exa mple.com/", "http://example.com:99999/", "http://[::1/"]
)
def test_a_string_of_the_schemas_form_that_is_no_url_is_refused_by_the_rules(url):
    ana = client_for("ana")
    response = ana.post("/api/v1/webhooks", {**HOOK, "url": url}, format="json")
    assert response.status_code == 422, response.json()
    assert response.json()["error"] == {
        "code": "webhook_url_refused",
        "message": "The server does not send webhooks to this address.",
        "details": {"reason": "invalid"},
    }


@override_settings(WEBHOOK_MAX_PER_PLAYER=2)
def test_a_player_has_a_limited_number_of_webhooks():
    ana = client_for("ana")
    for _ in range(2):
        assert ana.post("/api/v1/webhooks", HOOK, format="json").status_code == 201
    refused = ana.post("/api/v1/webhooks", HOOK, format="json")
    assert refused.status_code == 409
    assert code_of(refused) == "webhook_limit_reached"
    assert refused.json()["error"]["details"] == {"limit": 2}
    # The limit is per player.
    assert client_for("ben").post("/api/v1/webhooks", HOOK, format="json").status_code == 201


def test_delete_is_the_owners_and_others_get_not_found():
    ana, ben = client_for("ana"), client_for("ben")
    hook = ana.post("/api/v1/webhooks", HOOK, format="json").json()
    for path in (f"/api/v1/webhooks/{hook['id']}", f"/api/v1/webhooks/{hook['id']}/deliveries"):
        response = ben.delete(path) if path.endswith(hook["id"]) else ben.get(path)
        assert response.status_code == 404
        assert code_of(response) == "not_found"
    assert ana.get("/api/v1/webhooks").json()["count"] == 1

    deliveries = ana.get(f"/api/v1/webhooks/{hook['id']}/deliveries")
    assert deliveries.status_code == 200
    assert deliveries.json() == {"count": 0, "next": None, "previous": None, "results": []}

    assert ana.delete(f"/api/v1/webhooks/{hook['id']}").status_code == 204
    assert ana.get("/api/v1/webhooks").json()["count"] == 0
    assert code_of(ana.delete(f"/api/v1/webhooks/{hook['id']}")) == "not_found"
    assert code_of(ana.get(f"/api/v1/webhooks/{hook['id']}/deliveries")) == "not_found"


def _disabled(hook_id: str) -> None:
    """As five given-up events in a row leave a webhook (services._failed_event_count)."""
    Webhook.objects.filter(pk=hook_id).update(
        active=False,
        disabled_at=timezone.now(),
        disabled_reason="5 events in a row could not be delivered (last: HTTP 500)",
        failed_events_in_a_row=5,
    )


def test_a_disabled_webhook_is_turned_back_on_with_its_url_and_secret():
    ana = client_for("ana")
    created = ana.post("/api/v1/webhooks", HOOK, format="json").json()
    _disabled(created["id"])
    shown = ana.get("/api/v1/webhooks").json()["results"][0]
    assert (shown["active"], shown["disabled_reason"][:9]) == (False, "5 events ")

    response = ana.patch(f"/api/v1/webhooks/{created['id']}", {"active": True}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["active"], body["disabled_reason"]) == (True, "")
    assert {k: body[k] for k in ("id", "url", "events", "scope", "created_at")} == {
        k: created[k] for k in ("id", "url", "events", "scope", "created_at")
    }
    assert "secret" not in body
    hook = Webhook.objects.get(pk=created["id"])
    assert hook.secret == created["secret"]
    assert (hook.failed_events_in_a_row, hook.disabled_at) == (0, None)
    # It receives events again.
    player = hook.owner
    services.webhook_events_publish(events=[event_payload(player, "your_turn")])
    assert WebhookMessage.objects.filter(webhook=hook, state=MessageState.PENDING).count() == 1
    # Turning on a webhook that is on changes nothing; nor does a change of nothing.
    for nothing in ({"active": True}, {}):
        again = ana.patch(f"/api/v1/webhooks/{created['id']}", nothing, format="json")
        assert again.status_code == 200
        assert again.json() == body


def test_the_owner_turns_a_webhook_off_and_its_pending_deliveries_are_dropped():
    ana = client_for("ana")
    created = ana.post("/api/v1/webhooks", HOOK, format="json").json()
    hook = Webhook.objects.get(pk=created["id"])
    services.webhook_events_publish(events=[event_payload(hook.owner, "your_turn")])
    response = ana.patch(f"/api/v1/webhooks/{created['id']}", {"active": False}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["active"] is False
    assert response.json()["disabled_reason"] == "turned off by its owner"
    assert WebhookMessage.objects.get().state == MessageState.DROPPED
    services.webhook_events_publish(events=[event_payload(hook.owner, "your_turn")])
    assert WebhookMessage.objects.count() == 1


def test_a_webhooks_event_types_are_changed():
    ana = client_for("ana")
    created = ana.post("/api/v1/webhooks", HOOK, format="json").json()
    path = f"/api/v1/webhooks/{created['id']}"
    response = ana.patch(path, {"events": ["move", "move", "resigned"]}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["events"] == ["move", "resigned"]
    assert response.json()["active"] is True
    hook = Webhook.objects.get(pk=created["id"])
    services.webhook_events_publish(
        events=[event_payload(hook.owner, "your_turn"), event_payload(hook.owner, "move")]
    )
    assert list(WebhookMessage.objects.values_list("event_type", flat=True)) == ["move"]


@pytest.mark.parametrize(
    "body",
    [
        {"active": "true"},
        {"active": 1},
        {"active": None},
        {"events": []},
        {"events": ["no_such_event"]},
        {"events": "move"},
        {"events": ["move"], "active": "no"},
    ],
)
def test_a_change_the_schema_refuses_is_invalid_input_and_changes_nothing(body):
    ana = client_for("ana")
    created = ana.post("/api/v1/webhooks", HOOK, format="json").json()
    response = ana.patch(f"/api/v1/webhooks/{created['id']}", body, format="json")
    assert response.status_code == 400, response.json()
    assert code_of(response) == "invalid_input"
    listed = ana.get("/api/v1/webhooks").json()["results"][0]
    assert {k: listed[k] for k in created if k != "secret"} == {
        k: created[k] for k in created if k != "secret"
    }


def test_only_the_owner_changes_a_webhook():
    ana, ben = client_for("ana"), client_for("ben")
    created = ana.post("/api/v1/webhooks", HOOK, format="json").json()
    response = ben.patch(f"/api/v1/webhooks/{created['id']}", {"active": False}, format="json")
    assert response.status_code == 404
    assert code_of(response) == "not_found"
    assert Webhook.objects.get(pk=created["id"]).active is True
    missing = ana.patch(f"/api/v1/webhooks/{uuid.uuid4()}", {"active": False}, format="json")
    assert code_of(missing) == "not_found"


def test_turning_on_checks_the_url_again():
    ana = client_for("ana")
    created = ana.post("/api/v1/webhooks", HOOK, format="json").json()  # 127.0.0.1: allowed here
    _disabled(created["id"])
    with override_settings(WEBHOOK_ALLOW_PRIVATE_URLS=False):
        response = ana.patch(f"/api/v1/webhooks/{created['id']}", {"active": True}, format="json")
    assert response.status_code == 422, response.json()
    assert code_of(response) == "webhook_url_refused"
    assert response.json()["error"]["details"] == {"reason": "private_address"}
    hook = Webhook.objects.get(pk=created["id"])
    assert (hook.active, hook.failed_events_in_a_row) == (False, 5)


def test_without_a_token_nothing_is_answered():
    client = APIClient()
    assert code_of(client.get("/api/v1/webhooks")) == "not_authenticated"
    assert code_of(client.post("/api/v1/webhooks", HOOK, format="json")) == "not_authenticated"
