#!/usr/bin/env bash
# Installs the project into a fresh virtualenv and runs every check CI runs:
# lint, formatting, migrations, the OpenAPI schema, the deploy checks, and pytest.
# Extra arguments go to pytest (e.g. `scripts/test.sh tests/engine -x`).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
VENV=${TEST_VENV:-.venv-test}

echo "==> fresh virtualenv in $VENV"
"$PYTHON" -m venv --clear "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e ".[dev]"
export PATH="$PWD/$VENV/bin:$PATH"

# The compiled search is tested against the sources (tests/ai/test_compiled.py); the
# build is redone only when they changed.
echo "==> compiled search (mypyc)"
python scripts/build_compiled.py

echo "==> ruff"
ruff check .
ruff format --check .

echo "==> import rules (.importlinter, docs/architecture.md)"
lint-imports --no-cache

echo "==> mypy (Django and DRF plugins) on the service"
mypy games players pusoy_api notifications webhooks push ratings webclient --exclude 'games/(engine|ai)/'

# Every --strict flag, from the games.engine/games.ai override in pyproject.toml.
echo "==> mypy --strict on the engine and the bots"
mypy games/engine games/ai

# These two read only the code; an in-memory database keeps them from touching Postgres.
echo "==> migrations are up to date"
DJANGO_SETTINGS_MODULE=pusoy_api.settings.test DATABASE_URL=sqlite://:memory: \
  python manage.py makemigrations --check --dry-run

echo "==> OpenAPI schema validates"
DJANGO_SETTINGS_MODULE=pusoy_api.settings.test DATABASE_URL=sqlite://:memory: \
  python manage.py spectacular --validate --fail-on-warn --file "$VENV/openapi.yaml"

echo "==> deploy checks under production settings"
env SECRET_KEY="ci-only-$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
  DEBUG=false ALLOWED_HOSTS=api.example.com \
  DATABASE_URL=postgres://pusoy@127.0.0.1:5432/pusoy CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \
  python manage.py check --deploy --fail-level WARNING

echo "==> pytest"
# The engine's properties and self-play run in parallel on every core.
python -m pytest -n "${PYTEST_WORKERS:-auto}" "$@"
