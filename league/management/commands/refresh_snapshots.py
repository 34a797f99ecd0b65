"""``python manage.py refresh_snapshots [--series SLUG]``: replay every game and
rewrite its seats' result and hand-statistics snapshots.

For a database made before the statistics were stored, or after a fix to the
scoring rules. One transaction per game (``services.refresh_snapshots``), so
a game the engine now refuses keeps its snapshots and the others go on.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import services
from league.models import Game, Series


class Command(BaseCommand):
    help = "Replay every game (of one series with --series) and rewrite the seats' result and statistics snapshots."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--series", metavar="SLUG", help="only the games of this series")

    def handle(self, *args: Any, series: str | None = None, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if series is not None:
            target = Series.objects.filter(slug=series).first()
            if target is None:
                raise CommandError(f"no series '{series}'")
            games = games.filter(series=target)
        done = changed = 0
        refused = []
        # Only the pks: the service reads each game again under its lock.
        for game in games.only("pk").iterator():
            try:
                changed += services.refresh_snapshots(game=game)
            except services.ServiceError as err:
                refused.append(f"game {game.pk}: {err.message}")
                continue
            done += 1
        for line in refused:
            self.stderr.write(line)
        self.stdout.write(f"{done} games replayed, {changed} changed, {len(refused)} refused")
        if refused:
            raise CommandError(f"{len(refused)} games could not be replayed; their snapshots are unchanged")
