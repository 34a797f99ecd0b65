"""The read API, ``/api/v1/``: JSON for everything the public pages show, built
with django-ninja (the schema in docs/api/openapi-v1.json is made from
``league.api.schemas``; ``manage.py api_schema`` writes it again).

Each answer reads what its page reads (the one read model, ``league.standings``;
the game's replay; the event's tables) and shows only what the page shows:
the rounds a director hides are left out as the pages leave them out, and no
staff-only field (EMA numbers, PINs, short-link codes, e-mail) is ever read
into an answer. Every answer is served whole from the page cache
(``league.views.cached``) under the same stamp as its page, with a strong ETag
and 304s; CORS and the per-address limit are ``league.middleware``'s.
"""

from __future__ import annotations

import math
from typing import Any

from django.db.models import Count, Q, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from ninja import NinjaAPI, Query
from ninja.errors import ValidationError
from pydantic import BaseModel

from league import stamps, stats
from league.api import schemas as s
from league.db_bounds import ROW_ID
from league.engine_words import unreplayable_text
from league.entry.pricing import Unreplayable
from league.models import Game, Player, Round, Series, StandingRow, Standings
from league.models.event import event_of, hidden_from, is_event, table_states
from league.standings import event as standings
from league.stats import across_series_rows
from league.views.cached import also_serve, current_standings, public_page, series_for_game, series_for_slug
from league.views.params import whole

GAMES_PER_PAGE = 100

api = NinjaAPI(
    title="Tenbou read API", version="1", urls_namespace="api-v1", docs_url=None,
    description="Public data of a Tenbou site: series, standings, games hand by hand, players, events, "
                "stages and teams. Points are integers in thousandths of a point; see docs/api.md.",
)


def _json(answer: BaseModel) -> HttpResponse:
    return HttpResponse(answer.model_dump_json(), content_type="application/json")


def _error(status: int, code: str, message: str, field: str | None = None) -> HttpResponse:
    body = s.ErrorOut(error=s.Error(code=code, message=message, field=field)).model_dump_json()
    return HttpResponse(body, status=status, content_type="application/json")


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(404, "not_found", str(exc) or "not found")


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    first = exc.errors[0] if exc.errors else {}
    loc = [str(p) for p in first.get("loc", ()) if p not in ("query", "path")]
    name = ".".join(loc) or None
    return _error(400, "invalid", f"{name or 'request'}: {first.get('msg', 'invalid')}", name)


def _series(slug: str) -> Series:
    return get_object_or_404(Series.objects.select_related("event"), slug=slug)


def _slug(slug: str, **kwargs: Any) -> int | None:
    return series_for_slug(slug)


def _page_param(value: str) -> str | None:
    """``page`` as the cache key holds it. A page that is not a whole number
    keys an entry of its own that is never filled (only a 200 is cached), so
    it reaches the view and gets its 400, never page 1."""
    return whole(value) or "invalid"


def _row_id(value: int) -> int:
    if ROW_ID.problem(value):  # no row has it, and the database would refuse to compare it
        raise Http404("no such id")
    return value


ERRORS: dict[int, type[BaseModel]] = {404: s.ErrorOut, 400: s.ErrorOut, 429: s.ErrorOut}


# -- series --------------------------------------------------------------------------------------------


@api.get("/series", response={200: s.SeriesList}, summary="Every series", tags=["series"])
@public_page(lambda: stamps.EVERYTHING, {})
def series_list(request: HttpRequest) -> HttpResponse:
    """Every series, as the series list shows them, newest first."""
    rows = Series.objects.select_related("event").annotate(
        finished=Count("games", filter=Q(games__status=Game.Status.FINISHED)),
        live=Count("games", filter=Q(games__status=Game.Status.IN_PROGRESS)),
    ).order_by("-start_date", "name")
    return _json(s.SeriesList(series=[s.SeriesOut(
        id=r.pk, slug=r.slug, name=r.name, kind=r.kind, start_date=r.start_date, end_date=r.end_date,
        is_event=event_of(r) is not None, finished_games=r.finished, live_games=r.live,
        results_hidden_from_round=hidden_from(r), page=r.get_absolute_url(),
    ) for r in rows]))


def _row(r: StandingRow) -> s.StandingRowOut:
    return s.StandingRowOut(
        rank=r.rank, tied=r.tied, player_id=r.player_id, name=r.name, games=r.games, points=r.total,
        games_sum=r.games_sum, average_points=r.average_points if r.games else 0, place_sum=r.place_sum,
        places=list(r.places), best=r.best, worst=r.worst, separated_by=r.separated_by, stage=r.stage)


