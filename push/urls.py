from django.urls import path

from . import apis

urlpatterns = [
    path("devices", apis.DevicesApi.as_view(), name="devices"),
    path("devices/<uuid:device_id>", apis.DeviceDetailApi.as_view(), name="devices-detail"),
    path("push/platforms", apis.PushPlatformsApi.as_view(), name="push-platforms"),
    path("players/me/push", apis.PushPreferencesApi.as_view(), name="push-preferences"),
]
