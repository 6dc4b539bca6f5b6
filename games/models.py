"""Games (matches), seats, deals and moves. Moves are the source of truth; a deal's
`snapshot` is a cache of the engine state that `verify_game` rebuilds from the moves."""

from __future__ import annotations

import uuid
from typing import NamedTuple

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from pusoy.ai import LEVELS


class GameStatus(models.TextChoices):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


# The levels are the bots' (pusoy.ai.LEVELS, weakest first): defined there, once.
AI_LEVEL_CHOICES = [(level, level.title()) for level in LEVELS]


class Visibility(models.TextChoices):
    PUBLIC = "public"  # listed in the lobby; anyone logged in may watch
    PRIVATE = "private"  # joined by invitation or invite code; seen by participants only


class SeatStatus(models.TextChoices):
    PLAYING = "playing"
    RESIGNED = "resigned"  # its player resigned; an AI plays the seat to the match's end
    LEFT = "left"  # its player left the waiting game; the seat is open again


class InvitationStatus(models.TextChoices):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"  # the game was cancelled, or started without the invitee


class DealOutcome(NamedTuple):
    winner: int
    points: list[int]
    places: list[int] | None


class Game(models.Model):
    """A match of one or more deals under one set of resolved rules."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    # The fully resolved options (engine `Rules.to_dict()`): a game keeps its rules
    # forever, even when a preset's defaults change later.
    rules = models.JSONField()
    status = models.CharField(max_length=16, choices=GameStatus, default=GameStatus.WAITING)
    target_deals = models.PositiveSmallIntegerField(null=True, blank=True)
    target_score = models.PositiveIntegerField(null=True, blank=True)
    turn_timeout = models.DurationField(
        null=True, blank=True, help_text="Time a human has for a move; the server plays after."
    )
    num_seats = models.PositiveSmallIntegerField()
    visibility = models.CharField(max_length=8, choices=Visibility, default=Visibility.PUBLIC)
    # Private games: the code that lets someone without an invitation join. Shown to
    # participants only.
    invite_code = models.CharField(max_length=32, blank=True, default="")
    hints = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    # Seat positions best first, once the match is finished (a resigner is last).
    ranking = models.JSONField(null=True, blank=True)
    # The game a participant asked for after this one ended: asked for once.
    rematch = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )
    current_deal_number = models.PositiveSmallIntegerField(default=0)
    # Bumped on every change, so clients and caches can tell whether anything moved.
    version = models.PositiveIntegerField(default=0)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"], name="game_status_created")]
        constraints = [
            models.CheckConstraint(
                condition=Q(num_seats__gte=2) & Q(num_seats__lte=4), name="game_2_to_4_seats"
            ),
            models.CheckConstraint(
                condition=Q(target_deals__isnull=False) | Q(target_score__isnull=False),
                name="game_has_a_target",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.id} ({self.status})"

    @property
    def turn_timeout_seconds(self) -> int | None:
        return None if self.turn_timeout is None else int(self.turn_timeout.total_seconds())


class SeatQuerySet(models.QuerySet["Seat"]):
    def played_by_ai(self) -> SeatQuerySet:
        """Seats whose moves an AI makes now (``Seat.acting_ai_level`` is not None):
        AI seats, and seats whose human resigned."""
        return self.filter(Q(ai_level__gt="") | Q(status=SeatStatus.RESIGNED))


class Seat(models.Model):
    """A place at the table: a human player (once joined) or an AI of a level.

    One name for the level: ``ai_level`` is the AI seated at creation ("" for a human
    seat); ``acting_ai_level`` is the AI that makes the seat's moves now."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    ai_level = models.CharField(max_length=16, choices=AI_LEVEL_CHOICES, blank=True, default="")
    score = models.IntegerField(default=0)
    joined_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=SeatStatus, default=SeatStatus.PLAYING)
    resigned_at = models.DateTimeField(null=True, blank=True)
    # Turns in a row the server played for this human because time ran out.
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=Q(player__isnull=False),
                name="seat_one_per_player",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=True) | Q(ai_level=""), name="seat_human_or_ai"
            ),
        ]

    def __str__(self) -> str:
        who = (self.ai_level and f"AI {self.ai_level}") or (self.player or "open")
        return f"seat {self.position}: {who}"

    @property
    def acting_ai_level(self) -> str | None:
        """The level of the AI that makes this seat's moves now: its own, or, once its
        human has resigned, RESIGNED_SEAT_AI_LEVEL; None while a human plays it (the
        same rule as ``Seat.objects.played_by_ai()``)."""
        if self.ai_level:
            return self.ai_level
        if self.status == SeatStatus.RESIGNED:
            return str(settings.RESIGNED_SEAT_AI_LEVEL)
        return None


