"""Webhook endpoints: subscribe, list, change, unsubscribe, and read a webhook's delivery log.
Thin views: an input serializer, one service or selector, an output serializer."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications.types import EventType
from players.throttles import WriteRateThrottle
from pusoy_api.fields import StrictBooleanField, StrictCharField
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination

from . import selectors, services
from .models import WebhookScope

URL_MAX_LENGTH = 2000


@extend_schema_field(
    {
        "type": "string",
        "format": "uri",
        "maxLength": URL_MAX_LENGTH,
        "pattern": "^https?://[^\\x00]*$",
    }
)
class WebhookUrlField(StrictCharField):
    """A string starting `http://` or `https://`, as the schema says; whether it is a URL
    the server sends to (a host, a public address) is the service's to say (422)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=URL_MAX_LENGTH, trim_whitespace=False, **kwargs)
        self.validators.append(RegexValidator(r"^https?://", message="Not an http(s) URL."))


def events_field(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ChoiceField(choices=EventType.choices),
        min_length=1,
        max_length=len(EventType.choices),
        help_text="The event types to receive; list each one (new types are never sent "
        "to an existing webhook unasked).",
        **kwargs,
    )


class WebhookSerializer(serializers.Serializer):
    """A webhook as its owner sees it (never its secret)."""

    id = serializers.UUIDField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EventType.choices))
    scope = serializers.ChoiceField(choices=WebhookScope.choices)
    active = serializers.BooleanField(
        help_text="False once disabled after events in a row could not be delivered, or "
        "turned off by its owner (`disabled_reason` says which); `PATCH` it with "
        "`active: true` to resume."
    )
    disabled_reason = serializers.CharField(help_text="Empty while active.")
    created_at = serializers.DateTimeField()


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        help_text="64 hex characters that sign every delivery (`Pusoy-Signature`). Shown "
        "in this answer only: store it now."
    )


class WebhookDeliverySerializer(serializers.Serializer):
    """One delivery attempt."""

    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    attempt = serializers.IntegerField(help_text="1 for the first try, 2 for the first retry, ...")
    status_code = serializers.IntegerField(
        allow_null=True, help_text="The receiver's HTTP status; null when none came back."
    )
    error = serializers.CharField(
        help_text="Why no answer came (a timeout, a refused connection); empty otherwise."
    )
    created_at = serializers.DateTimeField()


class WebhooksApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination
    request_name = "WebhookCreate"

    class InputSerializer(serializers.Serializer):
        url = WebhookUrlField(help_text="Where deliveries are POSTed: http or https.")
        events = events_field()
        scope = serializers.ChoiceField(
            choices=WebhookScope.choices,
            required=False,
            default=WebhookScope.OWN,
            help_text="`own`: your own events; `all`: every player's (staff only).",
        )

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="webhooks_list",
        summary="Your webhooks",
        description="Your webhooks, newest first (their secrets are never shown again).",
        responses={200: WebhookSerializer(many=True), **error_responses(400, 401, 503)},
    )
    def get(self, request):
        page = self.paginate_queryset(selectors.webhooks_of(owner=request.user))
        return self.get_paginated_response(WebhookSerializer(page, many=True).data)

    @extend_schema(
        operation_id="webhooks_create",
        summary="Subscribe a webhook",
        description="Events of the listed types are POSTed to `url`, signed with the "
        "returned `secret` (docs/api.md, Webhooks). The URL must resolve to a public "
        "address (`webhook_url_refused`); `scope: all` is for staff "
        "(`webhook_scope_forbidden`); a player has a limited number of webhooks "
        "(`webhook_limit_reached`).",
        request=InputSerializer,
        responses={
            201: WebhookCreatedSerializer,
            **error_responses(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
        examples=[
            OpenApiExample(
                "Your turns and finished games",
                value={
                    "url": "https://push.example.com/pusoy",
                    "events": ["your_turn", "game_finished"],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hook = services.webhook_create(owner=request.user, **data.validated_data)
        return Response(WebhookCreatedSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookDetailApi(APIView):
    throttle_classes = [WriteRateThrottle]
    request_name = "WebhookUpdate"

    class InputSerializer(serializers.Serializer):
        active = StrictBooleanField(
            required=False,
            help_text="`true` turns a disabled webhook back on (same URL and secret; "
            "what was published while it was off is not sent); `false` turns it off.",
        )
        events = events_field(required=False)

    @extend_schema(
        operation_id="webhooks_update",
        summary="Change a webhook",
        description="Turn a webhook on or off, or change the event types it receives "
        "(a field left out is left as it is). "
        "Turning it on checks its URL again (`webhook_url_refused`). Another player's "
        "webhook is `not_found`.",
        request=InputSerializer,
        responses={
            200: WebhookSerializer,
            **error_responses(400, 401, 404, 413, 415, 422, 429, 503),
        },
        examples=[
            OpenApiExample(
                "Back on once the receiver works", value={"active": True}, request_only=True
            )
        ],
    )
    def patch(self, request, webhook_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hook = services.webhook_update(
            webhook_id=webhook_id, owner=request.user, **data.validated_data
        )
        return Response(WebhookSerializer(hook).data)

    @extend_schema(
        operation_id="webhooks_delete",
        summary="Delete a webhook",
        description="Stops deliveries and deletes the webhook with its delivery log. "
        "Another player's webhook is `not_found`.",
        responses={204: None, **error_responses(401, 404, 429, 503)},
    )
    def delete(self, request, webhook_id):
        services.webhook_delete(webhook_id=webhook_id, owner=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveriesApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination

    @extend_schema(
        operation_id="webhooks_deliveries",
        summary="A webhook's delivery log",
        description="One entry per delivery attempt, newest first; kept for "
        "`WEBHOOK_LOG_RETENTION_DAYS` (14 by default).",
        responses={
            200: WebhookDeliverySerializer(many=True),
            **error_responses(400, 401, 404, 503),
        },
    )
    def get(self, request, webhook_id):
        deliveries = selectors.webhook_deliveries(webhook_id=webhook_id, owner=request.user)
        page = self.paginate_queryset(deliveries)
        return self.get_paginated_response(WebhookDeliverySerializer(page, many=True).data)
