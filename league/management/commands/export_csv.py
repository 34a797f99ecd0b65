"""``python manage.py export_csv standings|games|hands --series SLUG [--output FILE]``:
the same CSV as the public URLs, from the same row generators."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import exports
from league.models import Series


class Command(BaseCommand):
    help = "Write a series' standings, games or hands as CSV (UTF-8 with BOM) to stdout or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("what", choices=["standings", "games", "hands"])
        parser.add_argument("--series", required=True, metavar="SLUG")
        parser.add_argument("--output", "-o", metavar="FILE", help="Write here instead of standard output.")
        parser.add_argument("--round", type=int, help="Standings as they stood after this round.")

    def handle(self, *args: Any, what: str, series: str, output: str | None, round: int | None, **options: Any) -> None:
        found = Series.objects.filter(slug=series).first()
        if found is None:
            raise CommandError(f"no series with the slug {series!r}")
        if what == "standings":
            rows = exports.standings_rows(found, through_round=round)
        elif what == "games":
            rows = exports.game_rows(exports.series_games(found))
        else:
            rows = exports.hand_rows(exports.series_games(found))
        chunks = exports.csv_chunks(rows)
        if output is None:
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            return
        # newline="" keeps the csv module's CRLF as written.
        with open(output, "w", encoding="utf-8", newline="") as f:
            f.writelines(chunks)