def _standings(series: Series) -> s.StandingsOut:
    """The standings the public sees: an event's without the rounds the director
    hides (the series page then sends visitors to the event page, which shows
    exactly these), a league's table as the series page shows it."""
    through = hidden = None
    staged = False
    table: Standings
    if is_event(series):
        found = standings.event_standings(series, public=True)
        table, through, hidden, staged = found.standings, found.through_round, found.hidden_from, found.staged
    else:
        table = current_standings(series)
    return s.StandingsOut(
        series=series.slug, is_event=is_event(series), staged=staged, through_round=through,
        results_hidden_from_round=hidden, ranked=[_row(r) for r in table.ranked],
        unranked=[_row(r) for r in table.unranked], refused_games=_refused_games(series))


def _refused_games(series: Series, hidden: bool = False) -> list[s.RefusedGameOut]:
    """The counted games the standings take as last settled (``stats.refused_games``)."""
    return [] if hidden else [s.RefusedGameOut(game=g.game_id, round=g.round, table=g.table, **dict(_refused(g.refused)))
                              for g in stats.refused_games(series, public=True)]


@api.get("/series/{slug}/standings", response={200: s.StandingsOut, **ERRORS}, summary="A series' standings",
         tags=["series"])
@public_page(_slug, {}, results=True)
def series_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The series' standings: the one read model every page shows, stage-aware
    (an event with a cut ranks by the stage each player ended in), with the
    tie-break rule that separated each row from the one above."""
    return _json(_standings(_series(slug)))


# -- games -----------------------------------------------------------------------------------------------


def _seats(game: Game) -> list[s.SeatOut]:
    finished = game.is_finished
    return [s.SeatOut(seat=seat.seat, player_id=seat.player_id, name=seat.player.name,
                      end_score=seat.end_score if finished else None, points=seat.points if finished else None,
                      place=seat.place if finished else None)
            for seat in sorted(game.seats.all(), key=lambda x: x.seat)]


def _summary(game: Game, slug: str) -> dict[str, Any]:
    return {"id": game.pk, "series": slug, "round": game.round_number, "table": game.table, "status": game.status,
            "started_at": game.started_at, "finished_at": game.finished_at, "seats": _seats(game),
            "page": reverse("game-detail", args=[game.pk])}


def _visible_games(series: Series) -> Any:
    games = Game.objects.filter(series=series)
    hidden = hidden_from(series)
    return games if hidden is None else games.filter(round_number__lt=hidden)


@api.get("/series/{slug}/games", response={200: s.GamesPage, **ERRORS}, summary="A series' games, by page",
         tags=["games"])
@public_page(_slug, {"page": _page_param})
def series_games(request: HttpRequest, slug: str, page: int = Query(1, ge=1, le=2**31 - 1)) -> HttpResponse:
    """The series' games, oldest first (by id, so a new game lands on the last
    page and never moves another), ``GAMES_PER_PAGE`` a page; rounds the
    director hides are left out."""
    series = _series(slug)
    games = _visible_games(series).order_by("pk")
    count = games.count()
    pages = max(1, math.ceil(count / GAMES_PER_PAGE))
    rows = list(games.prefetch_related("seats__player")[(page - 1) * GAMES_PER_PAGE:page * GAMES_PER_PAGE])
    nxt = f"{reverse('api-v1:series_games', args=[slug])}?page={page + 1}" if page < pages else None
    return _json(s.GamesPage(count=count, page=page, per_page=GAMES_PER_PAGE, pages=pages, next=nxt,
                             games=[s.GameSummary(**_summary(g, slug)) for g in rows]))


@api.get("/games/{int:game_id}", response={200: s.GameOut, **ERRORS}, summary="A game, hand by hand",
         tags=["games"])
@public_page(lambda game_id: series_for_game(game_id), {})
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game as its page shows it: seats, every hand (table points), the
    settlement (thousandths) and penalties. A game in a round the director
    hides is not found, as its page sends visitors to the event page."""
    game = get_object_or_404(Game.objects.select_related("series__event"), pk=_row_id(game_id))
    hidden = hidden_from(game.series)
    if hidden is not None and game.round_number >= hidden:
        raise Http404("the results of this round are hidden")
    prefetch_related_objects([game], *stats.replay_prefetches(), "seats__player")
    result, refused = game.replay()
    seats = {seat.seat: seat for seat in game.seats.all()}
    settlement = []
    if result.settlement is not None:
        st, rules = result.settlement, result.rules
        settlement = sorted((s.SettlementOut(
            seat=i, player_id=seats[i].player_id, place=st.places[i], end_score=st.final_scores[i],
            base=st.final_scores[i] - rules.return_points, uma=st.uma[i], oka=st.oka[i], penalty=st.penalties[i],
            points=st.points[i]) for i in sorted(seats)), key=lambda r: (r.place, r.seat))
    hands = [s.HandOut(number=h.number, round=h.round_label, dealer=h.dealer, honba=h.honba,
                       riichi_sticks=h.riichi_sticks, riichi=list(h.riichi), deltas=list(h.deltas),
                       scores=list(h.scores), description=str(h.text), note=h.note)
             for h in stats.hand_log(result)]
    return _json(s.GameOut(
        **_summary(game, game.series.slug), end=game.end, hands=hands, settlement=settlement,
        penalties=[s.PenaltyOut(seat=p.seat, points=p.points, reason=p.reason) for p in result.penalties if p.points],
        refused=_refused(refused) if refused is not None else None))


