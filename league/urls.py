from django.contrib import admin
from django.urls import include, path

from league.views import series

# Each area keeps its routes together; URL names are what templates use.
urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # -- public pages (issue 7): series list, series, game, player --
    path("", series.index, name="index"),
    path("series/<slug:slug>/", series.standings, name="series-standings"),
    # -- CSV exports (issue 5) --
    # -- staff entry (issue 6) --
    # -- log import (issue 8) --
]
