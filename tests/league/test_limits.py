"""Limits that keep one client from taking the site: anonymous CSV downloads per
address, and failed logins per user name and address together (django-axes)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import make_game, make_scorer, make_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def series(settings):
    settings.EXPORT_RATE_LIMIT = "3/m"
    s = make_series(slug="night")
    make_game(series=s)
    return s


@pytest.mark.parametrize("csv", ["standings", "games", "hands"])
def test_anonymous_downloads_beyond_the_limit_get_429_with_retry_after(client, series, csv) -> None:
    url = f"/series/night/{csv}.csv"
    for _ in range(3):
        assert client.get(url).status_code == 200
    refused = client.get(url)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "at most 3 per m" in refused.content.decode()
    # Another address is counted on its own.
    assert client.get(url, REMOTE_ADDR="192.0.2.7").status_code == 200


def test_the_limit_counts_all_three_files_together(client, series) -> None:
    for csv in ("standings", "games", "hands"):
        assert client.get(f"/series/night/{csv}.csv").status_code == 200
    assert client.get("/series/night/games.csv").status_code == 429


def test_staff_downloads_are_not_limited(client, series) -> None:
    make_scorer(series, "scorer", "pw")
    assert client.post("/accounts/login/", {"username": "scorer", "password": "pw"}).status_code == 302
    for _ in range(6):
        assert client.get("/series/night/hands.csv").status_code == 200


def test_the_client_address_comes_from_the_proxy_header_when_one_is_named(client, series, settings) -> None:
    settings.CLIENT_IP_META = "HTTP_X_REAL_IP"
    for _ in range(3):
        assert client.get("/series/night/games.csv", HTTP_X_REAL_IP="198.51.100.1").status_code == 200
    assert client.get("/series/night/games.csv", HTTP_X_REAL_IP="198.51.100.1").status_code == 429
    # Behind the proxy every request comes from its address; the header tells the clients apart.
    assert client.get("/series/night/games.csv", HTTP_X_REAL_IP="198.51.100.2").status_code == 200


def login(client, username: str, password: str, address: str = "127.0.0.1") -> int:
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR=address).status_code


def test_failed_logins_lock_out_that_name_from_that_address_only(client, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("ada", password="the right passphrase")
    User.objects.create_user("ben", password="another passphrase")
    for _ in range(2):
        assert login(client, "ada", "wrong") == 200  # the form again, with its error
    assert login(client, "ada", "wrong") == 429  # the third failure locks the name out from this address
    assert login(client, "ada", "the right passphrase") == 429  # even with the right password
    # The same venue address still serves another scorer, and ada elsewhere.
    assert login(client, "ben", "another passphrase") == 302
    client.logout()
    assert login(client, "ada", "the right passphrase", address="203.0.113.9") == 302


def test_a_successful_login_resets_the_count(client, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("ada", password="the right passphrase")
    assert login(client, "ada", "wrong") == 200
    assert login(client, "ada", "wrong") == 200
    assert login(client, "ada", "the right passphrase") == 302
    client.logout()
    assert login(client, "ada", "wrong") == 200
    assert login(client, "ada", "wrong") == 200
    assert login(client, "ada", "the right passphrase") == 302
