"""The one authentication backend: Django's password check, inside the per-name backoff.

Every log-in with a password goes through `django.contrib.auth.authenticate()` and so
through here: the API's `auth/token` and the admin's log-in form alike. Applying the
backoff (players/login_backoff.py) around the password check here, rather than in each
view that logs in, means a new way to log in cannot forget it, and failures on one way
count on every other (a name guessed at through the admin is in backoff on the API too).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from . import login_backoff
from .usernames import username_canonical


class BackoffModelBackend(ModelBackend):
    """ModelBackend whose password check is refused inside a name's backoff: it raises
    the backoff's `DomainError` (429 `throttled`, `details.retry_after`) out of
    `authenticate()`, which callers turn into their own refusal; it never returns None
    for that, as None would read as a wrong password and be counted again."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None  # not a password log-in: nothing to count
        attempt = login_backoff.login_attempt_start(username_canonical=username_canonical(username))
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            login_backoff.login_attempt_failed(attempt=attempt)
        else:
            login_backoff.login_attempt_succeeded(attempt=attempt)
        return user

    async def aauthenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        # ModelBackend's own async check would skip the backoff; the backoff's cache
        # calls are synchronous, so the whole check runs in a thread.
        return await sync_to_async(self.authenticate)(
            request, username=username, password=password, **kwargs
        )