class Deal(models.Model):
    """One deal of a game. Hands and seed stay secret until the deal ends; the
    commitment (SHA-256 of the seed) is public from the start."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, help_text="32-byte shuffle seed, hex. Secret.")
    commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed, hex. Public.")
    hands = models.JSONField(help_text="Hands as dealt, seat order. Secret until the end.")
    set_aside = models.JSONField(default=list)
    face_up_card = models.CharField(
        max_length=2,
        blank=True,
        default="",
        help_text="3 players, to-opening-holder: the 52nd card, dealt face up (public).",
    )
    # None on the first deal: the holder of the opening card leads and must include it.
    leader = models.PositiveSmallIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0, help_text="seq of the last move applied")
    chain_head = models.CharField(
        max_length=64, help_text="`chain` of the last move (the commitment before move 1)."
    )
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    snapshot = models.JSONField(help_text="Cached engine state after move `seq`.")
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.JSONField(null=True, blank=True)
    places = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number"),
        ]
        indexes = [
            # The AI and deadline sweeps look for open deals whose turn has waited.
            models.Index(
                fields=["turn_started_at"],
                condition=Q(finished_at__isnull=True),
                name="deal_open_turn_started",
            ),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.game_id}"

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    @property
    def outcome(self) -> DealOutcome | None:
        """Winner and points once the first player is out; places once the deal is over."""
        if self.winner is None:
            return None
        return DealOutcome(self.winner, list(self.points or []), self.places)

    @property
    def revealed_seed(self) -> str | None:
        """The shuffle seed, public once the deal is over (never before)."""
        return self.seed if self.is_finished else None


class MoveAction(models.TextChoices):
    PLAY = "play"
    PASS = "pass"


class Move(models.Model):
    """One move of a deal; `chain` makes the log tamper-evident (see docs/api.md)."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=8, choices=MoveAction)
    cards = models.JSONField(default=list)
    combination = models.CharField(max_length=20, blank=True, default="")
    # "player" (the seat's human), "ai:<level>", or "timeout" (the server played).
    actor = models.CharField(max_length=32)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    chain = models.CharField(max_length=64)

    class Meta:
        ordering = ["deal", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seq"], name="move_unique_seq"),
        ]

    def __str__(self) -> str:
        what = " ".join(self.cards) if self.action == MoveAction.PLAY else "pass"
        return f"{self.deal} #{self.seq} seat {self.seat}: {what}"


class IdempotentRequest(models.Model):
    """The first answer to a request carrying an `Idempotency-Key`, replayed on retries
    until it expires (IDEMPOTENCY_KEY_TTL_HOURS; a periodic task purges it)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(default=0)
    # The answer as rendered, byte for byte (JSON text): a replay is the same bytes.
    response_content = models.TextField(default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="idempotency_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.key}"


class Invitation(models.Model):
    """A seat of a waiting game reserved for a named player until they answer, the game
    is cancelled or the invitation expires (INVITATION_TTL_DAYS)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    seat = models.PositiveSmallIntegerField()
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    status = models.CharField(
        max_length=10, choices=InvitationStatus, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One open invitation per seat, and per player in a game.
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_seat",
            ),
            models.UniqueConstraint(
                fields=["game", "invitee"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_invitee",
            ),
        ]
        indexes = [models.Index(fields=["invitee", "status"], name="invitation_inbox")]

    def __str__(self) -> str:
        return f"invitation of {self.invitee_id} to seat {self.seat} of {self.game_id}"

    @property
    def current_status(self) -> str:
        """The status as it stands now: a pending invitation past its time has expired
        (the periodic task writes that down later)."""
        if self.status == InvitationStatus.PENDING and self.expires_at <= timezone.now():
            return InvitationStatus.EXPIRED
        return self.status
