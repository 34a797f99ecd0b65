"""Languages (issue 18): the switch remembers the choice, cached pages are
kept per language, exports do not change with the language, and the
compiled catalogue is the one its .po says."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from league import services
from tests.factories import draw, make_game, make_players, make_series, play, ron

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.LOCALE_PATHS[0])


@pytest.mark.parametrize("code", [c for c, _ in settings.LANGUAGES if c != settings.LANGUAGE_CODE])
def test_compiled_catalogue_matches_its_po(code: str) -> None:
    """The .mo is committed (a deployment needs no gettext tools), so it must say what the .po says."""
    po = polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))
    mo = polib.mofile(str(LOCALE / code / "LC_MESSAGES" / "django.mo"))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items()))) for e in mo}
    wanted = {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
              for e in po.translated_entries()}
    assert compiled.keys() >= wanted.keys(), "run: python manage.py compilemessages"
    assert {k: compiled[k] for k in wanted} == wanted, "run: python manage.py compilemessages"
    assert not po.fuzzy_entries(), [e.msgid for e in po.fuzzy_entries()]


def test_language_switch_is_remembered() -> None:
    client = Client()
    page = client.get(reverse("index"))
    assert b'<html lang="en">' in page.content
    assert 'name="language" value="ja"' in page.content.decode()
    switched = client.post(reverse("set_language"), {"language": "ja", "next": reverse("index")})
    assert switched.status_code == 302 and switched["Location"] == reverse("index")
    assert switched.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    page = client.get(reverse("index"))
    assert b'<html lang="ja">' in page.content and "シリーズ" in page.content.decode()
    # Back to English, and an unknown language changes nothing.
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert b'<html lang="en">' in client.get(reverse("index")).content


def test_browser_language_is_the_default_and_the_switch_overrides_it() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    assert b'<html lang="ja">' in client.get(reverse("index")).content
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert b'<html lang="en">' in client.get(reverse("index")).content


def _series_with_games():
    series = make_series(slug="i18n", min_games=1)
    players = make_players(4)
    finished = make_game(series, players, round_number=1)
    services.record_final_scores(game=finished, scores=[41000, 29000, 18000, 12000])
    live = make_game(series, players, round_number=2)
    play(live, [draw(0), ron(1, 0, 2, 30)])
    return series, live


def test_cached_public_pages_are_kept_per_language() -> None:
    series, live = _series_with_games()
    for url in (reverse("series-standings", args=[series.slug]), reverse("game-detail", args=[live.pk])):
        for _ in range(2):  # the second round is served from the cache
            en = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
            ja = Client(HTTP_ACCEPT_LANGUAGE="ja").get(url)
            assert b'<html lang="en">' in en.content and b'<html lang="ja">' in ja.content
            assert en["ETag"] != ja["ETag"]
            assert "Accept-Language" in ja["Vary"]


def test_cached_fragments_are_kept_per_language_for_a_logged_in_visitor() -> None:
    """A logged-in request is rendered from cached fragments (views/series.py
    render_cached, the computed pages): those are kept per language too."""
    from django.contrib.auth.models import User

    series, live = _series_with_games()
    client = Client()
    client.force_login(User.objects.create_user("someone", password="pw"))
    for url, english, japanese in (
        (reverse("series-standings", args=[series.slug]), "Running standings", "順位の推移"),
        (reverse("game-detail", args=[live.pk]), "Hand by hand", "局ごとの結果"),
    ):
        client.post(reverse("set_language"), {"language": "en", "next": "/"})
        first = client.get(url).content.decode()
        client.post(reverse("set_language"), {"language": "ja", "next": "/"})
        second = client.get(url).content.decode()
        assert english in first and japanese not in first
        assert japanese in second and english not in second


def test_exports_do_not_change_with_the_language() -> None:
    series, _ = _series_with_games()
    for name in ("series-standings-csv", "series-games-csv", "series-hands-csv"):
        url = reverse(name, args=[series.slug])
        en = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
        ja = Client(HTTP_ACCEPT_LANGUAGE="ja").get(url)
        body = b"".join(en.streaming_content) if en.streaming else en.content
        assert body == (b"".join(ja.streaming_content) if ja.streaming else ja.content)
        assert len(body) > 100


def test_the_page_cache_middleware_answers_in_the_visitors_language() -> None:
    """CachedPageMiddleware answers before LocaleMiddleware runs: it reads the
    language the same way (the switch's cookie over Accept-Language), so a
    cached page is served early in each language, never the other one's."""
    from django.conf import settings

    series, _live = _series_with_games()
    url = reverse("series-standings", args=[series.slug])
    japanese = Client(HTTP_ACCEPT_LANGUAGE="en")
    japanese.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    english = Client(HTTP_ACCEPT_LANGUAGE="ja")
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for client, lang in ((japanese, "ja"), (english, "en"), (Client(HTTP_ACCEPT_LANGUAGE="ja"), "ja")):
        client.get(url)  # rendered through every middleware, then cached
        again = client.get(url)
        assert not hasattr(again.wsgi_request, "user")  # served by the middleware, before sessions and login
        assert f'<html lang="{lang}">'.encode() in again.content
        assert again["Content-Language"] == lang and "Accept-Language" in again["Vary"]
