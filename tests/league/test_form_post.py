"""A URL-encoded POST's form read in one step (``league.middleware
.FormPostMiddleware``, issue 28): before the CSRF check, the same
``QueryDict`` Django's own parse gives, and every refusal Django makes of a
body still made where and as Django makes it."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, QueryDict
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from league.middleware import FormPostMiddleware, read_form

FORM = "application/x-www-form-urlencoded"

BODIES = [
    b"",
    b"number=7&state=abc&key=1c8a&outcome=ron&winner=1&loser=2&han=3&fu=30&riichi=1",
    b"riichi=1&tenpai=&riichi=3&riichi=2&tenpai=0",  # a name sent again keeps its values in order
    b"a&b=&=c&&d==e&",  # no '=', blank names and values, empty pairs, '=' in a value
    b"name=%C5%8Cno+Taro&x=%E6%9D%B1&plus=a%2Bb&sp=a+b",  # escapes, '+' as a space, an escaped '+'
    "name=Ōno&wind=東".encode(),  # raw UTF-8 as some agents send it
    b"bad=%FF%FE&raw=\xff\xfe",  # not UTF-8: escapes replaced, raw bytes read as ISO-8859-1
    b"csrfmiddlewaretoken=abc&number=1;x=2",  # ';' is not a separator
]


def _posted(body: bytes, **extra: Any) -> HttpRequest:
    return RequestFactory().post("/staff/", body, content_type=FORM, **extra)


def _form(post: QueryDict) -> tuple[Any, ...]:
    return type(post), post.encoding, post._mutable, list(post.lists())


@pytest.mark.parametrize("body", BODIES)
def test_read_form_gives_djangos_own_form(body: bytes) -> None:
    django_read, ours = _posted(body), _posted(body)
    read_form(ours)
    assert "_post" in ours.__dict__
    assert _form(ours.POST) == _form(django_read.POST)
    assert dict(ours.FILES) == dict(django_read.FILES) == {}
    assert ours.body == django_read.body == body  # the body is still there for a view that reads it


def test_the_form_is_immutable_as_djangos() -> None:
    request = _posted(b"a=1")
    read_form(request)
    with pytest.raises(AttributeError):
        request.POST["a"] = "2"
    copy = request.POST.copy()
    copy["a"] = "2"
    assert copy.getlist("a") == ["2"] and request.POST.getlist("a") == ["1"]


def test_the_middleware_reads_the_form_before_the_csrf_check() -> None:
    chain = settings.MIDDLEWARE
    assert chain.index("league.middleware.FormPostMiddleware") == chain.index(
        "django.middleware.csrf.CsrfViewMiddleware") - 1
    seen: list[bool] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append("_post" in request.__dict__)
        return HttpResponse()

    FormPostMiddleware(view)(_posted(b"a=1"))
    FormPostMiddleware(view)(RequestFactory().post("/staff/", {"a": "1"}))  # multipart: left to Django
    FormPostMiddleware(view)(RequestFactory().get("/staff/?a=1"))
    assert seen == [True, False, False]


def test_what_django_refuses_is_left_to_django() -> None:
    other_charset = _posted(b"a=1", CONTENT_TYPE=f"{FORM}; charset=latin-1")
    read_form(other_charset)
    assert "_post" not in other_charset.__dict__
    streamed = _posted(b"a=1")
    streamed.read()
    read_form(streamed)
    assert "_post" not in streamed.__dict__
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=2):
        many = _posted(b"a=1&b=2&c=3")
        read_form(many)
        assert "_post" not in many.__dict__
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=4):
        big = _posted(b"a=12345")
        read_form(big)
        assert "_post" not in big.__dict__ and "_body" not in big.__dict__


def _outcome(client: Client, body: str, content_type: str) -> Any:
    try:
        return client.post(reverse("login"), body, content_type=content_type).status_code
    except Exception as error:  # what Django raises to the test client, as it is
        return type(error)


@pytest.mark.django_db
@pytest.mark.parametrize("limits, body, content_type", [
    ({"DATA_UPLOAD_MAX_NUMBER_FIELDS": 2}, "a=1&b=2&c=3", FORM),
    ({"DATA_UPLOAD_MAX_MEMORY_SIZE": 8}, "a=" + "x" * 20, FORM),
    ({}, "a=1", f"{FORM}; charset=latin-1"),
    ({}, "username=kaze&password=pw", FORM),
    ({}, "username=kaze&password=pw", f"{FORM}; charset=UTF-8"),
])
@pytest.mark.parametrize("csrf", [True, False])
def test_a_post_is_answered_as_without_the_middleware(limits: dict[str, int], body: str, content_type: str,
                                                      csrf: bool) -> None:
    outcomes = []
    for chain in (settings.MIDDLEWARE, [m for m in settings.MIDDLEWARE if m != "league.middleware.FormPostMiddleware"]):
        with override_settings(MIDDLEWARE=chain):
            client = Client(enforce_csrf_checks=csrf)
            client.get(reverse("login"))  # the CSRF cookie: the check then reads the form
            with override_settings(**limits):
                outcomes.append(_outcome(client, body, content_type))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0] != 302  # none of them logs in: no such user, or refused


@pytest.mark.django_db
def test_the_csrf_check_reads_the_token_from_the_form() -> None:
    User.objects.create_user("kaze", password="pw")
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("login"))
    token = page.context["csrf_token"]
    refused = client.post(reverse("login"), f"username=kaze&password=pw&csrfmiddlewaretoken={token}x",
                          content_type=FORM)
    assert refused.status_code == 403
    taken = client.post(reverse("login"), f"username=kaze&password=pw&csrfmiddlewaretoken={token}",
                        content_type=FORM)
    assert taken.status_code == 302 and "_auth_user_id" in client.session


def test_a_request_with_no_stream_is_left_as_it_is() -> None:
    request = HttpRequest()
    request.method, request.content_type = "POST", FORM
    read_form(request)
    assert "_post" not in request.__dict__
