"""`Authorization: Bearer <token>`: knox tokens, stored only as hashes and revocable."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    """Knox token auth under the Bearer prefix (set by REST_KNOX["AUTH_HEADER_PREFIX"])."""

    def _cleanup_token(self, auth_token) -> bool:
        # Knox sweeps all of the user's other tokens on every request (one more query
        # each time). Tokens here only end on logout, so only this token's own expiry
        # (set when an operator gives one) needs checking.
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "players.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "Token from `auth/register` or `auth/token`.",
        }
