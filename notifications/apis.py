"""The player's event feed: `GET events` (long-polling like the moves), `GET
events/stream` (the same feed as Server-Sent Events) and `POST events/ticket` (a
single-use credential for a browser's EventSource, which cannot send a header).

Both reads are async DRF views (adrf) over the long-poll hub (pusoy_api.realtime): a waiting
request and an open stream hold no database connection and no thread between reads.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from adrf.views import APIView as AsyncAPIView
from django.conf import settings
from django.core.validators import RegexValidator
from django.http import StreamingHttpResponse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from notifications import selectors, services
from notifications.serializers import EventFeedSerializer, StreamTicketSerializer
from notifications.types import EventPayload, EventType
from players.throttles import WriteRateThrottle
from pusoy_api.domain_errors import DomainError, ErrorCode
from pusoy_api.fields import QueryIntegerField, QuerySerializer, StrictCharField
from pusoy_api.openapi import error_responses
from pusoy_api.realtime import longpoll
from pusoy_api.realtime.keys import player_key

MAX_EVENT_ID = 2**63 - 1
# The hub re-checks a player's waiters with their newest event id.


def feed_answer(*, player_id: Any, since: int) -> dict[str, Any]:
    events = selectors.events_after(player_id=player_id, since=since)
    return {"events": events, "last_id": events[-1]["id"] if events else since}


class EventsApi(AsyncAPIView):
    class FilterSerializer(QuerySerializer):
        since = QueryIntegerField(
            required=False,
            min_value=0,
            max_value=MAX_EVENT_ID,
            default=0,
            help_text="Only events after this id (the last `last_id`).",
        )
        wait = serializers.FloatField(
            required=False,
            min_value=0,
            max_value=longpoll.MAX_WAIT_SECONDS,
            default=0,
            help_text="Hold the request up to this many seconds until an event after `since`.",
        )

    @extend_schema(
        operation_id="events_list",
        summary="Your events",
        description="What happened in your games (and invitations to you), oldest first: "
        "game started, your turn, every move (yours too), deal and game finished, "
        "invitations and answers, a deadline close, resignations, abandoned games. At most "
        f"{selectors.PAGE_SIZE} events per answer: continue with `since=last_id`. With "
        "`wait`, the request is held until an event after `since` exists or the time runs "
        "out (then `events` is empty). Events are kept 90 days (`EVENTS_TTL_DAYS`).",
        parameters=[FilterSerializer],
        responses={200: EventFeedSerializer, **error_responses(400, 401, 503)},
    )
    async def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        since, wait = filters.validated_data["since"], filters.validated_data["wait"]
        player_id = request.user.pk

        def read() -> dict[str, Any]:
            return feed_answer(player_id=player_id, since=since)

        if not wait:
            return Response(await longpoll.read_on_request_thread(read))
        body = await longpoll.wait_for_news(
            key=player_key(player_id),
            ask=since,
            seconds=wait,
            read=read,
            is_news=lambda answer: bool(answer["events"]),
            is_final=lambda answer: False,
        )
        return Response(body)


class StreamTicketApi(APIView):
    throttle_classes = [WriteRateThrottle]

    @extend_schema(
        operation_id="events_ticket",
        summary="A ticket for the event stream",
        description="For a browser's `EventSource`, which cannot send an `Authorization` "
        "header: `GET events/stream?ticket=...` instead of the token (a token never goes "
        "in a URL). Used once, valid 60 seconds (`STREAM_TICKET_SECONDS`); a reconnection "
        "takes a new ticket and `since=` the last event id received.",
        request=None,
        responses={201: StreamTicketSerializer, **error_responses(401, 429, 503)},
    )
    def post(self, request):
        issued = services.stream_ticket_issue(token=request.auth)
        body = {"ticket": issued.ticket, "expires_at": issued.expires_at}
        return Response(StreamTicketSerializer(body).data, status=status.HTTP_201_CREATED)


@dataclass(frozen=True)
class TicketCredential:
    """`request.auth` of a request authenticated by a ticket: the ticket, still unspent."""

    ticket: str


class TicketAuthentication(BaseAuthentication):
    """`?ticket=` on the stream: a good ticket from `POST events/ticket`, checked but not
    spent. A request can still be refused after authentication (a bad `since`), and a
    ticket spent by a refused request would be lost to the client; so the view spends
    it (`services.stream_ticket_spend`) once everything else has passed."""

    def authenticate(self, request):
        ticket = request.query_params.get("ticket")
        if ticket is None:
            return None
        return (selectors.stream_ticket_holder(ticket=ticket), TicketCredential(ticket))


class JSONErrors(BaseContentNegotiation):
    """The stream's refusals are JSON whatever the client accepts (EventSource asks for
    text/event-stream only); its events are not rendered by DRF at all."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return JSONRenderer(), JSONRenderer.media_type


