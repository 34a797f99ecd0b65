"""Two people of one name (issue 38): a player is the row (and the EMA number
where there is one), never the name. Every door that names a player by text
either takes an unambiguous key (the id as "#12", the EMA number) or refuses
a shared name, naming the field and the candidates; the pages and selects
tell the two apart."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from league import game_records, services, tenhou
from league.errors import ServiceError
from league.forms import StartGameForm
from league.models import Game, Player, Rating, Registration, Seat
from league.services import event
from league.services.players import find_player, namesakes
from league.services.signup import configure_signup, sign_up
from league.standings.ratings import rating_table
from tests.factories import make_director, make_player, make_players, make_series
from tests.league.test_ratings import finished_game, make_rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_satos() -> tuple[Player, Player]:
    """Two people called Aiko Sato: one in Tokyo with an EMA number, one in Osaka without."""
    return (make_player("Aiko Sato", club="Tokyo", country="JP", ema_number="10990001"),
            make_player("Aiko Sato", club="Osaka", country="JP"))


def test_two_players_may_share_a_name(two_satos):
    tokyo, osaka = two_satos
    assert tokyo.pk != osaka.pk and Player.objects.filter(name="Aiko Sato").count() == 2
    assert tokyo.label() == f"Aiko Sato (Tokyo, JP, #{tokyo.pk})"
    assert make_player("Bram").label() == f"Bram (#{Player.objects.get(name='Bram').pk})"
    assert namesakes(["Aiko Sato", "Bram", "Nobody"]) == {"Aiko Sato"}


# -- the one rule: find_player ---------------------------------------------------------------


def test_a_shared_name_alone_is_refused_naming_the_field_and_the_candidates(two_satos):
    tokyo, osaka = two_satos
    with pytest.raises(ServiceError) as err:
        find_player(name="Aiko Sato", field="players[2]")
    assert (err.value.code, err.value.field) == ("ambiguous_player", "players[2]")
    assert err.value.message == (
        f"players[2]: 2 players are called Aiko Sato: give the EMA number or choose one "
        f"(Aiko Sato (Tokyo, JP, #{tokyo.pk}); Aiko Sato (Osaka, JP, #{osaka.pk}))")


def test_the_id_or_the_ema_number_names_one_of_two_namesakes(two_satos):
    tokyo, osaka = two_satos
    assert find_player(name="Aiko Sato", player_id=osaka.pk) == osaka
    assert find_player(name="Aiko Sato", ema_number="10990001") == tokyo
    # An unknown EMA number: the namesake without a number (Osaka) is the candidate.
    assert find_player(name="Aiko Sato", ema_number="10990002") == osaka
    with pytest.raises(ServiceError) as err:
        find_player(name="Aiko Sato", player_id=99999, field="player")
    assert (err.value.code, err.value.message) == ("unknown_player", "player: no player has the id #99999")
    with pytest.raises(ServiceError) as err:
        find_player(name="Bram", ema_number="10990001", field="ema_number")
    assert err.value.message == "ema_number: 10990001 belongs to Aiko Sato, not Bram"


def test_a_name_one_row_carries_still_names_it_and_an_unknown_name_none():
    bram = make_player("Bram")
    assert find_player(name="Bram") == bram
    assert find_player(name="Chen") is None
    # Another EMA number under a known, numbered name is another person: none found, one is created.
    make_player("Dana", ema_number="10990005")
    assert find_player(name="Dana", ema_number="10990006") is None


# -- door 1: game records (JSON lines, import_games) ------------------------------------------


def _import(tmp_path: Path, players: list[str]) -> str:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"players": players, "rules": "ari-ari"}) + "\n", encoding="utf-8")
    out = StringIO()
    call_command("import_games", str(path), series="copy", stdout=out)
    return out.getvalue()


def test_game_record_import_refuses_a_shared_name_and_takes_the_id(tmp_path, two_satos):
    tokyo, osaka = two_satos
    with pytest.raises(CommandError) as err:
        _import(tmp_path, ["Aiko Sato", "Bram", "Chen", "Dana"])
    assert "players[0]: 2 players are called Aiko Sato: write \"#id\" for the name" in str(err.value)
    assert f"#{osaka.pk}" in str(err.value) and not Game.objects.exists()
    _import(tmp_path, [f"#{osaka.pk}", "Bram", "Chen", "Dana"])
    assert Seat.objects.get(seat=0).player == osaka


# -- door 2: an event file's registrations -----------------------------------------------------


def test_event_file_import_refuses_a_shared_registration_name_and_takes_the_id():
    series = make_series("ari-ari", kind="tournament", slug="open")
    event.configure_event(series=series, rounds=1)
    event.register_player(series=series, first_name="Aiko", last_name="Sato")
    lines = list(game_records.series_lines(series))
    first = Player.objects.get(name="Aiko Sato")
    other = make_player("Aiko Sato", club="Osaka")
    with pytest.raises(game_records.ImportRefused) as err:
        game_records.import_lines(lines, slug="open-copy")
    (bad,) = err.value.errors
    assert (bad.code, bad.field) == ("ambiguous_player", "registrations[0].player")
    assert f"#{first.pk}" in bad.message and f"#{other.pk}" in bad.message
    header = json.loads(lines[0])
    header["registrations"][0]["player"] = f"#{other.pk}"
    game_records.import_lines([json.dumps(header), *lines[1:]], slug="open-copy")
    assert Registration.objects.get(series__slug="open-copy").player == other


# -- door 3: Tenhou logs ---------------------------------------------------------------------


def test_tenhou_import_refuses_a_mapping_to_a_shared_name_and_takes_the_id(two_satos):
    from tests.league.services.test_logs import JSON, TWINS

    tokyo, _ = two_satos
    series = make_series("tenhou")
    data = (JSON / TWINS[0]).read_bytes()
    log_id = tenhou.read_log_file(JSON / TWINS[0]).log_id
    with pytest.raises(services.LogRefused) as err:
        services.import_tenhou_log(series=series, data=data, filename=TWINS[0],
                                   names={log_id: ["Aiko Sato", None, None, None]})
    assert err.value.code == "ambiguous_player"
    assert "names['Aiko Sato']: 2 players are called Aiko Sato: map the name to one as \"#id\"" in err.value.message
    assert not Game.objects.exists()
    game = services.import_tenhou_log(series=series, data=data, filename=TWINS[0],
                                      names={log_id: [f"#{tokyo.pk}", None, None, None]}).game
    assert game.seats.get(seat=0).player == tokyo


# -- door 4: registration, one by one and the CSV player list ---------------------------------


@pytest.fixture
def open_event():
    series = make_series("ari-ari", kind="tournament", slug="open", name="Open")
    event.configure_event(series=series, rounds=2)
    return series


def test_registration_refuses_a_shared_name_and_links_the_chosen_or_numbered_one(open_event, two_satos):
    tokyo, osaka = two_satos
    with pytest.raises(ServiceError) as err:
        event.register_player(series=open_event, first_name="Aiko", last_name="Sato")
    assert (err.value.code, err.value.field) == ("registration_conflict", "last_name")
    assert "2 players are called Aiko Sato" in err.value.message
    assert event.register_player(series=open_event, first_name="Aiko", last_name="Sato",
                                 player_id=osaka.pk).player == osaka
    second = make_series("ari-ari", kind="tournament", slug="second")
    event.configure_event(series=second, rounds=2)
    assert event.register_player(series=second, first_name="Aiko", last_name="Sato",
                                 ema_number="10990001").player == tokyo


def test_the_player_list_refuses_a_shared_name_and_two_unnumbered_lines_of_one_name(open_event, two_satos):
    with pytest.raises(services.event.RegistrationImportError) as err:
        event.import_registrations(series=open_event, text="number,first name,last name\n1,Aiko,Sato\n")
    assert "line 2: last name: 2 players are called Aiko Sato" in str(err.value.errors[0])
    with pytest.raises(services.event.RegistrationImportError) as err:
        event.import_registrations(series=open_event,
                                   text="number,first name,last name\n1,Ren,Ito\n2,Ren,Ito\n")
    assert str(err.value.errors[0]).startswith("line 3: Ren Ito is on line 2 too: give both EMA numbers")
    assert not open_event.registrations.exists()
    # Two numbered lines of one new name are two people.
    event.import_registrations(series=open_event, text="number,first name,last name,EMA number\n"
                                                       "1,Ren,Ito,10990101\n2,Ren,Ito,10990102\n")
    assert Player.objects.filter(name="Ren Ito").count() == 2
    assert open_event.registrations.values("player").distinct().count() == 2


def test_the_registration_desk_page_says_which_names_clash_and_takes_the_id(client: Client, open_event, two_satos):
    _, osaka = two_satos
    client.force_login(make_director(open_event))
    page = reverse("event-players", args=["open"])
    response = client.post(page, {"first_name": "Aiko", "last_name": "Sato"})
    assert response.status_code == 200
    assert "2 players are called Aiko Sato" in response.content.decode()
    response = client.post(page, {"first_name": "Aiko", "last_name": "Sato", "player_id": osaka.pk})
    assert response.status_code == 302
    assert open_event.registrations.get().player == osaka


# -- door 5: self sign-up ----------------------------------------------------------------------


def test_sign_up_under_a_shared_name_needs_the_ema_number(open_event, two_satos):
    configure_signup(series=open_event, is_open=True, closes_at=None, cap=2, moderated=False)
    person = {"first_name": "Aiko", "last_name": "Sato", "email": "aiko@example.org", "country": "JP"}
    with pytest.raises(ServiceError) as err:
        sign_up(series=open_event, ema_number="", **person)
    assert (err.value.code, err.value.field) == ("ambiguous_player", "last_name")
    assert err.value.message == "2 players are called Aiko Sato: give your EMA number, or ask the event's director"
    assert sign_up(series=open_event, ema_number="10990001", **person).ema_number == "10990001"


# -- the pages and selects tell them apart ----------------------------------------------------


def test_rating_table_and_history_tell_two_namesakes_apart(client: Client):
    series = make_series()
    tokyo = make_player("Aiko Sato", club="Tokyo")
    osaka = make_player("Aiko Sato", club="Osaka")
    others = make_players(2)
    finished_game(series, [tokyo, osaka, *others])
    rating = make_rating([series])
    names = {r.player_id: r.name for r in rating_table(rating).rows}
    assert names[tokyo.pk] == f"Aiko Sato (Tokyo, #{tokyo.pk})"
    assert names[osaka.pk] == f"Aiko Sato (Osaka, #{osaka.pk})"
    assert names[others[0].pk] == others[0].name  # no namesake in the table: the name alone
    html = client.get(reverse("rating-history", args=[rating.slug, osaka.pk])).content.decode()
    assert f"<h1>Aiko Sato (Osaka, #{osaka.pk})</h1>" in html
    table = client.get(reverse("rating", args=[rating.slug])).content.decode()
    assert f"Aiko Sato (Tokyo, #{tokyo.pk})" in table and f"Aiko Sato (Osaka, #{osaka.pk})" in table
    assert Rating.objects.count() == 1


def test_across_series_page_and_start_form_name_which_namesake(client: Client, two_satos):
    tokyo, osaka = two_satos
    series = make_series()
    finished_game(series, [tokyo, *make_players(3)])
    html = client.get(reverse("player-series", args=[tokyo.pk])).content.decode()
    assert f"<h1>Aiko Sato (Tokyo, JP, #{tokyo.pk})</h1>" in html
    labels = dict(StartGameForm().fields["east"].choices)
    assert {str(k): v for k, v in labels.items()}[str(osaka.pk)] == f"Aiko Sato (Osaka, JP, #{osaka.pk})"
    assert "Player " in next(v for k, v in labels.items() if str(k) not in ("", str(tokyo.pk), str(osaka.pk)))


def test_merge_refusal_between_namesakes_names_the_rows(two_satos):
    tokyo, osaka = two_satos
    Player.objects.filter(pk=osaka.pk).update(ema_number="10990009")
    osaka.refresh_from_db()
    with pytest.raises(ServiceError) as err:
        services.merge_players(keep=tokyo, merge=osaka, reason="same person?")
    assert err.value.code == "different_ema_numbers"
    assert f"#{tokyo.pk}" in err.value.message and f"#{osaka.pk}" in err.value.message


def test_admin_player_list_shows_the_id_and_the_game_form_labels(admin_client: Client, two_satos):
    tokyo, osaka = two_satos
    client = admin_client
    html = client.get(reverse("admin:league_player_changelist")).content.decode()
    assert html.count("Aiko Sato") >= 2 and f">{osaka.pk}<" in html
    html = client.get(reverse("admin:league_game_add")).content.decode()
    assert f"Aiko Sato (Tokyo, JP, #{tokyo.pk})" in html
