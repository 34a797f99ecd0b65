"""``python manage.py import_games FILE --series SLUG``: load JSON lines of game
records through the services, all or nothing (league/game_records.py)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import game_records
from league.models import Series


class Command(BaseCommand):
    help = (
        "Import games (one GAME RECORD per line, with \"players\") into a series, created with the "
        "records' ruleset if missing. Any bad line and nothing is imported. A game already in the series "
        "(the same record) is skipped and reported, so an interrupted import resumes by running it again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="JSON lines; - reads standard input.")
        parser.add_argument("--series", required=True, metavar="SLUG")
        parser.add_argument("--name", help="Name of the series if it has to be created (default: the slug).")

    def handle(self, *args: Any, file: str, series: str, name: str | None, **options: Any) -> None:
        if not Series.objects.filter(slug=series).exists():
            check_new_slug(series)
        try:
            if file == "-":
                report = game_records.import_lines(sys.stdin, slug=series, name=name)
            else:
                # utf-8-sig: a file saved by an editor that adds a BOM still reads.
                with open(file, encoding="utf-8-sig") as f:
                    report = game_records.import_lines(f, slug=series, name=name)
        except OSError as err:
            raise CommandError(f"cannot read {file}: {err.strerror}") from None
        except UnicodeDecodeError as err:
            raise CommandError(f"{file} is not UTF-8 text: {err.reason}") from None
        except game_records.ImportRefused as refused:
            lines = "\n".join(f"  {e}" for e in refused.errors)
            raise CommandError(f"{file}: nothing imported, {len(refused.errors)} bad record(s):\n{lines}") from None
        created = " (new series)" if report.created_series else ""
        if report.already:
            lines = ", ".join(map(str, report.already[:10])) + (", ..." if len(report.already) > 10 else "")
            self.stdout.write(f"already   {len(report.already)} game(s) already in {report.series.slug}, "
                              f"skipped (line {lines})")
        if report.event_already:
            self.stdout.write(f"already   the event of {report.series.slug}: nothing to import")
        self.stdout.write(self.style.SUCCESS(
            f"Imported {report.games} games, {report.hands} hands into {report.series.slug}{created}; "
            f"{len(report.new_players)} new players" + (f"; {len(report.already)} already there." if report.already
                                                         else ".")
        ))


def check_new_slug(slug: str) -> None:
    """Refuse a slug the series URLs cannot hold: its series would break the public list."""
    try:
        Series._meta.get_field("slug").run_validators(slug)
    except ValidationError as err:
        raise CommandError(f"{slug!r} cannot be a series slug: {' '.join(err.messages)}") from None
