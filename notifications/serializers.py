"""Output serializers of the event feed: what the API renders, and the schema's source."""

from __future__ import annotations

from rest_framework import serializers

from notifications.types import EventType


class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Increasing: the next `since` / `Last-Event-ID`.")
    type = serializers.ChoiceField(choices=EventType.choices)
    game = serializers.UUIDField()
    created_at = serializers.DateTimeField()
    data = serializers.DictField(  # type: ignore[assignment]  # the field, not Serializer.data
        help_text="Public facts of the event, by type (docs/api.md, Events); a `move` has "
        "`deal`, `seq`, `seat`, `action` and `cards` (the cards played, never a hand)."
    )
    player = serializers.UUIDField(help_text="The recipient: you.")


class EventFeedSerializer(serializers.Serializer):
    events = EventSerializer(many=True, help_text="Oldest first; at most 100.")
    last_id = serializers.IntegerField(
        help_text="The last event's id (`since` when there is none): the next `since`."
    )


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="For `GET events/stream?ticket=`: used once.")
    expires_at = serializers.DateTimeField()
