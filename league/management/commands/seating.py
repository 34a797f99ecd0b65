"""``python manage.py seating --players N --rounds R [--table-size 3|4] [--seed S] [--seconds T] [--iterations I]
--format json|text``: a pre-generated seating for players 1..N, printed; the database is never touched."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.seating import DEFAULT_ITERATIONS, WINDS, Seating, SeatingError, pregenerate


class Command(BaseCommand):
    help = "Print a seating with the fewest repeat meetings and balanced winds for players 1..N."
    # Pure computation: no database, so no system checks or migrations are needed.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, metavar="N", help="A multiple of the table size.")
        parser.add_argument("--rounds", type=int, required=True, metavar="R")
        parser.add_argument("--table-size", type=int, default=4, metavar="K",
                            help="Players per table: 4, or 3 for three-player mahjong (default 4).")
        parser.add_argument("--seed", type=int, default=0, metavar="S", help="Same seed, same seating (default 0).")
        parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, metavar="I",
                            help=f"Search work budget (default {DEFAULT_ITERATIONS}); with the seed it fixes the result.")
        parser.add_argument("--seconds", type=float, default=None, metavar="T",
                            help="Wall-clock cap; hitting it returns the best so far (no longer reproducible).")
        parser.add_argument("--format", choices=("json", "text"), default="json")
        parser.add_argument("--allow-same-table", action="store_true",
                            help="Do not move players off the physical table they sat at the round before.")

    def handle(self, *args: Any, players: int, rounds: int, table_size: int, seed: int, iterations: int,
               seconds: float | None, format: str, allow_same_table: bool, **options: Any) -> None:
        try:
            seating = pregenerate(players, rounds, seed=seed, iterations=iterations, seconds=seconds,
                                  avoid_same_table=not allow_same_table, table_size=table_size)
        except SeatingError as e:
            raise CommandError(f"--{(e.field or 'players').replace('_', '-')}: {e.message}") from e
        if format == "json":
            self.stdout.write(json.dumps(as_json(seating)))
        else:
            self.stdout.write(as_text(seating))


def as_json(seating: Seating) -> dict[str, Any]:
    q = seating.quality
    return {
        "rounds": [[list(t) for t in r] for r in seating.rounds],
        "table_size": len(seating.rounds[0][0]),
        "repeats": q.repeat_count,
        "wind_spread": q.wind_spread,
        "lower_bound": q.lower_bound,
        "meetings": {str(k): v for k, v in q.meetings.items()},
        "same_table_consecutive": q.same_table_consecutive,
        "iterations": seating.iterations,
    }


def as_text(seating: Seating) -> str:
    q = seating.quality
    width = len(str(q.players))
    lines = []
    for number, rnd in enumerate(seating.rounds, start=1):
        lines.append(f"Round {number}")
        for t, table in enumerate(rnd, start=1):
            seats = "  ".join(f"{w[0].upper()} {p:>{width}}" for w, p in zip(WINDS[:len(table)], table, strict=True))
            lines.append(f"  table {t:>2}:  {seats}")
    met = ", ".join(f"{k}x: {v}" for k, v in q.meetings.items())
    lines += [
        "",
        f"{q.players} players, {q.rounds} rounds, tables of {len(seating.rounds[0][0])}",
        f"repeat meetings: {q.repeat_count} (lower bound {q.lower_bound})",
        f"pairs meeting k times: {met}",
        f"wind spread: {q.wind_spread} (largest difference between a player's most and least frequent wind)",
        f"players at the same table as the round before: {q.same_table_consecutive}",
    ]
    return "\n".join(lines)
