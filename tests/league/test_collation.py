"""Lists sorted by name follow the reader's alphabet (league.collation), not code points."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse

from league.collation import name_key
from league.services import event
from tests.factories import make_director, make_series

# By code point: Lindqvist, Nakamura, Ohara, Zawadzki, Ó Súilleabháin, Łukasz, 佐藤 (Ó is U+00D3, Ł U+0141).
NAMES = ["Zawadzki", "Ó Súilleabháin", "Ohara", "Łukasz", "Lindqvist", "Nakamura", "佐藤"]
READER = ["Lindqvist", "Łukasz", "Nakamura", "Ó Súilleabháin", "Ohara", "Zawadzki", "佐藤"]


def test_names_sort_with_their_base_letters() -> None:
    assert sorted(NAMES) != READER
    assert sorted(NAMES, key=name_key) == READER
    # Equal but for an accent or the case: the plain spelling first, and always the same order.
    assert sorted(["Ó", "O", "o"], key=name_key) == sorted(["o", "O", "Ó"], key=name_key)


def test_the_sort_key_and_the_tie_breaks_import_no_django() -> None:
    code = "import sys, league.collation, league.tiebreaks; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


@pytest.mark.django_db
def test_the_seating_printout_lists_players_by_last_name_as_read(client: Client) -> None:
    series = make_series("ari-ari", kind="tournament", slug="names")
    event.configure_event(series=series, rounds=1)
    lines = ["number,first name,last name"] + [f"{i},P{i},{n}" for i, n in enumerate(NAMES, start=1)]
    lines.append("8,P8,Abe")
    event.import_registrations(series=series, text="\n".join(lines) + "\n")
    client.force_login(make_director(series, "director"))
    page = client.get(reverse("event-print", args=[series.slug, "by-name"])).content.decode()
    order = sorted(["Abe", *NAMES], key=lambda n: page.index(n.upper()))
    assert order == ["Abe", *READER]
