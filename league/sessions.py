"""The session store (``SESSION_ENGINE = "league.sessions"``): Django's
database store, with its one read per request as a statement built once,
which also reads the session's user row.

Every logged-in request reads its session row; Django's store builds that
``Session.objects.get(session_key=..., expire_date__gt=now)`` through the ORM
each time, which cost several times the query's run (issue 28: the fixed
cost every staff request pays). This store runs the same ``SELECT`` with
parameters: the row is still read from the database on every request, so an
expired session, a logout or a flushed session in any worker process ends it
at once everywhere; nothing is cached. Writes, keys and decoding are
Django's own.

The user row is read in the same statement when this process has read the
session before and so knows which user it names (a hint: the session key's
user id, never the user's data). The row read is handed to the
authentication backend (``take_user_read``) only if the session just read
still names that user, and only within this request; otherwise the backend
reads the user itself. Either way the user is as stored now.
"""

from __future__ import annotations

import threading
from typing import Any

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.core.exceptions import ValidationError
from django.core.signals import request_finished
from django.utils import timezone

from league.statements import Columns, built, for_read

# Session key -> the user id its data named when this process last read it.
_USER_OF: dict[str, str] = {}
USER_HINTS = 4096
# The user row read with this request's session: (user id, user or None).
_READ = threading.local()


def _load_sql(db: Any, user: Columns | None = None) -> str:
    """The session's data if its row is there and not expired (parameters:
    key, now), from the model's own table and column names; with ``user``,
    and that user's row beside it if there is one (parameters: user id, key,
    now)."""
    from django.contrib.sessions.models import Session

    q = db.ops.quote_name
    meta = Session._meta
    data, key, expires = (q(meta.get_field(f).column) for f in ("session_data", "session_key", "expire_date"))
    select, joined = f"s.{data}", ""
    if user is not None:
        users = user.model._meta
        select += f", {user.sql}"
        joined = f" LEFT JOIN {q(users.db_table)} u ON u.{q(users.pk.column)} = %s"
    return f"SELECT {select} FROM {q(meta.db_table)} s{joined} WHERE s.{key} = %s AND s.{expires} > %s"


def _load_with_user_sql(db: Any) -> tuple[str, Columns]:
    """``_load_sql`` with the user row beside the session's, and its columns."""
    cols = Columns(db, get_user_model(), "u")
    return _load_sql(db, cols), cols


def take_user_read(user_id: Any) -> tuple[bool, Any]:
    """``(True, user or None)`` when this request's session read brought the
    row of ``user_id`` (None: no such user), else ``(False, None)``. Once:
    what was read is handed over and forgotten."""
    read = getattr(_READ, "value", None)
    _READ.value = None
    if read is None or read[0] != str(user_id):
        return False, None
    return True, read[1]


def _forget(**kwargs: Any) -> None:
    _READ.value = None


# Whatever happens in a request, what it read never serves another.
request_finished.connect(_forget, dispatch_uid="league.sessions.forget")


class SessionStore(DbSessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        _READ.value = None  # a new store is a new request (or a script's own)

    def load(self) -> dict[str, Any]:
        """The session's data, or ``{}`` (and no key: a new session is made on
        save) when the row is missing or expired, as Django's ``load``."""
        _READ.value = None
        key = self.session_key  # None when the cookie's key is not a valid one
        row = None
        user_read = None
        if key is not None:
            db = for_read(self.model)
            now = db.ops.adapt_datetimefield_value(timezone.now())
            hint = _USER_OF.get(key)
            user_id = self._hinted_id(hint, db)
            if user_id is not None:
                sql, cols = built(db, "session-and-user", _load_with_user_sql)
                with db.cursor() as cursor:
                    cursor.execute(sql, [user_id, key, now])
                    row = cursor.fetchone()
                if row is not None:
                    user_read = (hint, None if row[1] is None else cols.build(db, row[1:]))
            else:
                sql = built(db, "session", _load_sql)
                with db.cursor() as cursor:
                    cursor.execute(sql, [key, now])
                    row = cursor.fetchone()
        if row is None:
            _USER_OF.pop(key, None)  # type: ignore[arg-type]
            self._session_key = None
            return {}
        data = self.decode(row[0])
        named = data.get(SESSION_KEY)
        if named is None:
            _USER_OF.pop(key, None)  # type: ignore[arg-type]
        else:
            if len(_USER_OF) >= USER_HINTS:
                _USER_OF.clear()  # a bound, not a policy: the next reads learn again
            _USER_OF[key] = str(named)  # type: ignore[index]
            if user_read is not None and user_read[0] == str(named):
                _READ.value = user_read
        return data

    def _hinted_id(self, hint: str | None, db: Any) -> Any:
        """The hinted user's id as the database takes it, or None when there is
        no hint or the users live in another database."""
        if hint is None:
            return None
        user = get_user_model()
        if for_read(user) is not db:
            return None
        try:
            return user._meta.pk.get_db_prep_value(user._meta.pk.to_python(hint), db)
        except (ValidationError, TypeError, ValueError):
            return None
