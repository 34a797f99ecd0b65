"""``python manage.py import_logs PATH... --series SLUG``: import Tenhou logs
(mjlog XML, gzip or not, and tenhou.net/6 JSON) as finished games, one file at
a time through ``services.import_tenhou_log``.

Hanchan and east-only games (and lobbies without red fives) play different
rules, so they belong to different series. Give one ``--series`` per ruleset:
each log goes to the first listed series whose rules are the log's. With
``--create-series``, a listed series that does not exist yet is created with
the rules of the first log no existing series takes, so

    python manage.py import_logs logs/ --series hanchan --series tonpuu --create-series

puts the hanchan in one and the tonpuusen in the other. A log no listed
series takes is refused with the reason. One bad file never stops the others.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import services, tenhou
from league.management.commands.import_games import check_new_slug
from league.models import Series
from scoring.errors import ScoringError
from scoring.rules import get_ruleset


def log_files(paths: list[str]) -> list[Path]:
    """The files named, and the files of the folders named (sorted, not recursive)."""
    out: list[Path] = []
    for name in paths:
        p = Path(name)
        out += sorted(f for f in p.iterdir() if f.is_file()) if p.is_dir() else [p]
    return out


def read_names(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8-sig") as f:
            names = json.load(f)
    except OSError as err:
        raise CommandError(f"cannot read {path}: {err.strerror}") from None
    except ValueError as err:
        raise CommandError(f"{path} is not JSON: {err}") from None
    except RecursionError:
        raise CommandError(f"{path} is not JSON: it is nested too deeply") from None
    if not isinstance(names, dict):
        raise CommandError(f"{path} must hold one JSON object: log id -> four names, or log name -> player name")
    return names


class Command(BaseCommand):
    help = (
        "Import Tenhou logs (mjlog XML or tenhou.net/6 JSON; files or folders) into series, checked "
        "hand by hand against our engine. A log already in the series is skipped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help="log files, or folders of them")
        parser.add_argument("--series", action="append", required=True, metavar="SLUG",
                            help="a series to import into; repeat it for logs of other rules (hanchan, east-only)")
        parser.add_argument("--create-series", action="store_true",
                            help="create a missing series with the rules of the first log that needs one")
        parser.add_argument("--force", action="store_true",
                            help="import logs that differ from our replay, keeping the differences on the game")
        parser.add_argument("--names", metavar="MAPPING.json",
                            help='JSON: {"<log id>": [four names], "<name in a log>": "<player name>"}')

    def handle(self, *args: Any, paths: list[str], series: list[str], create_series: bool, force: bool,
               names: str | None, **options: Any) -> None:
        mapping = read_names(names)
        found = {s.slug: s for s in Series.objects.filter(slug__in=series)}
        missing = [slug for slug in series if slug not in found]
        if missing and not create_series:
            raise CommandError(f"no series {', '.join(missing)} (add --create-series to create it)")
        for slug in missing:
            check_new_slug(slug)
        counts = {"imported": 0, "already": 0, "refused": 0}
        for path in log_files(paths):
            outcome = self._one(path, series, found, missing, force, mapping)
            counts[outcome] += 1
        self.stdout.write(
            f"{counts['imported']} imported, {counts['already']} already there, {counts['refused']} refused"
        )

    def _one(self, path: Path, slugs: list[str], found: dict[str, Series], missing: list[str], force: bool,
             mapping: dict[str, Any] | None) -> str:
        try:
            imported = tenhou.import_log(path.read_bytes(), path.name)
        except OSError as err:
            return self._refused(path, "unreadable", err.strerror or str(err))
        except ScoringError as err:
            return self._refused(path, err.code, err.message)
        target = self._series_for(imported.log, slugs, found, missing)
        try:
            done = services.import_tenhou_log(series=target, data=imported, filename=path.name, force=force,
                                              names=mapping)
        except services.LogRefused as err:
            return self._refused(path, err.code, err.message, err.discrepancies)
        except services.ServiceError as err:
            return self._refused(path, err.code, err.message)
        game = done.game
        if not done.created:
            self.stdout.write(f"already   {path.name}: log {done.log_id} is game {game.pk} of {game.series.slug}")
            return "already"
        variant = f", variant {'+'.join(done.variant)}" if done.variant else ""
        self.stdout.write(self.style.SUCCESS(
            f"imported  {path.name}: game {game.pk} of {game.series.slug}, log {done.log_id}, "
            f"{game.hands.count()} hands{variant}"
        ))
        self._discrepancies(done.discrepancies, kept=True)
        return "imported"

    def _series_for(self, log: tenhou.TenhouLog, slugs: list[str], found: dict[str, Series],
                    missing: list[str]) -> Series:
        """The first listed series with the log's rules; else a missing one,
        created now with them; else the first listed (which refuses it, saying why)."""
        rules = get_ruleset(log.rules)
        for slug in slugs:
            if slug in found and services.same_rules(found[slug].ruleset(), rules):
                return found[slug]
        if missing:
            slug = missing.pop(0)
            found[slug] = Series.objects.create(slug=slug, name=slug, rules=rules.to_spec())
            self.stdout.write(f"created   series {slug} ({rules.to_spec()['preset']})")
            return found[slug]
        return found[slugs[0]]

    def _refused(self, path: Path, code: str, message: str, discrepancies: tuple[dict[str, Any], ...] = ()) -> str:
        self.stdout.write(self.style.ERROR(f"refused   {path.name}: {code}: {message}"))
        self._discrepancies(discrepancies, kept=False)
        return "refused"

    def _discrepancies(self, discrepancies: tuple[dict[str, Any], ...], *, kept: bool) -> None:
        if discrepancies:
            self.stdout.write(f"          {len(discrepancies)} discrepancies{' (kept on the game)' if kept else ''}:")
        for d in discrepancies:
            self.stdout.write(f"            {services.describe_discrepancy(d)}")
