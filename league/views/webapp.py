"""The staff pages as an installable web app that keeps working through a dead
network: the manifest, the service worker, and a login again in place.

The service worker is served from ``/staff/sw.js`` (a view, not a static file)
so that its scope is ``/staff/``: a worker may only control pages at or below
its own address. It keeps copies of the game pages and of the offline engine's
files (league/static/league/sw.js says which, and when it asks the network);
the hands entered while the network is down wait in the page's own storage
(league/static/league/queue/, ES modules), never in the worker.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.auth import authenticate, login
from django.contrib.auth.views import LogoutView
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache

from league.script_words import engine_words_url, words_script

# The offline queue's ES modules (league/static/league/queue/; main.js imports the rest).
QUEUE_MODULES = ["main", "store", "banner", "pricing", "sending", "conflict", "login", "network"]
# The static files a game page needs, kept by the worker for a reload offline.
PAGE_ASSETS = ["league/words.js", "league/staff_chips.js", "league/staff_game.js", "league/engine.js",
               *(f"league/queue/{m}.js" for m in QUEUE_MODULES),
               "league/base.css", "league/staff.css", "league/offline.css", "league/icon.svg"]


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker's script, with the addresses of the page's static files and
    a version taken from their contents (the words' addresses carry their own).
    Never cached by HTTP: the browser compares it byte for byte, so a changed
    file installs a new worker, which fetches fresh copies."""
    path = finders.find("league/sw.js")
    if not path:  # the file ships with the app
        raise Http404("no service worker")
    with open(path, "rb") as fh:
        text = fh.read()
    digest = hashlib.sha256(text)
    for name in PAGE_ASSETS:
        found = finders.find(name)
        if found:
            with open(found, "rb") as fh:
                digest.update(fh.read())
    # The words script of every language: a scorer may switch language offline.
    words = [reverse("script-words", args=[code, words_script(code)[0]]) for code, _name in settings.LANGUAGES]
    # and the offline engine's words in every language (the phone prices in the page's).
    words += [engine_words_url(code) for code, _name in settings.LANGUAGES]
    digest.update(" ".join(words).encode())
    pages = offline_pages()
    digest.update(json.dumps(pages, sort_keys=True).encode())
    head = (f"const ASSETS = {json.dumps([static(n) for n in PAGE_ASSETS] + words)};\n"
            f"const VERSION = {json.dumps(digest.hexdigest()[:12])};\n"
            f"const OFFLINE_PAGES = {json.dumps(pages, ensure_ascii=False)};\n")
    return HttpResponse(head.encode() + text, content_type="text/javascript; charset=utf-8")


OFFLINE_BACK = "/staff/?back"


def offline_pages() -> dict[str, str]:
    """The page the worker shows for a page it did not keep, once in each language
    (``settings.LANGUAGES``, the first is the fallback): the worker answers in the
    language of the last game page it kept."""
    pages = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            # The worker puts the last game page it kept in place of BACK.
            pages[code] = render_to_string("league/staff_offline_page.html", {"back": OFFLINE_BACK})
    return pages


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the staff pages open full screen from the home screen."""
    body = {
        "name": "Tenbou scoring",
        "short_name": "Tenbou",
        "start_url": reverse("staff-home"),
        "scope": reverse("staff-home"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#14324f",
        "icons": [
            {"src": static("league/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("league/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("league/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(body)
    response["Content-Type"] = "application/manifest+json"
    return response


def login_again(request: HttpRequest) -> HttpResponse:
    """An expired login renewed from the page the scorer is on: the password
    posted by the page's script, the answer in JSON, the page left as it was.

    Goes through ``authenticate`` like the login page, so django-axes counts a
    wrong password here too. Logging in rotates the CSRF token: the new one is
    in the answer, for the forms already on the page.
    """
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    username = request.POST.get("username", "")
    user = authenticate(request, username=username, password=request.POST.get("password", ""))
    if user is None:
        return JsonResponse({"error": {"code": "wrong_password", "field": "password",
                                       "message": "That password is not right."}}, status=400)
    login(request, user)
    return JsonResponse({"ok": True, "user": user.get_username(), "csrf": get_token(request)})


class Logout(LogoutView):
    """Django's logout, telling the browser to forget this site's storage: the
    worker's copies of staff pages and the offline engine (Cache API), the
    page's offline state (localStorage) and the HTTP cache, so that the next
    person on a shared phone finds no staff page and no scorer's data in it."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # Only sent over HTTPS or to localhost: browsers ignore it elsewhere.
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
