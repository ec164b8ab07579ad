"""Django settings for the Arlington scoring API, read from the environment (12-factor)."""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from scoring.rulesets import package_locales

BASE_DIR = Path(__file__).resolve().parent.parent

INSECURE_DEV_SECRET_KEY = "django-insecure-arlington-development-only"


def env_bool(name: str, default: bool = False) -> bool:
    """Read a boolean such as "true", "1", "yes" or "off" from the environment."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_seconds(name: str, default: float, most: float) -> float:
    """Read a number of seconds, above 0 and at most ``most``, from the environment; anything
    else stops the start with a sentence naming the setting."""
    try:
        seconds = float(os.environ.get(name, default))
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= most:
        raise ImproperlyConfigured(f"{name} is a number of seconds, above 0, at most {most:g}.")
    return seconds


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated list from the environment."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = INSECURE_DEV_SECRET_KEY
elif SECRET_KEY == INSECURE_DEV_SECRET_KEY and not DEBUG:
    raise ImproperlyConfigured("SECRET_KEY is the insecure development value; set a real one.")

ALLOWED_HOSTS = [*env_list("ALLOWED_HOSTS", "127.0.0.1,localhost"), "testserver"]

# HTTPS in production (docs/deployment.md); `manage.py check --deploy` passes with these.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
if env_bool("BEHIND_TLS_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    # first, so that its runserver (make run's server, with room for a club night's
    # connections) is the one manage.py runs, before django.contrib.staticfiles' own
    "arlington_site",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "drf_standardized_errors",
    "corsheaders",
    "accounts",
    "matches",
    "clubnight",
    "django_tasks",
    "django_tasks_db",
    "webhooks",
    "web",
]

MIDDLEWARE = [
    "arlington_site.middleware.RequestIDMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "arlington_site.middleware.LanguageQueryMiddleware",
    "arlington_site.middleware.RateLimitHeadersMiddleware",
    "arlington_site.guards.RequestGuardMiddleware",
    "arlington_site.limits.RequestSizeLimitMiddleware",
    "arlington_site.replicas.ReadYourWritesMiddleware",
    "arlington_site.middleware.CommonMiddleware",
    "arlington_site.views.api_not_found",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.csp.ContentSecurityPolicyMiddleware",
]

# Browser apps on other origins that may call the API (CORS): none unless the operator lists
# them, e.g. CORS_ALLOWED_ORIGINS=https://scores.example.org,https://app.example.org. Tokens
# travel in Authorization, so no cookies are allowed across origins.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CORS_URLS_REGEX = r"^/api/"
if CORS_ALLOWED_ORIGINS:  # off, it adds nothing to any answer (not even Vary: Origin)
    MIDDLEWARE.insert(1, "corsheaders.middleware.CorsMiddleware")
CORS_ALLOW_HEADERS = [
    "accept",
    "accept-language",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-match",
    "if-none-match",
    "x-request-id",
]
CORS_EXPOSE_HEADERS = [
    "content-language",
    "deprecation",
    "etag",
    "idempotent-replayed",
    "location",
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "retry-after",
    "sunset",
    "x-request-id",
]

ROOT_URLCONF = "arlington_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
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

WSGI_APPLICATION = "arlington_site.wsgi.application"
ASGI_APPLICATION = "arlington_site.asgi.application"

# On PostgreSQL each worker process keeps a pool of at most DATABASE_POOL_SIZE connections per
# database, whatever the number of threads an ASGI server runs requests in (each request gets a
# thread of its own, and Django's persistent connections would be one per thread); a request
# waits up to DATABASE_POOL_TIMEOUT seconds for one, then answers 503. Size it so that
# app servers x workers x pool stays under the server's max_connections (docs/deployment.md;
# `check --deploy` warns). DATABASE_POOL_SIZE=0 falls back to persistent connections.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "4"))
DATABASE_POOL_TIMEOUT = float(os.environ.get("DATABASE_POOL_TIMEOUT", "10"))


# A read replica that is down is given up on sooner, and its reads go to the primary.
DATABASE_REPLICA_POOL_TIMEOUT = float(os.environ.get("DATABASE_REPLICA_POOL_TIMEOUT", "2"))


# The embedded SQLite of `make run` serves several tables at once by queueing its writers
# (docs/deployment.md): every transaction takes the write lock when it begins (IMMEDIATE), so a
# transaction never reads, then fails to get the lock it needs to write; a writer waits up to
# SQLITE_BUSY_TIMEOUT seconds for it, then answers 503 database_busy; WAL lets readers go on
# while one writer writes; and the requests of one process queue for it in turn
# (arlington_site/sqlite3).
SQLITE_BUSY_TIMEOUT = float(os.environ.get("SQLITE_BUSY_TIMEOUT", "20"))


def sqlite_options() -> dict[str, Any]:
    """The options that make SQLite queue its writers instead of refusing them."""
    return {
        "transaction_mode": "IMMEDIATE",
        "timeout": SQLITE_BUSY_TIMEOUT,
        "init_command": "PRAGMA journal_mode=WAL",
    }


def database(url: str | None = None, timeout: float = DATABASE_POOL_TIMEOUT) -> dict[str, Any]:
    """One database's settings from its URL (DATABASE_URL when none is given)."""
    postgres = (url or os.environ.get("DATABASE_URL", "")).startswith(("postgres", "pgsql"))
    pooled = postgres and DATABASE_POOL_SIZE > 0
    options: dict[str, Any] = {"conn_max_age": 0 if pooled else 60, "conn_health_checks": True}
    config = (
        dj_database_url.parse(url, **options)
        if url
        else dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", **options)
    )
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["ENGINE"] = "arlington_site.sqlite3"  # Django's, its writers queueing in turn
        config.setdefault("OPTIONS", {}).update(sqlite_options())
    if pooled:
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": DATABASE_POOL_SIZE,
            "timeout": timeout,
            "max_idle": 60,  # connections idle for a minute are closed, down to min_size
        }
    return dict(config)


