"""Root URLs: the versioned API, its schema and docs, the admin, the health probe, and the
web client at `/` (webclient/: a reference client of the public API)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from .health import healthz, healthz_full
from .metrics_http import metrics_view
from .redoc_bundle import redoc_standalone


def same_origin_only(view):
    """The docs pages may load nothing from anywhere but this server: the page's own
    scripts and styles (some inline), the schema, and images from here or data: URLs.
    Bundled third-party pages otherwise reach for CDNs (fonts, a vendor logo)."""

    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self' 'unsafe-inline'; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
            "worker-src 'self' blob:; connect-src 'self'"
        )
        return response

    return wrapped


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/full", healthz_full, name="healthz-full"),
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("players.urls")),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("webhooks.urls")),
    path("api/v1/", include("push.urls")),
    path("api/v1/", include("ratings.urls")),
    path("api/v1/", include("notifications.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/docs/",
        same_origin_only(SpectacularSwaggerView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
    # REDOC_DIST (settings) names this folder.
    path("api/redoc-dist/bundles/redoc.standalone.js", redoc_standalone, name="redoc-bundle"),
    path(
        "api/redoc/",
        same_origin_only(SpectacularRedocView.as_view(url_name="schema")),
        name="redoc",
    ),
    path("", include("webclient.urls")),
]

handler404 = "pusoy_api.errors.json_404"
handler500 = "pusoy_api.errors.json_500"
