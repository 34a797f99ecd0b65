"""Settings from the environment, the formatting filters, and the enum mirrors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from league.models import Hand
from league.templatetags.league import points, rank
from scoring.game import AbortReason, OutcomeType

REPO = Path(__file__).resolve().parents[2]


def settings_value(expr: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "DATABASE_URL")}
    code = f"import league.settings as s; print(repr(({expr})))"
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env={**clean, **env}, capture_output=True, text=True)


def test_settings_default_to_debug_and_sqlite_in_the_project() -> None:
    out = settings_value("s.DEBUG, s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME']")
    assert out.stdout.strip() == f"(True, 'django.db.backends.sqlite3', '{REPO / 'db.sqlite3'}')"


def test_settings_need_a_secret_key_only_without_debug() -> None:
    out = settings_value("s.DEBUG", DEBUG="0")
    assert out.returncode != 0 and "SECRET_KEY must be set" in out.stderr
    assert settings_value("s.SECRET_KEY", DEBUG="0", SECRET_KEY="x" * 50).stdout.strip() == repr("x" * 50)


def test_settings_database_url_selects_postgresql() -> None:
    out = settings_value("s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME']",
                         DATABASE_URL="postgres://u:p@127.0.0.1:5432/tenbou")
    assert out.stdout.strip() == "('django.db.backends.postgresql', 'tenbou')"


@pytest.mark.parametrize(("value", "shown"), [(45300, "+45.3"), (-18200, "-18.2"), (0, "0.0"), (3333, "+3.333"),
                                              (-48000, "-48.0"), (None, "")])
def test_points_filter(value: int | None, shown: str) -> None:
    assert points(value) == shown


def test_rank_filter_marks_shared_ranks() -> None:
    assert (rank(2, True), rank(2, False), rank(None)) == ("=2", "2", "")


def test_choices_mirror_the_scoring_enums() -> None:
    assert Hand.Outcome.values == [o.value for o in OutcomeType]
    assert Hand.AbortReason.values == [r.value for r in AbortReason]
