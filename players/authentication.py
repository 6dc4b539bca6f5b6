"""`Authorization: Bearer <token>`: knox tokens, stored only as hashes, revocable, and
ended by TOKEN_IDLE_TTL_DAYS without use (knox's expiry, moved forward on use)."""

from __future__ import annotations

import binascii

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import knox_settings
from rest_framework import exceptions

from . import token_cache
from .models import Session


class BearerTokenAuthentication(TokenAuthentication):
    """Knox token auth under the Bearer prefix (set by REST_KNOX["AUTH_HEADER_PREFIX"]),
    answered from the shared cache while that is safe (players.token_cache)."""

    def authenticate_credentials(self, token: bytes):
        if not token_cache.enabled():
            return super().authenticate_credentials(token)
        try:
            digest = hash_token(token.decode())
        except (TypeError, ValueError, binascii.Error) as exc:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
        cached = token_cache.cached(digest)
        if cached is not None:
            return self.validate_user(cached)
        user, auth_token = super().authenticate_credentials(token)
        token_cache.remember(auth_token)
        return user, auth_token

    def _cleanup_token(self, auth_token) -> bool:
        # Knox sweeps all of the user's other tokens on every request (one more query
        # each time). Expired tokens are purged hourly instead (players.tasks), so only
        # this token's own expiry needs checking here.
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False

    def renew_token(self, auth_token) -> None:
        # Knox's own renewal, plus the session's "last used": both written only when the
        # expiry would move by more than MIN_REFRESH_INTERVAL, so most requests write
        # nothing (tests/players/test_sessions.py pins the query count).
        now = timezone.now()
        new_expiry = now + knox_settings.TOKEN_TTL
        if (new_expiry - auth_token.expiry).total_seconds() <= knox_settings.MIN_REFRESH_INTERVAL:
            return
        auth_token.expiry = new_expiry
        auth_token.save(update_fields=["expiry"])
        Session.objects.filter(token_id=auth_token.pk).update(last_used_at=now)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "players.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "Token from `auth/register`, `auth/token` or `auth/guest`; "
            "it ends on logout, on revocation (`auth/sessions`) or after "
            "TOKEN_IDLE_TTL_DAYS (default 90) without use.",
        }
