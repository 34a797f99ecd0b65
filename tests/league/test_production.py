"""A production set-up: Django's deploy checks, errors in the log, the readiness
probe, SQLite's journal, and no demo login with DEBUG off. Each check that needs
other settings than the test run's runs Django in a subprocess with that
environment, as a server would start."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from league.models import Series

REPO = Path(__file__).resolve().parents[2]
SECRET = "k" * 20 + "Zq8#v!x2Lw@9rT$m4Pb&n7Yc^e1Hf*j3Gd5Ks6"
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "scores.example.org", "HTTPS": "1",
              "TRUSTED_PROXY_HEADER": "X-Forwarded-Proto"}


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` after ``django.setup()`` in a fresh interpreter with exactly ``env`` on top of a clean one."""
    clean = {k: v for k, v in os.environ.items() if k not in (
        "DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "HTTPS", "TRUSTED_PROXY_HEADER", "ADMINS")}
    clean["DJANGO_SETTINGS_MODULE"] = "league.settings"
    script = "import django; django.setup()\n" + code
    return subprocess.run([sys.executable, "-c", script], cwd=REPO, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run_django(f"from django.core.management import call_command; call_command(*{list(args)!r})", **env)


# -- Django's deploy checks -----------------------------------------------------


def test_deploy_checks_pass_under_the_documented_production_environment(tmp_path: Path) -> None:
    out = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION, CACHE_URL="redis://127.0.0.1:6379/0",
                 DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert out.returncode == 0, out.stderr


def test_deploy_checks_want_a_shared_cache_for_the_limits(tmp_path: Path) -> None:
    out = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION,
                 DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert out.returncode != 0 and "django_ratelimit.E003" in out.stderr


def test_deploy_checks_fail_without_https(tmp_path: Path) -> None:
    env = {**PRODUCTION, "HTTPS": "0", "CACHE_URL": "redis://127.0.0.1:6379/0"}
    out = manage("check", "--deploy", "--fail-level", "WARNING", **env,
                 DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert out.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in out.stderr


def test_https_switches_on_secure_cookies_hsts_and_the_redirect() -> None:
    out = run_django("from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
                     "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER)", **PRODUCTION)
    assert out.stdout.split() == ["True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO',", "'https')"]


def test_admins_are_read_from_the_environment() -> None:
    out = run_django("from django.conf import settings as s; print(s.ADMINS)",
                     ADMINS="Ada Lovelace <ada@example.org>, ben@example.org")
    assert out.stdout.strip() == "[('Ada Lovelace', 'ada@example.org'), ('ben@example.org', 'ben@example.org')]"


# -- errors in the log ----------------------------------------------------------


def test_a_server_error_is_logged_to_stderr_with_its_traceback() -> None:
    code = (
        "from django.urls import path\n"
        "import league.urls\n"
        "def boom(request):\n"
        "    raise RuntimeError('deliberate failure for the log')\n"
        "league.urls.urlpatterns.append(path('boom', boom))\n"
        "from django.test import Client\n"
        "response = Client(raise_request_exception=False).get('/boom', HTTP_HOST='scores.example.org')\n"
        "print(response.status_code)\n"
    )
    out = run_django(code, **{**PRODUCTION, "HTTPS": "0"})
    assert out.stdout.strip() == "500"
    assert "Internal Server Error: /boom" in out.stderr
    assert "RuntimeError: deliberate failure for the log" in out.stderr
    assert "Traceback" in out.stderr


# -- readiness --------------------------------------------------------------------


@pytest.mark.django_db
def test_readyz_answers_when_the_database_does(client) -> None:
    response = client.get("/readyz")
    assert (response.status_code, response.content) == (200, b"ok")
    assert "no-cache" in response["Cache-Control"]


def test_readyz_is_503_when_the_database_is_down() -> None:
    code = (
        "from django.test import Client\n"
        "r = Client().get('/readyz')\n"
        "print(r.status_code, r.content.decode())\n"
    )
    # Port 9 on the loopback: nothing listens there, so the connection is refused at once.
    out = run_django(code, DATABASE_URL="postgres://nobody@127.0.0.1:9/tenbou")
    assert out.stdout.startswith("503 database unavailable: OperationalError"), out.stderr
    assert "readyz: the database does not answer" in out.stderr


def test_healthz_stays_trivial_without_a_database() -> None:
    out = run_django("from django.test import Client; print(Client().get('/healthz').status_code)",
                     DATABASE_URL="postgres://nobody@127.0.0.1:9/tenbou")
    assert out.stdout.strip() == "200"


# -- SQLite ---------------------------------------------------------------------


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    code = ("from django.db import connection\n"
            "c = connection.cursor(); c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])\n"
            "print(connection.settings_dict['OPTIONS']['timeout'])\n")
    out = run_django(code, DATABASE_URL=f"sqlite:///{db}")
    assert out.stdout.split() == ["wal", "20"], out.stderr


# -- the demo login ---------------------------------------------------------------


@pytest.mark.django_db
def test_demo_league_refuses_to_run_with_debug_off_unless_told(settings, _demo_rows: Any) -> None:
    """The first build with DEBUG off and ``--allow-without-debug`` is the one
    tests/demo.py makes once per run (it refuses to build with DEBUG on): its
    rows, loaded here, are what that build left, without building again."""
    from tests import demo

    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("demo_league", stdout=StringIO())
    assert not Series.objects.exists()
    demo.load(_demo_rows)
    assert Series.objects.filter(slug="demo-league").exists()
    assert not User.objects.filter(username="scorer").exists()


@pytest.mark.django_db
def test_the_demo_scorer_cannot_log_in_once_debug_is_off(settings, client, demo_league: None) -> None:
    """On the tests' copy of the demo (tests/conftest.py; test_demo_league.py proves it
    is what the command builds): the command, run again with DEBUG on, makes the login
    without building the demo a second time."""
    settings.DEBUG = True
    call_command("demo_league", stdout=StringIO())
    assert authenticate(username="scorer", password="scorer") is not None
    assert client.login(username="scorer", password="scorer")
    assert client.get("/staff/").status_code == 200
    settings.DEBUG = False  # the same database, served in production
    assert authenticate(username="scorer", password="scorer") is None
    # A session opened before the switch is no longer honoured either.
    response = client.get("/staff/")
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.django_db
def test_an_account_with_its_own_password_logs_in_with_debug_off(settings) -> None:
    settings.DEBUG = False
    user = User.objects.create_user("scorer", password="a long and private passphrase")
    assert authenticate(username="scorer", password="a long and private passphrase") == user


def test_static_files_are_served_by_the_application_with_debug_off(tmp_path: Path) -> None:
    static = tmp_path / "static"
    code = (
        "from django.core.management import call_command\n"
        "from django.conf import settings\n"
        "call_command('collectstatic', '--noinput', '-v', '0')\n"
        "from django.test import Client\n"
        "r = Client().get('/static/admin/css/base.css', HTTP_HOST='scores.example.org', HTTP_ACCEPT_ENCODING='gzip')\n"
        "print(r.status_code, r.get('Content-Encoding'), r['Content-Type'].split(';')[0])\n"
    )
    out = run_django(f"from django.conf import settings\nsettings.STATIC_ROOT = {str(static)!r}\n" + code,
                     **{**PRODUCTION, "HTTPS": "0"})
    assert out.stdout.split() == ["200", "gzip", "text/css"], out.stderr
