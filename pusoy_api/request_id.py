"""One id per request, on every log line it causes, here and in the tasks it queues.

A client may send `X-Request-ID` (a proxy or a mobile client tying its own logs to
ours); anything that is not 1-128 visible ASCII characters is replaced by a fresh id, so
a log line never carries a client's control characters or a megabyte of header. The
answer carries the id back in `X-Request-ID`.

The id lives in a context variable: each request (sync or async view: asgiref copies the
context into the thread that runs sync code) sees its own. Every log record gets it as
`record.request_id` (a record factory, so it is there for every handler, pytest's
caplog included, not only for those configured with `RequestIdFilter`). A task queued
during the request carries it in a message header (Celery's `before_task_publish`); the
worker restores it for the task's run (`task_prerun`) and forgets it after
(`task_postrun`). Tasks run in-process (no broker) see it directly: eagerly in the
request's own context, or on the embedded runner's thread in a copy of the context taken
when the task was queued (pusoy_api/embedded.py).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

HEADER = "X-Request-ID"
# The Celery message header that carries the id to the worker.
TASK_HEADER = "pusoy_request_id"
_VALID = re.compile(r"[\x21-\x7e]{1,128}")
NO_REQUEST = "-"

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "pusoy_request_id", default=None
)


def current() -> str | None:
    return request_id_var.get()


@contextlib.contextmanager
def bound(rid: str | None) -> Iterator[None]:
    """Run a block under `rid` (a task run in-process for a request)."""
    token = request_id_var.set(rid)
    try:
        yield
    finally:
        request_id_var.reset(token)


def new_id() -> str:
    return uuid.uuid4().hex


def accepted(value: str | None) -> str:
    """The client's id when it is acceptable, else a fresh one."""
    if value and _VALID.fullmatch(value):
        return value
    return new_id()


# --- Logging ------------------------------------------------------------------------

_base_factory = logging.getLogRecordFactory()


def _record_factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
    record = _base_factory(*args, **kwargs)
    record.request_id = request_id_var.get() or NO_REQUEST
    return record


def install_record_factory() -> None:
    """Idempotent: every record made from now on carries `request_id`."""
    if logging.getLogRecordFactory() is not _record_factory:
        logging.setLogRecordFactory(_record_factory)


class RequestIdFilter(logging.Filter):
    """For handlers: makes sure a record has `request_id` (records made before the
    factory was installed, or rebuilt from elsewhere, lack it)."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        install_record_factory()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", NO_REQUEST) == NO_REQUEST:
            # Django logs a 4xx/5xx answer ("django.request") after the middleware has
            # returned, with the request attached: its id is on it.
            request = getattr(record, "request", None)
            record.request_id = (
                getattr(request, "request_id", None) or request_id_var.get() or NO_REQUEST
            )
        return True


install_record_factory()


# --- The middleware ---------------------------------------------------------------------


@sync_and_async_middleware
def request_id_middleware(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    """Outermost: every log line of the request, middleware's included, has the id."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            rid = request.request_id = accepted(request.headers.get(HEADER))  # type: ignore[attr-defined]
            token = request_id_var.set(rid)
            try:
                response = await get_response(request)
            finally:
                request_id_var.reset(token)
            response[HEADER] = rid
            return response

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        rid = request.request_id = accepted(request.headers.get(HEADER))  # type: ignore[attr-defined]
        token = request_id_var.set(rid)
        try:
            response = get_response(request)
        finally:
            request_id_var.reset(token)
        response[HEADER] = rid
        return response

    return sync_middleware


# --- Celery: the id travels with the task ----------------------------------------------------

_task_tokens: dict[str, contextvars.Token[str | None]] = {}


def add_to_task_headers(headers: dict[str, Any]) -> None:
    """`before_task_publish`: the publishing request's id goes into the message."""
    rid = request_id_var.get()
    if rid is not None:
        headers.setdefault(TASK_HEADER, rid)


def restore_for_task(task_id: str | None, task: Any) -> None:
    """`task_prerun`: the id the task was queued with, if any, for its run. A task run
    eagerly inside a request has no message headers and keeps the request's id."""
    rid = getattr(getattr(task, "request", None), TASK_HEADER, None)
    if not isinstance(rid, str) or task_id is None:
        return
    _task_tokens[task_id] = request_id_var.set(accepted(rid))


def forget_after_task(task_id: str | None) -> None:
    """`task_postrun`: the next task of this worker process starts without it."""
    token = _task_tokens.pop(task_id, None) if task_id is not None else None
    if token is not None:
        request_id_var.reset(token)
