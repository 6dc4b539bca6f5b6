"""Static files (admin, API docs) served by the app, without blocking async requests.

WhiteNoise's middleware is sync-only, so under ASGI Django runs it, and everything after
it, on a thread for the whole request: a long-polling request would keep a thread
blocked while it waits. This subclass is async-capable: it looks the path up, serves a
static file in a thread, and otherwise hands the request straight on.
"""

from __future__ import annotations

from pathlib import Path

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from whitenoise.middleware import WhiteNoiseMiddleware


def missing_manifest() -> Path | None:
    """Where the static files manifest should be, when the storage names assets through
    one and `collectstatic` has not written it; None otherwise."""
    try:
        backend = settings.STORAGES["staticfiles"]["BACKEND"]
    except ImproperlyConfigured:
        return None  # no settings to go by: whatever starts next will say what is missing
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if "Manifest" in backend and not manifest.is_file():
        return manifest
    return None


class AsyncWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, settings=None):
        if settings is None:
            super().__init__(get_response)
        else:
            super().__init__(get_response, settings)
        self._is_async = iscoroutinefunction(get_response)
        if self._is_async:
            markcoroutinefunction(self)

    def _static_file(self, request):
        if self.autorefresh:
            return self.find_file(request.path_info)
        return self.files.get(request.path_info)

    def __call__(self, request):
        if self._is_async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        static_file = self._static_file(request)
        if static_file is not None:
            return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        return await self.get_response(request)
