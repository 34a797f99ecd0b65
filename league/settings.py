"""Django settings for Tenbou, read from the environment.

With no environment at all this is a development set-up: DEBUG on, SQLite in
the project folder. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and
DATABASE_URL (postgres://user:password@host:port/name); behind a proxy that
terminates TLS, HTTPS=1 and TRUSTED_PROXY_HEADER switch on secure cookies, HSTS
and the SSL redirect (docs/deploy.md).
"""

from __future__ import annotations

import datetime
import hashlib
import os
import tempfile
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


DEBUG = envbool("DEBUG", "1")

# The staff phone prices each tap with its offline engine once it is ready (Pyodide in
# a Web Worker, booted on the game page; docs/entry.md "The price on the phone, online"),
# else with the server's preview. Off (PHONE_PRICING=0), phones ask the server on each
# tap and boot the engine only when the network drops.
PHONE_PRICING = envbool("PHONE_PRICING", "1")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if DEBUG and not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

# HTTPS=1: the site is served over TLS only (by the proxy in front), so cookies
# never travel in clear, browsers are told to stay on HTTPS (HSTS) and a plain
# HTTP request is redirected. Off by default: the development server has no TLS.
HTTPS = envbool("HTTPS", "0")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
# A scorer is not logged out in the middle of an event: a login lasts
# SESSION_DAYS (4 by default, a long weekend) from the last request, as
# league.middleware.SlidingSessionMiddleware moves the expiry on (hourly). An expired one keeps the page's
# input and asks for the password in place (league/views/webapp.py).
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_DAYS", "4")) * 24 * 3600
# Django's database sessions, read with a statement built once (league/sessions.py).
SESSION_ENGINE = "league.sessions"
SECURE_SSL_REDIRECT = HTTPS and envbool("SECURE_SSL_REDIRECT", "1")
# A load balancer probes over plain HTTP inside its network: a 301 there reads as
# "down". The probes answer as they are; every other address still redirects.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1" if HTTPS else "0")
# Preload only marks the header; a site joins the browsers' list when its owner
# submits it. SECURE_HSTS_PRELOAD=0 is a deliberate choice, so its deploy
# warning is silenced then.
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "1" if HTTPS else "0")
SILENCE_HSTS_PRELOAD = HTTPS and not SECURE_HSTS_PRELOAD
# The proxy's header that says the client spoke HTTPS, e.g. "X-Forwarded-Proto".
# Only set it when the proxy always sets (or strips) that header itself:
# otherwise a client could claim HTTPS.
if os.environ.get("TRUSTED_PROXY_HEADER"):
    header = "HTTP_" + os.environ["TRUSTED_PROXY_HEADER"].strip().upper().replace("-", "_")
    SECURE_PROXY_SSL_HEADER = (header, "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): every script is a static file, never
# inline, and no nonce, because public pages are cached whole and served to
# everyone (league/views/cached.py): a nonce would be the same for all. Styles
# are static files too (league/static/league/*.css): no <style> block and no
# style= attribute, so style-src needs no 'unsafe-inline' (a script may still
# set element.style, which the policy allows). 'wasm-unsafe-eval' lets WebAssembly
# (offline entry under /staff/) compile, never JavaScript's eval. docs/deploy.md
# "Content-Security-Policy" says how to extend it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "worker-src": ["'self'"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    },
}

