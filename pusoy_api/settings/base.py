"""Runtime settings, read from the environment (12-factor).

With nothing set, the service runs for a first try on a machine with only Python:
SQLite in a local file, DEBUG on, AI moves computed in-process. A production
deployment sets SECRET_KEY (which turns DEBUG off by default), DATABASE_URL and
CELERY_BROKER_URL; see `.env.example` and the README's configuration table.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from pusoy_api.log_format import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A `.env` file is a convenience for local runs; real deployments use the environment.
if (BASE_DIR / ".env").is_file():
    env.read_env(BASE_DIR / ".env")

logger = logging.getLogger("pusoy_api.settings")

# --- Core -------------------------------------------------------------------------

# Development mode is chosen, never fallen into: a deployment that forgets SECRET_KEY
# must not come up with DEBUG on and a key everybody can read in this file.
DEV_MODE = env.bool("DEV_MODE", default=False)
_secret_key = env.str("SECRET_KEY", default="")
if not _secret_key and not DEV_MODE:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. A deployment sets SECRET_KEY (a long random string); a "
        "local development run sets DEV_MODE=1 instead (a built-in insecure key, DEBUG on; "
        "scripts/serve.sh does this when SECRET_KEY is unset)."
    )
SECRET_KEY = _secret_key or "django-insecure-dev-only-key-do-not-use-in-production-0123456789"
DEBUG = env.bool("DEBUG", default=DEV_MODE)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "players",
    "games",
    "notifications",
    "webhooks",
    "push",
    "ratings",
    "webclient",
]

MIDDLEWARE = [
    "pusoy_api.request_id.request_id_middleware",
    "pusoy_api.metrics_http.metrics_middleware",
    "pusoy_api.outages.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "pusoy_api.middleware.api_errors_as_json",
    "pusoy_api.static.AsyncWhiteNoiseMiddleware",
    # Django's session, auth and messages middleware for the pages and the admin:
    # the API authenticates by bearer token and skips them (pusoy_api/page_middleware.py).
    "pusoy_api.page_middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Django's own, not a pages-only subclass: `check --deploy` looks for it by name
    # (security.W003), and for an API request it sets no cookie unless a view asks for one.
    "django.middleware.csrf.CsrfViewMiddleware",
    "pusoy_api.page_middleware.AuthenticationMiddleware",
    "pusoy_api.page_middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "pusoy_api.urls"
WSGI_APPLICATION = "pusoy_api.wsgi.application"
ASGI_APPLICATION = "pusoy_api.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Project templates (overrides of third-party pages, e.g. the API docs).
        "DIRS": [BASE_DIR / "pusoy_api" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
USING_POSTGRES = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
# Under ASGI every request runs its sync code on a pool thread, so per-thread persistent
# connections would leak; psycopg's pool (Django >= 5.1) reuses connections instead and
# saves the connect on every request. Size it to the threads a web process runs.
DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=10)
# Threads per web process for plain requests (pusoy_api.serving: everything but waits and
# streams). Each holds a pooled connection while it runs a request, so fewer than
# DB_POOL_MAX_SIZE: the rest is left for the waits' reads (capped at half the pool).
WEB_THREADS = env.int("WEB_THREADS", default=8)
# Outages (docs/operations.md): a request must get its answer, a 503 if need be, within
# a couple of seconds whether the database refuses connections or stops answering.
# - DB_POOL_TIMEOUT: the longest a request waits for a pooled connection while the
#   database answers (every connection busy: load); then it is shed with a 503.
# - DB_DOWN_TIMEOUT: the same wait while the database is down (its last connect failed,
#   or a connection broke): nothing to wait for, so this is the time to the 503
#   (pusoy_api.db_reachable switches between the two).
# - DB_QUERY_TIMEOUT: the longest one wait for the database may take inside a request
#   (pusoy_api.db_deadline); the only bound for a query on an open connection to a
#   server that hangs. 0 turns it off. Commands and Celery tasks are never bounded.
# - DB_CONNECT_TIMEOUT: libpq's connect_timeout (psycopg makes anything below 2 s 2 s),
#   so the pool's connection attempts to a hung server end and are retried.
DB_POOL_TIMEOUT = env.float("DB_POOL_TIMEOUT", default=10.0)
DB_DOWN_TIMEOUT = env.float("DB_DOWN_TIMEOUT", default=2.0)
DB_QUERY_TIMEOUT = env.float("DB_QUERY_TIMEOUT", default=3.0)
DB_CONNECT_TIMEOUT = env.int("DB_CONNECT_TIMEOUT", default=2)
if USING_POSTGRES:
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
# PgBouncer in transaction pooling mode (docs/operations.md): a server connection serves
# one transaction at a time, so nothing may live in a session between transactions:
# no server-side cursors, no prepared statements (psycopg prepares a query after its
# 5th run on a connection), and no LISTEN: the long-poll's LISTEN connection goes
# straight to PostgreSQL (LISTEN_DATABASE_URL).
DB_PGBOUNCER = env.bool("DB_PGBOUNCER", default=False)
LISTEN_DATABASE_URL = env.str("LISTEN_DATABASE_URL", default="")
if USING_POSTGRES and DB_PGBOUNCER:
    if not LISTEN_DATABASE_URL:
        raise ImproperlyConfigured(
            "DB_PGBOUNCER is set but LISTEN_DATABASE_URL is not: long-polling needs a "
            "direct connection to PostgreSQL for LISTEN (a pooler in transaction mode "
            "drops it); set LISTEN_DATABASE_URL to the server itself."
        )
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
if USING_POSTGRES and DB_POOL_MAX_SIZE > 0:
    from pusoy_api.db_deadline import connection_class

    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=1),
        "max_size": DB_POOL_MAX_SIZE,
        "timeout": DB_POOL_TIMEOUT,
        "connection_class": connection_class(),
        # After a failed connect the pool retries with a doubling delay, so after a
        # minute's outage its next try could be half a minute away. Giving up after 5 s
        # lets the next request start a fresh attempt: back within seconds of the server.
        "reconnect_timeout": 5.0,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default writes from request threads and its background task thread
    # at once. SQLite has one writer: every transaction takes the write lock when it
    # begins (IMMEDIATE, so two never deadlock upgrading a read lock), a writer waits up
    # to 20 s for it instead of failing, and WAL lets reads go on during a write.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL;"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The largest request body taken (API bodies are a few KB; a deal's record ~10 KB).
# Larger is 413 `payload_too_large`, before any view sees it.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_REQUEST_BODY_BYTES", default=256 * 1024)

AUTH_USER_MODEL = "players.Player"
# The only backend: Django's password check inside the per-name log-in backoff, so every
# way to log in (the API, the admin) shares one count (players/backends.py).
AUTHENTICATION_BACKENDS = ["players.backends.BackoffModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Serve straight from the apps' static folders when collectstatic has not been run,
# so a first run works without a build step.
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=DEV_MODE)
if WHITENOISE_USE_FINDERS:
    STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"

# --- Security (production safe by default when DEBUG is off) -----------------------

# How many proxies in front of the app append to X-Forwarded-For (REST_FRAMEWORK's
# NUM_PROXIES, below). With none declared, the forwarding headers are a client's own
# words: X-Forwarded-Proto is honoured only behind a proxy (which must set it, replacing
# any the client sent), or a plain-HTTP client could pass as HTTPS and skip the redirect.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers and monitors probe health over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^healthz/full$", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- REST framework, auth, schema ---------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["players.authentication.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["pusoy_api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "pusoy_api.openapi.AutoSchema",
    # No OPTIONS answers (405, like any method the schema does not list): DRF's describe
    # the views' serializers, which the schema already does, and failed on some views.
    "DEFAULT_METADATA_CLASS": None,
    "EXCEPTION_HANDLER": "pusoy_api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "pusoy_api.pagination.StrictLimitOffsetPagination",
    # How many proxies in front of the app append to X-Forwarded-For: throttles key on
    # the address the outermost of them saw. 0: REMOTE_ADDR only, as any client can
    # write X-Forwarded-For itself (DRF's own default, None, trusts it).
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        # Per IP. Hundreds of players can share one carrier-NAT address and each logs in
        # once per device, so this bounds raw volume only; password guessing is slowed
        # per username (players/login_backoff.py).
        "auth": env.str("THROTTLE_AUTH", default="120/min"),
        "writes": env.str("THROTTLE_WRITES", default="240/min"),
        # Per IP: guest accounts cost nothing to make, so they are rationed.
        "guest": env.str("THROTTLE_GUEST", default="20/hour"),
    },
    "UNAUTHENTICATED_USER": None,
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

# knox's own default, named: a foreign key to the token model (a stream ticket's, which
# dies with its token) needs the setting its model is swappable by.
KNOX_TOKEN_MODEL = "knox.AuthToken"
# A token unused for this many days stops authenticating (401 `authentication_failed`);
# every use moves its expiry forward (knox's AUTO_REFRESH, written at most once a
# minute), so a player of slow games who opens the app now and then is never logged out.
TOKEN_IDLE_TTL_DAYS = env.int("TOKEN_IDLE_TTL_DAYS", default=90)
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    "TOKEN_TTL": dt.timedelta(days=TOKEN_IDLE_TTL_DAYS),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pusoy Dos API",
    "DESCRIPTION": (
        "Turn-based Pusoy Dos (Filipino Big Two) for mobile clients: players, games, "
        "moves, hidden-information views, replays and verifiable game records. Every 4xx "
        'answer is `{"error": {"code", "message", "details"}}` with a stable code.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # The sidecar's bundle less its CDN logo (pusoy_api/redoc_bundle.py).
    "REDOC_DIST": "/api/redoc-dist",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Enum components by meaning, where several fields share a name ("action", "type").
    "ENUM_NAME_OVERRIDES": {
        "MoveActionEnum": "games.models.MoveAction",
        "GameStatusEnum": "games.models.GameStatus",
        "SeatStatusEnum": "games.models.SeatStatus",
        "InvitationStatusEnum": "games.models.InvitationStatus",
        "VisibilityEnum": "games.models.Visibility",
        "PlayerViewEnum": ["player"],
        "SpectatorViewEnum": ["spectator"],
        "PlayActionEnum": ["play"],
        "PassActionEnum": ["pass"],
        "HumanSeatTypeEnum": ["human"],
        "AiSeatTypeEnum": ["ai"],
        "EventTypeEnum": "notifications.types.EventType",
        "WebhookScopeEnum": "webhooks.models.WebhookScope",
        "PushPlatformEnum": "push.models.Platform",
        "PushLocaleEnum": "push.models.Locale",
        "GameStartedEventTypeEnum": ["game_started"],
        "YourTurnEventTypeEnum": ["your_turn"],
        "MoveEventTypeEnum": ["move"],
        "DealFinishedEventTypeEnum": ["deal_finished"],
        "GameFinishedEventTypeEnum": ["game_finished"],
        "InvitedEventTypeEnum": ["invited"],
        "InvitationAnsweredEventTypeEnum": ["invitation_answered"],
        "DeadlineSoonEventTypeEnum": ["deadline_soon"],
        "ResignedEventTypeEnum": ["resigned"],
        "AbandonedEventTypeEnum": ["abandoned"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "pusoy_api.openapi.refine_schema",
    ],
}

# --- Celery -------------------------------------------------------------------------

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
# Without a broker, tasks run in the web process (pusoy_api/embedded.py): by default in
# the background, as workers and beat would run them; `eager` runs each inside the
# request that queued it, after its commit (tests: deterministic). Either way Celery is
# told to run tasks locally.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
EMBEDDED_TASKS = env.str("EMBEDDED_TASKS", default="background")
if EMBEDDED_TASKS not in ("background", "eager"):
    raise ImproperlyConfigured(f"EMBEDDED_TASKS is background or eager, not {EMBEDDED_TASKS!r}")
EMBEDDED_TASK_THREADS = env.int("EMBEDDED_TASK_THREADS", default=1)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = (
    env.str(
        "CELERY_RESULT_BACKEND",
        default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "",
    )
    or None
)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=30)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=60)
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# Redis hands an unacknowledged message (its worker died) to another worker after this
# long. AI turns are also re-queued by the periodic sweep, so this is the second net.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300),
    # A broker that stops answering without closing the connection (a frozen host, a
    # dropped network) would otherwise hold a publish forever. Keep it above the
    # workers' 1 s BRPOP poll.
    "socket_timeout": env.float("CELERY_BROKER_SOCKET_TIMEOUT", default=1.5),
}
# A request publishes its tasks after its commit (pusoy_api.task_queue), so a broker outage
# must cost it little: a refused connection fails in milliseconds, a connect that gets
# no answer after 1 s, and one retry covers a pooled connection gone stale since the
# broker restarted. A task not queued is queued again by the sweep.
# broker_connection_max_retries stays Celery's: it is how long a *worker* keeps trying
# to reconnect to a broker that went away, which should be long.
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=1.0)
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}

# A lost AI task (killed worker, lost message) is re-queued by the sweep after this long.
AI_STALL_SECONDS = env.int("AI_STALL_SECONDS", default=30)
# The expert bot's thinking time per move (it also stops at its iteration budget).
AI_EXPERT_SECONDS = env.float("AI_EXPERT_SECONDS", default=1.0)
# Asynchronous play (docs/api.md): who plays a seat whose human resigned, how long an
# invitation holds its seat, and after how many turns in a row that the server played for
# them (their time ran out) the humans of a game count as gone: the game is abandoned.
RESIGNED_SEAT_AI_LEVEL = env.str("RESIGNED_SEAT_AI_LEVEL", default="heuristic")
INVITATION_TTL_DAYS = env.int("INVITATION_TTL_DAYS", default=7)
ABANDON_AFTER_TIMEOUTS = env.int("ABANDON_AFTER_TIMEOUTS", default=3)
# A stored answer to an `Idempotency-Key` request (it holds the player's hand) is kept
# this long, then purged; a retry after that is a new request.
IDEMPOTENCY_KEY_TTL_HOURS = env.int("IDEMPOTENCY_KEY_TTL_HOURS", default=24)
# The event feed (docs/api.md, "Events"): events are kept this many days, then purged;
# a stream ticket is valid this many seconds; an event stream is closed after this many
# seconds (the client reconnects with Last-Event-ID) and sends a keep-alive comment after
# this many quiet seconds; a human is warned (`deadline_soon`) this many seconds before
# their turn times out, or half the turn's time when that is shorter.
EVENTS_TTL_DAYS = env.int("EVENTS_TTL_DAYS", default=90)
STREAM_TICKET_SECONDS = env.int("STREAM_TICKET_SECONDS", default=60)
EVENTS_STREAM_MAX_SECONDS = env.float("EVENTS_STREAM_MAX_SECONDS", default=300.0)
EVENTS_STREAM_KEEPALIVE_SECONDS = env.float("EVENTS_STREAM_KEEPALIVE_SECONDS", default=15.0)
DEADLINE_SOON_SECONDS = env.int("DEADLINE_SOON_SECONDS", default=60)
SWEEP_INTERVAL_SECONDS = env.float("SWEEP_INTERVAL_SECONDS", default=10.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-turns": {
        "task": "games.sweep_turns",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "warn-deadlines": {
        "task": "games.warn_deadlines",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "purge-events": {
        "task": "notifications.purge_events",
        "schedule": 3600.0,
    },
    "purge-webhook-deliveries": {
        "task": "webhooks.purge_deliveries",
        "schedule": 3600.0,
    },
    "purge-idempotency-keys": {
        "task": "games.purge_idempotency_keys",
        "schedule": 3600.0,
    },
    "expire-invitations": {
        "task": "games.expire_invitations",
        "schedule": 600.0,
    },
    "purge-idle-tokens": {
        "task": "players.purge_idle_tokens",
        "schedule": 3600.0,
    },
}

# --- Webhooks (docs/api.md, Webhooks) -------------------------------------------------

# Deliveries have their own queue: a receiver that hangs holds a webhooks worker for the
# HTTP timeouts at most, never an AI turn (scripts/serve.sh and docker-compose.yml run a
# worker for it).
WEBHOOK_QUEUE = env.str("WEBHOOK_QUEUE", default="webhooks")
CELERY_TASK_ROUTES = {"webhooks.*": {"queue": WEBHOOK_QUEUE}}
# Addresses that are not public are refused (a player could otherwise make
# the server probe its own network); development and tests send to 127.0.0.1.
WEBHOOK_ALLOW_PRIVATE_URLS = env.bool("WEBHOOK_ALLOW_PRIVATE_URLS", default=DEV_MODE)
WEBHOOK_MAX_PER_PLAYER = env.int("WEBHOOK_MAX_PER_PLAYER", default=10)
WEBHOOK_CONNECT_TIMEOUT = env.float("WEBHOOK_CONNECT_TIMEOUT", default=3.0)
WEBHOOK_READ_TIMEOUT = env.float("WEBHOOK_READ_TIMEOUT", default=5.0)
# Retries (webhooks/schedule.py): waits drawn from [0, min(max, base * 6**(n-1))], for at
# least the window since the event. Tests shrink them; production keeps these.
WEBHOOK_RETRY_BASE_SECONDS = env.float("WEBHOOK_RETRY_BASE_SECONDS", default=5.0)
WEBHOOK_RETRY_MAX_SECONDS = env.float("WEBHOOK_RETRY_MAX_SECONDS", default=7200.0)
WEBHOOK_RETRY_WINDOW_SECONDS = env.float("WEBHOOK_RETRY_WINDOW_SECONDS", default=86400.0)
WEBHOOK_DISABLE_AFTER_FAILED_EVENTS = env.int("WEBHOOK_DISABLE_AFTER_FAILED_EVENTS", default=5)
WEBHOOK_LOG_RETENTION_DAYS = env.int("WEBHOOK_LOG_RETENTION_DAYS", default=14)
CELERY_BEAT_SCHEDULE["webhooks-deliver-due"] = {
    "task": "webhooks.deliver_due",
    "schedule": env.float("WEBHOOK_SWEEP_SECONDS", default=15.0),
}

# --- Push notifications (docs/operations.md, Push; docs/api.md, Push) -----------------

# Pushes have their own queue too: a provider that hangs holds a push worker for
# PUSH_TIMEOUT at most, never an AI turn or a webhook delivery.
PUSH_QUEUE = env.str("PUSH_QUEUE", default="push")
CELERY_TASK_ROUTES["push.*"] = {"queue": PUSH_QUEUE}
# Credentials: a platform is on when its settings are present; none is a normal state.
# APNs (token auth): the .p8 key's id and file, the team id, the app's bundle id (topic).
PUSH_APNS_KEY_ID = env.str("PUSH_APNS_KEY_ID", default="")
PUSH_APNS_TEAM_ID = env.str("PUSH_APNS_TEAM_ID", default="")
PUSH_APNS_KEY_FILE = env.str("PUSH_APNS_KEY_FILE", default="")
PUSH_APNS_TOPIC = env.str("PUSH_APNS_TOPIC", default="")
PUSH_APNS_SANDBOX = env.bool("PUSH_APNS_SANDBOX", default=False)
# FCM HTTP v1: the service account's JSON file (the project id is read from it unless set).
PUSH_FCM_CREDENTIALS_FILE = env.str("PUSH_FCM_CREDENTIALS_FILE", default="")
PUSH_FCM_PROJECT_ID = env.str("PUSH_FCM_PROJECT_ID", default="")
# Web Push: the VAPID key pair (the private key as base64url raw/DER, or PEM; or a file)
# and the subject (mailto: or https:) push services may contact.
PUSH_VAPID_PRIVATE_KEY = env.str("PUSH_VAPID_PRIVATE_KEY", default="")
PUSH_VAPID_PRIVATE_KEY_FILE = env.str("PUSH_VAPID_PRIVATE_KEY_FILE", default="")
PUSH_VAPID_PUBLIC_KEY = env.str("PUSH_VAPID_PUBLIC_KEY", default="")
PUSH_VAPID_SUBJECT = env.str("PUSH_VAPID_SUBJECT", default="")
# The providers' base URLs (empty: the real ones); tests point them at local servers.
PUSH_APNS_URL = env.str("PUSH_APNS_URL", default="")
PUSH_FCM_URL = env.str("PUSH_FCM_URL", default="")
PUSH_FCM_TOKEN_URL = env.str("PUSH_FCM_TOKEN_URL", default="")
# An extra CA bundle every provider trusts (a TLS-intercepting egress proxy, tests).
PUSH_CA_FILE = env.str("PUSH_CA_FILE", default="")
# Web Push endpoints are URLs a client gives: only these push services' hosts (a name,
# or ".suffix" for its subdomains; "*" for any, in tests) are taken, so a player cannot
# make the server post to its own network.
PUSH_WEBPUSH_HOSTS = env.list(
    "PUSH_WEBPUSH_HOSTS",
    default=[
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        ".notify.windows.com",
        ".push.apple.com",
    ],
)
PUSH_TIMEOUT = env.float("PUSH_TIMEOUT", default=10.0)
# How long a provider may hold a push for an offline device.
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", default=86400)
# Retries on 5xx, 429 and network errors: waits drawn from [0, min(max, base * 6**(n-1))]
# (the webhooks' schedule), at least Retry-After when the provider sent one, for at most
# PUSH_MAX_ATTEMPTS attempts.
PUSH_RETRY_BASE_SECONDS = env.float("PUSH_RETRY_BASE_SECONDS", default=5.0)
PUSH_RETRY_MAX_SECONDS = env.float("PUSH_RETRY_MAX_SECONDS", default=1800.0)
PUSH_MAX_ATTEMPTS = env.int("PUSH_MAX_ATTEMPTS", default=8)
PUSH_MAX_DEVICES_PER_PLAYER = env.int("PUSH_MAX_DEVICES_PER_PLAYER", default=20)
PUSH_RETENTION_DAYS = env.int("PUSH_RETENTION_DAYS", default=7)
CELERY_BEAT_SCHEDULE["push-send-due"] = {
    "task": "push.send_due",
    "schedule": env.float("PUSH_SWEEP_SECONDS", default=15.0),
}
CELERY_BEAT_SCHEDULE["push-purge"] = {"task": "push.purge", "schedule": 3600.0}

# --- Cache (throttling state, shared by every web process when Redis is configured) --

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's RedisCache with one connection pool per process (pusoy_api/cache.py).
            "BACKEND": "pusoy_api.cache.ProcessRedisCache",
            "LOCATION": REDIS_URL,
            # Passed to redis-py's connection pool. Redis answers in a millisecond; an
            # unreachable one must cost a request at most this per cache call, after
            # which throttling fails open (pusoy_api/cache.py) instead of hanging.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# A cache every web process shares: only then may the cache remember what another process
# must be able to invalidate (bearer tokens: players.token_cache; players known to have
# no webhook or push device: pusoy_api.absence). Per-process memory caches none of it.
CACHE_SHARED = env.bool("CACHE_SHARED", default=bool(REDIS_URL))

# --- Logging -------------------------------------------------------------------------

LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
# json for a log pipeline (the production default), plain for a terminal (pusoy_api/log_format.py).
LOG_FORMAT = env.str("LOG_FORMAT", default="plain" if DEV_MODE else "json")
if LOG_FORMAT not in ("json", "plain"):
    raise ImproperlyConfigured(f"LOG_FORMAT is json or plain, not {LOG_FORMAT!r}")
LOGGING = logging_config(log_format=LOG_FORMAT, level=LOG_LEVEL)

# --- Metrics (pusoy_api/metrics.py, docs/operations.md) -------------------------------

# Who may read /metrics: these networks, or a client sending `Authorization: Bearer
# <METRICS_TOKEN>` when that is set. Addresses are REMOTE_ADDR: scrape the app directly.
METRICS_ALLOWED_IPS = env.list("METRICS_ALLOWED_IPS", default=["127.0.0.1/32", "::1/128"])
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# The port a Celery worker serves its own /metrics on; unset, it serves none.
CELERY_METRICS_PORT = env.int("CELERY_METRICS_PORT", default=0)
# Its address: loopback unless a scraper on another host (or container) needs it; that
# endpoint has no token check, so open it to the monitoring network only.
CELERY_METRICS_ADDR = env.str("CELERY_METRICS_ADDR", default="127.0.0.1")
