"""Every page in Japanese, with no English left (issue 18).

Each page of the demo (the league, the event day, the finished cup) is
rendered through the test client with Japanese asked for, as a visitor and as
staff; its visible text (headings, cells, buttons, labels, titles and the
words only a screen reader hears) is read, and any run of Latin letters left
is a failure, with the page and the words. This finds English that
``makemessages`` never saw (a string built in a view, a column name, a choice
label), not only strings missing from the .po. What may stay Latin: the names
people typed (players, series, teams, clubs, penalty reasons, log-ins), a few
terms that are the same in both languages, a game term's romaji in brackets
after its Japanese (立直 (riichi)), addresses, code (``<code>``, snake_case
ids, tile notation like 234m), what the page quotes as literal input (in
「」), and a record the page marks as written in English (``lang="en"``:
the event's change log, stored as it was written).

Every URL name of the site is either visited here or named in ``NOT_PAGES``
with the reason, so a new page cannot escape the check.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from league.models import Delivery, Game, Penalty, Player, Rating, Round, RoundSeat, Series, SignUp, WebHook
from league.services import signoff as signoff_services
from league.views.event_public import SCREENS
from league.views.event_staff import PRINTS

pytestmark = pytest.mark.django_db

# URL names that are not pages a person reads, each with its reason.
NOT_PAGES = {
    "set_language": "the switch's POST target: a redirect",
    "healthz": "a probe for the load balancer",
    "readyz": "a probe for the load balancer",
    "server-time": "the countdown's clock: the server's time in JSON",
    "staff-kept": "the kept hands' JSON endpoint (queue/sending.js): its errors are translated, tests/league/test_kept_batch.py",
    "series-standings-csv": "a CSV export, the same in every language (tests/league/test_i18n.py)",
    "series-games-csv": "a CSV export, the same in every language",
    "signup-csv": "a CSV export for the director, the same in every language",
    "series-hands-csv": "a CSV export, the same in every language",
    "staff-export-log": "a game record (tenhou.net/6 JSON), the same in every language",
    "ema-file": "the EMA's own file format, the same in every language",
    "rating-csv": "a CSV export, the same in every language",
    "event-qr": "an SVG of a QR code",
    "event-short": "a redirect to the player's page",
    "logout": "POST only: logs out (Clear-Site-Data) and redirects; Django's own page otherwise",
    "signoff-player": "a redirect to the player's seat link (signoff-link), else the same page refusing",
    "staff-signoff-resolve": "POST only: resolves a dispute and redirects",
    "staff-preview": "POST only: checked by posts() below",
    # The staff pages as an offline web app (issue 20): scripts, files and JSON for the page's own script.
    "staff-sw": "the service worker's script",
    "staff-manifest": "the web app manifest (JSON)",
    "script-words": "the scripts' words per language, a script (tests/league/test_script_words.py)",
    "engine-words": "the offline engine's words per language, JSON (tests/league/test_engine_catalogue.py)",
    "staff-login-again": "POST only: the page's script renews a login, answered in JSON",
    "offline-engine": "JSON for the phone's engine: the files to keep",
    "offline-engine-js": "the phone engine's script",
    "offline-engine-zip": "the phone engine's Python, a zip",
    "offline-runtime": "a file of the Pyodide runtime",
    "staff-offline-game": "a game as JSON for the phone's engine",
    # The read API (issue 37): JSON for other programs, its field names the same in every language.
    **{name: "the read API: JSON (tests/league/test_api.py)" for name in (
        "openapi-json", "api-root", "series_list", "series_standings", "series_games", "game_detail", "player_detail",
        "event_detail", "event_stages", "event_teams")},
    # Actions: POST only, each redirects to a page above with its message;
    # posts() below sends some of them and reads the page they lead to.
    **{name: "POST only: an action that redirects with a message" for name in (
        "event-import", "event-roles", "event-check-in", "event-drop", "event-seat", "event-results", "event-swap",
        "event-substitute", "event-publish", "event-start", "event-clock", "event-extra-time", "stages-rules",
        "stages-playoff", "stages-cut", "stages-seat", "signup-desk", "signup-decide", "signup-erase")},
}

# The same in both languages: abbreviations and the app's name.
SAME_IN_BOTH = {"Tenbou", "EMA", "CSV", "PIN", "QR", "URL", "JSON", "XML", "mjlog", "gzip", "xml", "Excel", "PDF",
                "MERS", "WRC", "Pantheon", "ISO", "A", "K",
                "R", "Plackett-Luce"}  # Tenhou's rating is "R" in Japanese too; a model's proper name
# A game term's romaji may follow its Japanese, in brackets: 立直 (riichi).
ROMAJI_AFTER_JAPANESE = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef])\s*[(（][a-z' -]+[)）]")
LATIN = re.compile(r"[A-Za-z][A-Za-z'’.-]*[A-Za-z]|[A-Za-z]")
# Not prose: addresses, snake_case ids, tile notation (234m678p, 0555p), quoted input.
LITERAL = re.compile(r"https?://\S+|/n/\w+|\b\w+_\w+\b|\b[0-9]+[mpsz]\b|「[^」]*」|tenhou\.net/6")


class VisibleText(HTMLParser):
    """The text a person sees or hears: text nodes outside scripts and
    styles, and the attributes read out or shown (title, alt, aria-label,
    placeholder, a button's value)."""

    SKIP = {"script", "style", "template", "code", "textarea"}
    ATTRS = ("title", "alt", "aria-label", "placeholder", "data-label")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0
        self.skipped_tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in self.SKIP or (values.get("lang") == "en" and tag != "html"):
            self.skipping += 1
            self.skipped_tags.append(tag)
            return
        for name in self.ATTRS:
            if values.get(name):
                self.parts.append(values[name] or "")
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipped_tags and tag == self.skipped_tags[-1]:
            self.skipped_tags.pop()
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.parts.append(data)


def english_left(html: str, names: re.Pattern[str]) -> list[str]:
    """The runs of Latin words a Japanese page still shows, after the names
    people typed, the terms the same in both languages and bracketed romaji."""
    parser = VisibleText()
    parser.feed(html)
    left: list[str] = []
    for part in parser.parts:
        part = LITERAL.sub(" ", part)
        part = names.sub(" ", part)
        part = ROMAJI_AFTER_JAPANESE.sub(" ", part)
        words = [w for w in LATIN.findall(part) if w not in SAME_IN_BOTH]
        if words:
            left.append(" ".join(words) + f"   ← {part.strip()[:80]!r}")
    return left


def typed_names() -> list[str]:
    """What people typed, shown as typed in every language."""
    from league.models import EventRules, Penalty, Registration, Stage

    names: set[str] = set(Player.objects.values_list("name", flat=True))
    names |= set(User.objects.values_list("username", flat=True))
    names |= set(Penalty.objects.values_list("reason", flat=True))
    names |= set(Series.objects.values_list("name", flat=True))
    names |= set(Stage.objects.values_list("name", flat=True))
    names |= set(EventRules.objects.values_list("ema_name", flat=True))
    names |= set(Rating.objects.values_list("name", flat=True))
    for reg in Registration.objects.all():
        names |= {reg.name, reg.first_name, reg.last_name, reg.last_name.upper(), reg.club, reg.team, reg.country}
    for signup in SignUp.objects.all():  # issue 39: what a player typed on the sign-up form
        names |= {signup.name, signup.email, signup.club, signup.team, signup.country, signup.ema_number}
    names |= {n[:13] + "…" for n in names if n and len(n) > 14}  # a name cut short (truncatechars:14)
    return sorted((n for n in names if n), key=len, reverse=True)


def names_pattern(names: list[str]) -> re.Pattern[str]:
    """Any of ``names`` as a whole word (a country code "SE" is not taken out of "RESERVE")."""
    return re.compile("|".join(rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])" for n in names))


def url_names() -> set[str]:
    def walk(patterns: list[URLPattern | URLResolver]) -> Iterator[str]:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace in ("admin",) or str(p.pattern).startswith("accounts/"):
                    continue
                yield from walk(p.url_patterns)
            elif p.name:
                yield p.name

    return set(walk(get_resolver().url_patterns))


def pages() -> dict[str, list[str]]:
    """Every page of the demo, by URL name, with the data the demo holds."""
    league = Series.objects.get(slug="demo-league")
    event = Series.objects.get(slug="demo-tournament")
    cup = Series.objects.exclude(pk__in=[league.pk, event.pk]).get()
    live = league.games.filter(status=Game.Status.IN_PROGRESS).first()
    finished = league.games.filter(status=Game.Status.FINISHED).exclude(final_scores=None).first() \
        or league.games.filter(status=Game.Status.FINISHED).first()
    played = league.games.filter(status=Game.Status.FINISHED, final_scores=None).first() or finished
    penalty = Penalty.objects.filter(game__series=league).first()
    player = live.seats.first().player
    reg = event.registrations.filter(is_substitute=False).order_by("number").first()
    started = event.event_rounds.filter(status=Round.Status.STARTED).order_by("number").last()
    draft = event.event_rounds.filter(status=Round.Status.DRAFT).order_by("number").first()
    e_game = event.games.first()
    token = signoff_services.seat_link_token(e_game, 0)
    signup_token = _signups(event)
    s = league.slug
    ratings = demo_ratings(league, event, cup)
    rated = ratings[0].series.first().games.first().seats.first().player
    return {
        "ratings": [reverse("ratings")],
        "rating": [reverse("rating", args=[r.slug]) for r in ratings],
        "rating-history": [reverse("rating-history", args=[r.slug, p.pk]) for r in ratings
                           for p in ([rated] if r.engine != "mers" else Player.objects.filter(
                               registrations__series=event)[:1])],
        "index": [reverse("index")],
        "series-standings": [reverse("series-standings", args=[x.slug]) for x in (league, event, cup)]
        + [reverse("series-standings", args=[s]) + q for q in ("?round=1", "?stats=1", "?q=a", "?q=zzz")],
        "player-detail": [reverse("player-detail", args=[s, player.pk])],
        "player-series": [reverse("player-series", args=[player.pk])],
        "game-detail": [reverse("game-detail", args=[g.pk]) for g in (live, finished, played, e_game)],
        "staff-home": [reverse("staff-home")],
        "staff-series": [reverse("staff-series", args=[x]) for x in (s, event.slug)],
        "staff-start": [reverse("staff-start", args=[s])],
        "staff-game": [reverse("staff-game", args=[g.pk]) for g in (live, finished)],
        "staff-edit-hand": [reverse("staff-edit-hand", args=[live.pk, 1])],
        "staff-undo": [reverse("staff-undo", args=[live.pk])],
        "staff-finish": [reverse("staff-finish", args=[live.pk])],
        "staff-reopen": [reverse("staff-reopen", args=[finished.pk])],
        "staff-final-scores": [reverse("staff-final-scores", args=[finished.pk])],
        "staff-penalties": [reverse("staff-penalties", args=[penalty.game_id])],
        "staff-cancel-penalty": [reverse("staff-cancel-penalty", args=[penalty.game_id, penalty.pk])],
        "staff-signoff": [reverse("staff-signoff", args=[e_game.pk])],
        "staff-pins": [reverse("staff-pins", args=[event.slug])],
        "signoff-link": [reverse("signoff-link", args=[token])],
        "signoff-tables": [reverse("signoff-tables", args=[event.slug])],
        "staff-import": [reverse("staff-import", args=[s])],
        "event-dashboard": [reverse("event-dashboard", args=[x.slug]) for x in (event, cup)],
        "event-new": [reverse("event-new")],
        "event-edit": [reverse("event-edit", args=[x.slug]) for x in (event, cup)],
        "event-settings": [reverse("event-settings", args=[event.slug])],
        "event-players": [reverse("event-players", args=[event.slug])],
        "event-round": [reverse("event-round", args=[event.slug, r.number]) for r in (started, draft)],
        "event-print": [reverse("event-print", args=[event.slug, k]) for k in PRINTS],
        "event-public": [reverse("event-public", args=[x.slug]) for x in (event, cup)],
        "event-player": [reverse("event-player", args=[event.slug, reg.number])],
        "event-screen": [reverse("event-screen", args=[event.slug, k]) for k in SCREENS],
        "stages-standings": [reverse("stages-standings", args=[cup.slug])],
        "stages-teams": [reverse("stages-teams", args=[cup.slug])],
        "stages-manage": [reverse("stages-manage", args=[cup.slug])],
        "ema-preview": [reverse("ema-preview", args=[cup.slug])],
        "signup-form": [reverse("signup-form", args=[event.slug])],
        "signup-link": [reverse("signup-link", args=[signup_token])],
        "webhooks-manage": [reverse("webhooks-manage", args=[s])],
    }


def _signups(event: Series) -> str:
    """Issue 39: the event's sign-up desk open, moderated, with a cap, and
    sign-ups in every state the director's page lists; a link's token."""
    from league.services import signup as desk

    if not SignUp.objects.filter(series=event).exists():
        desk.configure_signup(series=event, is_open=True, closes_at=timezone.now() + datetime.timedelta(days=3),
                              cap=None, moderated=True)
        for i, (first, last) in enumerate([("愛子", "佐藤"), ("健", "鈴木"), ("花子", "高橋")]):
            signup = desk.sign_up(series=event, first_name=first, last_name=last, email=f"p{i}@example.org",
                                  country="JP")
            if i:
                desk.confirm_signup(token=desk.link_token(signup))
            if i == 2:
                desk.decide_signup(signup=signup, approve=True)
    return desk.link_token(SignUp.objects.filter(series=event).order_by("pk").first())


def demo_ratings(league: Series, event: Series, cup: Series) -> list[Rating]:
    """A rating of each engine over the demo (issue 38), made once."""
    out = []
    for engine, counted in (("tenhou", [league]), ("skill", [league, event]), ("mers", [event, cup])):
        rating, made = Rating.objects.get_or_create(slug=f"demo-{engine}", defaults={"name": "Demo", "engine": engine})
        if made:
            rating.series.set(counted)
        out.append(rating)
    return out


def posts(as_staff: Client) -> list[tuple[str, dict[str, object]]]:
    """Forms posted back with their errors, and the hand preview: the texts
    only a post shows (refusals, yaku counted from the tiles, payments)."""
    league = Series.objects.get(slug="demo-league")
    event = Series.objects.get(slug="demo-tournament")
    cup = Series.objects.exclude(pk__in=[league.pk, event.pk]).get()
    started = event.event_rounds.filter(status=Round.Status.STARTED).order_by("number").last()
    live = league.games.filter(status=Game.Status.IN_PROGRESS).first()
    page = as_staff.get(reverse("staff-game", args=[live.pk])).content.decode()
    hidden = dict(re.findall(r'<input type="hidden" name="(number|state|key)" value="([^"]*)"', page))
    preview = reverse("staff-preview", args=[live.pk])
    tiles = {"outcome": "ron", "winners": ["2"], "loser": "1", "riichi": ["2"], "tiles_2": "234m567m678p789s11s",
             "win_tile_2": "1s", "dora_indicators": "1m", "ura_indicators": "1m"}
    return [
        (preview, {**hidden, **tiles}),
        (preview, {**hidden, "outcome": "ron", "winners": ["2"], "loser": "1", "yaku_2": ["pinfu", "tanyao"],
                   "dora_2": "1"}),
        (preview, {**hidden, "outcome": "tsumo", "winner": "0", "han_0": "3", "fu_0": "30"}),
        (preview, {**hidden, "outcome": "draw", "tenpai": ["0", "2"]}),
        (preview, {**hidden, "outcome": "ron"}),
        (preview, {**hidden, "outcome": "ron", "winners": ["1"], "loser": "1", "han_1": "1", "fu_1": "20"}),
        (preview, {**hidden, "outcome": "ron", "winners": ["2"], "loser": "1", "tiles_2": "123m", "win_tile_2": "1m"}),
        (reverse("staff-game", args=[live.pk]), {**hidden, "action": "preview", "outcome": "tsumo"}),
        (reverse("staff-start", args=[league.slug]), {}),
        (reverse("staff-penalties", args=[live.pk]), {"points": "0"}),
        (reverse("staff-finish", args=[live.pk]), {}),
        (reverse("event-players", args=[event.slug]), {"first_name": ""}),
        (reverse("event-check-in", args=[event.slug]), {"number": ["1", "2"], "present": "1"}),
        (reverse("event-extra-time", args=[event.slug, started.number, 1]), {"minutes": "500"}),
        (reverse("event-clock", args=[event.slug, started.number]), {"time_limit": "0"}),
        (reverse("event-import", args=[event.slug]), {"text": "number,first name\nx,"}),
        (reverse("stages-playoff", args=[cup.slug]), {"stage": "1", "places": "999"}),
        # issue 32: the New event form's refusals, a role for no login, the drop of a player at play
        (reverse("event-new"), {"name": "x", "start_date": "2026-05-02", "end_date": "2026-05-01",
                                "rounds": "0", "time_limit": "0", "uma_1": "10", "preset": "ema-2016",
                                "seating": "swiss", "ending": "none", "substitute_result": "real"}),
        (reverse("event-new"), {"name": "x", "start_date": "2026-05-02", "end_date": "2026-05-01", "rounds": "4",
                                "time_limit": "90", "preset": "ema-2016", "seating": "swiss", "ending": "none",
                                "substitute_result": "real"}),
        (reverse("event-roles", args=[event.slug]), {"username": "nobody", "role": "scorer"}),
        *[(reverse("event-drop", args=[event.slug, s.registration.number]), {}) for s in RoundSeat.objects.filter(
            round=started, substitute=None, table__game__status=Game.Status.IN_PROGRESS).select_related(
            "registration")[:1]],
        (reverse("signup-form", args=[event.slug]), {"first_name": "=x", "last_name": "", "country": "XX",
                                                      "email": "nobody"}),
        (reverse("webhooks-manage", args=[league.slug]), {"url": "http://10.0.0.1/hook", "events": ["game_finished"]}),
        (reverse("webhooks-manage", args=[league.slug]), {"url": "ftp://x", "events": []}),
    ]


def test_every_page_in_japanese_has_no_english_left(demo_league: None) -> None:
    # Sign-off asked of the event, so its pages have something to show.
    Series.objects.filter(slug="demo-tournament").update(requires_signoff=True)
    # A webhook with a failed delivery, so its page has rows to read (issue 37).
    hook = WebHook.objects.create(series=Series.objects.get(slug="demo-league"), url="https://hooks.example/t",
                                  events=["game_finished", "standings_changed"])
    Delivery.objects.create(hook=hook, event="game_finished", body="{}", next_attempt_at=timezone.now(), attempts=1,
                            last_status=500, last_error="answered 500")
    # Every URL of the site is a page checked here, or not a page, with the reason.
    missing = url_names() - set(pages()) - set(NOT_PAGES)
    assert not missing, f"add {missing} to pages() (or, if not a page, to NOT_PAGES)"
    staff = User.objects.create_superuser("i18n-staff", password="pw")
    visitor = Client(HTTP_ACCEPT_LANGUAGE="ja")
    as_staff = Client(HTTP_ACCEPT_LANGUAGE="ja")
    as_staff.force_login(staff)
    names = names_pattern(typed_names())
    failures: dict[str, list[str]] = {}
    checked = 0
    for urls in pages().values():
        for url in urls:
            for who, client in (("visitor", visitor), ("staff", as_staff)):
                response = client.get(url)
                if response.status_code in (302, 403, 404) and who == "visitor":
                    continue  # a staff page: seen as staff
                if response.status_code != 200 or response["Content-Language"] != "ja":
                    failures[f"{who} {url}"] = [f"status {response.status_code}, {response.get('Content-Language')}"]
                    continue
                checked += 1
                left = english_left(response.content.decode(), names)
                if left:
                    failures[f"{who} {url}"] = left
    for url, data in posts(as_staff):
        response = as_staff.post(url, data, follow=True)
        if response.status_code not in (200, 400):
            failures[f"post {url}"] = [f"status {response.status_code}"]
            continue
        checked += 1
        left = english_left(response.content.decode(), names)
        if left:
            failures[f"post {url} {sorted(data)}"] = left
    report = "\n".join(f"{page}:\n    " + "\n    ".join(words) for page, words in failures.items())
    assert not failures, f"English left on {len(failures)} of {checked} pages:\n{report}"
    assert checked >= 90  # 93 when written: every page as visitor and staff, and the posts
