"""A damaged series header is refused whole (issue 29, finding 7): each
mutation of the first line of an exported event that once ended in a
traceback, or stored what a page or an export later broke on, now stops the
import with the field at fault and its code, and nothing is stored. The same
checks hold on SQLite and PostgreSQL: every restored row passes its model's
bounds (league.db_bounds) before it is saved."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from league import game_records
from league.models import Player, Registration, Series
from tests.league.test_event_records import finished_event

pytestmark = pytest.mark.django_db

Header = dict[str, Any]


def setting(*path: Any, value: Any) -> Callable[[Header], None]:
    def mutate(header: Header) -> None:
        target = header
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def first_round_after_last(header: Header) -> None:
    header["stages"][-1]["first_round"] = header["stages"][-1]["last_round"] + 1


def entries_of(value: int) -> Callable[[Header], None]:
    def mutate(header: Header) -> None:
        header["stages"][-1]["entries"][0][1] = value  # the seed
    return mutate


def playoff_place(value: int) -> Callable[[Header], None]:
    def mutate(header: Header) -> None:
        header["playoffs"][0][2] = value
    return mutate


MUTATIONS = [
    # (what, mutation, code, field at fault)
    ("player NUL", setting("registrations", 0, "player", value="Ai\x00ko"), "invalid_value", "registrations[0].player"),
    ("player 10,000 characters", setting("registrations", 0, "player", value="A" * 10_000), "invalid_value",
     "registrations[0].player"),
    ("first name NUL", setting("registrations", 0, "first_name", value="Ai\x00"), "invalid_value",
     "registrations[0].first_name"),
    ("code NUL", setting("registrations", 0, "code", value="AB\x00CD"), "invalid_value", "registrations[0].code"),
    ("checked in at year 9999", setting("registrations", 0, "checked_in_at", value="9999-12-31T23:59:59-12:00"),
     "invalid_value", "registrations[0].checked_in_at"),
    # One reader of times for records and headers (league.db_bounds.read_moment), naming the field.
    ("dropped at without its offset", setting("registrations", 0, "dropped_at", value="2026-05-01T10:00:00"),
     "invalid_value", "registrations[0].dropped_at"),
    ("round published at a number", setting("rounds", 0, "published_at", value=20260501), "invalid_value",
     "rounds[0].published_at"),
    ("registration number 1.5", setting("registrations", 0, "number", value=1.5), "invalid_value",
     "registrations[0].number"),
    ("round number 10**9", setting("rounds", 0, "number", value=10**9), "invalid_value", "rounds[0].number"),
    ("round number 10**20", setting("rounds", 0, "number", value=10**20), "invalid_value", "rounds[0].number"),
    ("time limit 10**12", setting("rounds", 0, "time_limit", value=10**12), "invalid_value", "rounds[0].time_limit"),
    ("extra minutes 10**12", setting("rounds", 0, "tables", 0, "extra_minutes", value=10**12), "invalid_value",
     "rounds[0].tables[0].extra_minutes"),
    ("unknown round status", setting("rounds", 0, "status", value="finished"), "invalid_value", "rounds[0].status"),
    ("unknown seated_by", setting("rounds", 0, "seated_by", value="chaos"), "invalid_value", "rounds[0].seated_by"),
    ("stage entry seed 10**30", entries_of(10**30), "invalid_value", "stages[1].entries[0].seed"),
    ("playoff place 10**20", playoff_place(10**20), "invalid_value", "playoffs[0].place"),
    ("hidden from round 40000", setting("tournament", "hidden_from_round", value=40_000), "invalid_value",
     "tournament.hidden_from_round"),
    ("substitute score 10**15", setting("tournament", "substitute_score", value=10**15), "invalid_value",
     "tournament.substitute_score"),
    ("min games 10**12", setting("min_games", value=10**12), "invalid_value", "series.min_games"),
    ("stage name a number", setting("stages", 1, "name", value=5), "invalid_value", "stages[1].name"),
    ("cut of 6", setting("stages", 1, "top", value=6), "invalid_top", "stages[1].top"),
    ("first round after the last", first_round_after_last, "invalid_rounds", "stages[1].last_round"),
    ("kind league", setting("kind", value="league"), "invalid_value", "kind"),
    ("end before start", setting("end_date", value="2026-05-01"), "invalid_value", "end_date"),
    ("ema_days 100", setting("event_rules", "ema_days", value=100), "invalid_value", "event_rules.ema_days"),
    ("version true", setting("tenbou_series", value=True), "unsupported_version", "tenbou_series"),
]


@pytest.fixture(scope="module")
def exported(django_db_setup: Any, django_db_blocker: Any) -> list[str]:
    """The exported event, made once for the module (and rolled back after it)."""
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            lines = list(game_records.series_lines(finished_event()))
            transaction.set_rollback(True)
    return lines


@pytest.mark.parametrize(("what", "mutate", "code", "field"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_damaged_header_is_refused_naming_the_field(exported: list[str], what: str, mutate, code: str,
                                                      field: str) -> None:
    header = json.loads(exported[0])
    mutate(header)
    players = Player.objects.count()
    with pytest.raises(game_records.ImportRefused) as err:
        game_records.import_lines([json.dumps(header), *exported[1:]], slug="copy")
    assert [(e.line, e.code, e.field) for e in err.value.errors] == [(1, code, field)], what
    assert not Series.objects.filter(slug="copy").exists()
    assert Player.objects.count() == players and not Registration.objects.filter(series__slug="copy").exists()


def test_the_header_as_exported_imports(exported: list[str]) -> None:
    report = game_records.import_lines(exported, slug="copy")
    assert report.games == 17 and Registration.objects.filter(series__slug="copy").count() == 16
