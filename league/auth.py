"""Who may log in, and how often they may fail: django-axes counts failed
logins per user name and client address; everyone Django's model backend lets
in may log in, except the demo scorer's published password on a production set-up.

``demo_league`` creates a scorer whose password is printed in the README, so a
newcomer can try the staff pages. A database built that way and then served
with DEBUG off would keep a login anyone can guess; this backend refuses any
account whose password is that published one while DEBUG is off, both at login
and for a session opened before the switch.

Every logged-in request asks the backend for its user (``get_user``): the
row is read on every request, as Django's backend reads it, but with a
statement built once (``user_row``) where the ORM's building of
``get(pk=...)`` cost several times its run (issue 28), or in the session's
own statement (``league.sessions``).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.hashers import check_password
from django.core.cache import cache
from django.http import HttpRequest

from league.bounded_map import BoundedMap
from league.sessions import take_user_read
from league.statements import Columns, built, for_read

DEMO_LOGIN = "scorer"
DEMO_PASSWORD = "scorer"


@functools.lru_cache(maxsize=256)
def has_demo_password(encoded: str) -> bool:
    """Whether a stored password hash is the published demo password.

    The answer depends on the stored hash alone (its salt and iterations are
    in it), so it is kept: in this process, and in the shared cache for the
    other workers. Checking costs one run of the password hasher (about
    0.2 s of CPU with Django's PBKDF2); kept per process only, every login
    paid it again on its first request to each worker, the slowest saves
    of an event's first minutes (issue 28, docs/deploy.md). A changed
    password is another hash, checked anew.
    """
    if not encoded:
        return False
    key = "demo-password:" + hashlib.sha256(encoded.encode()).hexdigest()
    known = cache.get(key)
    if known is None:
        known = check_password(DEMO_PASSWORD, encoded)
        cache.set(key, known, DEMO_CHECK_SECONDS)
    return bool(known)


# How long the shared cache keeps a hash's answer: a day (an event's), after
# which a worker new to a login checks it once more.
DEMO_CHECK_SECONDS = 24 * 3600


class NoDemoLoginBackend(ModelBackend):
    def user_can_authenticate(self, user: Any) -> bool:
        if not settings.DEBUG and has_demo_password(user.password or ""):
            return False
        return super().user_can_authenticate(user)

    def get_user(self, user_id: Any) -> Any:
        """The session's user if it may still log in (Django's ``get_user``,
        with the row read by ``user_row``)."""
        found, user = take_user_read(user_id)  # read with the session, in this request
        if not found:
            user = user_row(user_id)
        if user is None or not self.user_can_authenticate(user):
            return None
        if type(user).get_session_auth_hash is AbstractBaseUser.get_session_auth_hash:
            # The session's check (django.contrib.auth.get_user) asks this user's hash once a request.
            user.get_session_auth_hash = functools.partial(session_auth_hash, user)
        return user


def session_auth_hash(user: Any) -> str:
    """``user.get_session_auth_hash()`` as Django's own method gives it (an
    HMAC of the stored password hash under ``SECRET_KEY``, as documented),
    computed by that method once per (model, password hash, key) in this
    process: the HMAC's setup cost some 0.02 ms of every logged-in request
    (issue 28). Nothing about the user is kept but that pair's answer: the
    row is read on every request, a changed password or key is another key
    of the memo, computed anew, so a session made before either change
    fails Django's check at once; the fallback keys' hashes are Django's own
    (``get_session_auth_fallback_hash``). Read at each call: a password set
    on the instance since counts."""
    key = (type(user), user.password or "", settings.SECRET_KEY)
    found = _AUTH_HASHES.get(key)
    if found is None:
        found = _AUTH_HASHES[key] = AbstractBaseUser.get_session_auth_hash(user)
    return found


AUTH_HASHES = 1024
_AUTH_HASHES: BoundedMap[tuple[Any, str, str], str] = BoundedMap(AUTH_HASHES)


def user_row(user_id: Any) -> Any:
    """The user with primary key ``user_id``, or None: what
    ``User._default_manager.get(pk=user_id)`` gives, every concrete field
    read and converted by the database's own converters (a SQLite datetime
    made aware, a boolean), through a statement built once."""
    model = get_user_model()
    db = for_read(model)
    sql, cols = built(db, "user", _user_select)
    with db.cursor() as cursor:
        cursor.execute(sql, [model._meta.pk.get_db_prep_value(user_id, db)])
        row = cursor.fetchone()
    return None if row is None else cols.build(db, row)


def _user_select(db: Any) -> tuple[str, Columns]:
    """The statement (parameter: the primary key) and its columns."""
    model = get_user_model()
    meta = model._meta
    q = db.ops.quote_name
    cols = Columns(db, model, "u")
    return f"SELECT {cols.sql} FROM {q(meta.db_table)} u WHERE u.{q(meta.pk.column)} = %s", cols


def client_ip(request: HttpRequest) -> str:
    """The client's address: the proxy's header named by CLIENT_IP_HEADER, else the socket's.

    One answer for both the login limit and the download limit. The header is
    trusted only because settings name it: set it only behind a proxy that
    always writes it.
    """
    return (request.META.get(settings.CLIENT_IP_META) or request.META.get("REMOTE_ADDR") or "").split(",")[0].strip()


class LoginAttemptsBackend(AxesStandaloneBackend):
    """django-axes' lockout check for every login through a request (the login
    page, the admin). A call with no request (a script, a test's
    ``client.login``) has no address to count and nobody to lock out, so it
    goes on to the next backend instead of failing."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