# ADMINS="Ada <ada@example.org>, Ben <ben@example.org>": who is mailed a 500
# (with EMAIL_URL-style settings of the host); every error goes to stderr anyway.
ADMINS = [(name or address, address) for name, address in getaddresses([os.environ.get("ADMINS", "")]) if address]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", "root@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
# Sign-up mails (confirmation links) and error mail go through this backend:
# EMAIL_BACKEND=smtp sends through EMAIL_HOST, console (the default when
# neither EMAIL_HOST nor ADMINS is set) prints each mail on stderr.
_backend = os.environ.get("EMAIL_BACKEND", "smtp" if ("EMAIL_HOST" in os.environ or ADMINS) else "console")
EMAIL_BACKEND = f"django.core.mail.backends.{_backend}.EmailBackend" if "." not in _backend else _backend
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "0") == "1"
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "tenbou@localhost")
# Players registering themselves (docs/director.md): how long a confirmation
# link works, and sign-ups per client address (django-ratelimit's syntax; empty: no limit).
SIGNUP_LINK_HOURS = int(os.environ.get("SIGNUP_LINK_HOURS", "72"))
SIGNUP_RATE_LIMIT = os.environ.get("SIGNUP_RATE_LIMIT", "5/10m")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "axes",
    "django_ratelimit",
    "league.apps.LeagueConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Before the cached pages: a page served from the cache carries the policy too.
    "league.middleware.CSPMiddleware",
    # Before the cached pages: the read API's answers from the cache carry CORS too.
    "league.middleware.ApiCorsMiddleware",
    # A public page found in the cache is answered here, as a static file is
    # by WhiteNoise: the middleware below has nothing to do for it, and cost
    # more than the page (league/views/cached.py says why it may skip them).
    "league.middleware.CachedPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common (Django's order): the language of each
    # request, from the switch's cookie, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before the CSRF check, the first to read a POST's form: read in one step (league/middleware.py).
    "league.middleware.FormPostMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Anonymous requests the cache did not answer, per address (league/middleware.py).
    "league.middleware.AnonymousLimitMiddleware",
    "league.middleware.SlidingSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its 429 page.
    "axes.middleware.AxesMiddleware",
    # Starts the webhooks' delivery thread with the process's first request (league/webhooks.py).
    "league.middleware.DeliveryThreadMiddleware",
]

if not DEBUG:
    # Static files (the admin's) straight from gunicorn, compressed, from what
    # collectstatic gathered; the development server serves them itself.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "league.urls"
WSGI_APPLICATION = "league.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # select_for_update() is a no-op on SQLite; an IMMEDIATE transaction takes
    # the write lock at BEGIN, so two scorers still cannot interleave.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
    # Connections are kept (CONN_MAX_AGE, as on PostgreSQL): a new SQLite
    # connection reads the schema again on its first statement, which cost
    # 0.6-0.9 ms of CPU per request here (issue 28: more than the whole of a
    # bare request), and an idle connection in WAL mode holds no lock
    # (autocommit: no transaction is left open between requests).
    # WAL lets pages read while a scorer or an import writes; a writer waits
    # up to 20 s for the lock instead of failing at once with "database is locked".
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The few statements every staff request runs on the held cursor
    # (league.statements.fetch_one: the session's, with the user and the game
    # being scored) are prepared on the server once run this many times on a
    # connection: their planning, 0.15 ms of the server's, made the client
    # block on each (issue 28, docs/entry.md). Only that cursor binds on the
    # server; Django's other queries are never prepared. "none": nothing
    # prepared (Django's default), for a transaction pooler that does not
    # keep prepared statements (PgBouncer before 1.21; docs/deploy.md).
    _prepare = os.environ.get("DATABASE_PREPARE_THRESHOLD", "5").strip().lower()
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "prepare_threshold", None if _prepare in ("", "none") else int(_prepare))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The public pages cache what they compute, and their whole responses, under
# each series' stamp (see league/stamps.py). Per process by default;
# CACHE_URL=redis://host:6379/0 shares one cache between workers,
# CACHE_URL=dummy:// turns caching off.
CACHE_URL = os.environ.get("CACHE_URL", "locmem://")
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        # Django's backend with one client per pool (league/redis_cache.py).
        "default": {"BACKEND": "league.redis_cache.RedisCache", "LOCATION": CACHE_URL},
        "versions": {"BACKEND": "league.redis_cache.RedisCache", "LOCATION": CACHE_URL,
                     "KEY_PREFIX": "versions"},
    }
elif CACHE_URL == "dummy://":
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
        "versions": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    }
elif CACHE_URL == "locmem://":
    # The stamps must be seen by every worker (and by a management command
    # that changes a series), so with a per-process page cache they live in a
    # directory of this machine, one per database (league/stamps.py). A
    # deployment on several machines shares redis instead.
    _db = DATABASES["default"]
    _db_id = hashlib.sha1(repr((_db["ENGINE"], _db.get("HOST"), _db.get("PORT"), str(_db["NAME"]))).encode())
    VERSIONS_DIR = os.environ.get(
        "VERSIONS_DIR", str(Path(tempfile.gettempdir()) / f"tenbou-versions-{_db_id.hexdigest()[:12]}")
    )
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tenbou",
                    "OPTIONS": {"MAX_ENTRIES": 2000}},
    }
