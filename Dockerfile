# The search's hot modules compiled to C by mypyc (pusoy/compiled.py), in a stage of
# their own so that the image carries neither a C compiler nor mypy. The build records
# the hashes of the sources it was made from; the final image uses it only while they
# match the code it runs (checked at start; otherwise the bots run as plain Python).
FROM python:3.11-slim-bookworm AS compiled
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir "mypy>=1.11" "setuptools>=69"
WORKDIR /src
COPY pusoy/ pusoy/
COPY scripts/build_compiled.py scripts/
ENV PUSOY_COMPILED_DIR=/opt/pusoy-compiled
RUN python scripts/build_compiled.py && python scripts/build_compiled.py --check

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
RUN mkdir -p pusoy games players benchmarks \
    && touch pusoy/__init__.py games/__init__.py players/__init__.py benchmarks/__init__.py \
    && pip install . \
    && pip uninstall -y pusoy-dos-api

COPY . .
ENV PUSOY_COMPILED_DIR=/opt/pusoy-compiled
COPY --from=compiled /opt/pusoy-compiled /opt/pusoy-compiled
RUN pip install --no-deps . \
    && SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 pusoy
USER pusoy

EXPOSE 8000
CMD ["gunicorn", "pusoy_api.asgi:application", "--config", "python:pusoy_api.gunicorn_conf"]
