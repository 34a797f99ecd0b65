"""Ratings in the league: a named, versioned choice, recomputed from the stored
results on the first read under the results stamps (never on the save path),
the table, a player's history with how each step was computed, the CSV; and
merging two player rows of one person."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.urls import reverse

from league import services
from league.errors import ServiceError
from league.models import Game, Player, PlayerMerge, Rating, Registration, Seat, Series, SignOff
from league.models.ratings import check_parameters
from league.standings.ratings import cache_key, rating_games, rating_steps, rating_table
from tests.factories import make_game, make_player, make_players, make_series, play, ron

pytestmark = pytest.mark.django_db


def finished_game(series, players):
    """Seat 0 rons seat 1 (dealer, 3 han 40 fu), then seat 2 rons seat 3 (1 han 30 fu); finished early."""
    game = make_game(series, players)
    play(game, [ron(1, 0, 3, 40), ron(3, 2, 1, 30)])
    return services.finish_game(game=game, end=Game.End.EARLY)


def make_rating(series, engine="tenhou", **fields) -> Rating:
    rating = Rating.objects.create(name=fields.pop("name", "Club R"), slug=fields.pop("slug", f"r-{engine}"),
                                   engine=engine, **fields)
    rating.series.set(series)
    return rating


def test_rating_table_tenhou_r_from_the_stored_places():
    series = make_series()
    players = make_players()
    game = finished_game(series, players)
    places = dict(Seat.objects.filter(game=game).values_list("player_id", "place"))
    assert sorted(places.values()) == [1, 2, 3, 4]
    rating = make_rating([series])
    table = rating_table(rating)
    expected = {1: 1530_000, 2: 1510_000, 3: 1490_000, 4: 1470_000}
    assert {r.player_id: r.value for r in table.rows} == {p: expected[k] for p, k in places.items()}
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]
    first = table.rows[0]
    assert rating_steps(rating, first.player_id)[0].line.startswith(f"{series.name} #{game.pk}: place 1 of 4, base 30; ")


def test_rating_counts_only_its_series_and_only_counted_games():
    a, b = make_series(), make_series()
    players = make_players()
    finished_game(a, players)
    finished_game(b, players)
    make_game(a, players)  # in progress: not counted
    assert len(rating_games([a.pk])) == 1
    assert {r.results for r in rating_table(make_rating([a, b])).rows} == {2}


def test_rating_is_computed_on_the_first_read_not_on_the_save():
    series = make_series()
    players = make_players()
    rating = make_rating([series])
    finished_game(series, players)
    key = cache_key(rating)
    assert cache.get(key) is None  # the save computed nothing
    first = rating_table(rating)
    assert cache.get(key) is not None
    assert rating_table(rating) is not None and rating_table(rating).computed_at == first.computed_at
    finished_game(series, players)  # a new result: a new key, recomputed on its first read
    assert cache_key(rating) != key and cache.get(cache_key(rating)) is None
    assert rating_table(rating).rows[0].results == 2


def test_rating_recomputation_is_deterministic():
    series = make_series()
    players = make_players(6)
    for i in range(3):
        finished_game(series, players[i:i + 4])
    rating = make_rating([series], engine="skill")
    first = rating_table(rating)
    steps = {p.pk: rating_steps(rating, p.pk) for p in players}
    cache.clear()
    again = rating_table(rating)
    assert first.rows == again.rows and steps == {p.pk: rating_steps(rating, p.pk) for p in players}
    assert sum(len(v) for v in steps.values()) == 12


def test_rating_version_moves_with_every_edit_and_series_change():
    series = make_series()
    rating = make_rating([series])
    v = Rating.objects.get(pk=rating.pk).version
    rating.parameters = {"initial": 1000}
    rating.save()
    assert rating.version == v + 1
    rating.series.add(make_series())
    assert Rating.objects.get(pk=rating.pk).version == v + 2


@pytest.mark.parametrize(("engine", "value", "message"), [
    ("tenhou", {"initial": "x"}, "parameters: initial must be a number"),
    ("tenhou", {"initial": -1}, "parameters: initial must be between 0 and 10000"),
    ("skill", {"beta": 1}, "parameters: beta is not a parameter of this engine"),
    ("mers", {"ties": "worst"}, 'parameters: ties must be "best" or "average"'),
    ("mers", [], "parameters: must be a JSON object"),
])
def test_rating_parameters_refused_naming_the_parameter(engine, value, message):
    with pytest.raises(ValidationError) as err:
        check_parameters(engine, value)
    assert err.value.messages == [message]


def test_rating_parameters_defaults_filled():
    assert check_parameters("skill", {}) == {"mu": 25.0, "sigma": 25 / 3}
    assert check_parameters("mers", {"ties": "average"}) == {"ties": "average"}


def test_rating_pages_table_history_csv_and_index(client):
    series = make_series()
    players = make_players()
    finished_game(series, players)
    rating = make_rating([series], name="Club R")
    page = client.get(reverse("rating", args=[rating.slug])).content.decode()
    assert "Club R" in page and "1530.00" in page and "last computed" in page
    best = rating_table(rating).rows[0]
    history = client.get(reverse("rating-history", args=[rating.slug, best.player_id])).content.decode()
    assert "<svg" in history and "place 1 of 4, base 30" in history
    assert client.get(reverse("rating-history", args=[rating.slug, make_player().pk])).status_code == 404
    response = client.get(reverse("rating-csv", args=[rating.slug]))
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["rank", "player", "rating", "results", "last played", "computed", "player id"]
    assert rows[1][:4] == ["1", best.name, "1530", "1"] and rows[1][6] == str(best.player_id)
    assert "Club R" in client.get(reverse("ratings")).content.decode()


def test_rating_page_in_japanese(client):
    series = make_series()
    finished_game(series, make_players())
    rating = make_rating([series])
    page = client.get(reverse("rating", args=[rating.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "最終計算" in page
    best = rating_table(rating).rows[0]
    history = client.get(reverse("rating-history", args=[rating.slug, best.player_id]),
                         HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "1位（4人中）、順位点 30" in history


# -- one person, one player -------------------------------------------------------------------------------


def test_merge_moves_every_result_and_keeps_the_audit():
    series = make_series()
    players = make_players()
    finished_game(series, players)
    keep = make_player("Aoi Tanaka", ema_number="04010001")
    old = players[0]
    other = make_series()
    finished_game(other, [keep, *make_players(3)])
    seats = Seat.objects.filter(player=old).count()
    record = services_merge(keep, old, reason="same person, two spellings")
    assert not Player.objects.filter(pk=old.pk).exists()
    assert Seat.objects.filter(player=keep).count() == seats + 1
    assert record.moved == {"seats": seats, "signoffs": 0, "registrations": 0}
    assert (record.merged_name, record.into_id, record.reason) == (old.name, keep.pk, "same person, two spellings")
    assert PlayerMerge.objects.count() == 1
    rating = make_rating([series, other])
    assert rating_table(rating).row(keep.pk).results == 2


def services_merge(keep, merge, reason="one person"):
    from league.services.players import merge_players

    return merge_players(keep=keep, merge=merge, reason=reason)


def test_merge_refuses_two_people_with_different_ema_numbers():
    a = make_player("Ken Sato", ema_number="04010002")
    b = make_player("Ken Satou", ema_number="04010003")
    with pytest.raises(ServiceError) as err:
        services_merge(a, b)
    assert err.value.code == "different_ema_numbers" and err.value.field == "merge"
    assert Player.objects.filter(pk=b.pk).exists() and not PlayerMerge.objects.exists()


def test_merge_refuses_two_rows_at_one_game_and_changes_nothing():
    series = make_series()
    players = make_players()
    finished_game(series, players)
    with pytest.raises(ServiceError) as err:
        services_merge(players[0], players[1])
    assert err.value.code == "same_game"
    assert Seat.objects.filter(player=players[1]).count() == 1 and not PlayerMerge.objects.exists()


def test_merge_fills_blank_ema_number_and_needs_a_reason():
    a, b = make_player("Mio"), make_player("Mio K.", ema_number="04010009", country="JP")
    with pytest.raises(ServiceError) as err:
        services_merge(a, b, reason=" ")
    assert (err.value.code, err.value.field) == ("reason_required", "reason")
    services_merge(a, b)
    a.refresh_from_db()
    assert (a.ema_number, a.country) == ("04010009", "JP")
    assert not Registration.objects.exists() and not SignOff.objects.exists()


def test_merge_from_the_admin_asks_which_row_to_keep_and_why(admin_client):
    series = make_series()
    players = make_players()
    finished_game(series, players)
    duplicate = make_player("Player dup")
    url = reverse("admin:league_player_changelist")
    chosen = {"action": "merge_players", "_selected_action": [players[0].pk, duplicate.pk]}
    page = admin_client.post(url, chosen)
    assert page.status_code == 200 and b'name="reason"' in page.content
    admin_client.post(url, {**chosen, "apply": "1", "keep": str(players[0].pk), "reason": "typed twice"})
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    merge = PlayerMerge.objects.get()
    assert (merge.into_id, merge.merged_name, merge.reason, merge.username) == (
        players[0].pk, "Player dup", "typed twice", "admin")
    assert Seat.objects.filter(player=players[0]).count() == 1


# -- on the demo: an event with a substitute, a cup ------------------------------------------------------


def test_demo_substitute_seat_rates_the_registered_player_as_the_event_says(demo_league):
    """The demo tournament's rule is "fixed": the registered player is rated as last at that table; the
    substitute's own player row is not rated for it. With the rating's own rule "real", the seat's place."""
    from league.models import RoundSeat
    from league.ratings import SubstituteRule

    event = Series.objects.get(slug="demo-tournament")
    sub = RoundSeat.objects.filter(round__series=event, substitute__isnull=False, table__game__status="finished") \
        .select_related("registration", "substitute", "table").first()
    assert sub is not None, "the demo plays a substitute"
    game = next(g for g in rating_games([event.pk]) if g.key.endswith(f"#{sub.table.game_id}"))
    seat = next(s for s in game.seats if s.substitute_for is not None)
    assert (seat.player, seat.substitute_for) == (sub.substitute.player_id, sub.registration.player_id)
    assert game.substitutes is SubstituteRule.FIXED
    fixed = make_rating([event], slug="sub-fixed")
    real = make_rating([event], slug="sub-real", substitutes=Rating.Substitutes.REAL)
    registered = sub.registration.player_id
    fixed_step = next(s for s in rating_steps(fixed, registered) if s.key == game.key)
    real_step = next(s for s in rating_steps(real, registered) if s.key == game.key)
    assert "place 4 of 4, base -30" in fixed_step.line
    assert f"place {seat.place} of 4" in real_step.line
    assert all(s.key != game.key for s in rating_steps(fixed, sub.substitute.player_id))