def _refused(refused: Unreplayable) -> s.RefusedOut:
    """A stored hand the engine refuses: a game's ``refused``, a refused game's hand."""
    return s.RefusedOut(number=refused.number, code=refused.code, message=refused.message,
                        text=unreplayable_text(refused))


# -- players ---------------------------------------------------------------------------------------------


@api.get("/players/{int:player_id}", response={200: s.PlayerOut, **ERRORS}, summary="A player across series",
         tags=["players"])
@public_page(lambda player_id: stamps.EVERYTHING, {})
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    """Every series the player has a counted game in, newest first, with their
    totals there and overall: the player's across-series page."""
    player = get_object_or_404(Player, pk=_row_id(player_id))
    found = across_series_rows(player)
    if found is None:
        raise Http404(f"{player.name} has no counted game yet")
    rows, overall = found
    return _json(s.PlayerOut(
        id=player.pk, name=player.name,
        series=[s.PlayerSeriesOut(series=r["slug"], name=r["name"], kind=r["kind"], start_date=r["start_date"],
                                  games=r["games"], points=r["total"], average_points=r["average_points"],
                                  place_sum=r["place_sum"], places=r["places"], results_hidden=r["hidden"])
                for r in rows],
        games=overall["games"], points=overall["total"], average_points=overall["average_points"],
        place_sum=overall["place_sum"], places=overall["places"]))


# -- an event -------------------------------------------------------------------------------------------


def _event(slug: str) -> Series:
    series = _series(slug)
    if event_of(series) is None:
        raise Http404("this series is not run as an event")
    return series


def _current(published: list[Round]) -> Round | None:
    # The event page's choice: the newest published round not started, else the newest started.
    waiting = [r for r in published if not r.is_started]
    return waiting[0] if waiting else (published[-1] if published else None)


@api.get("/series/{slug}/event", response={200: s.EventOut, **ERRORS}, summary="An event: rounds, tables, clock",
         tags=["events"])
