"""Push endpoints: register, list and delete devices; read and change push preferences;
which platforms the server pushes to. Thin views: an input serializer, one service or
selector, an output serializer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from players.throttles import WriteRateThrottle
from pusoy_api.domain_errors import DomainError, ErrorCode
from pusoy_api.fields import StrictBooleanField, StrictCharField
from pusoy_api.openapi import error_responses
from pusoy_api.pagination import StrictLimitOffsetPagination

from . import content, selectors, services
from .models import Locale, Platform
from .providers import registry


class DeviceSerializer(serializers.Serializer):
    """A registered device as its owner sees it (a Web Push subscription's keys are
    never shown back)."""

    id = serializers.UUIDField()
    platform = serializers.ChoiceField(choices=Platform.choices)
    token = serializers.SerializerMethodField(
        help_text="The APNs or FCM token; for Web Push, the subscription's endpoint."
    )
    locale = serializers.ChoiceField(choices=Locale.choices)
    created_at = serializers.DateTimeField()
    last_sent_at = serializers.DateTimeField(
        allow_null=True, help_text="When a push last reached the provider; null before."
    )

    def get_token(self, device) -> str:
        return str(device.handle)


class SubscriptionKeysSerializer(serializers.Serializer):
    p256dh = StrictCharField(max_length=128, help_text="The subscription's P-256 key.")
    auth = StrictCharField(max_length=64, help_text="The subscription's auth secret.")


class DevicesApi(GenericAPIView):
    pagination_class = StrictLimitOffsetPagination
    request_name = "DeviceRegister"

    class InputSerializer(serializers.Serializer):
        platform = serializers.ChoiceField(choices=Platform.choices)
        token = StrictCharField(
            max_length=1024,
            required=False,
            help_text="APNs device token (hex) or FCM registration token; not for webpush.",
        )
        endpoint = StrictCharField(
            max_length=1024,
            required=False,
            trim_whitespace=False,
            help_text="webpush: the browser's PushSubscription.endpoint (https).",
        )
        keys = SubscriptionKeysSerializer(
            required=False, help_text="webpush: PushSubscription's keys."
        )
        locale = serializers.ChoiceField(
            choices=Locale.choices,
            required=False,
            default=Locale.EN,
            help_text="The language of this device's pushes.",
        )

        def validate(self, attrs):
            if attrs["platform"] == Platform.WEBPUSH:
                if "endpoint" not in attrs or "keys" not in attrs or "token" in attrs:
                    raise DomainError(
                        ErrorCode.INVALID_DEVICE,
                        "A webpush device is the subscription: `endpoint` and `keys`.",
                        details={"field": "endpoint"},
                    )
            elif "token" not in attrs or "endpoint" in attrs or "keys" in attrs:
                raise DomainError(
                    ErrorCode.INVALID_DEVICE,
                    f"An {attrs['platform']} device is a `token`.",
                    details={"field": "token"},
                )
            return attrs

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="devices_list",
        summary="Your push devices",
        description="The devices your pushes go to, newest first.",
        responses={200: DeviceSerializer(many=True), **error_responses(400, 401, 503)},
    )
    def get(self, request):
        page = self.paginate_queryset(selectors.devices_of(player=request.user))
        return self.get_paginated_response(DeviceSerializer(page, many=True).data)

    @extend_schema(
        operation_id="devices_register",
        summary="Register a push device",
        description="Pushes for your events go to this device (docs/api.md, Push). The "
        "device is tied to the token of this request: logging it out removes the device. "
        "A token or endpoint another player registered moves to you. A platform the "
        "server has no credentials for is `push_unavailable`; a token or subscription "
        "of the wrong form is `invalid_device`; a Web Push endpoint that is not a push "
        "service's is `push_endpoint_refused`; too many devices is "
        "`device_limit_reached`. Registering a device you have already answers 200.",
        request=InputSerializer,
        responses={
            201: DeviceSerializer,
            200: DeviceSerializer,
            **error_responses(400, 401, 409, 413, 415, 422, 429, 503),
        },
        examples=[
            OpenApiExample(
                "An iPhone",
                value={"platform": "apns", "token": "a" * 64, "locale": "fil"},
                request_only=True,
            ),
            OpenApiExample(
                "A browser",
                value={
                    "platform": "webpush",
                    "endpoint": "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
                    "keys": {"p256dh": "BNcR...", "auth": "tBHI..."},
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        keys = values.get("keys") or {}
        known = selectors.devices_of(player=request.user).filter(
            platform=values["platform"], handle=values.get("token") or values.get("endpoint")
        )
        existed = known.exists()
        device = services.device_register(
            player=request.user,
            auth_token=request.auth,
            platform=values["platform"],
            token=values.get("token", ""),
            endpoint=values.get("endpoint", ""),
            p256dh=keys.get("p256dh", ""),
            auth=keys.get("auth", ""),
            locale=values["locale"],
        )
        return Response(
            DeviceSerializer(device).data,
            status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED,
        )


class DeviceDetailApi(APIView):
    throttle_classes = [WriteRateThrottle]

    @extend_schema(
        operation_id="devices_delete",
        summary="Remove a push device",
        description="Nothing more is pushed to it. Another player's device is `not_found`.",
        responses={204: None, **error_responses(401, 404, 429, 503)},
    )
    def delete(self, request, device_id):
        services.device_delete(device_id=device_id, player=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PushPlatformsApi(APIView):
    class OutputSerializer(serializers.Serializer):
        platforms = serializers.ListField(
            child=serializers.ChoiceField(choices=Platform.choices),
            help_text="The platforms the server has credentials for.",
        )
        vapid_public_key = serializers.CharField(
            allow_null=True,
            help_text="The applicationServerKey for PushManager.subscribe() (base64url); "
            "null when Web Push is off.",
        )
        kinds = serializers.ListField(
            child=serializers.CharField(), help_text="The event types that may be pushed."
        )

    @extend_schema(
        operation_id="push_platforms",
        summary="Push platforms on this server",
        description="Which platforms a device may be registered for, and the VAPID key "
        "a browser subscribes with.",
        responses={200: OutputSerializer, **error_responses(401, 503)},
    )
    def get(self, request):
        body = {
            "platforms": registry.platforms(),
            "vapid_public_key": registry.vapid_public_key(),
            "kinds": list(content.PUSHED_KINDS),
        }
        return Response(self.OutputSerializer(body).data)


class StrictUUIDField(serializers.UUIDField):
    """A UUID string only: DRF's field also takes an integer (`false` as UUID 0)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


