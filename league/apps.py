from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League"
