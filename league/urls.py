from django.contrib import admin
from django.urls import path

from league.views import series

urlpatterns = [
    path("", series.index, name="index"),
    path("series/<slug:slug>/", series.standings, name="series-standings"),
    path("admin/", admin.site.urls),
]
