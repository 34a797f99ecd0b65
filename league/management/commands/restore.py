"""``python manage.py restore FILE``: put a backup made by ``backup`` into the database (league/backup.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.backup import BackupError, restore


class Command(BaseCommand):
    help = "Restore a backup made by the backup command into the (fresh) database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--replace", action="store_true",
                            help="Restore even though the database already holds games (they are replaced).")

    def handle(self, *args: Any, file: Path, replace: bool, **options: Any) -> None:
        try:
            restore(file, replace=replace)
        except BackupError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(self.style.SUCCESS(f"Restored {file}."))