DATABASES = {"default": database()}
# How many app servers run this release and how many worker processes each (gunicorn reads
# WEB_CONCURRENCY as its number of workers): `check --deploy` compares their pools with the
# database's max_connections.
APP_SERVERS = int(os.environ.get("APP_SERVERS", "1"))
WEB_CONCURRENCY = int(os.environ.get("WEB_CONCURRENCY", "1"))

# Read replicas (docs/deployment.md): reads go to them, except right after the client wrote.
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS", "")):
    DATABASES[f"replica_{_number}"] = {
        **database(_url, timeout=DATABASE_REPLICA_POOL_TIMEOUT),
        "TEST": {"MIRROR": "default"},
    }

# PostgreSQL binds query values on the server, and a connection prepares a statement once it
# has run it this many times, so PostgreSQL stops parsing and planning the busy ones (recording a
# hand: docs/benchmarks.md). A pooler in transaction mode must keep prepared statements apart
# (PgBouncer 1.21+ with max_prepared_statements); otherwise set DATABASE_PREPARED_STATEMENTS=false
# (docs/deployment.md).
_prepare_threshold = 5 if env_bool("DATABASE_PREPARED_STATEMENTS", default=True) else None
for _database in DATABASES.values():
    if _database["ENGINE"] == "django.db.backends.postgresql":
        _database.setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=_prepare_threshold
        )

DATABASE_ROUTERS = ["arlington_site.replicas.PrimaryReplicaRouter"]
REPLICA_PIN_SECONDS = int(os.environ.get("REPLICA_PIN_SECONDS", "10"))

