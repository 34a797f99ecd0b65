"""The session store (``SESSION_ENGINE = "league.sessions"``): Django's
database store, with its one read per request as a statement built once.

Every logged-in request reads its session row; Django's store builds that
``Session.objects.get(session_key=..., expire_date__gt=now)`` through the ORM
each time, which cost several times the query's run (issue 28: the fixed
cost every staff request pays). This store runs the same ``SELECT`` with
parameters: the row is still read from the database on every request, so an
expired session, a logout or a flushed session in any worker process ends it
at once everywhere; nothing is cached. Writes, keys and decoding are
Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.db import connections, router
from django.utils import timezone

_LOAD: dict[str, str] = {}  # the statement, per database vendor (its quoting)


def _load_sql(db: Any, model: Any) -> str:
    """The session's data if its row is there and not expired (parameters:
    key, now), from the model's own table and column names."""
    q = db.ops.quote_name
    meta = model._meta
    data, key, expires = (q(meta.get_field(f).column) for f in ("session_data", "session_key", "expire_date"))
    return f"SELECT {data} FROM {q(meta.db_table)} WHERE {key} = %s AND {expires} > %s"


class SessionStore(DbSessionStore):
    def load(self) -> dict[str, Any]:
        """The session's data, or ``{}`` (and no key: a new session is made on
        save) when the row is missing or expired, as Django's ``load``."""
        key = self.session_key  # None when the cookie's key is not a valid one
        row = None
        if key is not None:
            db = connections[router.db_for_read(self.model)]
            sql = _LOAD.get(db.vendor) or _LOAD.setdefault(db.vendor, _load_sql(db, self.model))
            with db.cursor() as cursor:
                cursor.execute(sql, [key, db.ops.adapt_datetimefield_value(timezone.now())])
                row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return {}
        return self.decode(row[0])
