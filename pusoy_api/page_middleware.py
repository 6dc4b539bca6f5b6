"""Django's session, authentication and messages middleware, for the pages only.

The versioned API (`/api/v1/`) authenticates by bearer token alone
(REST_FRAMEWORK's DEFAULT_AUTHENTICATION_CLASSES; the web client sends its token too),
so a request there has no use for a session, a Django user or flash messages: the admin
and the HTML pages do. These subclasses pass an API request straight
on, and every other request through the middleware as before; each run costs a plain
request tens of microseconds, and under the ASGI handler (long-polls, streams) two
thread hops (docs/performance.md, "The frame's cost per request").

Closed by default: with no session on the API's requests, a cookie cannot authenticate
one; and Django's CSRF middleware, left whole (`check --deploy` looks for it by name),
still checks every request, so a view under `/api/v1/` that is not CSRF-exempt (every
DRF view is) refuses a write without the token as it would anywhere. They stay
subclasses of Django's, which the admin's checks look for.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http import HttpRequest

# What the API's URLs start with (pusoy_api/urls.py), as `path_info`: the path the URL
# resolver routes, whatever prefix the server mounts the application under.
API_PATH = "/api/v1/"


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PATH)


class PagesOnly:
    """Mixed in before a MiddlewareMixin: an API request skips its process_request and
    process_response (and, under the ASGI handler, the thread hops to run them)."""

    get_response: Any

    def __call__(self, request: HttpRequest) -> Any:
        if is_api(request):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]

    async def __acall__(self, request: HttpRequest) -> Any:
        if is_api(request):
            return await self.get_response(request)
        return await super().__acall__(request)  # type: ignore[misc]


class SessionMiddleware(PagesOnly, sessions.SessionMiddleware):
    pass


class AuthenticationMiddleware(PagesOnly, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(PagesOnly, messages.MessageMiddleware):
    pass
