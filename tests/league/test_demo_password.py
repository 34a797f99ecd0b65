"""The demo scorer's published password is refused with DEBUG off, and the
check's cost (one run of the password hasher) is paid once per stored hash,
not once per worker: the answer is kept in the shared cache (issue 28: with
four workers, each login's first request to each worker hashed again, the
slowest saves of an event's first minutes)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.core.cache import cache

from league import auth


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The hashes the password hasher was run on (Django's check_password, counted)."""
    seen: list[str] = []
    real = auth.check_password

    def counting(password: str, encoded: str, *args: Any, **kwargs: Any) -> bool:
        seen.append(encoded)
        return real(password, encoded, *args, **kwargs)

    monkeypatch.setattr(auth, "check_password", counting)
    auth.has_demo_password.cache_clear()
    cache.clear()
    yield seen
    auth.has_demo_password.cache_clear()


def test_the_published_password_is_found_and_another_is_not(hashed: list[str]) -> None:
    assert auth.has_demo_password(make_password(auth.DEMO_PASSWORD)) is True
    assert auth.has_demo_password(make_password("table-side-42")) is False
    assert auth.has_demo_password("") is False
    assert len(hashed) == 2  # the empty hash is not hashed


def test_another_worker_takes_the_answer_from_the_shared_cache(hashed: list[str]) -> None:
    demo, other = make_password(auth.DEMO_PASSWORD), make_password("table-side-42")
    assert auth.has_demo_password(demo) and not auth.has_demo_password(other)
    assert len(hashed) == 2
    auth.has_demo_password.cache_clear()  # a worker that has not seen these hashes yet
    assert auth.has_demo_password(demo) is True
    assert auth.has_demo_password(other) is False
    assert len(hashed) == 2, "the second worker ran the hasher again"


def test_a_changed_password_is_checked_anew(hashed: list[str]) -> None:
    assert auth.has_demo_password(make_password("table-side-42")) is False
    # The same password set again is a new salt, so a new hash: checked, and found.
    assert auth.has_demo_password(make_password(auth.DEMO_PASSWORD)) is True
    assert len(hashed) == 2


@pytest.mark.django_db
def test_a_session_with_the_demo_password_is_refused_with_debug_off(settings: Any, client: Any) -> None:
    from django.contrib.auth.models import User

    user = User.objects.create_user(auth.DEMO_LOGIN, password=auth.DEMO_PASSWORD)
    client.force_login(user)
    settings.DEBUG = True
    assert auth.NoDemoLoginBackend().get_user(user.pk) is not None
    settings.DEBUG = False
    cache.clear()
    auth.has_demo_password.cache_clear()
    assert auth.NoDemoLoginBackend().get_user(user.pk) is None
