"""Bearer tokens remembered in the shared cache, so that most requests authenticate with
one cache read instead of a database query.

An entry, keyed by the token's digest (never the token), holds the token row with its
player as the database gave them. It is trusted only as long as the database would give
the same answer with no write:

- it lives in the cache only until the token's renewal would be due (knox's
  MIN_REFRESH_INTERVAL, 60 s), so the request that renews the token (and the session's
  "last used") always goes to the database, as it did without the cache;
- a token deleted (log-out, log-out of the others, a revoked session, a password change,
  a deleted account, the purge) or a player saved (password, name, deletion, staff) puts
  a tombstone over the entry at once, before the change even commits: from then on, and
  for longer than any entry lives, that token reads the database, and no request that
  read the database before the change can store its answer (entries are only *added*,
  never written over a tombstone).

So a revoked token stops working as soon as the revocation commits. The one exception:
when the cache cannot be reached at the moment of the revocation, an entry written before
may come back with the cache and be trusted until it expires (at most
MIN_REFRESH_INTERVAL); the failure is logged.

Only a cache every web process shares (Redis: settings.CACHE_SHARED) can be invalidated
by all of them, so with per-process memory there is no token cache at all. A cached
player's stats columns may lag (games update them with bulk UPDATEs): what renders a
player reads the row (players.selectors).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.utils import timezone
from knox.models import AuthToken
from knox.settings import knox_settings

from pusoy_api.cache import RateLimitedWarning

from .models import Player

logger = logging.getLogger(__name__)

PREFIX = "auth:token:"
TOMBSTONE = "-"
_warn = RateLimitedWarning(30.0, log=logger, consequence="bearer tokens are read from the database")


def enabled() -> bool:
    return bool(settings.CACHE_SHARED)


def _key(digest: str) -> str:
    return PREFIX + digest


def _lifetime() -> float:
    """How long an entry or a tombstone lives, at most: until a renewal is due."""
    return float(knox_settings.MIN_REFRESH_INTERVAL)


def cached(digest: str) -> AuthToken | None:
    """The token row with its player, if the cache holds one that is still good (not
    expired, no renewal due); None sends the caller to the database."""
    if not enabled():
        return None
    try:
        raw = caches["default"].get(_key(digest))
    except Exception as exc:  # any backend error: read the database
        _warn("get", exc)
        return None
    if not isinstance(raw, AuthToken):  # none, or a tombstone
        return None
    token = raw
    if _renewal_due(token.expiry, timezone.now()):
        return None
    return token


def remember(token: AuthToken) -> None:
    """Store a token the database has just given (its expiry already renewed when due),
    unless a tombstone is there; it lives until its renewal is due."""
    if not enabled() or token.expiry is None:
        return
    now = timezone.now()
    left = (
        knox_settings.MIN_REFRESH_INTERVAL
        - (now + knox_settings.TOKEN_TTL - token.expiry).total_seconds()
    )
    if left < 1:
        return
    try:
        caches["default"].add(_key(token.digest), token, timeout=min(left, _lifetime()))
    except Exception as exc:
        _warn("add", exc)


def forget(digests: list[str]) -> None:
    """Tombstones over these tokens' entries (see the module's docstring)."""
    if not enabled() or not digests:
        return
    try:
        caches["default"].set_many({_key(d): TOMBSTONE for d in digests}, timeout=2 * _lifetime())
    except Exception as exc:
        logger.warning(
            "token cache unreachable while %d token(s) changed (%s: %s): a cached entry "
            "may be trusted for up to %d s if the cache comes back",
            len(digests),
            type(exc).__name__,
            exc,
            int(_lifetime()),
        )


def _renewal_due(expiry: datetime | None, now: datetime) -> bool:
    if expiry is None or expiry < now:
        return True
    new_expiry = now + knox_settings.TOKEN_TTL
    return (new_expiry - expiry).total_seconds() > knox_settings.MIN_REFRESH_INTERVAL


# --- Invalidation (signal receivers, connected in players.apps) ---------------------------


def token_deleted(sender: Any, instance: AuthToken, **kwargs: Any) -> None:
    # An expired token is refused by `cached` already: the hourly purge of thousands of
    # them needs no cache write each.
    if instance.expiry is not None and instance.expiry < timezone.now():
        return
    forget([instance.digest])


def player_saved(sender: Any, instance: Player, created: bool, **kwargs: Any) -> None:
    if created or not enabled():
        return
    forget(list(AuthToken.objects.filter(user_id=instance.pk).values_list("digest", flat=True)))