# A hand of five players is about 2 KB of JSON; anything near this limit is not a hand.
MAX_REQUEST_BODY_BYTES = int(os.environ.get("MAX_REQUEST_BODY_BYTES", 64 * 1024))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Throttling counts live in the cache, which every worker must share, or each worker would
# count on its own and every limit would be multiplied by their number (docs/deployment.md):
# Redis when REDIS_URL is set (several app servers), PostgreSQL's own table with
# CACHE_BACKEND=database (one machine: `manage.py createcachetable`), local memory otherwise
# (one process: development and tests). `check --deploy` refuses local memory, and so does
# gunicorn.conf.py when several workers are started.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHE_BACKEND = os.environ.get("CACHE_BACKEND", "redis" if REDIS_URL else "local").lower()
_CACHES = {
    "redis": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        # A Redis that is down or stuck costs a request a second at most (docs/deployment.md).
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    },
    "database": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "arlington_cache",
    },
    "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}
if CACHE_BACKEND not in _CACHES or (CACHE_BACKEND == "redis" and not REDIS_URL):
    raise ImproperlyConfigured("CACHE_BACKEND is redis (with REDIS_URL), database or local.")
_tables_kept = os.environ.get("TABLES_KEPT", "200").strip()
if not _tables_kept.isdigit():
    raise ImproperlyConfigured("TABLES_KEPT is a whole number of tables, 0 or more.")
TABLES_KEPT = int(_tables_kept)
CACHES = {
    "default": _CACHES[CACHE_BACKEND],
    # Each process's own copies of the standings answers it served last, asked before the
    # shared cache (matches/standings.py): their keys name the club's standings stamp, so a
    # copy is never stale. At most TABLES_KEPT of them, the least recently read go first;
    # 0 keeps none.
    "tables": (
        {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "arlington-tables",
            "OPTIONS": {"MAX_ENTRIES": TABLES_KEPT, "CULL_FREQUENCY": 4},
        }
        if TABLES_KEPT > 0
        else {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    ),
}

# The admin (/admin/) can be switched off where nobody needs it: its pages are then 404s.
ADMIN_ENABLED = env_bool("ADMIN_ENABLED", default=True)

# How long a hand submission's answer is kept for retries with the same Idempotency-Key.
# What runs after a hand is recorded, corrected or voided, in this order (matches/subscribers.py):
# "in_transaction" inside the hand's transaction, where a failure fails the hand;
# "after_commit" once it has committed, where a failure is logged and the hand stays.
ARLINGTON_AFTER_HAND = [
    {"call": "matches.services.standings.after_hand", "when": "in_transaction"},
    {"call": "matches.events.after_hand", "when": "in_transaction"},
    {"call": "clubnight.ratings.mark_pending", "when": "in_transaction"},
    {"call": "clubnight.ratings.replay_pending", "when": "after_commit"},
]
# The columns that other apps add to every row of a standings table, in this order.
ARLINGTON_STANDINGS_COLUMNS = ["clubnight.columns.RATING"]

IDEMPOTENCY_KEY_TTL_SECONDS = int(os.environ.get("IDEMPOTENCY_KEY_TTL_SECONDS", 24 * 60 * 60))

# A ratings replay of more matches than this (a correction of an old match in a big club) is
# left to the worker, and the request answers at once (docs/standings.md).
RATINGS_REPLAY_INLINE_MATCHES = int(os.environ.get("RATINGS_REPLAY_INLINE_MATCHES", 200))

# The club's events (docs/webhooks.md): the feed serves, and the worker keeps, EVENTS_KEPT_DAYS
# days of them. Webhooks go only to public addresses unless WEBHOOKS_ALLOW_PRIVATE_TARGETS
# (development: a receiver on this machine). Deliveries are tasks in the database, run by
# `python manage.py worker`.
EVENTS_KEPT_DAYS = int(os.environ.get("EVENTS_KEPT_DAYS", 30))
WEBHOOKS_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOKS_ALLOW_PRIVATE_TARGETS")
# How long a receiver has to take the connection, then to answer; an attempt's lease is twice
# that and 10 s more (webhooks/tasks.py).
WEBHOOKS_TIMEOUT_SECONDS = env_seconds("WEBHOOKS_TIMEOUT_SECONDS", 10, most=60)
# How long a sign-in that finds every slot of its address taken waits with no attempt in flight
# finishing, before it is refused (accounts/throttles.py).
AUTH_THROTTLE_WAIT_SECONDS = env_seconds("AUTH_THROTTLE_WAIT_SECONDS", 10, most=300)
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# The live table's Server-Sent Events (matches/api/live_stream.py, docs/deployment.md): watchers
# per match and per user across all app servers, the heartbeat comment's interval (a watcher's
# slot is renewed with each), a stream's longest life.
LIVE_STREAM_MAX_PER_MATCH = int(os.environ.get("LIVE_STREAM_MAX_PER_MATCH", 50))
LIVE_STREAM_MAX_PER_USER = int(os.environ.get("LIVE_STREAM_MAX_PER_USER", 10))
LIVE_STREAM_HEARTBEAT_SECONDS = int(os.environ.get("LIVE_STREAM_HEARTBEAT_SECONDS", 15))
LIVE_STREAM_MAX_SECONDS = int(os.environ.get("LIVE_STREAM_MAX_SECONDS", 60 * 60))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("pt", "Português"),
    ("fr", "Français"),
]
# The service's catalogues, then those an installed game's package ships (scoring.rulesets).
LOCALE_PATHS = [BASE_DIR / "locale", *package_locales()]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# The scorekeeper's app (web/) signs people in with a session; the API also takes tokens.
LOGIN_URL = "web:sign-in"
LOGIN_REDIRECT_URL = "web:clubs"
LOGOUT_REDIRECT_URL = "web:sign-in"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

