"""ASGI entry point (uvicorn workers): long-polling requests wait without holding a thread."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402  (after Django is set up)

from pusoy_api.body_limit import LimitRequestBodies  # noqa: E402
from pusoy_api.embedded import start_if_embedded  # noqa: E402

application = LimitRequestBodies(django_application, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)

# Without a broker this process also runs the tasks workers and beat would run.
start_if_embedded()
