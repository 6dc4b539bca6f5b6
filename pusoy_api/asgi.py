"""The web server's application (gunicorn with uvicorn workers, `pusoy_api/gunicorn_conf.py`).

`application` serves each kind of request on the model that fits it
(`pusoy_api.serving`): waits and streams on the event loop through Django's ASGI
handler, holding no thread; every other request through Django's WSGI handler on a pool
thread, without the ASGI handler's hops. `asgi_only` is the layout before that (every
request through the ASGI handler), kept for the benchmarks that compare the two.
"""

import os

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pusoy_api.settings.base")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402  (after Django is set up)

from pusoy_api.body_limit import LimitRequestBodies  # noqa: E402
from pusoy_api.embedded import start_if_embedded  # noqa: E402
from pusoy_api.serving import ByKind, WsgiInThread  # noqa: E402

plain = WsgiInThread(get_wsgi_application(), threads=settings.WEB_THREADS)
application = LimitRequestBodies(
    ByKind(waiting=django_application, plain=plain), settings.DATA_UPLOAD_MAX_MEMORY_SIZE
)
asgi_only = LimitRequestBodies(django_application, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)

# Without a broker this process also runs the tasks workers and beat would run.
start_if_embedded()
