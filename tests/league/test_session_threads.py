"""A second look at the session store's user hints (league/sessions.py,
issue 28): a login's row is never handed to another thread, another user or
a session key that was cycled. Each of these held; they stand as checks."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from league.auth import NoDemoLoginBackend
from league.sessions import SessionStore, take_user_read
from tests.factories import make_scorer, make_series


def _logged_in(user: User) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    assert client.get(reverse("staff-home")).status_code == 200  # the hint learnt
    return client, client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.mark.django_db(transaction=True)
def test_two_threads_each_get_their_own_sessions_user() -> None:
    series = make_series()
    users = [make_scorer(series, username="thread-a"), make_scorer(series, username="thread-b")]
    keys = [_logged_in(u)[1] for u in users]
    barrier = threading.Barrier(2)
    got: list[object] = [None, None]

    def request(i: int) -> None:
        try:
            SessionStore(keys[i]).load()
            barrier.wait()  # both sessions read before either asks for its user
            other = users[1 - i].pk
            got[i] = (take_user_read(other), NoDemoLoginBackend().get_user(users[i].pk).pk)
        except Exception as err:  # noqa: BLE001 - the test inspects it
            got[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=request, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert got == [((False, None), users[0].pk), ((False, None), users[1].pk)]


@pytest.mark.django_db
def test_a_cycled_or_flushed_session_key_is_no_login(scorer: User, series: object) -> None:
    """A login over another (``login`` flushes: a new key) and a login's own
    rotation (``cycle_key``): the old key, hinted in this process, reads no
    session and so no user."""
    client, old = _logged_in(scorer)
    other = make_scorer(series, username="second-login")
    client.force_login(other)  # the same browser, another person: the session flushed
    assert client.cookies[settings.SESSION_COOKIE_NAME].value != old
    stale = Client()
    stale.cookies[settings.SESSION_COOKIE_NAME] = old
    response = stale.get(reverse("staff-home"))
    assert response.status_code == 302 and not response.wsgi_request.user.is_authenticated

    client, old = _logged_in(scorer)
    store = SessionStore(old)
    store.load()
    store.cycle_key()
    stale = Client()
    stale.cookies[settings.SESSION_COOKIE_NAME] = old
    assert not stale.get(reverse("staff-home")).wsgi_request.user.is_authenticated
    fresh = Client()
    fresh.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    assert fresh.get(reverse("staff-home")).wsgi_request.user.pk == scorer.pk
