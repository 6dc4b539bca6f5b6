"""The providers this deployment has credentials for, built from settings when first
needed and kept for the process (each keeps its HTTP connections alive).

A platform is on when its settings are present (docs/operations.md, Push): none is a
normal state, in which devices of that platform are refused (422 `push_unavailable`)
and nothing is sent. The APNs and FCM modules are imported only when those providers
are built, so a deployment (or a test) without their credentials never loads them.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from .base import Provider

logger = logging.getLogger(__name__)

PLATFORMS = ("apns", "fcm", "webpush")

_providers: dict[str, Provider] = {}
_lock = threading.Lock()


def vapid_private_key() -> str:
    """PUSH_VAPID_PRIVATE_KEY, or the content of PUSH_VAPID_PRIVATE_KEY_FILE."""
    key = str(getattr(settings, "PUSH_VAPID_PRIVATE_KEY", "") or "")
    path = str(getattr(settings, "PUSH_VAPID_PRIVATE_KEY_FILE", "") or "")
    if not key and path:
        key = Path(path).read_text().strip()
    return key


def available(platform: str) -> bool:
    """True when the settings for `platform` are present."""
    if platform == "apns":
        return all(
            getattr(settings, name, "")
            for name in (
                "PUSH_APNS_KEY_ID",
                "PUSH_APNS_TEAM_ID",
                "PUSH_APNS_KEY_FILE",
                "PUSH_APNS_TOPIC",
            )
        )
    if platform == "fcm":
        return bool(getattr(settings, "PUSH_FCM_CREDENTIALS_FILE", ""))
    if platform == "webpush":
        has_key = bool(
            getattr(settings, "PUSH_VAPID_PRIVATE_KEY", "")
            or getattr(settings, "PUSH_VAPID_PRIVATE_KEY_FILE", "")
        )
        return has_key and bool(getattr(settings, "PUSH_VAPID_SUBJECT", ""))
    return False


def platforms() -> list[str]:
    """The platforms that are on, in a fixed order."""
    return [platform for platform in PLATFORMS if available(platform)]


def vapid_public_key() -> str | None:
    """The application server key browsers subscribe with; None when Web Push is off."""
    if not available("webpush"):
        return None
    configured = str(getattr(settings, "PUSH_VAPID_PUBLIC_KEY", "") or "")
    if configured:
        return configured
    from .webpush import public_key_of, vapid_from_key

    return public_key_of(vapid_from_key(vapid_private_key()))


def provider(platform: str) -> Provider | None:
    """The provider for `platform`, built on first use; None when it is off."""
    if not available(platform):
        return None
    with _lock:
        built = _providers.get(platform)
        if built is None:
            built = _build(platform)
            _providers[platform] = built
        return built


def _ca_file() -> str | None:
    return str(getattr(settings, "PUSH_CA_FILE", "") or "") or None


def _build(platform: str) -> Provider:
    timeout = float(settings.PUSH_TIMEOUT)
    built: Any
    if platform == "webpush":
        from .webpush import WebPushConfig, WebPushProvider

        built = WebPushProvider(
            WebPushConfig(
                private_key=vapid_private_key(),
                subject=settings.PUSH_VAPID_SUBJECT,
                timeout=timeout,
                ca_file=_ca_file(),
            )
        )
    elif platform == "apns":
        from . import apns

        built = apns.ApnsProvider(
            apns.ApnsConfig(
                key_id=settings.PUSH_APNS_KEY_ID,
                team_id=settings.PUSH_APNS_TEAM_ID,
                key_path=settings.PUSH_APNS_KEY_FILE,
                topic=settings.PUSH_APNS_TOPIC,
                use_sandbox=settings.PUSH_APNS_SANDBOX,
                base_url=settings.PUSH_APNS_URL or None,
                timeout=timeout,
                ca_file=_ca_file(),
            )
        )
    else:
        from . import fcm

        built = fcm.FcmProvider(
            fcm.FcmConfig(
                service_account_path=settings.PUSH_FCM_CREDENTIALS_FILE,
                project_id=settings.PUSH_FCM_PROJECT_ID or None,
                base_url=settings.PUSH_FCM_URL or None,
                token_url=settings.PUSH_FCM_TOKEN_URL or None,
                timeout=timeout,
                ca_file=_ca_file(),
            )
        )
    provider: Provider = built
    return provider


def reset() -> None:
    """Close and forget the built providers (settings changed; a test's servers moved)."""
    with _lock:
        for built in _providers.values():
            try:
                built.close()
            except Exception:  # closing is best effort: the next build starts afresh
                logger.exception("closing the %s provider failed", built.platform)
        _providers.clear()


@receiver(setting_changed)
def _settings_changed(setting: str, **kwargs: Any) -> None:
    if setting.startswith("PUSH_"):
        reset()


def log_platforms() -> None:
    """Say once, at start, which platforms are on (an operator checks it after a deploy)."""
    on = platforms()
    from pusoy_api import metrics

    metrics.push_platforms({platform: platform in on for platform in PLATFORMS})
    logger.info(
        "push platforms on: %s; off: %s",
        ", ".join(on) or "none",
        ", ".join(p for p in PLATFORMS if p not in on) or "none",
    )
