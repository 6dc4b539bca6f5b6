"""ASGI entry point (uvicorn workers): long-polling requests wait without holding a thread."""

import json
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402  (after Django is set up)

from pusoy_api.domain_errors import ErrorCode  # noqa: E402
from pusoy_api.embedded import start_if_embedded  # noqa: E402
from pusoy_api.errors import envelope  # noqa: E402


class RefuseOversizedBodies:
    """A request that announces a body over the limit is answered 413 before the body is
    read: Django's ASGI handler would first take in the whole body, however large."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.answer = json.dumps(
            envelope(ErrorCode.PAYLOAD_TOO_LARGE, f"The body is larger than {limit} bytes.")
        ).encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and self._announced_length(scope) > self.limit:
            await send(
                {
                    "type": "http.response.start",
                    "status": 413,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(self.answer)).encode()),
                        (b"connection", b"close"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": self.answer})
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _announced_length(scope) -> int:
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                return int(value) if value.isdigit() else 0
        return 0


application = RefuseOversizedBodies(django_application, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)

# Without a broker this process also runs the tasks workers and beat would run.
start_if_embedded()
