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

A session that scored a game in this process last (another hint: the
session key's game id and the start of that game's staff URLs) reads, on a
request under those URLs, that game's row, its series' and whether the user
may score it in the same statement (LEFT JOINs: nothing is refused here).
The request's path is given to the store by
``league.middleware.SlidingSessionMiddleware`` (``for_path``), before it first reads the session; other requests read
no game. ``league.access.game_for_scorer`` takes those values
(``carried_game``) only for that game and that user, within this request,
and reads the game itself otherwise; so a tap, a save or a page of the game
being scored costs one statement for session, user and game, every row
still as stored now. The game's part of the statement is given by
``league.access`` (``carry_game``): this module sits below the models.

The data read is decoded as Django decodes it (signature checked, then
JSON); a process remembers, per exact stored string, the JSON it checked
(``_CHECKED``), so the same row read again costs a ``json.loads`` (a flat
row, every value a string, number, boolean or null: a copy of a dict) and
not a new signature check: the same bytes under the same key check the same, and
a changed or tampered row is a new string, checked anew, and so is every
row once the signing keys change.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.core.exceptions import ValidationError
from django.core.signals import request_finished
from django.core.signing import JSONSerializer
from django.utils import timezone

from league.bounded_map import BoundedMap
from league.statements import Columns, built, fetch_one, for_read

# Session key -> the user id its data named when this process last read it.
USER_HINTS = 4096
_USER_OF: BoundedMap[str, str] = BoundedMap(USER_HINTS)
# The user row read with this request's session: (user id, user or None).
_READ = threading.local()
# A session row's stored data -> its JSON, once its signature checked (``decode``).
# Keyed by the signing keys too: a rotated SECRET_KEY (or a fallback taken
# away) checks every row anew, as Django would.
CHECKED_ROWS = 4096
_CHECKED: BoundedMap[tuple[Any, ...], str | dict[str, Any]] = BoundedMap(CHECKED_ROWS)
# What JSON decodes that cannot be changed in place: a flat row's copy is a fresh row.
_SCALARS = frozenset({str, int, float, bool, type(None)})
# Session key -> the game it was last allowed to score in this process
# (league.access), and the start of the path under which it was (its URLs').
_GAME_OF: BoundedMap[str, tuple[int, str]] = BoundedMap(USER_HINTS)
# The game's part of the session's statement, given by league.access
# (``carry_game``): (db, the user's alias) -> (select list, joins with one
# parameter: the game's id), or None when the games live in another database.
_CARRY: list[Callable[[Any, str], tuple[str, str] | None]] = []


def _load_sql(db: Any, user: Columns | None = None, game: tuple[str, str] | None = None) -> str:
    """The session's data if its row is there and not expired (parameters:
    key, now), from the model's own table and column names; with ``user``,
    and that user's row beside it if there is one (parameters: user id, key,
    now); with ``game`` too, what ``carry_game``'s builder adds (parameters:
    user id, game id, key, now)."""
    from django.contrib.sessions.models import Session

    q = db.ops.quote_name
    meta = Session._meta
    data, key, expires = (q(meta.get_field(f).column) for f in ("session_data", "session_key", "expire_date"))
    select, joined = f"s.{data}", ""
    if user is not None:
        users = user.model._meta
        select += f", {user.sql}"
        joined = f" LEFT JOIN {q(users.db_table)} u ON u.{q(users.pk.column)} = %s"
        if game is not None:
            select += f", {game[0]}"
            joined += game[1]
    return f"SELECT {select} FROM {q(meta.db_table)} s{joined} WHERE s.{key} = %s AND s.{expires} > %s"


def _load_with_user_sql(db: Any) -> tuple[str, Columns]:
    """``_load_sql`` with the user row beside the session's, and its columns."""
    cols = Columns(db, get_user_model(), "u")
    return _load_sql(db, cols), cols


def _load_with_game_sql(db: Any) -> tuple[str, Columns] | None:
    """``_load_with_user_sql`` with the game's part beside (None: none to carry)."""
    game = _CARRY[0](db, "u") if _CARRY else None
    if game is None:
        return None
    cols = Columns(db, get_user_model(), "u")
    return _load_sql(db, cols, game), cols