# Django's check of a username and password, the username in any case or width, as sign-up
# compares them (accounts/usernames.py). Django's own backend after it only keeps the sessions
# it signed in before: the first one decides every sign-in.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.AnyCaseModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": [
        "arlington_site.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    # Refuses deep nesting, non-finite numbers, lone surrogates and NUL in every body.
    "DEFAULT_PARSER_CLASSES": ["arlington_site.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.DeviceTokenAuthentication",
        "rest_framework.authentication.TokenAuthentication",  # legacy tokens (docs/api.md)
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Honours q-values ("text/csv;q=0" refuses CSV); an unknown ?format= is a 406.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "arlington_site.negotiation.ContentNegotiation",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "arlington_site.schema.AutoSchema",
    "EXCEPTION_HANDLER": "drf_standardized_errors.handler.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # Per user when logged in (a whole club on one Wi-Fi is not one client), per address if not.
    # A view with a throttle_scope (the rulings, invitation codes) gets that limit instead.
    # Counted atomically in the shared cache's store (accounts/throttles.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttles.UserThrottle",
        "accounts.throttles.AnonThrottle",
        "accounts.throttles.ScopedThrottle",
    ],
    # How many proxies stand in front and append to X-Forwarded-For; with 0 the client address
    # is REMOTE_ADDR, so a forged header cannot dodge the limits (docs/deployment.md).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("ANON_THROTTLE_RATE", "60/min"),
        "user": os.environ.get("USER_THROTTLE_RATE", "600/min"),
        "rulings": os.environ.get("RULINGS_THROTTLE_RATE", "120/min"),
        "auth": os.environ.get("AUTH_THROTTLE_RATE", "10/min"),
        "auth_account": os.environ.get("AUTH_ACCOUNT_THROTTLE_RATE", "20/hour"),
        "invitations": os.environ.get("INVITATION_THROTTLE_RATE", "30/min"),
    },
}

# Device tokens (docs/api.md): hashed at rest, expiring DEVICE_TOKEN_TTL_DAYS after their last
# use (each use renews the expiry, at most one write a minute).
KNOX_TOKEN_MODEL = "accounts.DeviceToken"
# knox's own table is never used (its model is swapped for ours): it gets no migrations, so no
# table that would hold a foreign key to the users.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=int(os.environ.get("DEVICE_TOKEN_TTL_DAYS", "30"))),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,
}

