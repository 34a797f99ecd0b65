"""Three-player hands entered at the table (issue 36): the staff game page of a
three-player series shows three seats and no North, asks each winner's kita
(Norths set aside, each a han on top of the han given), and the 27 real
three-player games of ../shared/realdata/sanma, entered hand by hand through
that page (preview, then save, as a scorer without JavaScript does), end with
exactly the points the logs themselves give."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Game
from league.tenhou import import_log_file
from league.tenhou.values import Kyoku
from scoring.game import EndReason
from tests.factories import make_game, make_players, make_scorer, make_series
from tests.league.test_hand_entry import entry
from tests.realdata import REALDATA, require_realdata
from tests.tenhou.test_sanma import GAMES

require_realdata()
pytestmark = pytest.mark.django_db
SANMA = REALDATA / "sanma"


def form_fields(k: Kyoku) -> dict[str, Any]:
    """One logged hand as the scorer taps it: han without the kita, the kita
    count, fu only below 5 han (a limit hand needs none)."""
    data: dict[str, Any] = {"riichi": [str(s) for s in k.riichi]}
    if k.kind == "draw":
        data["outcome"] = "draw"
        data["tenpai"] = [str(s) for s in k.tenpai]
        data["nagashi"] = [str(s) for s in k.nagashi]
        if not k.tenpai and not k.nagashi:
            data["all_noten"] = "on"
        return data
    if k.kind == "abort":
        return {**data, "outcome": "abort", "abort_reason": k.abort}
    first = k.wins[0]
    if first.tsumo:
        data.update(outcome="tsumo", winner=str(first.winner))
    else:
        data.update(outcome="ron", loser=str(first.loser), winners=[str(w.winner) for w in k.wins])
    for w in k.wins:
        s = w.winner
        if w.kita:
            data[f"kita_{s}"] = str(w.kita)
        if w.yakuman:
            data[f"yakuman_{s}"] = {1: ["other"], 2: ["other_double"]}[w.yakuman]
            continue
        data[f"han_{s}"] = str(w.han - w.kita)
        if w.han < 5:
            data[f"fu_{s}"] = str(w.fu)
    return data


@pytest.mark.parametrize("name", [g[0] for g in GAMES])
def test_real_three_player_games_entered_at_the_staff_page_give_the_logs_points(client: Client, name: str) -> None:
    imported = import_log_file(SANMA / name)
    log, record = imported.log, imported.record
    series = make_series(record.rules.to_spec(), slug="sanma")
    client.force_login(make_scorer(series))
    game = make_game(series, make_players(3))
    url = reverse("staff-game", args=[game.pk])
    kita_entered = 0
    for number, k in enumerate(log.kyoku, start=1):
        response = entry(client, game, form_fields(k))
        assert response.status_code == 302, (name, number, response.context["form"].errors)
        kita_entered += sum(w.kita for w in k.wins)
    if record.end is EndReason.AGARI_YAME:
        services.finish_game(game=game, end=Game.End.AGARI_YAME)
    game.refresh_from_db()
    assert game.hands.count() == len(log.kyoku)
    points = [s.points for s in game.seats.order_by("seat")]
    expected = next(g for g in GAMES if g[0] == name)
    assert (game.is_finished, points) == (True, expected[-1])
    assert kita_entered == expected[7]  # every kita of the log went through the form
    assert client.get(url).status_code == 200


def test_the_staff_page_of_a_three_player_game_has_three_seats_and_kita(client: Client) -> None:
    series = make_series("tenhou-sanma")
    client.force_login(make_scorer(series))
    game = make_game(series, make_players(3))
    form = client.get(reverse("staff-game", args=[game.pk])).context["form"]
    assert [r["seat"] for r in form.seat_rows()] == [0, 1, 2]
    assert [n for n in form.fields if n.endswith("_3")] == []
    assert [c for c, _name in form.fields["loser"].choices] == ["0", "1", "2"]
    assert [c for c, _name in form.fields["kita_1"].choices] == ["0", "1", "2", "3", "4"]
    html = client.get(reverse("staff-game", args=[game.pk])).content.decode()
    assert 'name="kita_2"' in html and 'name="han_3"' not in html
    four = make_series("ari-ari", slug="four")
    client.force_login(make_scorer(four, username="four"))
    form = client.get(reverse("staff-game", args=[make_game(four).pk])).context["form"]
    assert "kita_0" not in form.fields and "han_3" in form.fields


def sanma_game(client: Client, rules: str = "tenhou-sanma") -> Game:
    series = make_series(rules)
    client.force_login(make_scorer(series))
    return make_game(series, make_players(3))


@pytest.mark.parametrize(
    ("fields", "deltas"),
    [
        # 3 han 30 fu + 2 kita = 5 han: a non-dealer mangan ron, 8,000 (sanma.md section 3).
        ({"outcome": "ron", "loser": "0", "winners": ["1"], "han_1": "3", "fu_1": "30", "kita_1": "2"},
         [-8000, 8000, 0]),
        # Without the kita the same tap is 3,900.
        ({"outcome": "ron", "loser": "0", "winners": ["1"], "han_1": "3", "fu_1": "30"}, [-3900, 3900, 0]),
        # Non-dealer tsumo 3 han 30 fu + 1 kita = 4 han 30 fu: 2000-3900 with tsumo loss, no North share.
        ({"outcome": "tsumo", "winner": "2", "han_2": "3", "fu_2": "30", "kita_2": "1"}, [-3900, -2000, 5900]),
        # Dealer tsumo mangan by kita: 4000 from each of the two others.
        ({"outcome": "tsumo", "winner": "0", "han_0": "1", "fu_0": "30", "kita_0": "4"}, [8000, -4000, -4000]),
        # Picked yaku: riichi + tsumo + 1 dora + 1 kita = 4 han 30 fu (the winner's own stick comes back).
        ({"outcome": "tsumo", "winner": "1", "riichi": ["1"], "yaku_1": ["riichi", "menzen_tsumo"], "dora_1": "1",
          "fu_1": "30", "kita_1": "1"}, [-3900, 5900, -2000]),
        # Tiles with two kita and West as the dora indicator: the engine counts each kita twice,
        # riichi + 4 dora = 5 han, a mangan.
        ({"outcome": "ron", "loser": "2", "winners": ["1"], "riichi": ["1"], "tiles_1": "123p456p789s11p99s9s",
          "win_tile_1": "9s", "dora_indicators": "3z", "kita_1": "2"}, [0, 8000, -8000]),
    ],
)
def test_kita_add_han_and_tsumo_pays_without_a_north_share(client: Client, fields: dict[str, Any],
                                                          deltas: list[int]) -> None:
    game = sanma_game(client)
    response = entry(client, game, fields)
    assert response.status_code == 302, response.context["form"].errors
    assert list(game.replay().result.hands[0].deltas) == deltas
    # A correction shows the han as tapped, without the kita, and the kita apart.
    form = client.get(reverse("staff-edit-hand", args=[game.pk, 1])).context["form"]
    winner = fields.get("winner") or fields["winners"][0]
    assert str(form[f"kita_{winner}"].value() or "") == fields.get(f"kita_{winner}", "")
    if f"han_{winner}" in fields:
        assert str(form[f"han_{winner}"].value()) == fields[f"han_{winner}"]
