"""Who may do what to a series: the one answer every staff page asks.

Two roles per series, both granted in the admin (and the director's on the
event's own page): a **director** runs the event (settings, registration,
seating, rounds, the clock, stages, cuts, playoffs, EMA details, PINs,
substitutes, the roles themselves); a **scorer** enters hands and end
scores, nothing else. A director may also score; a superuser passes both.
Creating a new event is a Django permission (``league.add_series``), given
in the admin; whoever creates one becomes its first director.

The lookups raise ``PermissionDenied`` (403) before anything else is read,
so an outsider learns nothing about the series, not even whether a round or
a game of it exists.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from league.models import Event, Game, Series
from league.sessions import carried_game, carry_game, note_game
from league.statements import Columns, Names, built, fetch_one, fits, for_read, statement

CREATE_EVENTS = "league.add_series"


def can_direct(user: Any, series: Series) -> bool:
    """Whether ``user`` may run the event of ``series`` (every event write)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser or series.directors.filter(pk=user.pk).exists())


def can_score(user: Any, series: Series) -> bool:
    """Whether ``user`` may enter hands and end scores in ``series``: one
    statement over both roles' tables (every staff request asks it; the ORM's
    building of two ``exists`` queries cost ten times their running)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    db = for_read(Series)
    return fetch_one(db, _may_score_sql(db), [series.pk, user.pk, series.pk, user.pk]) is not None


@statement
def _may_score_sql(n: Names) -> str:
    """``SELECT 1`` when the user scores or directs the series (parameters:
    series, user, series, user)."""
    q = n.q
    parts = []
    for field in (Series._meta.get_field("scorers"), Series._meta.get_field("directors")):
        table = q(field.remote_field.through._meta.db_table)
        parts.append(f"SELECT 1 FROM {table} WHERE {q(field.m2m_column_name())} = %s "
                     f"AND {q(field.m2m_reverse_name())} = %s")
    return " UNION ALL ".join(parts)


def can_create_events(user: Any) -> bool:
    """Whether ``user`` may open the New event page."""
    return bool(getattr(user, "is_authenticated", False) and user.has_perm(CREATE_EVENTS))


def staffed_series(user: Any) -> QuerySet[Series]:
    """The series ``user`` scores or directs (every series for a superuser)."""
    if user.is_superuser:
        return Series.objects.all()
    return (Series.objects.filter(scorers=user) | Series.objects.filter(directors=user)).distinct()


def series_for_scorer(request: HttpRequest, slug: str) -> Series:
    series = get_object_or_404(Series, slug=slug)
    if not can_score(request.user, series):
        raise PermissionDenied("You do not score this series.")
    return series


def series_for_director(request: HttpRequest, slug: str) -> Series:
    series = get_object_or_404(Series, slug=slug)
    if not can_direct(request.user, series):
        raise PermissionDenied("You do not direct this event.")
    return series


def game_for_scorer(request: HttpRequest, pk: int) -> Game:
    """The game with its series (404 if there is none), if the login may
    score the series (else 403): what ``get_object_or_404(Game.objects
    .select_related("series"), pk=pk)`` and ``can_score`` give, in one
    statement built once (every staff game request and every live preview
    asks it; the ORM's building of the join cost several times its run).

    A session that scored this game last in this process brought the same
    row on a request under the game's URLs, read in its own statement of
    this request (``league.sessions``: the same columns, the right to score
    read with the user's row): then no second statement runs. Anything else (another game, another user, a
    game no longer there) is read here, so the 404 and the 403 are as ever."""
    user = request.user
    db = for_read(Game)
    sql, game_cols, series_cols = built(db, "game-for-scorer", _game_for_scorer_sql)
    who = user.pk if getattr(user, "is_authenticated", False) else None
    if not fits(Game._meta.pk, pk, db):
        raise Http404("No Game matches the given query.")  # as the ORM's get finds none
    session = getattr(request, "session", None)
    row = None if who is None else carried_game(session, pk, who)
    if row is None or row[game_cols.names.index(Game._meta.pk.attname)] is None:  # not carried, or gone: read here
        row = fetch_one(db, sql, [who, who, Game._meta.pk.get_db_prep_value(pk, db)])
    if row is None:
        raise Http404("No Game matches the given query.")
    game = game_cols.build(db, row[:game_cols.width])
    series = series_cols.build(db, row[game_cols.width:-1])
    Game._meta.get_field("series").set_cached_value(game, series)
    if not (getattr(user, "is_authenticated", False) and (user.is_superuser or row[-1])):
        raise PermissionDenied("You do not score this series.")
    note_game(session, pk, request.path_info)
    return game


def _roles_sql(db: Any, series: str, user: str) -> str:
    """Whether ``user`` (SQL: a parameter or a column) scores or directs the
    series under the alias ``series``: a boolean."""
    q = db.ops.quote_name
    roles = []
    for field in (Series._meta.get_field("scorers"), Series._meta.get_field("directors")):
        table = q(field.remote_field.through._meta.db_table)
        roles.append(f"EXISTS (SELECT 1 FROM {table} r WHERE r.{q(field.m2m_column_name())} = "
                     f"{series}.{q(Series._meta.pk.column)} AND r.{q(field.m2m_reverse_name())} = {user})")
    return f"({' OR '.join(roles)})"


def _game_for_scorer_sql(db: Any) -> tuple[str, Columns, Columns]:
    """The game's and its series' columns, then whether the user scores or
    directs the series (parameters: user, user, game)."""
    q = db.ops.quote_name
    games, series = Columns(db, Game, "g"), Columns(db, Series, "s")
    link = q(Game._meta.get_field("series").column)
    sql = (f"SELECT {games.sql}, {series.sql}, {_roles_sql(db, 's', '%s')} FROM {q(Game._meta.db_table)} g "
           f"JOIN {q(Series._meta.db_table)} s ON s.{q(Series._meta.pk.column)} = g.{link} "
           f"WHERE g.{q(Game._meta.pk.column)} = %s")
    return sql, games, series


def _game_in_session(db: Any, user: str) -> tuple[str, str] | None:
    """The part of the session's statement that carries a game
    (``league.sessions``): the same columns as ``_game_for_scorer_sql``, in
    the same order, every one NULL when the game is gone; the user is the
    session's user row under the alias ``user`` (one parameter: the game)."""
    if for_read(Game) is not db or for_read(Series) is not db:
        return None
    q = db.ops.quote_name
    games, series = Columns(db, Game, "g"), Columns(db, Series, "gs")
    users = get_user_model()._meta
    link = q(Game._meta.get_field("series").column)
    select = f"{games.sql}, {series.sql}, {_roles_sql(db, 'gs', f'{user}.{q(users.pk.column)}')}"
    joins = (f" LEFT JOIN {q(Game._meta.db_table)} g ON g.{q(Game._meta.pk.column)} = %s"
             f" LEFT JOIN {q(Series._meta.db_table)} gs ON gs.{q(Series._meta.pk.column)} = g.{link}")
    return select, joins


carry_game(_game_in_session)


def _as_event(series: Series) -> Series:
    if series.kind != Series.Kind.TOURNAMENT and not Event.objects.filter(series=series).exists():
        raise Http404("this series is a league; make it a tournament in the admin to run an event day")
    return series


def event_for_director(request: HttpRequest, slug: str) -> Series:
    """The series, for its directors, if it is run as an event (else 404)."""
    return _as_event(series_for_director(request, slug))


def event_for_scorer(request: HttpRequest, slug: str) -> Series:
    """The series, for its scorers and directors, if it is run as an event:
    the dashboard, where a scorer enters a table's end scores."""
    return _as_event(series_for_scorer(request, slug))


def event_for_anyone(slug: str) -> tuple[Series, Event]:
    """The series and its tournament, for anyone (the public pages), if it is
    run as an event (else 404)."""
    series = get_object_or_404(Series, slug=slug)
    event = Event.objects.filter(series=series).first()
    if event is None:
        raise Http404("this series is not run as an event")
    return series, event
