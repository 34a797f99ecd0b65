"""The tests hash passwords with MD5 (tests/conftest.py), which is only
safe because it never leaves the test run: production, with the settings
module as deployed and no test hook, hashes with PBKDF2 at Django's full
iteration count. Django reads the setting in a subprocess here, as the
server would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.contrib.auth.hashers import get_hasher, make_password

REPO = Path(__file__).resolve().parents[1]

PRODUCTION = """
import django
django.setup()
from django.conf import settings
from django.contrib.auth.hashers import get_hasher, make_password
hasher = get_hasher()
print(settings.PASSWORD_HASHERS[0], hasher.algorithm, hasher.iterations, make_password("pw").split("$")[:2])
"""


def test_production_settings_hash_passwords_with_pbkdf2_at_full_strength() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_XDIST_WORKER", "DATABASE_URL")}
    env.update(DJANGO_SETTINGS_MODULE="league.settings", DEBUG="0", SECRET_KEY="s" * 50, ALLOWED_HOSTS="example.org")
    out = subprocess.run([sys.executable, "-c", PRODUCTION], cwd=REPO, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    first, algorithm, iterations, prefix = out.stdout.strip().split(" ", 3)
    assert (first, algorithm) == ("django.contrib.auth.hashers.PBKDF2PasswordHasher", "pbkdf2_sha256")
    assert int(iterations) >= 1_000_000  # Django 5.2's count; a later Django only raises it
    assert prefix == f"['pbkdf2_sha256', '{iterations}']"


def test_the_test_run_hashes_with_md5() -> None:
    assert get_hasher().algorithm == "md5"
    assert make_password("pw").startswith("md5$")
