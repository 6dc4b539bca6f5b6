"""Request rates: sign-up and log-in are guessed at by bots; writes are bounded per player."""

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class AuthRateThrottle(AnonRateThrottle):
    """Per client IP, on register / token / logout."""

    scope = "auth"


class WriteRateThrottle(UserRateThrottle):
    """Per player on every POST that changes a game."""

    scope = "writes"