def carry_game(build: Callable[[Any, str], tuple[str, str] | None]) -> None:
    """Set the game's part of the session's statement: ``build(db, user
    alias)`` gives the columns to select and the joins (one parameter: the
    game's id), or None. Called once by ``league.access``."""
    _CARRY[:] = [build]


def note_game(session: Any, game_id: int, path: str) -> None:
    """The login of ``session`` was just allowed to score ``game_id`` on a
    request for ``path``: its next reads in this process on a path that
    starts as this one does up to the game's id (``/staff/games/12/``)
    carry that game's row."""
    key = getattr(session, "session_key", None)
    at = path.find(f"/{game_id}/")
    if isinstance(session, SessionStore) and key is not None and key in _USER_OF and at >= 0:
        _GAME_OF[key] = (game_id, path[:at + len(str(game_id)) + 2])


def carried_game(session: Any, game_id: int, user_id: Any) -> Sequence[Any] | None:
    """The values the session's statement of this request read after the
    user's row, if they are those of ``game_id`` for the user ``user_id``
    (else None). Once: what was read is handed over and forgotten."""
    carried = getattr(session, "_carried", None)
    if carried is None:
        return None
    session._carried = None
    read_game, read_user, values = carried
    return values if read_game == game_id and read_user == str(user_id) else None


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
        self._carried: tuple[int, str, Sequence[Any]] | None = None
        self.for_path = ""  # the request's path (league.middleware.SlidingSessionMiddleware)

    def load(self) -> dict[str, Any]:
        """The session's data, or ``{}`` (and no key: a new session is made on
        save) when the row is missing or expired, as Django's ``load``."""
        _READ.value = None
        self._carried = None
        key = self.session_key  # None when the cookie's key is not a valid one
        row = None
        user_read = None
        carried = None
        if key is not None:
            db = for_read(self.model)
            now = db.ops.adapt_datetimefield_value(timezone.now())
            hint = _USER_OF.get(key)
            user_id = self._hinted_id(hint, db)
            game = _GAME_OF.get(key) if user_id is not None else None
            game_id = game[0] if game is not None and self.for_path.startswith(game[1]) else None
            with_game = built(db, "session-user-game", _load_with_game_sql) if game_id is not None else None
            if with_game is not None:
                sql, cols = with_game
                row = fetch_one(db, sql, [user_id, game_id, key, now])
                if row is not None:
                    end = 1 + cols.width
                    user_read = (hint, None if row[1] is None else cols.build(db, row[1:end]))
                    carried = (game_id, hint, row[end:])
            elif user_id is not None:
                sql, cols = built(db, "session-and-user", _load_with_user_sql)
                row = fetch_one(db, sql, [user_id, key, now])
                if row is not None:
                    user_read = (hint, None if row[1] is None else cols.build(db, row[1:]))
            else:
                sql = built(db, "session", _load_sql)
                row = fetch_one(db, sql, [key, now])
        if row is None:
            _USER_OF.pop(key, None)  # type: ignore[arg-type]
            _GAME_OF.pop(key, None)  # type: ignore[arg-type]
            self._session_key = None
            return {}
        data = self.decode(row[0])
        named = data.get(SESSION_KEY)
        if named is None:
            _USER_OF.pop(key, None)  # type: ignore[arg-type]
            _GAME_OF.pop(key, None)  # type: ignore[arg-type]
        else:
            _USER_OF[key] = str(named)  # type: ignore[index]
            if user_read is not None and user_read[0] == str(named):
                _READ.value = user_read
                self._carried = carried
        return data

    def decode(self, session_data: str) -> dict[str, Any]:
        """Django's ``decode``, its signature check done once per stored
        string in this process; a fresh dict on every call."""
        known = (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS, session_data)
        checked = _CHECKED.get(known)
        if checked is not None:
            # A staff login's data is flat (its user, backend and hash: strings),
            # kept as a dict whose copy is what json.loads gives; else as JSON.
            return dict(checked) if type(checked) is dict else json.loads(checked)  # type: ignore[no-any-return]
        data: dict[str, Any] = super().decode(session_data)
        if data and self.serializer is JSONSerializer:  # {} is also what a bad signature gives: never kept
            flat = all(type(v) in _SCALARS for v in data.values())
            _CHECKED[known] = dict(data) if flat else json.dumps(data, separators=(",", ":"))
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
