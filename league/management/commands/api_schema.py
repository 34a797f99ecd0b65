"""``python manage.py api_schema [--check]``: write the read API's OpenAPI
schema, as ``/api/v1/openapi.json`` serves it, to docs/api/openapi-v1.json.
The file is the API's contract in the repository: a change to the API shows
as a diff of it, and ``--check`` (and tests/league/test_api.py) fails while
the file and the served schema differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

SCHEMA_FILE = Path(settings.BASE_DIR) / "docs" / "api" / "openapi-v1.json"


def schema_text() -> str:
    """The served schema as the file holds it: keys sorted, two spaces, one newline at the end."""
    from league.views.api import api

    return json.dumps(api.get_openapi_schema(path_prefix="/api/v1/"), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"


class Command(BaseCommand):
    help = "Write the read API's OpenAPI schema to docs/api/openapi-v1.json (--check: fail if it differs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Change nothing; fail if the file differs.")

    def handle(self, *args: Any, check: bool, **options: Any) -> None:
        text = schema_text()
        current = SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.exists() else None
        if check:
            if current != text:
                raise CommandError(f"{SCHEMA_FILE} differs from the served schema: run `manage.py api_schema`")
            self.stdout.write("the schema file is current")
            return
        SCHEMA_FILE.parent.mkdir(parents=True, exist_ok=True)
        SCHEMA_FILE.write_text(text, encoding="utf-8")
        self.stdout.write(f"wrote {SCHEMA_FILE}" if current != text else f"{SCHEMA_FILE} was current")
