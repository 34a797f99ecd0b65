"""``python manage.py export_games --series SLUG [--output FILE]``: the series'
games as JSON lines (league/game_records.py), readable by ``import_games``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import game_records
from league.models import Series


class Command(BaseCommand):
    help = "Write every game of a series as one GAME RECORD per line (JSON lines)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--series", required=True, metavar="SLUG")
        parser.add_argument("--output", "-o", metavar="FILE", help="Write here instead of standard output.")

    def handle(self, *args: Any, series: str, output: str | None, **options: Any) -> None:
        found = Series.objects.select_related("event").filter(slug=series).first()
        if found is None:
            raise CommandError(f"no series with the slug {series!r}")
        lines = game_records.series_lines(found)
        if output is None:
            for line in lines:
                self.stdout.write(line, ending="")
            return
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(lines)
