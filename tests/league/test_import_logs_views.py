"""The staff log upload page, the tenhou.net/6 download and the admin's view
of an imported game: who may use them, and what each file's line says."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from league import services, tenhou
from league.models import Game, Series
from tests.factories import make_scorer, make_series
from tests.realdata import REALDATA, require_realdata

require_realdata()

pytestmark = pytest.mark.django_db

MJLOG = REALDATA / "tenhou" / "mjlog"
JSON = REALDATA / "tenhou" / "json"
GAME = "mjx__2011020401gm-00a9-0000-f6eff225"


def _file(path, name=None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name or path.name, path.read_bytes())


@pytest.fixture
def series() -> Series:
    return make_series("tenhou", slug="online")


@pytest.fixture
def scorer(series: Series) -> User:
    return make_scorer(series, password="x")


def _upload(client: Client, series: Series, *files: SimpleUploadedFile, **extra: object):
    return client.post(reverse("staff-import", args=[series.slug]), {"logs": list(files), **extra})


def test_the_upload_page_sends_anonymous_visitors_to_the_login(client: Client, series: Series) -> None:
    url = reverse("staff-import", args=[series.slug])
    for response in (client.get(url), client.post(url, {"logs": [_file(MJLOG / f"{GAME}.mjlog")]})):
        assert response.status_code == 302 and "login" in response["Location"]
    assert Game.objects.count() == 0


def test_only_the_series_scorers_and_superusers_may_import(client: Client, series: Series, scorer: User) -> None:
    other = make_series("tenhou", slug="other")
    outsider = User.objects.create_user("outsider", password="x")
    other.scorers.add(outsider)
    staff_not_scorer = User.objects.create_user("staff", password="x", is_staff=True)
    url = reverse("staff-import", args=[series.slug])
    for user in (outsider, staff_not_scorer):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert _upload(client, series, _file(MJLOG / f"{GAME}.mjlog")).status_code == 403
    assert Game.objects.count() == 0
    client.force_login(scorer)
    assert client.get(url).status_code == 200
    client.force_login(User.objects.create_superuser("root", password="x"))
    assert client.get(url).status_code == 200
    assert client.get(reverse("staff-import", args=["nowhere"])).status_code == 404


def test_the_result_page_lists_every_files_outcome(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    response = _upload(
        client, series,
        _file(MJLOG / f"{GAME}.mjlog"),
        _file(JSON / f"{GAME}.json"),  # the same game
        _file(MJLOG / "dnovikoff-tenhou__sanma2.xml"),
        _file(MJLOG / "dnovikoff-tenhou__bye.xml"),  # east-only, this series plays hanchan
        SimpleUploadedFile("notes.txt", b"not a log"),
    )
    assert response.status_code == 200
    page = " ".join(response.content.decode().split())
    game = Game.objects.get()
    assert game.seats.count() == 4 and game.is_finished
    assert f"{GAME}.mjlog</strong>: imported as" in page
    assert f"{GAME}.json</strong>: already there as" in page
    assert "refused (rules_differ):" in page and "three-player hanchan game under tenhou-sanma" in page
    assert "east-only game under tenhou-east" in page
    assert "refused (broken_log):" in page
    assert "1 imported, 1 already there, 3 refused." in page
    assert reverse("staff-export-log", args=[game.pk]) in page
    audit = game.audit.get(action="import_log")
    assert audit.username == "scorer" and audit.after["file"] == f"{GAME}.mjlog"


def test_a_log_that_differs_is_refused_then_imported_with_force(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    page = _upload(client, series, _file(MJLOG / "dnovikoff-tenhou__chip.xml")).content.decode()
    assert "refused (log_differs)" in page
    assert "13 differences between the log and our replay" in page and "E1 0 honba: deltas, ours" in page
    assert Game.objects.count() == 0
    page = _upload(client, series, _file(MJLOG / "dnovikoff-tenhou__chip.xml"), force="on").content.decode()
    assert "imported as" in page and "(kept on the game)" in page
    game = Game.objects.get()
    assert len(game.discrepancies) == 13
    # The admin shows where the log and our replay differ, read-only.
    client.force_login(User.objects.create_superuser("root", password="x"))
    admin_page = client.get(reverse("admin:league_game_change", args=[game.pk])).content.decode()
    assert "differences from the log" in admin_page.lower()
    assert "E1 0 honba: deltas, ours" in admin_page
    assert game.source_id in admin_page


def test_a_names_file_names_the_seats(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    names = SimpleUploadedFile("names.json", json.dumps({GAME[5:]: ["Ann", "Ben", "Cat", "Dan"]}).encode())
    _upload(client, series, _file(JSON / f"{GAME}.json"), names=names)
    assert [s.player.name for s in Game.objects.get().seats.order_by("seat")] == ["Ann", "Ben", "Cat", "Dan"]


def test_a_names_file_that_is_not_json_is_a_form_error(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    response = _upload(client, series, _file(JSON / f"{GAME}.json"), names=SimpleUploadedFile("n.json", b"{oops"))
    assert response.status_code == 200
    assert "The names file is not JSON text." in response.content.decode()
    assert Game.objects.count() == 0


def test_an_imported_game_downloads_as_tenhou6_json_the_importer_reads(client: Client, series: Series,
                                                                       scorer: User) -> None:
    path = MJLOG / f"{GAME}.mjlog"
    game = services.import_tenhou_log(series=series, data=path.read_bytes(), filename=path.name).game
    url = reverse("staff-export-log", args=[game.pk])
    client.force_login(User.objects.create_user("outsider", password="x"))
    assert client.get(url).status_code == 403
    client.force_login(scorer)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{GAME[5:]}.json"'
    back = tenhou.import_log(response.content, "download.json")
    assert back.report.ok and back.log.log_id == game.source_id
    fresh = make_series("tenhou")
    again = services.import_tenhou_log(series=fresh, data=response.content).game
    assert [s.points for s in again.seats.order_by("seat")] == [s.points for s in game.seats.order_by("seat")]


def test_a_game_tenhou6_cannot_say_is_a_409(client: Client, scorer: User) -> None:
    east = make_series("tenhou-east")
    east.scorers.add(scorer)
    game = services.import_tenhou_log(series=east, data=(MJLOG / "dnovikoff-tenhou__ratio.xml").read_bytes(),
                                      force=True).game
    client.force_login(scorer)
    response = client.get(reverse("staff-export-log", args=[game.pk]))
    assert response.status_code == 409
    assert "cannot be written as a tenhou.net/6 log" in response.content.decode()


def test_the_staff_series_page_links_to_the_upload(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    page = client.get(reverse("staff-series", args=[series.slug])).content.decode()
    assert reverse("staff-import", args=[series.slug]) in page


def test_a_names_file_nested_too_deeply_is_a_form_error(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    deep = SimpleUploadedFile("n.json", ("[" * 100_000 + "]" * 100_000).encode())
    response = _upload(client, series, _file(JSON / f"{GAME}.json"), names=deep)
    assert response.status_code == 200
    assert "The names file is not JSON text." in response.content.decode()
    assert Game.objects.count() == 0


def test_a_damaged_upload_is_refused_beside_the_good_one(client: Client, series: Series, scorer: User) -> None:
    client.force_login(scorer)
    damaged = bytearray((MJLOG / "fastmaj__2014050315gm-0041-0000-7ddece8e_tw=0.mjlog.gz").read_bytes())
    for at in range(40, 60):
        damaged[at] ^= 0x55
    response = _upload(client, series, SimpleUploadedFile("bad.mjlog.gz", bytes(damaged)),
                       _file(JSON / f"{GAME}.json"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "truncated_log" in text and "the gzip stream is damaged" in text
    assert Game.objects.count() == 1
