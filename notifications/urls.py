from django.urls import path

from . import apis

urlpatterns = [
    path("events", apis.EventsApi.as_view(), name="events"),
    path("events/stream", apis.EventStreamApi.as_view(), name="events-stream"),
    path("events/ticket", apis.StreamTicketApi.as_view(), name="events-ticket"),
]
