"""`Authorization: Bearer <token>`: knox tokens, stored only as hashes and revocable."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    """Knox token auth under the Bearer prefix (set by REST_KNOX["AUTH_HEADER_PREFIX"])."""


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "players.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return {"type": "http", "scheme": "bearer", "description": "Token from auth/register or auth/token."}