DRF_STANDARDIZED_ERRORS = {
    "ENABLE_IN_DEBUG_FOR_UNHANDLED_EXCEPTIONS": True,
    "EXCEPTION_HANDLER_CLASS": "matches.api.errors.ProjectExceptionHandler",
    "EXCEPTION_FORMATTER_CLASS": "matches.api.errors.ProjectExceptionFormatter",
    "ALLOWED_ERROR_STATUS_CODES": [
        "400",
        "401",
        "403",
        "404",
        "405",
        "406",
        "413",
        "415",
        "429",
        "500",
        "503",
    ],
    "ERROR_SCHEMAS": {
        "413": "matches.api.errors.RequestTooLargeResponse",
        "503": "matches.api.errors.DatabaseUnavailableResponse",
    },
}

_ERROR_ENUMS = "drf_standardized_errors.openapi_serializers"
SPECTACULAR_SETTINGS = {
    "TITLE": "Arlington scoring API",
    "VERSION": "1.0.0",
    "DESCRIPTION": (
        "Scoring and adjudication for the rummy game Arlington: stateless rulings on melds, "
        "hands and turns, and clubs, seasons, matches and standings. Every error uses one "
        'envelope: {"type", "errors": [{"code", "detail", "attr"}]}.'
    ),
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies get their own models (no read-only field to fill in); operations are
    # tagged and named by resource (clubs_list, not v1_clubs_list).
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Swagger UI asks no online validator for a badge, and draws the models section closed.
    "SWAGGER_UI_SETTINGS": {
        "deepLinking": True,
        "validatorUrl": None,
        "defaultModelsExpandDepth": -1,
        "docExpansion": "none",
    },
    "ENUM_NAME_OVERRIDES": {
        "EndingEnum": "matches.models.Ending",
        "MatchStatusEnum": "matches.models.MatchStatus",
        "RulesetEnum": "scoring.rulesets.RULESETS",  # by name, as requests and tables give it
        # a game's own option of the same name, installed later, must not rename Rummy's
        "AceEnum": "scoring.games.rummy.ACE_CHOICES",
        "MatchRulesetEnum": "matches.models.ruleset_choices",  # a match's, and a hand's match's
        "EventTypeEnum": "matches.models.EventType",
        "DeliveryStatusEnum": "webhooks.models.DeliveryStatus",
        **{
            name: f"{_ERROR_ENUMS}.{name}.choices"
            for name in [
                "ValidationErrorEnum",
                "ClientErrorEnum",
                "ServerErrorEnum",
                "ErrorCode401Enum",
                "ErrorCode403Enum",
                "ErrorCode404Enum",
                "ErrorCode405Enum",
                "ErrorCode406Enum",
                "ErrorCode415Enum",
                "ErrorCode429Enum",
                "ErrorCode500Enum",
            ]
        },
    },
    "POSTPROCESSING_HOOKS": [
        "drf_standardized_errors.openapi_hooks.postprocess_schema_enums",
        "arlington_site.schema.share_language_parameters",
        "arlington_site.schema.declare_content_language",
        "arlington_site.schema.require_request_bodies",
        "arlington_site.schema.require_page_fields",
        "arlington_site.schema.describe_live_stream",
        "arlington_site.schema.type_nullable_schemas",
        "arlington_site.schema.share_error_answers",  # last: the answers as they stand
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every line names the request it was written for (X-Request-ID), or "-" outside one.
    # and no line keeps an invitation's code, a public link's token or a stream's ticket whole
    "filters": {
        "request_id": {"()": "arlington_site.middleware.RequestIDLogFilter"},
        "secrets": {"()": "arlington_site.middleware.SecretsLogFilter"},
    },
    "formatters": {
        "plain": {
            "format": "{asctime} {levelname} {name} [{request_id}]: {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["request_id", "secrets"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}
