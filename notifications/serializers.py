"""Output serializers of the event feed: the schema's source. An event is one of ten
shapes, told apart by `type`, each with its own typed `data` (docs/api.md, "Events")."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.models import InvitationStatus, MoveAction
from notifications.types import EventType


def _ints(**kwargs):
    return serializers.ListField(child=serializers.IntegerField(), **kwargs)


class GameStartedDataSerializer(serializers.Serializer):
    seats = serializers.IntegerField()
    turn_timeout = serializers.FloatField(allow_null=True, help_text="Seconds per move.")


class TurnDataSerializer(serializers.Serializer):
    deal = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="The last move's seq: `expected_seq` to send.")
    seat = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)


class MoveDataSerializer(serializers.Serializer):
    deal = serializers.IntegerField()
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.ChoiceField(choices=MoveAction.choices)
    cards = serializers.ListField(child=serializers.CharField(), help_text="The cards played.")


class DealFinishedDataSerializer(serializers.Serializer):
    deal = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    points = _ints(allow_null=True)
    places = _ints(allow_null=True)
    scores = _ints(help_text="Every seat's match score, by position.")


class GameFinishedDataSerializer(serializers.Serializer):
    ranking = _ints(allow_null=True, help_text="Seat positions, best first.")
    winner_seat = serializers.IntegerField(allow_null=True)
    scores = _ints()


class InvitedDataSerializer(serializers.Serializer):
    invitation = serializers.UUIDField()
    seat = serializers.IntegerField()
    invited_by = serializers.CharField()
    expires_at = serializers.DateTimeField()


class InvitationAnsweredDataSerializer(serializers.Serializer):
    invitation = serializers.UUIDField()
    seat = serializers.IntegerField()
    invitee = serializers.CharField()
    status = serializers.ChoiceField(choices=InvitationStatus.choices)


class ResignedDataSerializer(serializers.Serializer):
    seat = serializers.IntegerField()


@extend_schema_field({"type": "object", "properties": {}, "additionalProperties": False})
class AbandonedDataField(serializers.DictField):
    """Always `{}` (a serializer without fields would drop out of the schema)."""


_DATA: dict[EventType, type[serializers.Field]] = {
    EventType.GAME_STARTED: GameStartedDataSerializer,
    EventType.YOUR_TURN: TurnDataSerializer,
    EventType.MOVE: MoveDataSerializer,
    EventType.DEAL_FINISHED: DealFinishedDataSerializer,
    EventType.GAME_FINISHED: GameFinishedDataSerializer,
    EventType.INVITED: InvitedDataSerializer,
    EventType.INVITATION_ANSWERED: InvitationAnsweredDataSerializer,
    EventType.DEADLINE_SOON: TurnDataSerializer,
    EventType.RESIGNED: ResignedDataSerializer,
    EventType.ABANDONED: AbandonedDataField,
}


def _camel(value: str) -> str:
    return "".join(part.title() for part in value.split("_"))


def _event_serializer(event_type: EventType) -> type[serializers.Serializer]:
    """`{id, type, game, created_at, data, player}` for one type of event."""
    name = f"{_camel(event_type.value)}EventSerializer"
    fields = {
        "id": serializers.IntegerField(help_text="Increasing: the next `since`."),
        "type": serializers.ChoiceField(choices=[(event_type.value, event_type.label)]),
        "game": serializers.UUIDField(),
        "created_at": serializers.DateTimeField(),
        "data": _DATA[event_type](),
        "player": serializers.UUIDField(help_text="The recipient: you."),
    }
    return type(name, (serializers.Serializer,), {**fields, "__module__": __name__})


EVENT_SCHEMA = PolymorphicProxySerializer(
    component_name="Event",
    serializers={t.value: _event_serializer(t) for t in EventType},
    resource_type_field_name="type",
)


@extend_schema_field(EVENT_SCHEMA)
class EventField(serializers.DictField):
    """An event as `Event.payload()` renders it."""


class EventFeedSerializer(serializers.Serializer):
    events = serializers.ListField(child=EventField(), help_text="Oldest first; at most 100.")
    last_id = serializers.IntegerField(
        help_text="The last event's id (`since` when there is none): the next `since`."
    )


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="For `GET events/stream?ticket=`: used once.")
    expires_at = serializers.DateTimeField()