def kinds_serializer(*, output: bool) -> serializers.Serializer:
    """Every pushed event type as a boolean field (all in an answer, any in a change)."""
    fields = {
        kind: serializers.BooleanField()
        if output
        else StrictBooleanField(required=False, help_text=f"Push `{kind}` events.")
        for kind in content.PUSHED_KINDS
    }
    name = "PushKinds" if output else "PushKindsUpdate"
    return type(name, (serializers.Serializer,), fields)(
        help_text="Each pushed event type and whether you get it (all on by default).",
        **({} if output else {"required": False}),
    )


class PreferencesSerializer(serializers.Serializer):
    kinds = kinds_serializer(output=True)
    muted_games = serializers.ListField(
        child=serializers.UUIDField(), help_text="Games of which nothing is pushed to you."
    )


class PushPreferencesApi(APIView):
    request_name = "PushPreferencesUpdate"

    class InputSerializer(serializers.Serializer):
        kinds = kinds_serializer(output=False)
        mute_games = serializers.ListField(child=StrictUUIDField(), required=False, max_length=100)
        unmute_games = serializers.ListField(
            child=StrictUUIDField(), required=False, max_length=100
        )

    def get_throttles(self):
        return [WriteRateThrottle()] if self.request.method == "PATCH" else []

    @extend_schema(
        operation_id="push_preferences",
        summary="Your push preferences",
        description="Which pushed event types are on (all are until you turn one off) and "
        "which games are muted (nothing of them is pushed to you).",
        responses={200: PreferencesSerializer, **error_responses(401, 503)},
    )
    def get(self, request):
        return Response(PreferencesSerializer(selectors.preferences_of(player=request.user)).data)

    @extend_schema(
        operation_id="push_preferences_update",
        summary="Change your push preferences",
        description="Turn event types on or off, mute or unmute games; what is not named "
        "stays as it is.",
        request=InputSerializer,
        responses={200: PreferencesSerializer, **error_responses(400, 401, 413, 415, 429, 503)},
        examples=[
            OpenApiExample(
                "No more game-over pushes",
                value={"kinds": {"game_finished": False}},
                request_only=True,
            )
        ],
    )
    def patch(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.preferences_update(player=request.user, **data.validated_data)
        return Response(PreferencesSerializer(selectors.preferences_of(player=request.user)).data)
