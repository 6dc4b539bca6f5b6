"""Who is known to have none of something (an active webhook, a push device), remembered
in the shared cache, so that a write whose events go to such players skips the read of
those rows (a move's events go to every player of the game; most have neither).

Only absence is remembered, never presence, and a missing or unreadable key means "not
known": a cache that is empty, restarted or down only costs the read, as before. What
keeps a remembered absence true is a version per owner that every addition changes:

- an addition (a webhook saved, a device saved: ``changed``, from their models' save
  signals) writes a new random version for its owner before its transaction commits and
  again once it has (``on_commit``); if the cache cannot take it, the addition fails
  instead (a missed webhook or push would be silent);
- a reader takes the owners' versions first, reads the rows, and records "none" for
  the owners that had none under the version it took (``recorded``);
- a recorded absence counts only while it carries its owner's current version.

So an addition that commits before a reader's read is seen by that read; one that commits
after changes the version the reader recorded under. Only with a cache every web process
shares (settings.CACHE_SHARED); otherwise nothing is known and every read happens.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import caches
from django.db import transaction

from pusoy_api.cache import RateLimitedWarning
from pusoy_api.domain_errors import DomainError, ErrorCode

logger = logging.getLogger(__name__)

# A recorded absence is dropped after this long even if nothing changed: the bound on the
# one case the versions do not cover (below, `_bump`); versions live until replaced.
RECORD_SECONDS = 600

_warn = RateLimitedWarning(30.0, log=logger, consequence="rows are read from the database")


@dataclass
class Lookup:
    """The answer for some owners: those known to have none, and the versions taken (to
    record under) for the rest."""

    none: set[str] = field(default_factory=set)
    versions: dict[str, str] = field(default_factory=dict)


class Absence:
    def __init__(self, name: str) -> None:
        self.name = name

    def _version_key(self, owner: str) -> str:
        return f"absence:{self.name}:v:{owner}"

    def _none_key(self, owner: str) -> str:
        return f"absence:{self.name}:n:{owner}"

    def lookup(self, owners: Iterable[str]) -> Lookup:
        """One cache round trip (plus one per owner never seen before)."""
        owners = list(dict.fromkeys(owners))
        found = Lookup()
        if not settings.CACHE_SHARED or not owners:
            return found
        cache = caches["default"]
        try:
            got = cache.get_many(
                [self._version_key(o) for o in owners] + [self._none_key(o) for o in owners]
            )
            for owner in owners:
                version = got.get(self._version_key(owner))
                if version is None:
                    # First sight of this owner (or an evicted version): a version to
                    # record under, unless another reader just made one.
                    fresh = secrets.token_hex(8)
                    if cache.add(self._version_key(owner), fresh, timeout=None):
                        found.versions[owner] = fresh
                elif got.get(self._none_key(owner)) == version:
                    found.none.add(owner)
                else:
                    found.versions[owner] = version
        except Exception as exc:  # the cache is down: nothing is known
            _warn("get", exc)
            return Lookup()
        return found

    def recorded(self, lookup: Lookup, owners_with_none: Iterable[str]) -> None:
        """Remember that these owners had none when read under ``lookup``'s versions."""
        records = {
            self._none_key(o): lookup.versions[o] for o in owners_with_none if o in lookup.versions
        }
        if not records:
            return
        try:
            caches["default"].set_many(records, timeout=RECORD_SECONDS)
        except Exception as exc:
            _warn("set", exc)

    def changed(self, owner: str) -> None:
        """An owner gained (or may have gained) one: forget their absence, now and again
        at commit. Raises when the cache cannot be told (see the module's docstring)."""
        if not settings.CACHE_SHARED:
            return
        self._bump(owner)
        transaction.on_commit(lambda: self._bump(owner, after_commit=True))

    def _bump(self, owner: str, *, after_commit: bool = False) -> None:
        try:
            caches["default"].set(self._version_key(owner), secrets.token_hex(8), timeout=None)
        except Exception as exc:
            if not after_commit:
                raise DomainError(
                    ErrorCode.SERVICE_UNAVAILABLE,
                    "The cache is unreachable: try again shortly.",
                ) from exc
            # Committed already, so it cannot be refused now. A reader that took the
            # version written before the commit and read just before the commit may have
            # recorded an absence under it: that record lives RECORD_SECONDS at most.
            logger.exception(
                "absence %s: could not change %s's version after commit; a read made "
                "during the commit may skip its rows for up to %d s",
                self.name,
                owner,
                RECORD_SECONDS,
            )