@public_page(_slug, {})
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The event: its public rounds, the current round's tables (who sits
    where and how each table's game stands: scores only where the round's
    results may be seen), the clock's end and the public standings. Cached
    under the series' stamp, which every hand moves (the tables' state)."""
    series = _event(slug)
    event = series.event
    published = list(series.event_rounds.filter(status__in=[Round.Status.PUBLISHED, Round.Status.STARTED])
                     .order_by("number"))
    current = _current(published)
    visible = current is not None and event.round_visible(current.number)
    tables = []
    # The state is what the table's game says; whether it is over time is the clock's to say (ends_at).
    for t in table_states(current, now=timezone.now()) if current is not None else []:
        tables.append(s.TableOut(
            number=t.number, state="playing" if t.state == "over_time" else t.state,
            game=t.game.pk if t.game else None, hand=t.hand if visible else "", hands=t.hands, ends_at=t.ends_at,
            extra_minutes=t.extra_minutes,
            seats=[s.TableSeatOut(seat=i, number=seat.number, name=seat.name, substitute_for=seat.substitute_for,
                                  score=seat.score if visible else None, points=seat.points if visible else None,
                                  place=seat.place if visible else None)
                   for i, seat in enumerate(t.seats)], refused=_refused(t.refused) if visible and t.refused is not None else None))
    running = current is not None and current.clock_running
    return _json(s.EventOut(
        series=series.slug, name=series.name, rounds_planned=event.rounds,
        rounds=[s.RoundOut(number=r.number, status=r.status, published_at=r.published_at, started_at=r.started_at,
                           time_limit=r.time_limit, ends_at=r.ends_at, clock_running=r.clock_running,
                           finished=r.is_finished) for r in published],
        current_round=current.number if current else None,
        clock_ends_at=current.ends_at if running and current is not None else None, tables=tables,
        results_hidden_from_round=event.hidden_from_round, standings=_standings(series)))


@api.get("/series/{slug}/stages", response={200: s.StagesOut, **ERRORS}, summary="An event's stages",
         tags=["events"])
@public_page(_slug, {}, results=True)
def event_stages(request: HttpRequest, slug: str) -> HttpResponse:
    """Every stage's standings with its cut line and the rule that drew it,
    and the whole event's order: the stages page. Empty while the director
    hides results, as the page is closed then."""
    series = _event(slug)
    hidden = series.event.results_hidden
    results = None if hidden else standings.event_results(series)
    tables = [] if results is None else standings.stage_tables(series, results)
    final = [] if results is None else standings.final_result(series, tables, results=results)
    return _json(s.StagesOut(
        series=series.slug, results_hidden=hidden, tiebreaks=standings.rules_of(series).tiebreak_list,
        stages=[s.StageOut(
            number=t.stage.number, name=t.stage.name, first_round=t.stage.first_round, last_round=t.stage.last_round,
            entry=t.stage.entry, carry=t.stage.carry, entrants_known=t.entrants_known, preview=t.preview,
            rounds_finished=t.rounds_finished, complete=t.complete, cut=t.cut, cut_rule=t.cut_rule,
            cut_tie=t.cut_tie,
            rows=[s.StageRowOut(
                rank=r.rank, tied=r.tied, player_id=r.player.player_id, number=r.player.number, name=r.player.name,
                seed=r.seed, carried=r.carried, stage_points=r.stage_points, total=r.total, games=r.games,
                places=list(r.places), separated_by=r.separated_by, goes_on=r.goes_on) for r in t.rows])
            for t in tables],
        final=[s.FinalRowOut(place=f.place, tied=f.tied, player_id=f.player.player_id, number=f.player.number,
                             name=f.player.name, total=f.total, stage=f.stage.name) for f in final],
        refused_games=_refused_games(series, hidden)))


@api.get("/series/{slug}/teams", response={200: s.TeamsOut, **ERRORS}, summary="An event's teams",
         tags=["events"])
@public_page(_slug, {}, results=True)
def event_teams(request: HttpRequest, slug: str) -> HttpResponse:
    """Teams ranked by the sum over rounds of their members' points (every
    member's, or the best K's): the teams page."""
    series = _event(slug)
    hidden = series.event.results_hidden
    rules = standings.rules_of(series)
    results = None if hidden else standings.event_results(series)
    teams = [] if results is None else standings.team_standings(series, results)
    numbers = {} if results is None else {p.id: p.number for p in results.players.values()}

    def member_points(reg: int) -> int:
        return sum(g.points for g in results.games.get(reg, [])) if results else 0

    return _json(s.TeamsOut(
        series=series.slug, results_hidden=hidden, scoring=rules.team_scoring,
        best=rules.team_best if rules.team_scoring == rules.TeamScoring.BEST else None,
        teams=[s.TeamOut(
            rank=t.rank, tied=t.tied, name=t.name, total=t.total,
            rounds=[s.TeamRoundOut(round=n, points=p, counted=[numbers[r] for r in t.counted.get(n, [])])
                    for n, p in sorted(t.by_round.items())],
            members=[s.TeamMemberOut(player_id=m.player_id, number=m.number, name=m.name, points=member_points(m.id))
                     for m in t.members]) for t in teams], refused_games=_refused_games(series, hidden)))


CACHED = (series_list, series_standings, series_games, game_detail, player_detail, event_detail, event_stages,
          event_teams)


def urls() -> tuple[list[Any], str, str]:
    """The API's URL patterns, for ``league/urls.py``; each operation is also
    registered with ``CachedPageMiddleware``, so a repeat is answered there."""
    patterns, app, namespace = api.urls
    by_name = {view.__name__: view for view in CACHED}
    for pattern in patterns:
        if pattern.name in by_name:
            also_serve(pattern.callback, by_name[pattern.name])
    return patterns, app, namespace
