"""Nothing a user holds breaks when the models are renamed (issue 33): a
database populated at ``0021_results_changes`` migrates forward across the
renames (Tournament -> Event, TournamentAudit -> EventAudit, AuditEntry ->
GameAudit, EntryKey -> SaveKey, StageEntry -> StageSeed) with every row, id
and field kept, and reads back through the new names and relations.

The rows are made through the historical models of the migration state, as
the database held them before the renames; the test then migrates the test
database back to the latest state, whatever happened. Where the run made its
test database from the models (the SQLite pass's ``--nomigrations``), the
test reads the real migrations and first records them as applied, since the
tables the models made are what the migrations give (``makemigrations
--check`` in CI); the renames then run backwards and forwards for real.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings

BEFORE = [("league", "0021_results_changes")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _real_migrations() -> Any:
    """The app's own migrations, even where the run turned them off; a test
    database the models made is recorded as at the latest migration."""
    with override_settings(MIGRATION_MODULES={}):
        executor = MigrationExecutor(connection)
        applied = executor.recorder.applied_migrations()
        if not any(app == "league" for app, _ in applied):
            for leaf in executor.loader.graph.leaf_nodes():
                for key in executor.loader.graph.forwards_plan(leaf):
                    if key not in applied:
                        executor.recorder.record_applied(*key)
                        applied[key] = True
        yield


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _populate(apps: Any) -> dict[str, Any]:
    """An event with two registrations, a round with its table and seats, a
    game on that table with an audit row and a save key, the event's audit
    row, and a cut stage with its seeds: one of every renamed row."""
    at = datetime.datetime(2026, 5, 16, 10, 0, tzinfo=datetime.UTC)
    Series = apps.get_model("league", "Series")
    Player = apps.get_model("league", "Player")
    series = Series.objects.create(name="Utrecht Open", slug="utrecht", kind="tournament",
                                   rules={"preset": "ema-2016"}, version=7)
    players = [Player.objects.create(name=f"Player {n}") for n in range(1, 5)]
    tournament = apps.get_model("league", "Tournament").objects.create(
        series=series, rounds=6, seed=42, time_limit=75, hidden_from_round=5, substitute_score=-10000)
    Registration = apps.get_model("league", "Registration")
    regs = [Registration.objects.create(series=series, player=p, number=n, first_name="Player", last_name=str(n),
                                        code=f"ABCDE{n + 1}", country="NL")
            for n, p in enumerate(players, start=1)]
    rnd = apps.get_model("league", "Round").objects.create(series=series, number=1, status="started",
                                                           seated_by="pregenerated", started_at=at)
    game = apps.get_model("league", "Game").objects.create(series=series, round_number=1, table="1",
                                                          rules={"preset": "ema-2016"}, started_at=at)
    table = apps.get_model("league", "RoundTable").objects.create(round=rnd, number=1, game=game, extra_minutes=5)
    RoundSeat = apps.get_model("league", "RoundSeat")
    seats = [RoundSeat.objects.create(round=rnd, table=table, wind=w, registration=r) for w, r in enumerate(regs)]
    event_audit = apps.get_model("league", "TournamentAudit").objects.create(
        series=series, action="start_round", round_number=1, username="director", detail={"text": "Round 1 started"})
    game_audit = apps.get_model("league", "AuditEntry").objects.create(
        game=game, action="record_hand", hand_number=1, username="scorer", before=None, after={"outcome": "draw"})
    save_key = apps.get_model("league", "EntryKey").objects.create(
        game=game, key="k" * 32, action="record", hand_number=1, entry="d" * 64)
    Stage = apps.get_model("league", "Stage")
    Stage.objects.create(series=series, number=1, name="Qualifying", first_round=1, last_round=4)
    final = Stage.objects.create(series=series, number=2, name="Final", first_round=5, last_round=6, entry="top",
                                 top=4, carry="half", seating="snake", cut_at=at)
    StageEntry = apps.get_model("league", "StageEntry")
    stage_seeds = [StageEntry.objects.create(stage=final, registration=r, seed=n, previous_total=1000 * n,
                                             carried=500 * n)
                   for n, r in enumerate(regs, start=1)]
    return {"series": series, "tournament": tournament, "regs": regs, "round": rnd, "table": table, "seats": seats,
            "game": game, "event_audit": event_audit, "game_audit": game_audit, "save_key": save_key,
            "final": final, "stage_seeds": stage_seeds}


def _fields(row: Any, *names: str) -> tuple[Any, ...]:
    return tuple(getattr(row, n) for n in names)


def test_a_populated_database_migrates_across_the_renames_with_every_row_kept() -> None:
    latest = _latest()
    assert set(BEFORE) != set(latest)
    try:
        old_apps = _migrate(BEFORE)
        old = _populate(old_apps)
        counts = {name: old_apps.get_model("league", name).objects.count()
                  for name in ("Tournament", "TournamentAudit", "AuditEntry", "EntryKey", "StageEntry",
                               "Registration", "Round", "RoundTable", "RoundSeat", "Stage", "Game", "Series")}
        new_apps = _migrate(latest)
    finally:
        _migrate(_latest())

    renamed = {"Tournament": "Event", "TournamentAudit": "EventAudit", "AuditEntry": "GameAudit",
               "EntryKey": "SaveKey", "StageEntry": "StageSeed"}
    assert {renamed.get(n, n): new_apps.get_model("league", renamed.get(n, n)).objects.count() for n in counts} == {
        renamed.get(n, n): c for n, c in counts.items()}

    # Read back through the models of this tree: the new names and relations.
    from league.models import Event, EventAudit, GameAudit, Registration, SaveKey, Series, Stage, StageSeed

    series = Series.objects.select_related("event").get(pk=old["series"].pk)
    event = series.event
    assert isinstance(event, Event) and event.pk == old["tournament"].pk
    assert _fields(event, "rounds", "seed", "time_limit", "hidden_from_round", "substitute_score") == (
        6, 42, 75, 5, -10000)
    assert (series.kind, series.version) == ("tournament", 7)

    regs = list(Registration.objects.filter(series=series).order_by("number"))
    assert [(r.pk, r.player_id, r.number, r.code, r.country) for r in regs] == [
        (r.pk, r.player_id, r.number, r.code, r.country) for r in old["regs"]]
    table = series.event_rounds.get(number=1).tables.get()
    assert (table.pk, table.game_id, table.extra_minutes) == (old["table"].pk, old["game"].pk, 5)
    assert sorted((s.pk, s.wind, s.registration_id) for s in table.seats.all()) == sorted(
        (s.pk, s.wind, s.registration_id) for s in old["seats"])

    audit = EventAudit.objects.get(pk=old["event_audit"].pk)
    assert (audit.series_id, audit.action, audit.round_number, audit.username, audit.detail) == (
        series.pk, EventAudit.Action.START, 1, "director", {"text": "Round 1 started"})
    assert list(series.event_audit.values_list("pk", flat=True)) == [audit.pk]

    game_audit = GameAudit.objects.get(pk=old["game_audit"].pk)
    assert _fields(game_audit, "game_id", "action", "hand_number", "username", "before", "after") == (
        old["game"].pk, GameAudit.Action.RECORD_HAND, 1, "scorer", None, {"outcome": "draw"})
    key = SaveKey.objects.get(pk=old["save_key"].pk)
    assert _fields(key, "game_id", "key", "action", "hand_number", "entry") == (
        old["game"].pk, "k" * 32, SaveKey.Action.RECORD, 1, "d" * 64)
    assert list(key.game.save_keys.all()) == [key] and list(key.game.audit.all()) == [game_audit]

    final = Stage.objects.get(pk=old["final"].pk)
    assert (final.entry, final.is_cut, final.top, final.carry) == (Stage.Qualification.TOP, True, 4, "half")
    assert [(s.pk, s.registration_id, s.seed, s.previous_total, s.carried) for s in final.seeds.all()] == [
        (s.pk, s.registration_id, s.seed, s.previous_total, s.carried) for s in old["stage_seeds"]]
    assert StageSeed.objects.filter(registration=regs[0]).get() == regs[0].stage_seeds.get()
