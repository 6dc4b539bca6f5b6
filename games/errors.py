"""The engine's refusals as domain errors: the engine's typed errors carry the same
stable codes as the API (pusoy_api.domain_errors.ErrorCode)."""

from __future__ import annotations

from pusoy.engine import EngineError
from pusoy_api.domain_errors import DomainError, ErrorCode


def domain_error(exc: EngineError) -> DomainError:
    return DomainError(ErrorCode.of(exc.code), exc.message, details=exc.details)
