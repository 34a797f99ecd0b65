"""The sign-up pages: the public form and its refusals next to the field, a
burst from one address held back, the mailed link's page, the director's desk
on the players page, and the e-mail never on a public page or export."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.models import Series, SignUp
from league.services import event
from league.services import signup as desk
from tests.factories import make_director, make_scorer, make_series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()  # django-ratelimit counts in the cache


@pytest.fixture
def series() -> Series:
    s = make_series("ari-ari", slug="open", name="Open", kind="tournament")
    event.configure_event(series=s, rounds=2)
    desk.configure_signup(series=s, is_open=True, closes_at=None, cap=1, moderated=False)
    return s


def form(i: int, **changes: str) -> dict[str, str]:
    return {"first_name": f"First{i}", "last_name": f"Last{i}", "email": f"p{i}@example.org",
            "ema_number": "", "country": "JP", "club": "", "team": "", **changes}


def link_of(to: str) -> str:
    body = next(m.body for m in reversed(mail.outbox) if m.to == [to])
    return re.search(r"https?://\S+/register/link/\S+/", body).group(0)


def test_a_player_signs_up_confirms_and_withdraws_through_the_pages(client: Client, series: Series) -> None:
    url = reverse("signup-form", args=["open"])
    assert "First name" in client.get(url).content.decode()
    r = client.post(url, form(1))
    assert r.status_code == 200 and "Check your e-mail" in r.content.decode()
    link = link_of("p1@example.org")
    page = client.get(link)
    assert page["Referrer-Policy"] == "same-origin" and 'data-status="unconfirmed"' in page.content.decode()
    assert "p1@example.org" not in page.content.decode()
    assert client.get(link).status_code == 200 and SignUp.objects.get().status == "unconfirmed"  # GET changes nothing
    client.post(link, {"action": "confirm"})
    assert 'data-status="registered"' in client.get(link).content.decode()
    client.post(url, form(2))
    client.post(link_of("p2@example.org"), {"action": "confirm"})
    assert "number 1 on the waiting list" in client.get(link_of("p2@example.org")).content.decode()
    client.post(link, {"action": "withdraw"})
    assert 'data-status="withdrawn"' in client.get(link).content.decode()
    assert 'data-status="registered"' in client.get(link_of("p2@example.org")).content.decode()


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"first_name": "Ai\x00ko"}, "first_name", "Null characters are not allowed"),
    ({"last_name": "x" * 10_000}, "last_name", "longer than 100 characters"),
    ({"last_name": "=cmd|' /C calc'!A0"}, "last_name", "spreadsheet formula"),
    ({"country": "XX"}, "country", "not an ISO 3166 country code"),
    ({"ema_number": "12ab"}, "ema_number", "1 to 20 digits"),
    ({"email": "nobody"}, "email", "valid e-mail address"),
])
def test_the_form_names_the_field_and_the_reason(client: Client, series: Series, changes: dict[str, str],
                                                  field: str, words: str) -> None:
    r = client.post(reverse("signup-form", args=["open"]), form(1, **changes))
    assert r.status_code == 400
    assert re.search(f'id="id_{field}_error"><li>[^<]*{re.escape(words)}', r.content.decode()), r.content.decode()[-3000:]
    assert not SignUp.objects.exists()


def test_a_duplicate_is_refused_in_japanese_too(client: Client, series: Series) -> None:
    client.post(reverse("signup-form", args=["open"]), form(1))
    client.cookies["django_language"] = "ja"
    r = client.post(reverse("signup-form", args=["open"]), form(2, email="P1@example.org"))
    assert r.status_code == 400 and "このメールアドレス" in r.content.decode()


def test_a_burst_from_one_address_is_held_back(client: Client, series: Series, settings) -> None:  # noqa: ANN001
    settings.SIGNUP_RATE_LIMIT = "3/h"
    codes = [client.post(reverse("signup-form", args=["open"]), form(i)).status_code for i in range(1, 6)]
    assert codes == [200, 200, 200, 429, 429]
    assert SignUp.objects.count() == 3


def test_a_closed_form_says_so(client: Client, series: Series) -> None:
    desk.configure_signup(series=series, is_open=False, closes_at=None, cap=None, moderated=False)
    r = client.get(reverse("signup-form", args=["open"]))
    assert "Registration for this event is closed." in r.content.decode() and "First name" not in r.content.decode()


def test_a_bad_link_is_a_404_with_words(client: Client, series: Series) -> None:
    r = client.get(reverse("signup-link", args=["not-a-token"]))
    assert r.status_code == 404 and "This link is not valid." in r.content.decode()


def test_the_director_moderates_and_sees_every_step(client: Client, series: Series) -> None:
    client.force_login(make_director(series, "director"))
    r = client.post(reverse("signup-desk", args=["open"]), {"is_open": "on", "cap": "1", "moderated": "on"})
    assert r.status_code == 302
    desk.confirm_signup(token=desk.link_token(desk.sign_up(series=series, **{k: v for k, v in form(1).items()})))
    page = client.get(reverse("event-players", args=["open"])).content.decode()
    assert "Awaiting your decision" in page and "p1@example.org" in page
    s = SignUp.objects.get()
    client.post(reverse("signup-decide", args=["open", s.pk]), {"action": "approve"})
    s.refresh_from_db()
    assert s.status == "registered"
    history = client.get(reverse("event-dashboard", args=["open"])).content.decode()
    assert "approved: First1 Last1, registered as number 1" in history
    # after the event: close, then erase
    client.post(reverse("signup-desk", args=["open"]), {"cap": "1"})
    client.post(reverse("signup-erase", args=["open"]))
    s.refresh_from_db()
    assert s.email == "" and "p1@example.org" not in client.get(reverse("event-players", args=["open"])).content.decode()


def test_only_the_events_staff_run_the_desk(client: Client, series: Series) -> None:
    other = make_series("ari-ari", slug="other")
    client.force_login(make_scorer(other, "stranger"))
    r = client.post(reverse("signup-desk", args=["open"]), {"is_open": "on"})
    assert r.status_code == 403


def test_the_email_is_on_no_public_page_or_export(client: Client, series: Series) -> None:
    desk.confirm_signup(token=desk.link_token(desk.sign_up(series=series, **form(1))))
    public = [reverse("event-public", args=["open"]), reverse("event-player", args=["open", 1]),
              reverse("series-standings", args=["open"])]
    public += [u for u in _export_urls(series)]
    for url in public:
        r = client.get(url)
        body = b"".join(r.streaming_content) if r.streaming else r.content
        assert r.status_code == 200, url
        assert b"p1@example.org" not in body, url


def _export_urls(series: Series) -> list[str]:
    from league.urls import urlpatterns
    names = [p.name for p in urlpatterns if getattr(p, "name", None) and "export" in p.name
             and p.pattern.regex.groupindex.keys() == {"slug"}]
    return [reverse(n, args=[series.slug]) for n in names]


def test_the_directors_csv_lists_every_signup_with_its_email_and_place(client: Client, series: Series) -> None:
    for i in (1, 2):
        desk.confirm_signup(token=desk.link_token(desk.sign_up(series=series, **form(i, club=f"Club {i}"))))
    url = reverse("signup-csv", args=["open"])
    assert client.get(url).status_code == 302  # the login page
    client.force_login(make_director(series, "director"))
    r = client.get(url)
    text = b"".join(r.streaming_content).decode("utf-8")
    lines = text.removeprefix("\ufeff").splitlines()
    assert lines[0] == "signed_up,first_name,last_name,email,ema_number,country,club,team,status,waiting,number"
    assert [line.split(",")[1:] for line in lines[1:]] == [
        ["First1", "Last1", "p1@example.org", "", "JP", "Club 1", "", "registered", "", "1"],
        ["First2", "Last2", "p2@example.org", "", "JP", "Club 2", "", "waiting", "1", ""],
    ]
    assert r["Cache-Control"] == "private, no-store"
