"""Staff entry pages: who may reach them, what a hand form refuses and keeps,
two scorers on one hand, and the write paths (through the services)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Game, Hand, Penalty
from tests.factories import draw, make_game, make_players, make_series, play, ron, tsumo

pytestmark = pytest.mark.django_db


def staff_urls(game: Game) -> list[str]:
    """Every staff entry URL, for one game that has a hand and a penalty."""
    if not game.hands.exists():
        play(game, [ron(0, 1, 3, 40)])
    penalty = game.penalties.first() or services.add_penalty(game=game, seat=0, points=-5000, reason="late")
    slug, pk = game.series.slug, game.pk
    return [
        reverse("staff-home"),
        reverse("staff-series", args=[slug]),
        reverse("staff-start", args=[slug]),
        reverse("staff-game", args=[pk]),
        reverse("staff-preview", args=[pk]),
        reverse("staff-edit-hand", args=[pk, 1]),
        reverse("staff-undo", args=[pk]),
        reverse("staff-finish", args=[pk]),
        reverse("staff-final-scores", args=[pk]),
        reverse("staff-penalties", args=[pk]),
        reverse("staff-cancel-penalty", args=[pk, penalty.pk]),
    ]


def hand_post(number: int, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"number": number, "action": "preview"}
    data.update(fields)
    return data


def save(client: Client, game: Game, data: dict[str, Any], *, url: str | None = None) -> Any:
    """Preview then save, as a scorer without JavaScript does: the preview
    page carries the state of the game the entry is built on."""
    url = url or reverse("staff-game", args=[game.pk])
    shown = client.post(url, {**data, "action": "preview"})
    assert shown.status_code == 200
    digest, state = shown.context["digest"], shown.context["form"]["state"].value()
    return client.post(url, {**data, "action": "save", "checked": digest, "state": state})


# -- access -----------------------------------------------------------------------


def test_staff_pages_send_anonymous_visitors_to_the_login(client: Client, game: Game) -> None:
    for url in staff_urls(game):
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("login") + "?next="), url
    assert game.hands.count() == 1 and game.penalties.get().cancelled_at is None


def test_staff_pages_refuse_a_login_that_does_not_score_the_series(client: Client, game: Game) -> None:
    other = make_series(slug="other")
    outsider = User.objects.create_user("outsider", password="pw")
    other.scorers.add(outsider)  # scores another series, not this one
    client.force_login(outsider)
    for url in staff_urls(game)[1:]:
        assert client.get(url).status_code == 403, url
        assert client.post(url, hand_post(2, outcome="draw", tenpai=["0"])).status_code == 403, url
    nobody = User.objects.create_user("nobody", password="pw", is_staff=True)  # admin staff flag is not enough
    client.force_login(nobody)
    for url in staff_urls(game):
        assert client.get(url).status_code == 403, url
        assert client.post(url).status_code == 403, url
    assert game.hands.count() == 1 and Game.objects.count() == 1
    assert game.penalties.get().cancelled_at is None


def test_staff_pages_open_to_the_series_scorers_and_superusers(client: Client, game: Game, scorer: User) -> None:
    urls = [u for u in staff_urls(game) if "preview" not in u]
    for user in (scorer, User.objects.create_superuser("root", password="pw")):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == 200, (user, url)


def test_login_page_renders_and_logs_in(client: Client, scorer: User) -> None:
    page = client.get(reverse("login") + "?next=/staff/")
    assert page.status_code == 200 and 'name="password"' in page.content.decode()
    response = client.post(reverse("login"), {"username": "scorer", "password": "pw", "next": "/staff/"})
    assert response.status_code == 302 and response["Location"] == "/staff/"


# -- start a game --------------------------------------------------------------------


def test_start_game_seats_four_players(as_scorer: Client, series: Any) -> None:
    a, b, c, d = make_players()
    url = reverse("staff-start", args=[series.slug])
    response = as_scorer.post(url, {"round_number": 3, "table": "B", "east": a.pk, "south": b.pk,
                                    "west": c.pk, "north": d.pk})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("staff-game", args=[game.pk])
    assert [s.player for s in game.seats.order_by("seat")] == [a, b, c, d]
    assert (game.round_number, game.table, game.audit.get().username) == (3, "B", "scorer")


def test_start_game_refuses_the_same_player_twice_and_keeps_the_form(as_scorer: Client, series: Any) -> None:
    a, b, c, _ = make_players()
    url = reverse("staff-start", args=[series.slug])
    response = as_scorer.post(url, {"round_number": 2, "table": "T9", "east": a.pk, "south": b.pk,
                                    "west": c.pk, "north": a.pk})
    assert response.status_code == 200 and not Game.objects.exists()
    form = response.context["form"]
    assert list(form.errors) == ["north"]
    assert "already sits East" in form.errors["north"][0]
    html = response.content.decode()
    assert 'value="T9"' in html and f'<option value="{c.pk}" selected>' in html


# -- the hand form ----------------------------------------------------------------


def test_game_page_says_where_the_game_stands(as_scorer: Client, game: Game) -> None:
    play(game, [ron(0, 1, 3, 40, riichi=(2,)), ron(1, 3, 1, 30), tsumo(2, 1, 30)])
    # E1: South rons East 5,200 and takes West's riichi stick; E2: North rons South 1,000;
    # E3: the dealer West tsumo 1 han 30 fu, 500 all, keeps the deal: East 3, 1 honba.
    page = as_scorer.get(reverse("staff-game", args=[game.pk]))
    html = page.content.decode()
    names = page.context["names"]
    assert "East 3, 1 honba, no sticks on the table" in html
    assert f"<strong>{names[2]}</strong> deals" in html
    # East 25,000 - 5,200 - 500; South 25,000 + 5,200 + 1,000 - 1,000 - 500;
    # West 25,000 - 1,000 + 1,500; North 25,000 + 1,000 - 500.
    assert [s["score"] for s in page.context["seats"]] == [19300, 29700, 25500, 25500]
    # The hand list names the players, as the public log does.
    assert f"{names[1]} ron {names[0]}, 3 han 40 fu, 5,200 + 1,000 in sticks" in html


def test_preview_shows_the_payment_in_words(as_scorer: Client, game: Game) -> None:
    play(game, [tsumo(0, 1, 30), ron(1, 0, 1, 30)])  # the dealer wins twice: E1, 2 honba
    url = reverse("staff-preview", args=[game.pk])
    response = as_scorer.post(url, hand_post(3, outcome="ron", winners=["1"], loser="0", han_1="3", fu_1="40",
                                             riichi=["1"]))
    html = response.content.decode()
    east, south = as_scorer.get(reverse("staff-game", args=[game.pk])).context["names"][:2]
    # E1-2: South rons the dealer: 5,200 + 2 x 300 honba; South's own stick and nothing else on the table.
    assert f"{east} pays {south} 5,200 + 600" in html
    assert f"{south} takes 1 riichi stick (1,000)" in html
    assert "data-digest" in html


def test_hand_form_refuses_what_cannot_be_and_keeps_the_input(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    cases = [
        (dict(outcome="ron", winners=["1"], loser="1", han_1="3", fu_1="40"), "loser", "cannot both win and deal in"),
        (dict(outcome="ron", winners=["1"], han_1="3", fu_1="40"), "loser", "Choose who dealt in"),
        (dict(outcome="ron", loser="0"), "winners", "Tick who won"),
        (dict(outcome="tsumo", winner="2", han_2="1", fu_2="20"), "fu_2", "20 fu needs at least 2 han"),
        (dict(outcome="ron", winners=["2"], loser="0", han_2="2", fu_2="20"), "fu_2", "never a ron"),
        (dict(outcome="ron", winners=["2"], loser="0", fu_2="30"), "han_2", "How many han"),
        (dict(outcome="draw", tenpai=["1"], riichi=["2"]), "riichi", "must be tenpai"),
        (dict(outcome="abort"), "abort_reason", "Choose why"),
        (dict(outcome="chombo"), "offender", "Choose who made the chombo"),
        (dict(outcome="tsumo", winner="2", yakuman_2=["suuankou"], han_2="3", fu_2="30"), "yakuman_2", "not both"),
    ]
    state = services.entry_state(game)[1]
    for fields, field, message in cases:
        for action in ("preview", "save"):
            response = as_scorer.post(url, hand_post(1, action=action, note="typed by me", state=state, **fields))
            assert response.status_code == 200
            form = response.context["form"]
            assert field in form.errors, (fields, form.errors)
            assert message in " ".join(form.errors[field]), (fields, form.errors)
            html = response.content.decode()
            assert 'value="typed by me"' in html  # everything typed is still there
            assert f'value="{fields["outcome"]}" class="" id="id_outcome_' in html or "checked" in html
    assert not game.hands.exists()


def test_hand_form_names_the_seat_in_engine_messages(as_scorer: Client, game: Game) -> None:
    response = as_scorer.post(reverse("staff-game", args=[game.pk]),
                              hand_post(1, outcome="draw", tenpai=["1"], riichi=["2"]))
    west = response.context["names"][2]
    assert response.context["form"].errors["riichi"] == [f"{west} declared riichi, so it must be tenpai at an exhaustive draw"]


def test_saving_a_hand_needs_the_payments_seen(as_scorer: Client, game: Game) -> None:
    url = reverse("staff-game", args=[game.pk])
    data = hand_post(1, outcome="tsumo", winner="1", han_1="2", fu_1="30")
    response = as_scorer.post(url, {**data, "action": "save", "checked": "stale",
                                    "state": services.entry_state(game)[1]})
    assert response.status_code == 200 and not game.hands.exists()
    assert "changed since its payments were shown" in response.content.decode()
    response = save(as_scorer, game, data)
    assert response.status_code == 302
    hand = game.hands.get()
    assert (hand.number, hand.outcome, hand.entered_by.username) == (1, "tsumo", "scorer")


def test_double_ron_yaku_and_tiles_fill_in_han_and_fu(as_scorer: Client, game: Game) -> None:
    data = hand_post(
        1, outcome="ron", winners=["1", "3"], loser="2",
        # South: riichi + pinfu + tanyao + 1 dora = 4 han, pinfu ron 30 fu.
        yaku_1=["riichi", "pinfu", "tanyao"], dora_1="1", riichi=["1"],
        # North: 234m 567m 234p 678s 55p waiting 2m/5m on 34m? closed tanyao pinfu; ron on 2m.
        tiles_3="234m567m234p678s55p", win_tile_3="2m",
    )
    response = save(as_scorer, game, data)
    assert response.status_code == 302, response.context["form"].errors
    wins = {w.winner: (w.han, w.fu) for w in game.hands.get().wins.all()}
    assert wins[1] == (4, 30)
    assert wins[3] == (2, 30)  # pinfu, tanyao; a ron on a ryanmen wait, closed: 30 fu
    hand = game.hands.get()
    assert hand.yaku == [{"winner": 1, "yaku": ["riichi", "pinfu", "tanyao"], "dora": 1, "open": False}]
    assert hand.tiles[0]["winner"] == 3 and hand.tiles[0]["tiles"] == "234m567m234p678s55p"


def test_two_scorers_on_one_hand_the_second_sees_it_was_entered(client: Client, game: Game, scorer: User) -> None:
    other = User.objects.create_user("second", password="pw")
    game.series.scorers.add(other)
    first, second = Client(), Client()
    first.force_login(scorer)
    second.force_login(other)
    url = reverse("staff-game", args=[game.pk])
    mine = hand_post(1, outcome="ron", winners=["2"], loser="0", han_2="3", fu_2="40", note="second's entry")
    shown = second.post(url, mine).context  # both look at hand 1
    digest, state = shown["digest"], shown["form"]["state"].value()
    assert save(first, game, hand_post(1, outcome="draw", tenpai=["0"])).status_code == 302
    response = second.post(url, {**mine, "action": "save", "checked": digest, "state": state})
    assert response.status_code == 409
    html = response.content.decode()
    assert "Hand 1 was saved by scorer" in html and "Your entry was not saved" in html
    # The game as it is now beside the second scorer's entry, which is kept to take on deliberately.
    assert "Next: hand 2, East 1, 1 honba" in html
    assert 'value="second\'s entry"' in html or "value=\"second&#x27;s entry\"" in html
    assert game.hands.count() == 1 and game.hands.get().outcome == "draw"
    # Taken on as hand 2: shown with its payments against the game now, not saved.
    again = second.post(url, {**mine, "action": "reuse"})
    assert again.status_code == 200 and again.context["form"]["number"].value() == "2"
    assert "preview" in again.context and game.hands.count() == 1


def test_correcting_a_hand_replays_the_rest(as_scorer: Client, game: Game) -> None:
    play(game, [ron(0, 1, 3, 40), ron(1, 2, 2, 30)])
    url = reverse("staff-edit-hand", args=[game.pk, 1])
    page = as_scorer.get(url)
    assert page.context["form"]["han_1"].value() == "3" and page.context["form"]["loser"].value() == "0"
    response = save(as_scorer, game, hand_post(1, outcome="ron", winners=["1"], loser="0", han_1="4", fu_1="30"),
                    url=url)
    assert response.status_code == 302
    # E1: 4 han 30 fu non-dealer ron 7,700 (no kiriage); E2: 2 han 30 fu 2,000.
    assert game.replay().result.scores == (17300, 30700, 27000, 25000)
    assert game.audit.filter(action="correct_hand").count() == 1


def test_there_is_no_hand_0_to_correct(as_scorer: Client, game: Game) -> None:
    """Hands are numbered from 1: hand 0's correction page is a 404, and a
    save posted to it saves nothing (it was the next hand's page, whose save
    recorded a new hand)."""
    play(game, [ron(0, 1, 3, 40)])
    url = reverse("staff-edit-hand", args=[game.pk, 0])
    assert as_scorer.get(url).status_code == 404
    data = hand_post(2, outcome="ron", winners=["2"], loser="0", han_2="2", fu_2="30")
    state = services.entry_state(game)[1]
    preview = as_scorer.post(url, {**data, "state": state})
    assert preview.status_code == 404
    checked = as_scorer.post(reverse("staff-game", args=[game.pk]), {**data, "state": state}).context["digest"]
    assert as_scorer.post(url, {**data, "state": state, "action": "save", "checked": checked}).status_code == 404
    assert game.hands.count() == 1


def test_a_correction_that_makes_a_later_hand_impossible_is_refused_with_the_reason(
    as_scorer: Client, game: Game
) -> None:
    # Hand 1 the dealer keeps the deal, then eight all-noten draws pass it from E1 to S4:
    # nine hands. Made a draw, hand 1 passes the deal too and the game ends after hand 8.
    play(game, [tsumo(0, 1, 30), *[draw() for _ in range(8)]])
    game.refresh_from_db()
    assert game.is_finished
    url = reverse("staff-edit-hand", args=[game.pk, 1])
    data = hand_post(1, outcome="draw", all_noten="on", note="kept")
    response = as_scorer.post(url, data)
    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert errors == ["hand 9 would no longer be possible: the game ended after hand 8 (all last); no hand can follow"]
    assert 'value="kept"' in response.content.decode()
    assert game.hands.get(number=1).outcome == "tsumo"


def test_undo_finish_end_scores_and_penalties(as_scorer: Client, game: Game, series: Any) -> None:
    play(game, [ron(0, 1, 3, 40)])
    undo = reverse("staff-undo", args=[game.pk])
    state = services.entry_state(game)[1]
    assert as_scorer.post(undo, {"number": 2, "state": state}).status_code == 409  # stale: nothing undone
    assert game.hands.count() == 1
    assert as_scorer.post(undo, {"number": 1, "state": state}).status_code == 302 and not game.hands.exists()
    play(game, [ron(0, 1, 3, 40)])
    response = as_scorer.post(reverse("staff-finish", args=[game.pk]), {"end": "early"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_finished and game.end == "early"
    page = as_scorer.get(reverse("staff-game", args=[game.pk])).content.decode()
    assert "It ended because staff ended it early." in page
    # 30,200 first: (30,200 - 30,000) + 30 uma + 20 oka = +50.2
    assert "+50.2" in page

    kept = make_game(series)
    url = reverse("staff-final-scores", args=[kept.pk])
    response = as_scorer.post(url, {"score_0": 40000, "score_1": 30000, "score_2": 20000, "score_3": 9000,
                                    "riichi_sticks": 0})
    assert response.status_code == 200
    assert "must sum to 100,000" in response.content.decode()
    assert response.context["form"]["score_3"].value() == "9000"
    response = as_scorer.post(url, {"score_0": 40000, "score_1": 30000, "score_2": 20000, "score_3": 10050,
                                    "riichi_sticks": 0})
    assert "hundreds" in " ".join(response.context["form"].errors["score_3"])
    response = as_scorer.post(url, {"score_0": 40000, "score_1": 30000, "score_2": 20000, "score_3": 9000,
                                    "riichi_sticks": 1})
    assert response.status_code == 302
    kept.refresh_from_db()
    assert kept.is_finished and [s.end_score for s in kept.seats.order_by("seat")] == [41000, 30000, 20000, 9000]

    url = reverse("staff-penalties", args=[kept.pk])
    response = as_scorer.post(url, {"seat": 3, "points": "0", "reason": "slow"})
    assert "changes nothing" in " ".join(response.context["form"].errors["points"])
    assert as_scorer.post(url, {"seat": 3, "points": "-20", "reason": ""}).context["form"].errors["reason"]
    assert as_scorer.post(url, {"seat": 3, "points": "-20", "reason": "slow play"}).status_code == 302
    penalty = Penalty.objects.get(game=kept)
    assert penalty.points == -20000 and penalty.given_by.username == "scorer"
    cancel = reverse("staff-cancel-penalty", args=[kept.pk, penalty.pk])
    assert as_scorer.post(cancel).status_code == 302
    penalty.refresh_from_db()
    assert penalty.is_cancelled


def test_undo_and_preview_take_a_number_that_is_not_plain_digits_as_none(as_scorer: Client, game: Game) -> None:
    # "²" passes str.isdigit() but not int(): a stale or odd form, not a crash.
    play(game, [ron(0, 1, 3, 40)])
    assert as_scorer.post(reverse("staff-undo", args=[game.pk]), {"number": "²"}).status_code == 409
    assert game.hands.count() == 1
    response = as_scorer.post(reverse("staff-preview", args=[game.pk]), {"editing": "²", "number": 2})
    assert response.status_code == 200


def test_hand_number_in_the_form_is_the_next_hand(as_scorer: Client, game: Game) -> None:
    play(game, [ron(0, 1, 3, 40)])
    page = as_scorer.get(reverse("staff-game", args=[game.pk]) + "?outcome=draw")
    assert page.context["form"]["number"].value() == 2
    assert page.context["form"]["outcome"].value() == "draw"
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("language, named", [("en", "Entry key: Enter a valid value."),
                                             ("ja", "入力キー: 正しい値を入力してください。")])
def test_a_malformed_entry_key_is_refused_by_its_name(as_scorer: Client, game: Game, language: str,
                                                      named: str) -> None:
    # The key is hidden (the page's script makes it), so only a hand-made post gets it wrong:
    # the refusal still names the field, never "None: ...".
    data = hand_post(1, outcome="ron", winners=["1"], loser="0", han_1="3", fu_1="30", key="x",
                     state=services.entry_state(game)[1])
    for url, action in ((reverse("staff-preview", args=[game.pk]), "preview"),
                        (reverse("staff-game", args=[game.pk]), "preview"),
                        (reverse("staff-game", args=[game.pk]), "save")):
        html = as_scorer.post(url, {**data, "action": action}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert named in html, (url, action)
        assert "None:" not in html, (url, action)
    assert not game.hands.exists()


def test_the_end_scores_page_and_its_refusals_speak_japanese(as_scorer: Client, game: Game) -> None:
    # The seats' labels, the hundreds and the sum were English on a Japanese page.
    url = reverse("staff-final-scores", args=[game.pk])
    as_scorer.cookies["django_language"] = "ja"
    names = as_scorer.get(reverse("staff-game", args=[game.pk])).context["names"]
    page = as_scorer.get(url).content.decode()
    assert f"{names[0]}の終了時の点数" in page and "end score" not in page
    response = as_scorer.post(url, {"score_0": "30000", "score_1": "30000", "score_2": "30000", "score_3": "1000",
                                    "riichi_sticks": "0"})
    assert response.context["form"].non_field_errors() == [
        "終了時の点数の合計が、配給原点の合計から卓に残った供託を引いた値になりません"]
    response = as_scorer.post(url, {"score_0": "30050", "score_1": "30000", "score_2": "30000", "score_3": "9950",
                                    "riichi_sticks": "0"})
    assert response.context["form"].errors["score_0"] == ["点数は100点単位です。"]
    assert not game.is_finished and not game.hands.exists()


def test_the_pages_notices_speak_japanese(as_scorer: Client, game: Game) -> None:
    # The Back button's page of an earlier hand, and a hand changed after its preview
    # (without JavaScript): both notices were English on a Japanese page.
    play(game, [ron(0, 1, 3, 40)])
    as_scorer.cookies["django_language"] = "ja"
    url = reverse("staff-game", args=[game.pk])
    back = as_scorer.get(url + "?hand=1")
    assert back.context["notice"] == "このページは第1局のものでした。対局は今、第2局です。前の入力は引き継いでいません。"
    data = hand_post(2, action="save", outcome="tsumo", winner="1", han_1="2", fu_1="30",
                     state=services.entry_state(game)[1], checked="not-what-was-shown")
    changed = as_scorer.post(url, data)
    assert changed.context["notice"] == "支払いを表示した後に局の内容が変わりました。確認してから保存してください。"
    assert game.hands.count() == 1
