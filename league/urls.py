from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from league.views import (
    api,
    event_public,
    event_staff,
    events,
    exports,
    games,
    health,
    imports,
    offline,
    players,
    ratings,
    series,
    signoff,
    signoff_public,
    signup,
    signup_public,
    staff,
    staff_kept,
    staff_preview,
    stages,
    stages_public,
    webapp,
    webhooks,
    words,
)

# Each area keeps its routes together; URL names are what templates use.
urlpatterns = [
    # First, as Django tries the routes in order (a few µs each, an include's
    # miss an exception): the game's page and save, and the live preview, what
    # a scorer's phone asks on every hand and tap; behind some thirty others
    # their resolving cost 20-40 µs a request (issue 28). No route above
    # their own place below matches their paths (tests/league/test_urls_first.py).
    path("staff/games/<int:pk>/", staff.game, name="staff-game"),
    path("staff/games/<int:pk>/preview/", staff_preview.preview, name="staff-preview"),
    path("admin/", admin.site.urls),
    # Before Django's own: the logout that also clears the browser's copies (webapp.Logout).
    path("accounts/logout/", webapp.Logout.as_view(), name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    # -- languages (issue 18): the switch on every page posts here. It is on
    # cached public pages, which carry no CSRF token; all it can change is
    # the visitor's own language cookie, so it needs none. --
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    # -- public pages (issue 7): series list, series, game, player --
    path("", series.index, name="index"),
    path("series/<slug:slug>/", series.standings, name="series-standings"),
    path("series/<slug:slug>/players/<int:player_id>/", players.detail, name="player-detail"),
    path("players/<int:player_id>/", players.across_series, name="player-series"),
    path("games/<int:pk>/", games.detail, name="game-detail"),
    # -- the read API (issue 37): /api/v1/, its schema at /api/v1/openapi.json (docs/api.md) --
    path("api/v1/", api.urls()),
    # -- ratings across series (issue 38) --
    path("ratings/", ratings.index, name="ratings"),
    path("ratings/<slug:slug>/", ratings.table, name="rating"),
    path("ratings/<slug:slug>/rating.csv", ratings.table_csv, name="rating-csv"),
    path("ratings/<slug:slug>/players/<int:player_id>/", ratings.history, name="rating-history"),
    # the words of the pages' scripts, per language and version (issue 30; out of the pages: issue 28)
    path("words/<slug:language>.<slug:version>.js", words.script, name="script-words"),
    # the offline engine's words, per language and version (issue 30: the phone prices in the page's language)
    path("words/engine/<slug:language>.<slug:version>.json", words.engine, name="engine-words"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("time", health.server_time, name="server-time"),
    # -- CSV exports (issue 5) --
    path("series/<slug:slug>/standings.csv", exports.standings_csv, name="series-standings-csv"),
    path("series/<slug:slug>/games.csv", exports.games_csv, name="series-games-csv"),
    path("series/<slug:slug>/hands.csv", exports.hands_csv, name="series-hands-csv"),
    # -- staff entry (issue 6) --
    path("staff/", staff.home, name="staff-home"),
    # the staff pages as a web app that works offline (issue 20): under /staff/ for the worker's scope
    path("staff/sw.js", webapp.service_worker, name="staff-sw"),
    path("staff/manifest.webmanifest", webapp.manifest, name="staff-manifest"),
    path("staff/session/", webapp.login_again, name="staff-login-again"),
    path("staff/series/<slug:slug>/", staff.series_games, name="staff-series"),
    path("staff/series/<slug:slug>/start/", staff.start_game, name="staff-start"),
    path("staff/games/<int:pk>/hands/<int:number>/", staff.edit_hand, name="staff-edit-hand"),
    path("staff/games/<int:pk>/kept/", staff_kept.kept, name="staff-kept"),
    path("staff/games/<int:pk>/undo/", staff.undo, name="staff-undo"),
    path("staff/games/<int:pk>/finish/", staff.finish, name="staff-finish"),
    path("staff/games/<int:pk>/reopen/", staff.reopen, name="staff-reopen"),
    path("staff/games/<int:pk>/end-scores/", staff.final_scores, name="staff-final-scores"),
    path("staff/games/<int:pk>/penalties/", staff.penalties, name="staff-penalties"),
    path("staff/games/<int:pk>/penalties/<int:penalty_pk>/cancel/", staff.cancel_penalty, name="staff-cancel-penalty"),
    # -- offline entry (issue 20): the phone's engine, OFFLINE_CONTRACT.md --
    path("staff/offline/engine.json", offline.engine_info, name="offline-engine"),
    path("staff/offline/engine.js", offline.engine_js, name="offline-engine-js"),
    path("staff/offline/engine.zip", offline.engine_zip, name="offline-engine-zip"),
    path("staff/offline/pyodide/<str:name>", offline.runtime, name="offline-runtime"),
    path("staff/games/<int:pk>/offline.json", offline.game_state, name="staff-offline-game"),
    # -- the table signs the result (issue 20) --
    path("staff/games/<int:pk>/signoff/", signoff.staff_signoff, name="staff-signoff"),
    path("staff/games/<int:pk>/signoff/<int:signoff_pk>/resolve/", signoff.resolve, name="staff-signoff-resolve"),
    path("staff/series/<slug:slug>/pins/", signoff.pins, name="staff-pins"),
    # -- webhooks (issue 37): the director's URLs and the log of deliveries --
    path("staff/series/<slug:slug>/webhooks/", webhooks.manage, name="webhooks-manage"),
    path("signoff/<str:token>/", signoff_public.seat_link, name="signoff-link"),
    path("n/<str:code>/sign", signoff_public.player_signoff, name="signoff-player"),
    path("series/<slug:slug>/tables/", signoff_public.tables, name="signoff-tables"),
    # -- log import (issue 8) --
    path("staff/series/<slug:slug>/import/", imports.upload, name="staff-import"),
    path("staff/games/<int:pk>/tenhou6.json", imports.export_log, name="staff-export-log"),
    # -- an event day (issue 15): staff --
    path("staff/events/new/", events.new_event, name="event-new"),
    path("staff/series/<slug:slug>/event/edit/", events.edit_event, name="event-edit"),
    path("staff/series/<slug:slug>/event/", event_staff.dashboard, name="event-dashboard"),
    path("staff/series/<slug:slug>/event/settings/", event_staff.settings_view, name="event-settings"),
    path("staff/series/<slug:slug>/event/roles/", event_staff.roles, name="event-roles"),
    path("staff/series/<slug:slug>/event/players/", event_staff.players, name="event-players"),
    path("staff/series/<slug:slug>/event/players/import/", event_staff.import_players, name="event-import"),
    path("staff/series/<slug:slug>/event/players/check-in/", event_staff.check_in, name="event-check-in"),
    path("staff/series/<slug:slug>/event/players/<int:number>/drop/", event_staff.drop, name="event-drop"),
    path("staff/series/<slug:slug>/event/seat/", event_staff.seat, name="event-seat"),
    path("staff/series/<slug:slug>/event/results/", event_staff.results, name="event-results"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/", event_staff.round_view, name="event-round"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/swap/", event_staff.swap, name="event-swap"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/substitute/", event_staff.substitute,
         name="event-substitute"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/publish/", event_staff.publish, name="event-publish"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/start/", event_staff.start, name="event-start"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/clock/", event_staff.clock, name="event-clock"),
    path("staff/series/<slug:slug>/event/rounds/<int:number>/tables/<int:table>/extra/", event_staff.extra_time,
         name="event-extra-time"),
    path("staff/series/<slug:slug>/event/print/<slug:kind>/", event_staff.printout, name="event-print"),
    # -- an event day: public --
    path("series/<slug:slug>/event/", event_public.public_event, name="event-public"),
    path("series/<slug:slug>/event/players/<int:number>/", event_public.player_page, name="event-player"),
    path("series/<slug:slug>/event/players/<int:number>/qr.svg", event_public.qr, name="event-qr"),
    path("series/<slug:slug>/event/screen/<slug:kind>/", event_public.screen, name="event-screen"),
    path("n/<str:code>", event_public.short_link, name="event-short"),
    # -- players registering themselves (issue 39) --
    path("series/<slug:slug>/event/register/", signup_public.signup_form, name="signup-form"),
    path("register/link/<str:token>/", signup_public.signup_link, name="signup-link"),
    path("staff/series/<slug:slug>/event/signup/", signup.desk, name="signup-desk"),
    path("staff/series/<slug:slug>/event/signup/erase/", signup.erase, name="signup-erase"),
    path("staff/series/<slug:slug>/event/signup/signups.csv", signup.signups_csv, name="signup-csv"),
    path("staff/series/<slug:slug>/event/signup/<str:pk>/", signup.decide, name="signup-decide"),
    # stages, teams and the EMA results (league.views.stages)
    path("series/<slug:slug>/event/stages/", stages_public.stages_standings, name="stages-standings"),
    path("series/<slug:slug>/event/teams/", stages_public.stages_teams, name="stages-teams"),
    path("staff/series/<slug:slug>/event/stages/", stages.stages_manage, name="stages-manage"),
    path("staff/series/<slug:slug>/event/stages/rules/", stages.stages_rules, name="stages-rules"),
    path("staff/series/<slug:slug>/event/stages/playoff/", stages.stages_playoff, name="stages-playoff"),
    path("staff/series/<slug:slug>/event/stages/<int:number>/cut/", stages.stages_cut, name="stages-cut"),
    path("staff/series/<slug:slug>/event/stages/<int:number>/seat/", stages.stages_seat, name="stages-seat"),
    path("staff/series/<slug:slug>/event/ema/", stages.ema_preview, name="ema-preview"),
    path("staff/series/<slug:slug>/event/ema.<slug:kind>", stages.ema_file, name="ema-file"),
]
