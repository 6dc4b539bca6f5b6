"""Every error code the API answers, with its HTTP status, and the one exception that
services, selectors and engine adapters raise to refuse something.

`ErrorCode` is the single table: a code's status, and the sentence docs/api.md and the
OpenAPI schema show for it, are defined here and nowhere else (a test checks the doc).
`DomainError` is a plain exception: the code that raises it knows nothing of HTTP, and
the API layer (pusoy_api/errors.py) turns it into the error envelope in one place.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """A stable `error.code`; `status` is its HTTP status, `when` says when it is given.

    The status follows one rule: 400 when the request is not what the schema describes,
    409 when it collides with the game's current state, 422 when the schema allows it but
    the game's rules refuse it.
    """

    status: int
    when: str

    def __new__(cls, value: str, status: int, when: str) -> ErrorCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        member.when = when
        return member

    # 400: not what the schema describes
    INVALID_INPUT = ("invalid_input", 400, "a body or query parameter is not what the schema says")
    MALFORMED_REQUEST = ("malformed_request", 400, "the body is not JSON, or nests too deeply")
    INVALID_CARD = ("invalid_card", 400, "a card string is not a card")
    INVALID_ACTION = ("invalid_action", 400, "a move's action is not play or pass")
    INVALID_RULES = ("invalid_rules", 400, "unknown preset, option or value")
    INVALID_SEATS = ("invalid_seats", 400, "the seat list is not 2 to 4 valid seats")
    BAD_REQUEST = ("bad_request", 400, "refused before reaching the API (a bad Host header)")
    # 401, 403: who is asking
    NOT_AUTHENTICATED = ("not_authenticated", 401, "no token")
    AUTHENTICATION_FAILED = ("authentication_failed", 401, "a bad or revoked token")
    INVALID_CREDENTIALS = ("invalid_credentials", 401, "wrong username or password")
    INVALID_TICKET = (
        "invalid_ticket",
        401,
        "an event-stream ticket unknown, used or expired, or its token logged out",
    )
    WRONG_PASSWORD = (
        "wrong_password",
        403,
        "the password confirming a change to your account is wrong",
    )
    NOT_A_PARTICIPANT = ("not_a_participant", 403, "you have no seat in this game")
    NOT_THE_CREATOR = ("not_the_creator", 403, "only the game's creator may do this")
    PERMISSION_DENIED = ("permission_denied", 403, "not allowed")
    WEBHOOK_SCOPE_FORBIDDEN = (
        "webhook_scope_forbidden",
        403,
        'only staff may subscribe a webhook to every player\'s events (scope "all")',
    )
    # 404, 405, 406: what is asked for
    NOT_FOUND = ("not_found", 404, "no such game, deal, player or path")
    INVALID_SEQ = ("invalid_seq", 404, "a replay position after the deal's last move")
    METHOD_NOT_ALLOWED = ("method_not_allowed", 405, "a method the schema does not list")
    NOT_ACCEPTABLE = ("not_acceptable", 406, "no answer in a media type the client accepts")
    # 409: the game's current state
    NOT_YOUR_TURN = ("not_your_turn", 409, "another seat is to play")
    STALE_SEQ = ("stale_seq", 409, "expected_seq is not the last move's seq")
    GAME_NOT_ACTIVE = ("game_not_active", 409, "the game is waiting, finished or abandoned")
    SEAT_TAKEN = ("seat_taken", 409, "the seat asked for is taken")
    GAME_NOT_OPEN = ("game_not_open", 409, "the game is not taking players")
    ALREADY_JOINED = ("already_joined", 409, "you already have a seat in this game")
    USERNAME_TAKEN = ("username_taken", 409, "the name is taken, in any spelling")
    GUEST_ACCOUNT = (
        "guest_account",
        409,
        "a guest account has no password: claim it first (auth/claim)",
    )
    NOT_A_GUEST = ("not_a_guest", 409, "only a guest account is claimed")
    DEAL_IN_PROGRESS = ("deal_in_progress", 409, "records and replays exist for finished deals")
    GAME_FULL = ("game_full", 409, "every open seat is reserved for an invited player")
    SEAT_RESIGNED = ("seat_resigned", 409, "you resigned this game: an AI plays your seat")
    HINTS_OFF = ("hints_off", 409, "the game was created without hints")
    GAME_NOT_WAITING = ("game_not_waiting", 409, "the game has started or ended")
    GAME_NOT_FINISHED = ("game_not_finished", 409, "a rematch follows a finished game")
    ALREADY_INVITED = ("already_invited", 409, "the player has an open invitation to this game")
    WEBHOOK_LIMIT_REACHED = (
        "webhook_limit_reached",
        409,
        "you have as many webhooks as a player may (WEBHOOK_MAX_PER_PLAYER)",
    )
    DEVICE_LIMIT_REACHED = (
        "device_limit_reached",
        409,
        "you have as many push devices as a player may (PUSH_MAX_DEVICES_PER_PLAYER)",
    )
    INVITATION_CLOSED = (
        "invitation_closed",
        409,
        "the invitation was answered, expired or cancelled",
    )
    # 413, 415: the body's size and type
    PAYLOAD_TOO_LARGE = ("payload_too_large", 413, "the body is over the size limit")
    UNSUPPORTED_MEDIA_TYPE = ("unsupported_media_type", 415, "the body is not JSON")
    # 422: allowed by the schema, refused by the rules
    CARDS_NOT_IN_HAND = ("cards_not_in_hand", 422, "a card played is not in your hand")
    NOT_A_COMBINATION = ("not_a_combination", 422, "the cards are not a play")
    MUST_INCLUDE_OPENING_CARD = (
        "must_include_opening_card",
        422,
        "the deal's first play must include the opening card",
    )
    WRONG_SIZE = ("wrong_size", 422, "the play has another number of cards than the one to beat")
    DOES_NOT_BEAT = ("does_not_beat", 422, "the play does not beat the one on the table")
    CANNOT_PASS_ON_LEAD = ("cannot_pass_on_lead", 422, "the leader of a trick may not pass")
    DUPLICATE_CARDS = ("duplicate_cards", 422, "one card twice in a play")
    NO_HUMAN_SEAT = ("no_human_seat", 422, "a game needs a human seat for its creator")
    INVALID_SEAT = ("invalid_seat", 422, "join names a seat the game does not have")
    WEAK_PASSWORD = ("weak_password", 422, "the password fails a validator")
    INVALID_USERNAME = ("invalid_username", 422, "the name mixes letters of different scripts")
    UNKNOWN_PLAYER = ("unknown_player", 422, "no player has that username")
    INVALID_INVITEE = (
        "invalid_invitee",
        422,
        "yourself, a player named twice, or more invitees than open seats",
    )
    RATED_WITH_HINTS = ("rated_with_hints", 422, "a game with hints is never rated")
    IDEMPOTENCY_KEY_REUSED = (
        "idempotency_key_reused",
        422,
        "the Idempotency-Key was used before for another request",
    )
    WEBHOOK_URL_REFUSED = (
        "webhook_url_refused",
        422,
        "the webhook URL is no URL, or its host does not resolve or is not public",
    )
    INVALID_DEVICE = (
        "invalid_device",
        422,
        "a push token or Web Push subscription of the wrong form for its platform",
    )
    PUSH_UNAVAILABLE = (
        "push_unavailable",
        422,
        "the server has no credentials for this push platform (GET push/platforms)",
    )
    PUSH_ENDPOINT_REFUSED = (
        "push_endpoint_refused",
        422,
        "a Web Push endpoint that is not https on a known push service's host",
    )
    # 429, 5xx
    THROTTLED = ("throttled", 429, "too many requests, or a log-in inside a name's backoff")
    SERVER_ERROR = ("server_error", 500, "a bug: never expected")
    SERVICE_UNAVAILABLE = ("service_unavailable", 503, "the database is unreachable or overloaded")

    @classmethod
    def of(cls, code: str) -> ErrorCode:
        """The member for a code as a string (the engine's errors carry theirs so)."""
        member = cls._value2member_map_[code]
        assert isinstance(member, ErrorCode)
        return member

    @classmethod
    def for_status(cls, status: int) -> list[ErrorCode]:
        return [code for code in cls if code.status == status]


class DomainError(Exception):
    """A refusal with a stable code. Raised by services, selectors and input fields;
    changes nothing (its transaction rolls back)."""

    def __init__(
        self, code: ErrorCode, message: str, *, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    @property
    def status(self) -> int:
        return self.code.status

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r}, details={self.details!r})"
