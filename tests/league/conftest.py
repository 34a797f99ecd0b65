"""Fixtures the staff-page tests share: a club series, its scorer, a game, and
a client logged in as that scorer. A module that needs other ones defines its
own fixture of the same name, which takes precedence."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from league.models import Game
from tests.factories import make_game, make_scorer, make_series


@pytest.fixture
def series() -> Any:
    return make_series("ari-ari", slug="club")


@pytest.fixture
def scorer(series: Any) -> User:
    return make_scorer(series, password="pw")


@pytest.fixture
def game(series: Any) -> Game:
    return make_game(series)


@pytest.fixture
def as_scorer(client: Client, scorer: User) -> Client:
    client.force_login(scorer)
    return client
