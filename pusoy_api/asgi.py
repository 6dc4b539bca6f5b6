"""ASGI entry point (uvicorn workers): long-polling requests wait without holding a thread."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")
application = get_asgi_application()
