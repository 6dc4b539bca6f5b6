"""Output shapes of the game endpoints, shared by the views and the OpenAPI schema.

One serializer per concept (a card, the play to beat, a deal's result, a seat), so a
concept has the same shape wherever it appears: the player's state, the history, a
replay, the answer to a move. The schema is generated from these, so it cannot drift
from the answers.
"""

from __future__ import annotations

import itertools
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.models import (
    AI_LEVEL_CHOICES,
    GameStatus,
    InvitationStatus,
    MoveAction,
    SeatStatus,
    Visibility,
)
from pusoy.engine import PRESETS
from pusoy.engine.rules import FLUSH_ORDERS, HAND_SIZES, LEFTOVERS, SCORINGS, STRAIGHT_SYSTEMS
from pusoy_api.fast_render import Renderer

CARD_PATTERN = r"^[3-9TJQKA2][CSHD]$"
# Every order of the four suits, low to high (the engine accepts no other).
SUIT_ORDERS = sorted("".join(order) for order in itertools.permutations("CSHD"))


@extend_schema_field(
    {"type": "string", "pattern": CARD_PATTERN, "example": "3C", "description": "A card."}
)
class CardField(serializers.Field):
    """A card in canonical notation: rank 3-9 T J Q K A 2, then suit C S H D."""

    def to_representation(self, value: Any) -> str:
        return str(value)


class CardListField(serializers.ListField):
    child = CardField()


# --- Rules ---------------------------------------------------------------------------


class RulesSerializer(serializers.Serializer):
    """Every option, resolved: a game keeps these rules even if a preset changes later."""

    preset = serializers.ChoiceField(choices=list(PRESETS))
    suit_order = serializers.ChoiceField(choices=SUIT_ORDERS, help_text="Suits, low to high.")
    opening_card = CardField()
    straights = serializers.ChoiceField(choices=list(STRAIGHT_SYSTEMS))
    flush_order = serializers.ChoiceField(choices=list(FLUSH_ORDERS))
    scoring = serializers.ChoiceField(choices=list(SCORINGS))
    play_out = serializers.BooleanField()
    pass_locks_out = serializers.BooleanField()
    leftover = serializers.ChoiceField(choices=list(LEFTOVERS))
    hand_size = serializers.ChoiceField(choices=list(HAND_SIZES))
    triples = serializers.BooleanField()


# --- Games and seats -------------------------------------------------------------------


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    username = serializers.CharField()


class _BlankIsNullChoiceField(serializers.ChoiceField):
    """A choice stored as "" when absent (a CharField column), answered as null."""

    def to_representation(self, value: Any) -> Any:
        return super().to_representation(value) if value else None


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=3)
    type = serializers.SerializerMethodField()
    player = PlayerRefSerializer(allow_null=True, help_text="The human in the seat; null if open.")
    level = _BlankIsNullChoiceField(
        source="ai_level",
        choices=AI_LEVEL_CHOICES,
        allow_null=True,
        help_text="The AI's level (as asked for at creation); null for a human seat.",
    )
    score = serializers.IntegerField(help_text="Points so far in the match.")
    status = serializers.ChoiceField(
        choices=SeatStatus.choices,
        help_text="`resigned`: an AI plays the seat to the match's end; `left`: its player "
        "left the waiting game and the seat is open again.",
    )

    def get_type(self, seat: Any) -> str:  # "human" | "ai"
        return "ai" if seat.ai_level else "human"


class GameSerializer(serializers.Serializer):
    """A game. Give the serializer `context={"viewer": player}`: the invite code of a
    private game is shown to its participants only."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    invite_code = serializers.SerializerMethodField(
        help_text="A private game's code to join without an invitation; shown to its "
        "participants only (null otherwise)."
    )
    created_by = PlayerRefSerializer()
    hints = serializers.BooleanField(help_text="Hints are offered on each turn.")
    rated = serializers.BooleanField(help_text="The game counts for ratings.")
    rules = RulesSerializer()
    seats = SeatSerializer(many=True)
    target_deals = serializers.IntegerField(allow_null=True)
    target_score = serializers.IntegerField(allow_null=True)
    turn_timeout = serializers.IntegerField(
        source="turn_timeout_seconds",
        allow_null=True,
        help_text="Seconds a human has for each move, or null for no limit.",
    )
    current_deal = serializers.IntegerField(
        source="current_deal_number", help_text="Number of the deal in play (0 before the first)."
    )
    version = serializers.IntegerField(help_text="Goes up on every change of the game.")
    winner_seat = serializers.IntegerField(allow_null=True)
    ranking = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="A finished game's seats, best first (resigned seats last); else null.",
    )
    rematch = serializers.UUIDField(
        source="rematch_id", allow_null=True, help_text="The game that followed this one."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field({"type": "string", "nullable": True})
    def get_invite_code(self, game: Any) -> str | None:
        viewer = self.context.get("viewer")
        if not game.invite_code or viewer is None:
            return None
        participant = any(seat.player_id == viewer.pk for seat in game.seats.all())
        return game.invite_code if participant or game.created_by_id == viewer.pk else None


# --- Deals -------------------------------------------------------------------------------


class DealResultSerializer(serializers.Serializer):
    """A deal's result: points are fixed when the first player goes out."""

    winner = serializers.IntegerField(help_text="The seat that went out first.")
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Points each seat scored, seat order."
    )
    places = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Seats in finishing order; null until the deal is over (with `play_out`).",
    )


class DealSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 of the shuffle seed, hex; public.")
    seq = serializers.IntegerField(help_text="seq of the deal's last move.")
    turn = serializers.IntegerField(allow_null=True)
    result = DealResultSerializer(source="outcome", allow_null=True)
    seed = serializers.CharField(
        source="revealed_seed", allow_null=True, help_text="Revealed when the deal is over."
    )
    finished_at = serializers.DateTimeField(allow_null=True)


class GameDetailSerializer(GameSerializer):
    deals = DealSummarySerializer(many=True, source="deals.all")


class ToBeatSerializer(serializers.Serializer):
    """The play on the table that the next play must beat, and who made it."""

    cards = CardListField()
    combination = serializers.CharField(help_text="single, pair, triple, straight, flush, ...")
    seat = serializers.IntegerField()


class MoveBodySerializer(serializers.Serializer):
    """A move as a client sends it: a legal move can be posted back as it is."""

    action = serializers.ChoiceField(choices=MoveAction.choices)
    cards = CardListField(help_text="The cards played; empty for a pass.")


class HintSerializer(serializers.Serializer):
    """A suggested move for your turn and why."""

    move = MoveBodySerializer(help_text="A legal move: post it as it is to play it.")
    reason = serializers.CharField(help_text="Why, in a sentence (for people; may change).")


class MoveSerializer(serializers.Serializer):
    """A move of the public history."""

    deal = serializers.IntegerField(source="deal.number")
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.ChoiceField(choices=MoveAction.choices)
    cards = CardListField()
    combination = serializers.CharField(allow_blank=True, help_text="Empty for a pass.")
    actor = serializers.CharField(help_text='"player", "ai:<level>" or "timeout".')
    created_at = serializers.DateTimeField()
    chain = serializers.CharField(help_text="SHA-256 hash chain over the deal's moves.")


class HistorySerializer(serializers.Serializer):
    deal = serializers.IntegerField(allow_null=True, help_text="null before the first deal.")
    last_seq = serializers.IntegerField(
        help_text="seq of the deal's last move when this answer was read: use it as `since`."
    )
    finished = serializers.BooleanField(
        help_text="No move will be added to this deal: it is over, or the game has ended "
        "(a wait answers at once)."
    )
    moves = MoveSerializer(many=True)


# --- A player's view of the table ------------------------------------------------------


class FaceUpCardSerializer(serializers.Serializer):
    card = CardField()
    seat = serializers.IntegerField(help_text="The seat it was dealt to.")


class TableSerializer(serializers.Serializer):
    """The public state of a deal's table: what every seat may see."""

    seq = serializers.IntegerField(help_text="seq of the deal's last move.")
    card_counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="Cards left in each seat's hand."
    )
    turn = serializers.IntegerField(allow_null=True, help_text="The seat to play; null when over.")
    to_beat = ToBeatSerializer(allow_null=True, help_text="null when the seat to play leads.")
    trick_leader = serializers.IntegerField()
    passed = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats that passed in this trick."
    )
    required_card = CardField(
        allow_null=True, help_text="The card the first play of the deal must include."
    )
    finished_order = serializers.ListField(child=serializers.IntegerField())
    is_over = serializers.BooleanField()
    result = DealResultSerializer(allow_null=True)


class PublicDealViewSerializer(TableSerializer):
    """The deal as anyone at or around the table sees it: no hand at all."""

    number = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 of the shuffle seed, hex; public.")
    face_up_card = FaceUpCardSerializer(
        allow_null=True, help_text="3 players: the 52nd card, dealt face up, and its holder."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the server plays for the seat to play (turn_timeout)."
    )


class DealViewSerializer(PublicDealViewSerializer):
    """One seat's view: the table, its own hand, and what it may do."""

    hand = CardListField(help_text="Your cards, low to high.")
    legal_moves = MoveBodySerializer(
        many=True, help_text="On your turn: every legal move (post one as it is); else empty."
    )


class PlayerStateSerializer(serializers.Serializer):
    """A seated player's view of the table."""

    view = serializers.ChoiceField(choices=["player"])
    game = serializers.UUIDField(source="game.pk")
    status = serializers.ChoiceField(source="game.status", choices=GameStatus.choices)
    version = serializers.IntegerField(source="game.version")
    seat = serializers.IntegerField(help_text="Your seat.")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Seat order.")
    deal = DealViewSerializer(allow_null=True, help_text="null before the first deal.")


