from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League"

    def ready(self) -> None:
        # league.entry is Django-free (the phone runs it too): its words are
        # translated through what is installed here, in the request's language.
        from django.utils.translation import gettext, ngettext

        from league.engine_words import abort_reason_text, refusal, yaku_name
        from league.entry import translation
        from league.memos import per_language_lookup

        # Kept per language: a live preview's words (its payments, the value
        # counted) are a handful of lookups per tap, each dearer than the rest
        # of the wording.
        translation.install(gettext=per_language_lookup(gettext), ngettext=per_language_lookup(ngettext),
                            yaku_name=yaku_name, refusal=refusal, abort_reason=abort_reason_text)

        # The webhooks' "standings changed": versions cannot import the services (they import it).
        from league import stamps
        from league.services import webhooks

        stamps.results_changed.connect(webhooks.standings_changed, dispatch_uid="webhooks-standings")
