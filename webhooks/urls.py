from django.urls import path

from . import apis

urlpatterns = [
    path("webhooks", apis.WebhooksApi.as_view(), name="webhooks"),
    path("webhooks/<uuid:webhook_id>", apis.WebhookDetailApi.as_view(), name="webhooks-detail"),
    path(
        "webhooks/<uuid:webhook_id>/deliveries",
        apis.WebhookDeliveriesApi.as_view(),
        name="webhooks-deliveries",
    ),
]
