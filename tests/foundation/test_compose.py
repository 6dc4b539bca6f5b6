"""docker-compose.yml, read against the Dockerfile (no Docker engine runs here): every
service comes back when it exits, and stop signals reach the process itself."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def shell_script(command) -> str | None:
    """The script of a `sh -c "..."` command, or None for a plain one."""
    if isinstance(command, str):
        match = re.fullmatch(r"\s*sh -c \"(.*)\"\s*", command, flags=re.S)
        return match.group(1) if match else None
    if command[:2] == ["sh", "-c"]:
        return command[2]
    return None


def test_the_full_stack_is_there():
    assert {"postgres", "redis", "web", "worker", "webhooks", "beat"} <= set(SERVICES)


def test_every_service_is_started_again_when_it_exits():
    for name, service in SERVICES.items():
        assert service.get("restart") in {"always", "unless-stopped", "on-failure"}, name


def test_a_shell_command_hands_over_to_its_process():
    # Without `exec`, sh is the container's first process and swallows `docker compose
    # stop`'s SIGTERM: Celery never gets its warm shutdown, gunicorn its graceful one.
    for name, service in SERVICES.items():
        script = shell_script(service.get("command", []))
        if script is None:
            continue
        last = re.split(r"&&|;", script)[-1].strip()
        assert last.startswith("exec "), (name, last)


def test_app_services_run_the_image_the_dockerfile_builds():
    dockerfile = (ROOT / "Dockerfile").read_text()
    # The image collects static files at build time: the web pages need the manifest.
    assert "collectstatic --noinput" in dockerfile
    for name in ("web", "worker", "webhooks", "beat"):
        assert SERVICES[name].get("build") == ".", name
