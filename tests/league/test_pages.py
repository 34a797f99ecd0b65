"""The admin (read-only history, changes through the services) and the bare public pages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from league import services
from league.models import Game, GameAudit, Hand, Penalty
from tests.factories import hanchan_passing_deal, make_game, make_players, make_series, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("staff", "staff@example.com", "pw"))
    return client


def test_admin_lists_every_model(staff: Client) -> None:
    game = make_game()
    play(game, hanchan_passing_deal())
    services.add_penalty(game=game, seat=0, points=-5000, reason="slow")
    for model in ["player", "series", "game", "seat", "hand", "win", "penalty", "gameaudit"]:
        response = staff.get(reverse(f"admin:league_{model}_changelist"), {"q": "Player"})
        assert response.status_code == 200, model
    page = staff.get(reverse("admin:league_game_change", args=[game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "S4" in text and "ron from East" in text  # derived round and the hand summary
    assert "Record hand" in text  # the audit trail inline


def test_admin_hands_and_audit_are_read_only(staff: Client) -> None:
    game = make_game()
    play(game, [hanchan_passing_deal()[0]])
    hand = Hand.objects.get()
    assert staff.get(reverse("admin:league_hand_add")).status_code == 403
    assert staff.post(reverse("admin:league_hand_delete", args=[hand.pk]), {"post": "yes"}).status_code == 403
    entry = GameAudit.objects.first()
    assert staff.post(reverse("admin:league_gameaudit_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403


def test_admin_add_game_goes_through_start_game(staff: Client) -> None:
    series = make_series()
    a, b, c, d = make_players()
    data = {"series": series.pk, "round_number": 2, "table": "A", "east": a.pk, "south": b.pk, "west": c.pk, "north": d.pk}
    response = staff.post(reverse("admin:league_game_add"), data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.player for s in game.seats.order_by("seat")] == [a, b, c, d]
    assert game.audit.get().username == "staff"
    data["north"] = a.pk
    response = staff.post(reverse("admin:league_game_add"), data)
    assert response.status_code == 200 and "cannot sit twice" in response.content.decode()


def test_admin_penalty_add_and_cancel_resettle(staff: Client) -> None:
    game = make_game()
    services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000])
    data = {"game": game.pk, "seat": 1, "points": -20000, "reason": "phone rang"}
    assert staff.post(reverse("admin:league_penalty_add"), data).status_code == 302
    assert game.seats.get(seat=1).points == -15100
    penalty = Penalty.objects.get()
    staff.post(reverse("admin:league_penalty_changelist"), {"action": "cancel", "_selected_action": [penalty.pk]})
    assert game.seats.get(seat=1).points == 4900


def test_admin_finish_early_action(staff: Client) -> None:
    game = make_game()
    play(game, hanchan_passing_deal()[:3])
    staff.post(reverse("admin:league_game_changelist"), {"action": "finish_early", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert (game.status, game.end) == (Game.Status.FINISHED, Game.End.EARLY)
    assert game.audit.filter(action=GameAudit.Action.FINISH, username="staff").exists()


@pytest.mark.parametrize("action", ["finish_early", "undo_last_hand"])
def test_admin_game_actions_need_change_permission(client: Client, action: str) -> None:
    # A staff login that may only look at games must not change one through an action.
    viewer = User.objects.create_user("viewer", "viewer@example.com", "pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    client.force_login(viewer)
    game = make_game()
    play(game, hanchan_passing_deal()[:3])
    client.post(reverse("admin:league_game_changelist"), {"action": action, "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert (game.status, game.hands.count()) == (Game.Status.IN_PROGRESS, 3)


def test_admin_penalty_cancel_needs_change_permission(client: Client) -> None:
    viewer = User.objects.create_user("viewer", "viewer@example.com", "pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_penalty"))
    client.force_login(viewer)
    game = make_game()
    penalty = services.add_penalty(game=game, seat=1, points=-20000, reason="phone rang")
    client.post(reverse("admin:league_penalty_changelist"), {"action": "cancel", "_selected_action": [penalty.pk]})
    penalty.refresh_from_db()
    assert not penalty.is_cancelled


def test_index_and_standings_pages(client: Client) -> None:
    series = make_series(name="Autumn League")
    game = make_game(series)
    services.record_final_scores(game=game, scores=[41300, 24900, 21800, 12000])
    assert "Autumn League" in client.get("/").content.decode()
    page = client.get(series.get_absolute_url()).content.decode()
    assert "+61.3" in page and "-48.0" in page
    assert client.get(series.get_absolute_url(), {"round": "1", "date": "2020-01-01"}).status_code == 200
