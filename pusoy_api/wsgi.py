"""WSGI entry point (gunicorn)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")
application = get_wsgi_application()

from pusoy_api.embedded import start_if_embedded  # noqa: E402  (after Django is set up)

# Without a broker this process also runs the tasks workers and beat would run.
start_if_embedded()
