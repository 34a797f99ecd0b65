"""The demo's stages (``demo_league``): the demo tournament plans a cut to a
final table, and a finished cup shows a cut made, a final played with half
the points carried over, two teams' standings and an EMA results file."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from league.models import Game, Series
from league.services import ServiceError, event
from league.services import stages as st
from league.services.games import record_hands
from league.services.stages import StagePlan

CUP_SLUG = "demo-cup"
CUP_TEAMS = {1: "Kita", 2: "Minami", 3: "Kita", 4: "Minami", 5: "Kita", 6: "Minami", 7: "Kita", 8: "Minami"}


def plan_final(series: Series, rounds: int) -> None:
    """Qualifying for all rounds but the last, then the top 4 at one final table with half their points."""
    st.set_stages(series=series, plans=[
        StagePlan(name="Qualifying", first_round=1, last_round=rounds - 1),
        StagePlan(name="Final table", first_round=rounds, last_round=rounds, entry="top", top=4, carry="half"),
    ])


def build_cup(rng: random.Random, names: list[tuple[str, str]], countries: list[str],
              whole_game: Callable[[random.Random, Game], Any]) -> Series:
    """16 players, four qualifying rounds over a weekend (teammates kept
    apart), the cut to a final table with half carry-over, all played."""
    first_day = datetime.date(2025, 12, 6)
    series = Series.objects.create(
        name="Tenbou Cup 2025", slug=CUP_SLUG, kind=Series.Kind.TOURNAMENT,
        rules={"preset": "ema-2016", "overrides": {}}, start_date=first_day,
        end_date=first_day + datetime.timedelta(days=1),
    )
    event.configure_event(series=series, rounds=4, seed=11, substitute_result="fixed")
    st.configure_event_rules(series=series, ema_city="Leiden", ema_country="NL")
    lines = ["number,first name,last name,EMA number,country,team"]
    for i, (first, last) in enumerate(names[:16], start=1):
        lines.append(f"{i},{first},{last},{'' if i == 12 else 10990000 + i},{countries[i - 1]},{CUP_TEAMS.get(i, '')}")
    event.import_registrations(series=series, text="\n".join(lines) + "\n")
    event.check_in(registrations=series.registrations.all())
    plan_final(series, 5)
    for rnd in event.seat_rounds(series=series).rounds:
        _play(rng, rnd, first_day, whole_game)
    final = series.stages.get(number=2)
    try:
        st.cut_to_stage(stage=final)
    except ServiceError as err:
        if err.code != "tie_at_cut":
            raise
        level = [r for r in st.stage_tables(series)[0].rows if r.player.name in st.stage_tables(series)[0].cut_tie]
        regs = {r.pk: r for r in series.registrations.all()}
        st.record_playoff(series=series, stage=series.stages.get(number=1),
                          places=[(regs[r.player.id], n) for n, r in enumerate(level, start=1)])
        st.cut_to_stage(stage=final)
    _play(rng, st.seat_stage_round(stage=final), first_day, whole_game)
    return series


def _play(rng: random.Random, rnd: Any, first_day: datetime.date,
          whole_game: Callable[[random.Random, Game], Any]) -> None:
    day = first_day if rnd.number <= 2 else first_day + datetime.timedelta(days=1)
    hour = 10 + 2 * ((rnd.number - 1) % 2 if rnd.number <= 2 else rnd.number - 3)
    started = timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, 0)))
    event.publish_round(round=rnd)
    for game in event.start_round(round=rnd, now=started):
        record_hands(game=game, first=1, hands=whole_game(rng, game))
        Game.objects.filter(pk=game.pk).update(finished_at=started + datetime.timedelta(minutes=rng.randrange(70, 95)))
