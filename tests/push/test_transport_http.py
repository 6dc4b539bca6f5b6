"""When a request the server closed its connection under is sent again (push.providers
._http.unprocessed): only when the server's GOAWAY says it was not processed."""

from __future__ import annotations

import h2.events
import httpcore
import httpx
import pytest

from push.providers._http import retry_after, unprocessed


def closed_under(error: Exception) -> httpx.RemoteProtocolError:
    # How httpx raises it: its own error, from httpcore's, from h2's event.
    try:
        try:
            raise httpcore.RemoteProtocolError(error)
        except httpcore.RemoteProtocolError as cause:
            raise httpx.RemoteProtocolError("closed") from cause
    except httpx.RemoteProtocolError as exc:
        return exc


def goaway(last_stream_id: int, error_code: int = 0) -> h2.events.ConnectionTerminated:
    event = h2.events.ConnectionTerminated()
    event.last_stream_id = last_stream_id
    event.error_code = error_code
    return event


@pytest.mark.parametrize(
    ("last_stream_id", "streams", "resent"),
    [
        (5, [7], True),  # ours came after the last the server took
        (7, [7], False),  # the server may have acted on it
        (9, [7], False),
        (5, [], True),  # it never went out
    ],
)
def test_a_request_after_the_goaways_last_stream_is_sent_again(last_stream_id, streams, resent):
    assert unprocessed(closed_under(goaway(last_stream_id)), streams) is resent


def test_a_connection_that_just_dropped_is_not_known_unprocessed():
    assert unprocessed(closed_under(Exception("Server disconnected")), [7]) is False


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        (None, None),
        ("", None),
        ("120", 120.0),
        (" 2.5 ", 2.5),
        ("-3", 0.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # a date gone by: at once
        ("Thu, 01 Jan 1970 00:10:00 GMT", 0.0),
        ("soon", None),
        ("inf", None),
        ("nan", None),
    ],
)
def test_retry_after_is_seconds_or_a_date(header, seconds):
    assert retry_after(header, now=1_800_000_000.0) == seconds


def test_retry_after_a_date_to_come_counts_from_now():
    now = 1_800_000_000.0  # Fri, 15 Jan 2027 08:00:00 GMT
    assert retry_after("Fri, 15 Jan 2027 08:01:40 GMT", now=now) == 100.0
