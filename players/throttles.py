"""Request rates: sign-up and log-in are guessed at by bots; writes are bounded per player.

Both keep their counts in the fail-open cache: while the cache is down they let every
request through (and log it) rather than fail writes with 500s. The client's address is
REMOTE_ADDR, or the address the trusted proxies saw (settings: TRUSTED_PROXY_COUNT ->
DRF's NUM_PROXIES); a client's own X-Forwarded-For is never trusted by default.
"""

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from pusoy_api.cache import FailOpenCache


class AuthRateThrottle(AnonRateThrottle):
    """Per client IP, on register / token / guest."""

    scope = "auth"
    # Duck-typed: DRF's throttles only call the cache's get and set.
    cache = FailOpenCache()  # type: ignore[assignment]


class AccountRateThrottle(AuthRateThrottle):
    """The same per-IP count as log-in, for the account endpoints a token calls (password
    change, deletion, claim): a stolen token gives no more guesses than no token.
    (AnonRateThrottle itself skips authenticated requests.)"""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class GuestRateThrottle(AnonRateThrottle):
    """Per client IP, on `auth/guest`: an account that costs nothing to make is rationed
    (THROTTLE_GUEST)."""

    scope = "guest"
    cache = FailOpenCache()  # type: ignore[assignment]


class WriteRateThrottle(UserRateThrottle):
    """Per player on every POST that changes a game."""

    scope = "writes"
    cache = FailOpenCache()  # type: ignore[assignment]