else:
    raise ImproperlyConfigured(f"CACHE_URL must be locmem://, dummy:// or redis://..., not {CACHE_URL!r}")
# django-ratelimit counts in the cache, so its counts are shared only through a
# shared cache: a per-process one is fine for one development server, and
# production must name Redis (its check fails otherwise). Django's own Redis
# backend increments atomically, which is what the library needs; it is just
# not on the library's list, hence its warning silenced.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001", *(["security.W021"] if SILENCE_HSTS_PRELOAD else [])]
if DEBUG and CACHE_URL == "locmem://":
    SILENCED_SYSTEM_CHECKS.append("django_ratelimit.E003")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages of the pages. A third one is a line here and a .po file in
# league/locale/<code>/LC_MESSAGES/ (docs/languages.md).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "league" / "locale"]
# Dates and numbers on pages follow the language (Django's format files);
# English keeps the ISO days the pages always showed (league/formats/en).
FORMAT_MODULE_PATH = ["league.formats"]
# The switch's choice, for a year; Lax like the session cookie.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"  # filled by `manage.py collectstatic` in production
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "admin:login"
# Where a login lands without a safe ``next``: the staff pages (a login is staff).
LOGIN_REDIRECT_URL = "staff-home"

# django-axes counts failed logins per user name and address together, so one
# venue behind one address is not locked out by a single forgetful scorer, and
# a guesser is stopped on each name it tries. The demo scorer (demo_league) may
# log in only on a development set-up.
AUTHENTICATION_BACKENDS = ["league.auth.LoginAttemptsBackend", "league.auth.NoDemoLoginBackend"]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_RESET_ON_SUCCESS = True
# CLIENT_IP_HEADER: the header the proxy in front sets to the client's address
# (e.g. X-Real-IP); without a proxy the socket's address is the client's.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "").strip()
CLIENT_IP_META = "HTTP_" + CLIENT_IP_HEADER.upper().replace("-", "_") if CLIENT_IP_HEADER else "REMOTE_ADDR"
AXES_CLIENT_IP_CALLABLE = "league.auth.client_ip"
RATELIMIT_IP_META_KEY = "league.auth.client_ip"

# Anonymous requests that reach a view (not answered from the page cache), per
# client address; staff are not limited. Sized for a venue behind one address:
# 300 phones refreshing every 30 s, all missing the cache at worst, are 300 in
# 30 s; twice that leaves room for projectors and clicks (docs/caching.md).
# An empty value turns the limit off.
PUBLIC_RATE_LIMIT = os.environ.get("PUBLIC_RATE_LIMIT", "600/30s")
# The read API (/api/v1/), per client address, counted apart from the pages: the
# answers the cache did not give. Sized for overlays behind one venue address:
# 20 overlays each polling two answers every second, all missing the cache at
# worst (the first poll after every hand), are 1200 in 30 s (docs/api.md).
API_RATE_LIMIT = os.environ.get("API_RATE_LIMIT", "1200/30s")
# Webhooks (docs/api.md): deliveries are sent by a thread of each web process
# (off: only `manage.py deliver_webhooks` sends them). The loopback switch is
# for tests only, which run their own receiver on 127.0.0.1; it is never read
# from the environment.
WEBHOOK_THREAD = os.environ.get("WEBHOOK_THREAD", "1") != "0"
WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS = False
# Anonymous CSV downloads per client address (django-ratelimit); staff are not limited.
EXPORT_RATE_LIMIT = os.environ.get("EXPORT_RATE_LIMIT", "30/m")

# Everything worth knowing goes to stderr, where gunicorn, systemd or a
# container collects it: with DEBUG off, every 500 is logged with its traceback
# (and mailed to ADMINS when set).
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
        # Django's handler drops a mail it cannot send without a word; this one says so on stderr.
        "mail_admins": {"class": "league.errormail.LoggedAdminEmailHandler", "level": "ERROR",
                        "filters": ["require_debug_false"]},
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr", "mail_admins"] if ADMINS else ["stderr"], "level": LOG_LEVEL,
                   "propagate": False},
        "django.server": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        "league.errormail": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        # django-axes says hello on every start and logs each failed login at
        # INFO; its lockouts are WARNING, and those are what an admin needs.
        "axes": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"