# What `POST events/ticket` issues (secrets.token_urlsafe): a ticket of any other form is
# not one, and the schema says so (`$`, as JSON Schema's regular expressions have no \Z).
TICKET_PATTERN = r"^[A-Za-z0-9_-]+$"


@extend_schema_field(
    {"type": "string", "minLength": 1, "maxLength": 128, "pattern": TICKET_PATTERN}
)
class TicketField(StrictCharField):
    """A ticket as sent: not trimmed (a tab is not a ticket with the tab removed), and
    only the characters a ticket has, as the schema says."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=128, trim_whitespace=False, **kwargs)
        self.validators.append(RegexValidator(TICKET_PATTERN[:-1] + r"\Z"))


_DIGITS = re.compile(r"[0-9]{1,18}")  # any such id fits the events' bigint ids
LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    {"type": "string", "pattern": "^[0-9]{1,18}$"},
    OpenApiParameter.HEADER,
    description="Resume: replay the events after this id first (EventSource sends it when "
    "it reconnects). Takes precedence over `since`.",
)


# One message of the stream, by its SSE fields (what an SSE parser yields for it).
SSE_MESSAGE_SCHEMA = {
    "type": "object",
    "description": "One message: the first only `retry` (milliseconds before a client "
    "reconnects), then one per event.",
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The event's id."},
        "event": {"type": "string", "enum": list(EventType.values), "description": "Its type."},
        "data": {
            "type": "string",
            "description": "The event as JSON, exactly as an item of `GET events`.",
        },
        "retry": {"type": "integer", "minimum": 0},
    },
}


def sse_event(event: EventPayload) -> str:
    return f"id: {event['id']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"


# How long a client should wait before reconnecting after the stream ends (ms).
RETRY_MILLISECONDS = 2000


async def event_stream(
    *, player_id: Any, since: int, lifetime: float, keepalive: float
) -> AsyncIterator[str]:
    """The feed after `since` as SSE, then every new event as it commits, until
    `lifetime` seconds have passed. Subscribed before the first read, so an event
    committed in between is not missed; each read takes a pooled connection and gives it
    back, and the hub's semaphore bounds how many streams read at once."""
    # Django and DRF are done with the request's thread (the body is being sent): no
    # thread is kept for this client while the stream lasts.
    longpoll.release_request_thread()
    hub = longpoll.hub()
    key = player_key(player_id)
    waiter = hub.subscribe(key)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + lifetime
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        await hub.wait_ready()
        while True:
            # Shared by the streams of this player at this point (a player with the app
            # open on two devices reads once).
            batch = await hub.read_shared(
                key,
                ("stream", since),
                functools.partial(selectors.events_after, player_id=player_id, since=since),
                run=longpoll.read_any_thread,
            )
            for event in batch:
                yield sse_event(event)
                since = event["id"]
            if len(batch) == selectors.PAGE_SIZE:
                continue  # more to replay
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            woken = await waiter.wait(min(keepalive, remaining))
            if waiter.ended:
                return  # the server is stopping: the client reconnects to another
            if not woken and loop.time() < deadline:
                yield ": keep-alive\n\n"
    finally:
        hub.unsubscribe(key, waiter)