def test_demo_ema_ranking_over_the_event_and_the_cup_worked_from_their_ema_files(demo_league):
    from fractions import Fraction

    from django.utils import timezone

    from league.ratings.mers import age_factor, base_rank
    from league.services.stages import ema_export

    event = Series.objects.get(slug="demo-tournament")
    cup = Series.objects.filter(event__isnull=False).exclude(pk=event.pk).get()
    exports = [ema_export(event), ema_export(cup)]
    table = rating_table(make_rating([event, cup], engine="mers"))
    placed = [{p.player_id: p.place for p in e.players} for e in exports]
    both = set(placed[0]) & set(placed[1])
    once = (set(placed[0]) | set(placed[1])) - both
    rows = {r.player_id: r for r in table.rows}
    assert all(rows[p].value is None and rows[p].rank is None for p in once)
    assert both, "someone played both"
    today = timezone.localdate()  # the demo's events are dated: their age counts from today
    for p in both:
        parts = [(base_rank(placed[k][p], e.weight.player_count), e.weight.total * age_factor(e.event.last_day, today))
                 for k, e in enumerate(exports)]
        if any(w == 0 for _, w in parts):  # one result left of non-zero weight: not ranked
            assert rows[p].value is None
            continue
        top = sum(Fraction(b) * w for b, w in parts)
        weight = sum(w for _, w in parts)
        a, b = top / (weight + 3), top / (weight + 2)  # filled to five results, and to four
        assert rows[p].value == int((a + b) / 2 * 1000 + Fraction(1, 2)), p
