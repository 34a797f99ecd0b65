"""The logged-in request's two reads, session and user, as statements built
once (league/sessions.py, league/auth.py, issue 28): each gives what
Django's own store and backend give, row by row, and a login still ends at
once everywhere (expired, logged out elsewhere, password changed, made
inactive), since the rows are read from the database on every request."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.core.signals import request_finished
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league import sessions
from league.auth import NoDemoLoginBackend, user_row
from league.sessions import SessionStore, take_user_read

pytestmark = pytest.mark.django_db


def test_the_project_uses_its_session_store() -> None:
    assert settings.SESSION_ENGINE == "league.sessions"


def _fields(user: User | None) -> dict[str, object] | None:
    return None if user is None else {f.attname: getattr(user, f.attname) for f in User._meta.concrete_fields}


@pytest.mark.parametrize("kind", ["plain", "logged in before", "superuser", "inactive"])
def test_user_row_equals_the_orms_get(kind: str) -> None:
    user = User.objects.create_user(f"u-{kind.replace(' ', '-')}", password="pw", first_name="Ōno",
                                    is_superuser=kind == "superuser", is_active=kind != "inactive")
    if kind == "logged in before":
        User.objects.filter(pk=user.pk).update(last_login=timezone.now() - datetime.timedelta(days=3))
    orm = User._default_manager.get(pk=user.pk)
    row = user_row(user.pk)
    assert _fields(row) == _fields(orm)
    assert row is not None and row._state.adding is False and row._state.db == orm._state.db
    assert isinstance(row.is_active, bool) and timezone.is_aware(row.date_joined)
    if kind == "logged in before":
        assert timezone.is_aware(row.last_login)


def test_user_row_of_a_missing_user_is_none() -> None:
    assert user_row(987654) is None


@pytest.mark.parametrize("active", [True, False])
def test_the_backends_get_user_equals_djangos(active: bool) -> None:
    user = User.objects.create_user("someone", password="pw", is_active=active)
    from django.contrib.auth.backends import ModelBackend

    assert _fields(NoDemoLoginBackend().get_user(user.pk)) == _fields(ModelBackend().get_user(user.pk))
    assert (NoDemoLoginBackend().get_user(user.pk) is None) is (not active)
    assert NoDemoLoginBackend().get_user(987654) is None


def _saved_session(**data: object) -> str:
    store = SessionStore()
    for key, value in data.items():
        store[key] = value
    store.save()
    assert store.session_key is not None
    return store.session_key


@pytest.mark.parametrize("case", ["present", "expired", "missing", "invalid key", "tampered"])
def test_the_session_store_loads_what_djangos_loads(case: str) -> None:
    key = _saved_session(seen=12, name="Ōno")
    if case == "expired":
        Session.objects.filter(session_key=key).update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    elif case == "missing":
        Session.objects.filter(session_key=key).delete()
    elif case == "invalid key":
        key = "short"
    elif case == "tampered":
        Session.objects.filter(session_key=key).update(session_data="eyJzZWVuIjoxMn0:AAAA:tampered")
    ours, django = SessionStore(key), DjangoStore(key)
    assert ours.load() == django.load()
    assert ours.session_key == django.session_key  # None when the row is gone: a new key on the next save
    if case == "present":
        assert ours.load() == {"seen": 12, "name": "Ōno"}
    else:
        assert ours.load() == {}


def test_a_session_expiring_now_is_expired_for_both() -> None:
    key = _saved_session(seen=1)
    Session.objects.filter(session_key=key).update(expire_date=timezone.now())
    assert SessionStore(key).load() == DjangoStore(key).load() == {}


@pytest.fixture
def logged_in(scorer: User) -> Client:
    client = Client()
    client.force_login(scorer)
    assert client.get(reverse("staff-home")).status_code == 200
    return client


def _is_logged_out(client: Client) -> bool:
    response = client.get(reverse("staff-home"))
    return response.status_code == 302 and reverse("login") in response["Location"]


def test_a_login_still_reaches_the_staff_pages(logged_in: Client) -> None:
    assert not _is_logged_out(logged_in)


def test_a_logout_in_another_process_ends_the_login_at_once(logged_in: Client) -> None:
    Session.objects.all().delete()  # what a logout elsewhere (another worker) does to the row
    assert _is_logged_out(logged_in)


def test_an_expired_session_ends_the_login(logged_in: Client) -> None:
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    assert _is_logged_out(logged_in)


def test_a_changed_password_ends_the_login(logged_in: Client, scorer: User) -> None:
    scorer.set_password("another")
    scorer.save()
    assert _is_logged_out(logged_in)


def test_a_new_secret_key_ends_the_login_unless_the_old_is_a_fallback(logged_in: Client) -> None:
    from django.test import override_settings

    old = settings.SECRET_KEY
    with override_settings(SECRET_KEY="rotated-key-" + "y" * 40, SECRET_KEY_FALLBACKS=[old]):
        assert not _is_logged_out(logged_in)  # Django's fallback check, then the session moved to the new key
    with override_settings(SECRET_KEY="rotated-again-" + "z" * 40, SECRET_KEY_FALLBACKS=[]):
        assert _is_logged_out(logged_in)


def test_a_row_checked_once_is_checked_again_under_other_keys(db: None) -> None:
    """The signature check kept per stored string (``SessionStore.decode``)
    is kept per signing keys too: under a new key with no fallback the row
    reads as Django reads it, as nothing."""
    from django.test import override_settings

    store = SessionStore()
    store["kept"] = "a value"
    store.save()
    key = store.session_key
    assert SessionStore(key).load() == {"kept": "a value"}  # checked, and kept as checked
    with override_settings(SECRET_KEY="rotated-key-" + "y" * 40, SECRET_KEY_FALLBACKS=[]):
        assert SessionStore(key).load() == DjangoStore(key).load() == {}
    with override_settings(SECRET_KEY="rotated-key-" + "y" * 40, SECRET_KEY_FALLBACKS=[settings.SECRET_KEY]):
        assert SessionStore(key).load() == DjangoStore(key).load() == {"kept": "a value"}


def test_a_user_made_inactive_is_logged_out(logged_in: Client, scorer: User) -> None:
    User.objects.filter(pk=scorer.pk).update(is_active=False)
    assert _is_logged_out(logged_in)


def test_a_deleted_user_is_logged_out(logged_in: Client, scorer: User) -> None:
    User.objects.filter(pk=scorer.pk).delete()
    assert _is_logged_out(logged_in)


# -- the user read with the session ------------------------------------------------------


def test_a_known_session_reads_its_user_in_the_same_statement(logged_in: Client,
                                                               django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(1):  # the session and its user: one statement
        assert logged_in.get("/healthz").status_code == 200


def test_the_user_read_with_the_session_equals_the_orms(logged_in: Client, scorer: User) -> None:
    User.objects.filter(pk=scorer.pk).update(last_login=timezone.now(), first_name="Ōno")
    key = logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    store = SessionStore(key)
    assert store.load()["_auth_user_id"] == str(scorer.pk)
    found, user = take_user_read(scorer.pk)
    assert found and _fields(user) == _fields(User.objects.get(pk=scorer.pk))
    assert take_user_read(scorer.pk) == (False, None)  # handed over once


def test_a_session_that_names_another_user_now_gets_that_user(logged_in: Client, scorer: User,
                                                              series: Any) -> None:
    """The hint (the user the session named last time) only says which row to
    read beside it: a session that now names someone else reads that user."""
    from tests.factories import make_scorer

    other = make_scorer(series, username="other")
    elsewhere = Client()
    elsewhere.force_login(other)
    theirs = Session.objects.get(session_key=elsewhere.cookies[settings.SESSION_COOKIE_NAME].value).session_data
    mine = logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    Session.objects.filter(session_key=mine).update(session_data=theirs)
    response = logged_in.get(reverse("staff-home"))
    assert response.status_code == 200 and response.wsgi_request.user.pk == other.pk


def test_a_row_read_in_one_request_never_serves_a_later_one(logged_in: Client, scorer: User) -> None:
    assert logged_in.get(reverse("staff-home")).status_code == 200
    User.objects.filter(pk=scorer.pk).update(is_active=False)
    assert NoDemoLoginBackend().get_user(scorer.pk) is None  # read now, not what the request read
    User.objects.filter(pk=scorer.pk).update(is_active=True)
    key = logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    SessionStore(key).load()
    SessionStore()  # a new store (a new request) forgets what the last one read
    assert take_user_read(scorer.pk) == (False, None)
    SessionStore(key).load()
    request_finished.send(sender=None)  # so does the end of the request
    assert take_user_read(scorer.pk) == (False, None)


def test_a_deleted_user_read_with_the_session_is_none(logged_in: Client, scorer: User) -> None:
    key = logged_in.cookies[settings.SESSION_COOKIE_NAME].value
    User.objects.filter(pk=scorer.pk).delete()
    SessionStore(key).load()
    assert take_user_read(scorer.pk) == (True, None)


def test_a_session_read_again_decodes_as_djangos_and_anew() -> None:
    """The signature is checked once per stored string (``_CHECKED``): the
    same row read again gives what Django gives, a fresh dict each time; a
    row changed or tampered with is checked anew."""
    key = _saved_session(seen=3, names=["Ōno", "Ida"])
    first = SessionStore(key).load()
    first["names"].append("changed in place")  # a request changing its own copy
    again = SessionStore(key).load()
    assert again == DjangoStore(key).load() == {"seen": 3, "names": ["Ōno", "Ida"]}
    data = Session.objects.get(session_key=key).session_data
    assert any(known[-1] == data for known in sessions._CHECKED)
    signed, _, _ = data.rpartition(":")
    Session.objects.filter(session_key=key).update(session_data=signed + ":tampered")
    assert SessionStore(key).load() == DjangoStore(key).load() == {}
    store = SessionStore(key)
    store["seen"] = 4
    store.save()
    assert SessionStore(key).load() == DjangoStore(key).load() == {"seen": 4}


# -- the session's hash (league.auth.session_auth_hash) ------------------------------------


def test_the_users_session_hash_is_djangos_own(scorer: User) -> None:
    from django.contrib.auth.base_user import AbstractBaseUser

    user = NoDemoLoginBackend().get_user(scorer.pk)
    assert user is not None and user.get_session_auth_hash is not None
    assert user.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(User.objects.get(pk=scorer.pk))
    assert user.get_session_auth_hash() == user.get_session_auth_hash()  # the memo's answer, the same


def test_a_password_set_on_the_instance_changes_its_hash(scorer: User) -> None:
    # What Django's password change does before update_session_auth_hash: the
    # hash is of the password the instance holds now, not of the one read.
    from django.contrib.auth.base_user import AbstractBaseUser

    user = NoDemoLoginBackend().get_user(scorer.pk)
    before = user.get_session_auth_hash()
    user.set_password("another")
    assert user.get_session_auth_hash() != before
    assert user.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(user)


def test_the_session_hash_under_a_new_key_is_that_keys(scorer: User) -> None:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.test import override_settings

    user = NoDemoLoginBackend().get_user(scorer.pk)
    before = user.get_session_auth_hash()
    with override_settings(SECRET_KEY="rotated-key-" + "y" * 40):
        assert user.get_session_auth_hash() != before
        assert user.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(user)
    assert user.get_session_auth_hash() == before


def test_a_flat_session_read_again_is_a_fresh_copy() -> None:
    # A staff login's row (strings, numbers, booleans, null) is kept as a dict
    # and handed out as a copy: what Django decodes, and changing one request's
    # data changes no other's.
    key = _saved_session(user="7", seen=3, ratio=0.5, staff=True, gone=None)
    first = SessionStore(key).load()
    data = Session.objects.get(session_key=key).session_data
    assert any(known[-1] == data and type(kept) is dict for known, kept in sessions._CHECKED.items())
    first["seen"] = 99
    first["added"] = "x"
    again = SessionStore(key).load()
    assert again == DjangoStore(key).load() == {"user": "7", "seen": 3, "ratio": 0.5, "staff": True, "gone": None}
    assert again is not SessionStore(key).load()
