"""`Idempotency-Key` for writes: a retried request gets the first answer, byte for byte,
and changes nothing twice.

This is an HTTP concern, so it lives at the API layer, around a view's work: the key is
claimed, the service runs, and the answer the API layer rendered from the transaction's
final state is stored, all in one transaction. A refused request (any 4xx raised by the
work) rolls the claim back with everything else, so retrying it simply checks it again.
Concurrent requests with one key queue on the key's unique index: the second waits for
the first to commit, then replays its answer.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.db import transaction
from django.http import HttpResponse
from django.utils import timezone
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import IdempotentRequest
from games.services.retention import idempotency_key_ttl
from players.models import Player
from pusoy_api.domain_errors import DomainError, ErrorCode

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255


def request_fingerprint(request: Request) -> str:
    """The request a key stands for: method, path and JSON body (key order ignored)."""
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def idempotent(request: Request, produce: Callable[[], Response]) -> HttpResponse:
    """Run `produce` (the view's work: call a service, render its result) once per key.
    Without the header it simply runs."""
    key = request.headers.get(HEADER)
    if key is None:
        return produce()
    if not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise DomainError(
            ErrorCode.INVALID_INPUT,
            f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters.",
            details={"fields": {HEADER: ["length"]}},
        )
    player = request.user
    assert isinstance(player, Player)  # keyed requests are authenticated writes
    fingerprint = request_fingerprint(request)
    with transaction.atomic():
        # An expired key is free again (the periodic purge also removes it).
        IdempotentRequest.objects.filter(
            player=player, key=key, created_at__lt=timezone.now() - idempotency_key_ttl()
        ).delete()
        claim, created = IdempotentRequest.objects.get_or_create(
            player=player, key=key, defaults={"request_hash": fingerprint}
        )
        if not created:
            return _replay(claim, fingerprint)
        response = produce()
        claim.response_status = response.status_code
        claim.response_content = _rendered(response)
        claim.save(update_fields=["response_status", "response_content"])
    return _stored_answer(claim, replayed=False)


def _replay(claim: IdempotentRequest, fingerprint: str) -> HttpResponse:
    if claim.request_hash != fingerprint:
        raise DomainError(
            ErrorCode.IDEMPOTENCY_KEY_REUSED,
            f"This {HEADER} was used for a different request.",
        )
    return _stored_answer(claim, replayed=True)


def _rendered(response: Response) -> str:
    return JSONRenderer().render(response.data).decode()


def _stored_answer(claim: IdempotentRequest, *, replayed: bool) -> HttpResponse:
    """The stored answer, exactly as first rendered (the first answer is served from the
    same bytes, so an original and its replays can never differ)."""
    answer = HttpResponse(
        claim.response_content, status=claim.response_status, content_type="application/json"
    )
    answer[REPLAYED_HEADER] = "true" if replayed else "false"
    return answer