class SpectatorStateSerializer(serializers.Serializer):
    """A public game as someone without a seat watches it: never a hand."""

    view = serializers.ChoiceField(choices=["spectator"])
    game = serializers.UUIDField(source="game.pk")
    status = serializers.ChoiceField(source="game.status", choices=GameStatus.choices)
    version = serializers.IntegerField(source="game.version")
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Seat order.")
    deal = PublicDealViewSerializer(allow_null=True, help_text="null before the first deal.")


GAME_STATE_SCHEMA = PolymorphicProxySerializer(
    component_name="GameState",
    serializers={"player": PlayerStateSerializer, "spectator": SpectatorStateSerializer},
    resource_type_field_name="view",
)


_player_state = Renderer(PlayerStateSerializer)
_spectator_state = Renderer(SpectatorStateSerializer)


def game_state_data(state: Any) -> dict[str, Any]:
    """A player's or a spectator's view, as its serializer renders it (pusoy_api.fast_render:
    the answer to every move and `GET state`)."""
    return (_player_state if state.view == "player" else _spectator_state)(state)


class InvitationSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.UUIDField(source="game_id")
    seat = serializers.IntegerField(help_text="The seat reserved for the invitee.")
    invitee = PlayerRefSerializer()
    invited_by = PlayerRefSerializer()
    status = serializers.ChoiceField(
        source="current_status",
        choices=InvitationStatus.choices,
        help_text="A pending invitation past `expires_at` is `expired`.",
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class MoveAcceptedSerializer(serializers.Serializer):
    move = MoveSerializer()
    state = PlayerStateSerializer(help_text="Your view after the move (the next deal's, if any).")
    ended_deal = DealSummarySerializer(
        allow_null=True,
        help_text="The deal this move ended, with its result and revealed seed; else null.",
    )


move_accepted_data = Renderer(MoveAcceptedSerializer)
history_data = Renderer(HistorySerializer)


# --- Replays of finished deals -------------------------------------------------------------


class ReplayMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.ChoiceField(choices=MoveAction.choices)
    cards = CardListField()


class ReplayStateSerializer(TableSerializer):
    """A finished deal's table at one move, every hand visible."""

    hands = serializers.ListField(child=CardListField(), help_text="Every hand, seat order.")


class ReplaySerializer(serializers.Serializer):
    deal = serializers.IntegerField()
    at = serializers.IntegerField(help_text="The state is the one after move `at`.")
    last_seq = serializers.IntegerField()
    seed = serializers.CharField()
    commitment = serializers.CharField()
    rules = RulesSerializer()
    hands = serializers.ListField(child=CardListField(), help_text="The hands as dealt.")
    set_aside = CardListField()
    leader = serializers.IntegerField(
        allow_null=True, help_text="Later deals: the seat that led freely; null on a first deal."
    )
    moves = ReplayMoveSerializer(many=True, help_text="The moves up to `at`.")
    state = ReplayStateSerializer()


# --- Game records (`pusoy-dos-record/1`) ---------------------------------------------------

_RECORD_MOVE_SCHEMA = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "maximum": 3},
                "play": {"type": "array", "items": {"type": "string", "pattern": CARD_PATTERN}},
            },
            "required": ["seat", "play"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "seat": {"type": "integer", "minimum": 0, "maximum": 3},
                "pass": {"type": "boolean", "enum": [True]},
            },
            "required": ["seat", "pass"],
            "additionalProperties": False,
        },
    ]
}


@extend_schema_field(_RECORD_MOVE_SCHEMA)
class RecordMoveField(serializers.JSONField):
    """`{"seat": 0, "play": ["3C"]}` or `{"seat": 3, "pass": true}`."""


class RecordResultSerializer(serializers.Serializer):
    winner = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField())
    places = serializers.ListField(child=serializers.IntegerField())
    cards_left = serializers.ListField(child=serializers.IntegerField())


class RecordSerializer(serializers.Serializer):
    """One deal as `pusoy-dos-record/1` (docs/api.md): the record is the source of truth."""

    format = serializers.ChoiceField(choices=["pusoy-dos-record/1"])
    rules = RulesSerializer()
    players = serializers.ListField(child=serializers.CharField(), required=False)
    hands = serializers.ListField(child=CardListField(), help_text="As dealt; seat = turn order.")
    leader = serializers.IntegerField(
        required=False,
        help_text="Only on a later deal of a match: this seat led freely. Absent on a first "
        "deal, whose first play must include `opening_card`.",
    )
    opening_card = CardField(required=False, help_text="First deals only.")
    moves = serializers.ListField(child=RecordMoveField())
    result = RecordResultSerializer(required=False)
    seed = serializers.CharField(required=False, help_text="32-byte seed, lower-case hex.")
    commitment = serializers.CharField(required=False, help_text="SHA-256 of the seed, hex.")