class EventStreamApi(AsyncAPIView):
    # The header first: it also names the scheme of a 401's WWW-Authenticate.
    authentication_classes = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, TicketAuthentication]
    content_negotiation_class = JSONErrors

    class FilterSerializer(QuerySerializer):
        since = QueryIntegerField(
            required=False,
            min_value=0,
            max_value=MAX_EVENT_ID,
            help_text="Replay the events after this id first (as `Last-Event-ID`). Without "
            "either, the stream starts with the events after the connection.",
        )
        ticket = TicketField(
            required=False,
            help_text="From `POST events/ticket`, instead of the `Authorization` header.",
        )
        max_seconds = serializers.FloatField(
            required=False,
            min_value=0,
            max_value=3600,
            help_text="Close the stream after this many seconds (never later than the "
            "server's `EVENTS_STREAM_MAX_SECONDS`, 300 by default).",
        )

    @extend_schema(
        operation_id="events_stream",
        summary="Your events as a stream",
        description="The feed of `GET events` as Server-Sent Events (`text/event-stream`): "
        "each event is `id:` (its id), `event:` (its type) and `data:` (the event as JSON, "
        "as in `GET events`). Resumable: with `Last-Event-ID` (or `since`) the events after "
        "it come first. A comment line (`: keep-alive`) every 15 s of quiet "
        "(`EVENTS_STREAM_KEEPALIVE_SECONDS`); the server ends the stream after "
        "`EVENTS_STREAM_MAX_SECONDS` (default 300) and the client reconnects with "
        "`Last-Event-ID`. Authenticate with the `Authorization` header or, from a browser, "
        "a `ticket` (`POST events/ticket`). Refusals are JSON.",
        parameters=[FilterSerializer, LAST_EVENT_ID],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                response=SSE_MESSAGE_SCHEMA,
                description="`retry:` once, then events (`id:`, `event:`, `data:` JSON) "
                "and `: keep-alive` comments, until the stream's lifetime ends.",
            ),
            **error_responses(400, 401, 503),
        },
    )
    async def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        since = filters.validated_data.get("since")
        header = request.headers.get("Last-Event-ID")
        if header is not None:
            if not _DIGITS.fullmatch(header):
                raise DomainError(
                    ErrorCode.INVALID_INPUT,
                    "Last-Event-ID is an event id.",
                    details={"fields": {"Last-Event-ID": ["An event id (digits)."]}},
                )
            since = int(header)
        player_id = request.user.pk
        ticket = request.auth.ticket if isinstance(request.auth, TicketCredential) else None

        def open_stream() -> int:
            start = selectors.last_event_id(player_id=player_id) if since is None else since
            # Last: nothing after this refuses the request, so a ticket is spent only by
            # a stream that is served (a concurrent request that spent it first: 401).
            if ticket is not None:
                services.stream_ticket_spend(ticket=ticket)
            return start

        # Also gives back the connection authentication used: the stream may last minutes.
        start = await longpoll.read_on_request_thread(open_stream)
        lifetime = float(settings.EVENTS_STREAM_MAX_SECONDS)
        if "max_seconds" in filters.validated_data:
            lifetime = min(lifetime, filters.validated_data["max_seconds"])
        response = StreamingHttpResponse(
            event_stream(
                player_id=player_id,
                since=start,
                lifetime=lifetime,
                keepalive=float(settings.EVENTS_STREAM_KEEPALIVE_SECONDS),
            ),
            content_type="text/event-stream",
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # a buffering proxy would hold the events
        return response


class StreamTicketScheme(OpenApiAuthenticationExtension):
    target_class = "notifications.apis.TicketAuthentication"
    name = "streamTicket"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "A single-use ticket from `POST events/ticket` (the event stream only).",
        }
