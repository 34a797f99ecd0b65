from django.contrib import admin
from django.urls import include, path

from league.views import exports, games, players, series

# Each area keeps its routes together; URL names are what templates use.
urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # -- public pages (issue 7): series list, series, game, player --
    path("", series.index, name="index"),
    path("series/<slug:slug>/", series.standings, name="series-standings"),
    path("series/<slug:slug>/players/<int:player_id>/", players.detail, name="player-detail"),
    path("games/<int:pk>/", games.detail, name="game-detail"),
    path("healthz", series.healthz, name="healthz"),
    # -- CSV exports (issue 5) --
    path("series/<slug:slug>/standings.csv", exports.standings_csv, name="series-standings-csv"),
    path("series/<slug:slug>/games.csv", exports.games_csv, name="series-games-csv"),
    path("series/<slug:slug>/hands.csv", exports.hands_csv, name="series-hands-csv"),
    # -- staff entry (issue 6) --
    # -- log import (issue 8) --
]
