"""Default orderings stay on a model's own columns, and the admin lists keep
the series-first order those orderings used to give them.

A default ordering that names a foreign key ("hand") sorts by the related
model's ordering: every read of wins, the prefetch behind each replay, joined
hands, games and series and sorted over the join (issue 22)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import models
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Game, Hand, Seat, Win
from tests.factories import hanchan_passing_deal, make_game, make_players, make_series, play

LEAGUE_MODELS = sorted(apps.get_app_config("league").get_models(), key=lambda m: m.__name__)


def ordering_fields(model: type[models.Model]) -> list[tuple[str, models.Field]]:
    """(entry, field) for each entry of the model's default ordering."""
    out = []
    for entry in model._meta.ordering:
        assert isinstance(entry, str), f"{model.__name__}: {entry!r} is not a column name"
        name = entry.removeprefix("-")
        assert "__" not in name, f"{model.__name__}: {entry!r} orders by another table"
        out.append((entry, model._meta.pk if name == "pk" else model._meta.get_field(name)))
    return out


@pytest.mark.parametrize("model", LEAGUE_MODELS, ids=lambda m: m.__name__)
def test_default_ordering_names_only_own_columns(model: type[models.Model]) -> None:
    for entry, field in ordering_fields(model):
        assert field.concrete and field.model is model, f"{model.__name__}: {entry!r} is not a column of its table"
        # "hand" would sort by Hand's own ordering; "hand_id" is the column.
        assert not field.is_relation or entry.removeprefix("-") == field.attname, (
            f"{model.__name__}: order by {field.attname!r}, not {entry!r}, or every read joins {field.related_model.__name__}"
        )


@pytest.mark.parametrize("model", LEAGUE_MODELS, ids=lambda m: m.__name__)
def test_default_read_joins_no_table(model: type[models.Model]) -> None:
    assert " JOIN " not in str(model._default_manager.all().query)


@pytest.mark.parametrize("model", [Seat, Hand, Win], ids=lambda m: m.__name__)
def test_rows_read_per_game_come_in_index_order(model: type[models.Model]) -> None:
    """A game's seats, hands and wins are read by replays and pages: an index
    leads with the ordering's columns, so the database reads them in order."""
    columns = [field.column for _, field in ordering_fields(model)]
    indexed = [
        [model._meta.get_field(f).column for f in index.fields]
        for index in [*model._meta.indexes, *model._meta.constraints]
        if isinstance(index, models.Index | models.UniqueConstraint) and index.fields and not index.condition
    ]
    assert any(fields[: len(columns)] == columns for fields in indexed), (columns, indexed)


# -- the admin lists across series ---------------------------------------------


def _game_of(row: Any) -> Game:
    return row if isinstance(row, Game) else row.hand.game if isinstance(row, Win) else row.game


@pytest.mark.django_db
@pytest.mark.parametrize("model", ["game", "seat", "hand", "win", "penalty"])
def test_admin_lists_newest_series_first_then_round(client: Client, model: str) -> None:
    # The older series is created first: its ids are lower, so an order by
    # series id alone would list it first.
    spring = make_series(name="Spring", start_date=datetime.date(2024, 3, 1))
    autumn = make_series(name="Autumn", start_date=datetime.date(2024, 9, 1))
    players = make_players(4)
    for series, round_number in [(spring, 2), (spring, 1), (autumn, 1)]:
        game = make_game(series, players, round_number=round_number)
        play(game, hanchan_passing_deal()[:2])
        services.add_penalty(game=game, seat=0, points=-5000, reason="slow")
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw"))

    rows = client.get(reverse(f"admin:league_{model}_changelist")).context["cl"].result_list

    listed = [(_game_of(r).series.name, _game_of(r).round_number) for r in rows]
    assert [name for name, _ in listed] == sorted((name for name, _ in listed), key=["Autumn", "Spring"].index)
    assert [n for name, n in listed if name == "Spring"] == sorted(n for name, n in listed if name == "Spring")
    assert {n for name, n in listed if name == "Spring"} == {1, 2}
