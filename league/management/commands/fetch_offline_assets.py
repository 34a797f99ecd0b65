"""``python manage.py fetch_offline_assets``: download the pinned Pyodide
runtime from the npm registry (``npm pack``), check its SHA-256 and keep the
five files a phone needs to price hands offline (``league.offline_assets``).

Nothing fetched is committed (``offline_assets/`` is git-ignored); without it
the server runs as before, with offline entry off and a notice.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from league import offline_assets


class Command(BaseCommand):
    help = f"Fetch Pyodide {offline_assets.PYODIDE_VERSION} from the npm registry for offline hand entry."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            sizes = offline_assets.fetch()
        except offline_assets.FetchError as err:
            raise CommandError(str(err)) from None
        st = offline_assets.status()
        for name, s in st.sizes.items():
            self.stdout.write(f"{name:20} {s['bytes']:>11,} bytes  {s['gzip_bytes']:>11,} gzipped")
        total = sum(s["bytes"] for s in st.sizes.values())
        gz = sum(s["gzip_bytes"] for s in st.sizes.values())
        self.stdout.write(f"{'a phone downloads':20} {total:>11,} bytes  {gz:>11,} gzipped")
        self.stdout.write(self.style.SUCCESS(f"Pyodide {offline_assets.PYODIDE_VERSION}: {len(sizes)} files in {offline_assets.ASSETS}"))
