"""``python manage.py backup FILE``: a consistent copy of the database while it is in use (league/backup.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.backup import BackupError, backup


class Command(BaseCommand):
    help = "Write a consistent backup of the database (SQLite online backup, or pg_dump) to FILE."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--replace", action="store_true", help="Overwrite FILE if it exists.")

    def handle(self, *args: Any, file: Path, replace: bool, **options: Any) -> None:
        try:
            kind = backup(file, replace=replace)
        except BackupError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(self.style.SUCCESS(f"Backed up the {kind} database to {file}."))
