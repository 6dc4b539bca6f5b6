"""URLs for in-process outage tests: the real ones, plus views that fail on purpose."""

from django.db import InterfaceError, connection
from django.http import HttpResponse, JsonResponse
from django.urls import path

from pusoy_api.urls import urlpatterns as real_urlpatterns


def plain_view_database_lost(request):
    raise InterfaceError("connection already closed")


def plain_view_bug(request):
    raise ValueError("a bug")


def plain_view_slow_query(request):
    seconds = float(request.GET.get("seconds", "5"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(%s)", [seconds])
    return HttpResponse("slept")


def plain_view_ping(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return JsonResponse({"one": cursor.fetchone()[0]})


urlpatterns = [
    path("api/v1/test/database-lost", plain_view_database_lost),
    path("api/v1/test/bug", plain_view_bug),
    path("api/v1/test/slow-query", plain_view_slow_query),
    path("api/v1/test/ping", plain_view_ping),
    *real_urlpatterns,
]

handler404 = "pusoy_api.errors.json_404"
handler500 = "pusoy_api.errors.json_500"
