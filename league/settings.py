"""Django settings for Tenbou, read from the environment.

With no environment at all this is a development set-up: DEBUG on, SQLite in
the project folder. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and
DATABASE_URL (postgres://user:password@host:port/name).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


DEBUG = envbool("DEBUG", "1")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
if DEBUG and not ALLOWED_HOSTS:
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "league.apps.LeagueConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
    # Persistent connections buy nothing on a local file and keep it locked.
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The public pages cache what they compute, and their whole responses, under
# each series' stamp (see league/versions.py). Per process by default;
# CACHE_URL=redis://host:6379/0 shares one cache between workers,
# CACHE_URL=dummy:// turns caching off.
CACHE_URL = os.environ.get("CACHE_URL", "locmem://")
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL},
        "versions": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL,
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
    # directory of this machine, one per database (league/versions.py). A
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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGIN_URL = "admin:login"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"
