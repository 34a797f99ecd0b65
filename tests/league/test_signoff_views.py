"""The sign-off pages (issue 20): the scorer's phone, the per-seat link, the
referee, the PINs desk and the public tables view. The PINs and links show
only on the staff page, for a login that scores the series."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Game, GameAudit, Player, Series, SignOff
from tests.factories import make_game, make_players, make_scorer, make_series

pytestmark = pytest.mark.django_db

END_SCORES = [40000, 30000, 20000, 10000]
PINS = ["1111", "2222", "3333", "4444"]


@pytest.fixture
def series() -> Series:
    return make_series("ari-ari", slug="club", requires_signoff=True)


@pytest.fixture
def game(series: Series) -> Game:
    players = make_players()
    services.set_pins(pins=dict(zip(players, PINS, strict=True)))
    game = make_game(series, players, table="3")
    services.record_final_scores(game=game, scores=END_SCORES)
    game.refresh_from_db()
    return game


def post_pin(client: Client, game: Game, seat: int, pin: str, **extra: str):
    data = {"seat": str(seat), "pin": pin, "result": services.result_digest(game), "round": str(game.signoff_round),
            "action": "confirm", **extra}
    return client.post(reverse("staff-signoff", args=[game.pk]), data)


def link_path(game: Game, seat: int) -> str:
    return reverse("signoff-link", args=[services.seat_link_token(game, seat)])


def test_the_scorer_page_shows_the_result_and_a_pin_form_per_seat_but_no_link(as_scorer: Client, game: Game) -> None:
    page = as_scorer.get(reverse("staff-signoff", args=[game.pk])).content.decode()
    assert page.count('name="pin"') == 4
    assert "+60.0" in page and "-50.0" in page
    # Issue 29: whoever holds the scorer's phone could open all four links and confirm for the table.
    assert not re.search(r'(?<![0-9])/signoff/[^/"]+/', page) and 'class="qr"' not in page


def test_pins_on_the_scorers_phone_sign_seat_by_seat(as_scorer: Client, game: Game) -> None:
    for seat in range(4):
        response = post_pin(as_scorer, game, seat, PINS[seat])
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.signed_off_at is not None
    page = as_scorer.get(reverse("staff-signoff", args=[game.pk])).content.decode()
    assert "All four players confirmed this result" in page and "<svg" not in page  # nothing left to sign


def test_a_wrong_pin_is_said_and_signs_nothing(as_scorer: Client, game: Game) -> None:
    response = post_pin(as_scorer, game, 0, PINS[1])
    assert response.status_code == 400
    assert "Wrong PIN for" in response.content.decode()
    assert not SignOff.objects.exists()


def test_a_dispute_is_flagged_on_the_staff_pages_and_the_referee_resolves_it(
    as_scorer: Client, game: Game, series: Series
) -> None:
    post_pin(as_scorer, game, 2, PINS[2], action="dispute", note="East's last tsumo was 1,300 all")
    for path in (reverse("staff-series", args=[series.slug]), reverse("staff-game", args=[game.pk]),
                 reverse("staff-signoff", args=[game.pk])):
        assert "East&#x27;s last tsumo was 1,300 all" in as_scorer.get(path).content.decode(), path
    dispute = SignOff.objects.get()
    response = as_scorer.post(reverse("staff-signoff-resolve", args=[game.pk, dispute.pk]))
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.resolution == SignOff.Resolution.ACCEPTED
    assert "last tsumo" not in as_scorer.get(reverse("staff-series", args=[series.slug])).content.decode()
    assert game.audit.filter(action=GameAudit.Action.RESOLVE, username="scorer").exists()


def test_a_player_signs_on_their_own_phone_through_the_link(client: Client, game: Game) -> None:
    path = link_path(game, 1)
    page = client.get(path)
    assert page.status_code == 200 and page["Referrer-Policy"] == "same-origin"
    name = game.seats.get(seat=1).player.name
    assert f"<strong>{name}</strong>" in page.content.decode()
    assert client.post(path, {"action": "confirm"}).status_code == 302
    assert "You confirmed this result" in client.get(path).content.decode()
    assert SignOff.objects.get().seat == 1


def test_a_dispute_through_the_link_needs_a_note(client: Client, game: Game) -> None:
    path = link_path(game, 0)
    response = client.post(path, {"action": "dispute", "note": ""})
    assert response.status_code == 400 and not SignOff.objects.exists()
    client.post(path, {"action": "dispute", "note": "we played to 30,000"})
    assert SignOff.objects.get().note == "we played to 30,000"


def test_a_link_after_a_correction_says_to_ask_for_a_new_one(client: Client, game: Game) -> None:
    path = link_path(game, 0)
    services.add_penalty(game=game, seat=0, points=-2000, reason="chombo at the table")
    response = client.get(path)
    assert response.status_code == 409 and "open it again from your player card" in response.content.decode()
    assert client.post(path, {"action": "confirm"}).status_code == 409
    assert not SignOff.objects.exists()


def test_a_made_up_link_is_not_found(client: Client, game: Game) -> None:
    assert client.get(reverse("signoff-link", args=["not-a-token"])).status_code == 404


def test_only_the_series_scorers_see_the_sign_off_page(client: Client, game: Game) -> None:
    outsider = User.objects.create_user("outsider")
    client.force_login(outsider)
    assert client.get(reverse("staff-signoff", args=[game.pk])).status_code == 403
    assert post_pin(client, game, 0, PINS[0]).status_code == 403
    assert client.get(reverse("staff-pins", args=[game.series.slug])).status_code == 403
    client.logout()
    assert client.get(reverse("staff-signoff", args=[game.pk])).status_code == 302  # to the login


def test_the_public_tables_view_says_who_still_signs_and_shows_no_pin_or_link(client: Client, game: Game,
                                                                               series: Series) -> None:
    services.sign_off(game=game, seat=0, result=services.result_digest(game), pin=PINS[0])
    page = client.get(reverse("signoff-tables", args=[series.slug])).content.decode()
    seats = re.findall(r'<td>(\w+)</td><td>([^<]+)</td><td class="num">[^<]*</td>\s*<td><span class="answer (\w+)">',
                       page)
    names = [s.player.name for s in game.seats.order_by("seat").select_related("player")]
    assert seats == [("East", names[0], "confirmed"), ("South", names[1], "waiting"),
                     ("West", names[2], "waiting"), ("North", names[3], "waiting")]
    assert "/signoff/" not in page and "<svg" not in page and 'name="pin"' not in page
    for seat in range(1, 4):
        services.sign_off(game=game, seat=seat, result=services.result_digest(game), pin=PINS[seat])
    assert "No table is waiting" in client.get(reverse("signoff-tables", args=[series.slug])).content.decode()


def test_staff_set_many_pins_at_the_desk(as_scorer: Client, scorer: User, game: Game, series: Series) -> None:
    players = [s.player for s in game.seats.order_by("seat").select_related("player")]
    # PINs are the director's (issue 32): the scorer is refused, a director of the series sets them.
    assert as_scorer.post(reverse("staff-pins", args=[series.slug]), {f"pin-{players[0].pk}": "9876"}).status_code == 403
    series.directors.add(scorer)
    response = as_scorer.post(reverse("staff-pins", args=[series.slug]),
                              {f"pin-{players[0].pk}": "9876", f"pin-{players[1].pk}": ""})
    assert response.status_code == 302
    first, second = (Player.objects.get(pk=p.pk) for p in players[:2])
    assert services.signoff.pin_matches("9876", first.signoff_pin)
    assert services.signoff.pin_matches(PINS[1], second.signoff_pin)  # an empty box keeps the PIN
    bad = as_scorer.post(reverse("staff-pins", args=[series.slug]),
                         {f"pin-{players[2].pk}": "12", f"pin-{players[3].pk}": "5555"})
    assert bad.status_code == 400 and "A PIN is 4 to 8 digits." in bad.content.decode()
    assert services.signoff.pin_matches(PINS[3], Player.objects.get(pk=players[3].pk).signoff_pin)  # none set


def test_the_staff_game_page_links_the_sign_off_after_the_last_hand(as_scorer: Client, series: Series) -> None:
    playing = make_game(series, make_players())
    assert reverse("staff-signoff", args=[playing.pk]) not in as_scorer.get(
        reverse("staff-game", args=[playing.pk])).content.decode()
    services.record_final_scores(game=playing, scores=END_SCORES)
    page = as_scorer.get(reverse("staff-game", args=[playing.pk])).content.decode()
    assert reverse("staff-signoff", args=[playing.pk]) in page and "4 players still to answer" in page


@pytest.fixture
def scorer(series: Series) -> User:
    return make_scorer(series, password="pw")


def test_the_tables_view_of_a_series_that_does_not_require_it_lists_sign_offs_begun(client: Client) -> None:
    series = make_series("ari-ari", slug="relaxed")
    quiet, begun = (make_game(series, make_players(), table=t) for t in ("1", "2"))
    for g in (quiet, begun):
        services.record_final_scores(game=g, scores=END_SCORES)
    services.sign_off(game=begun, seat=2, result=services.result_digest(begun),
                      token=services.seat_link_token(begun, 2))
    page = client.get(reverse("signoff-tables", args=[series.slug])).content.decode()
    assert "table 2" in page and "table 1" not in page


def test_the_tables_view_shows_no_points_of_a_round_the_director_hides(client: Client) -> None:
    from league.services import event

    series = make_series("ari-ari", slug="open", kind="tournament", requires_signoff=True)
    event.configure_event(series=series, rounds=3)
    game = make_game(series, make_players(), round_number=2, table="1")
    services.record_final_scores(game=game, scores=END_SCORES)
    path = reverse("signoff-tables", args=[series.slug])
    assert "+60.0" in client.get(path).content.decode()
    event.hide_results(series=series, from_round=2)
    page = client.get(path).content.decode()
    assert "+60.0" not in page and "-50.0" not in page and page.count('class="answer waiting"') == 4


def test_the_admin_lists_the_answers_read_only(client: Client, game: Game) -> None:
    services.sign_off(game=game, seat=3, result=services.result_digest(game), pin=PINS[3], dispute=True,
                      note="wrong uma")
    client.force_login(User.objects.create_superuser("admin", "admin@example.com", "pw"))
    page = client.get(reverse("admin:league_signoff_changelist"))
    assert page.status_code == 200 and "wrong uma" in page.content.decode()
    row = SignOff.objects.get()
    assert client.post(reverse("admin:league_signoff_change", args=[row.pk]), {"note": "x"}).status_code == 403


def test_the_public_game_page_says_a_game_waits_for_its_sign_off(client: Client, game: Game) -> None:
    path = reverse("game-detail", args=[game.pk])
    assert "not counted yet" in client.get(path).content.decode()
    for seat in range(4):
        services.sign_off(game=game, seat=seat, result=services.result_digest(game), pin=PINS[seat])
    assert "not counted yet" not in client.get(path).content.decode()


def test_the_database_holds_one_answer_in_force_per_seat(game: Game) -> None:
    from django.db import IntegrityError, transaction

    first = services.sign_off(game=game, seat=0, result=services.result_digest(game), pin=PINS[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        SignOff.objects.create(game=game, seat=0, player=first.player, kind="confirm", via="pin", result=first.result)


# -- issue 29: a PIN form of an earlier round; each player's own link ---------------------------


def test_a_pin_form_shown_before_a_correction_reversed_since_is_refused(as_scorer: Client, game: Game) -> None:
    page = as_scorer.get(reverse("staff-signoff", args=[game.pk])).content.decode()
    shown = re.search(r'name="round" value="(\d+)"', page).group(1)
    penalty = services.add_penalty(game=game, seat=0, points=-2000, reason="chombo at the table")
    services.cancel_penalty(penalty=penalty)  # the result is as it was shown: the same digest
    stale = post_pin(as_scorer, game, 0, PINS[0], round=shown)
    assert stale.status_code == 409 and not SignOff.objects.exists()
    game.refresh_from_db()
    assert post_pin(as_scorer, game, 0, PINS[0]).status_code == 302  # a form shown now


def test_a_player_reaches_their_own_seat_link_from_their_card_only(client: Client, game: Game) -> None:
    from league.models import Registration

    seats = {s.seat: s.player for s in game.seats.all()}
    reg = Registration.objects.create(series=game.series, player=seats[2], number=3, first_name="Third", last_name="P")
    card = client.get(reverse("event-short", args=[reg.code]))
    assert card.status_code == 302 and card["Location"] == reverse("signoff-player", args=[reg.code])
    to_link = client.get(card["Location"])
    assert services.read_link(to_link["Location"].split("/")[-2]).seat == 2  # their seat, no other
    assert client.post(to_link["Location"], {"action": "confirm"}).status_code == 302
    assert [(s.seat, s.via) for s in SignOff.objects.all()] == [(2, "link")]
    # Answered: the card leads to the player's page again, and the sign page says nothing waits.
    assert client.get(reverse("event-short", args=[reg.code]))["Location"] == reg.get_absolute_url()
    assert client.get(reverse("signoff-player", args=[reg.code])).status_code == 200
    assert client.get(reverse("signoff-player", args=["AB%00CD"])).status_code == 404
