# The one image for web, worker and beat (docker-compose.yml picks the command).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY pusoy_api/__init__.py pusoy_api/__init__.py
RUN mkdir -p games players benchmarks \
    && touch games/__init__.py players/__init__.py benchmarks/__init__.py \
    && pip install . \
    && pip uninstall -y pusoy-dos-api

COPY . .
RUN pip install --no-deps . \
    && SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 pusoy
USER pusoy

EXPOSE 8000
CMD ["gunicorn", "pusoy_api.asgi:application", "--config", "python:pusoy_api.gunicorn_conf"]
