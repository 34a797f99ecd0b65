"""A smoke test of the production set-up, run by .ci/run against a real server.

.ci/run starts PostgreSQL and Redis, then this script: it migrates, collects the
static files, runs Django's deploy checks, builds a small series, starts
gunicorn with DEBUG off behind a pretend proxy (each request carries the
``X-Forwarded-Proto: https`` a TLS-terminating proxy would add), and goes
through what a federation's server must do: pages, a CSV, the admin's static
files, the SSL redirect, a login with secure cookies, a hand saved the way a
scorer without JavaScript saves it, a rate-limited burst of downloads, and a
deliberate 500 (Redis stopped under a download) that must appear in the log
with its traceback.

Usage: python tests/smoke/production_smoke.py REDIS_PORT   (DATABASE_URL and CACHE_URL set by the caller)
Only loopback addresses are contacted. Exits non-zero on the first failed check.
"""

from __future__ import annotations

import html.parser
import os
import secrets
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # run as a script: tests.serve is found from the repository's root

from tests.serve import serve  # noqa: E402

PY = sys.executable
SETUP = """
import datetime
from django.contrib.auth.models import User
from league import services
from league.models import Player, Series
series = Series.objects.create(name="Smoke night", slug="smoke", rules={"preset": "ari-ari", "overrides": {}},
                               start_date=datetime.date(2026, 11, 24))
user = User.objects.create_user("director", password="smoke-test passphrase 7")
series.scorers.add(user)
players = [Player.objects.create(name=n) for n in ("Ada", "Ben", "Cy", "Dee")]
game = services.start_game(series=series, players=players, table="1")
print(game.pk)
"""


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"SMOKE FAILED: {what}", file=sys.stderr)
        raise SystemExit(1)
    print(f"ok  {what}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003
        return None


class Browser:
    """Just enough of a browser: cookies by hand (they are Secure, and this talks
    plain HTTP to gunicorn as the proxy would), no JavaScript, no redirects followed."""

    def __init__(self, base: str) -> None:
        self.base, self.cookies = base, {}
        self.opener = urllib.request.build_opener(NoRedirect)

    def request(self, path: str, data: dict[str, str | list[str]] | None = None, *, https: bool = True,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str, list[str]]:
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        if https:
            req.add_header("X-Forwarded-Proto", "https")
            req.add_header("Referer", "https://" + self.base.split("://")[1] + path)
            req.add_header("Origin", "https://" + self.base.split("://")[1])
        if self.cookies:
            req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            resp = self.opener.open(req, timeout=30)
        except urllib.error.HTTPError as err:
            resp = err
        set_cookies = resp.headers.get_all("Set-Cookie") or []
        for c in set_cookies:
            name, _, rest = c.partition("=")
            self.cookies[name] = rest.split(";")[0]
        return resp.status, dict(resp.headers.items()), resp.read().decode("utf-8", "replace"), set_cookies


class FormReader(html.parser.HTMLParser):
    """The fields of the first form that has ``marker`` as a field name, as a browser would post them."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker, self.forms, self.current, self.select = marker, [], None, None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.current = {"action": a.get("action", ""), "fields": [], "buttons": [], "names": set()}
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input" and a.get("name"):
            self.current["names"].add(a["name"])
            kind = a.get("type", "text")
            if kind == "submit":
                self.current["buttons"].append((a["name"], a.get("value", "")))
            elif kind not in ("checkbox", "radio") or "checked" in a:
                self.current["fields"].append((a["name"], a.get("value", "")))
        elif tag == "button" and a.get("name"):
            self.current["buttons"].append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and "selected" in a:
            self.current["fields"].append((self.select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None

    def form(self) -> dict:
        return next(f for f in self.forms if self.marker in f["names"])


def fields_of(page: str, marker: str) -> dict:
    reader = FormReader(marker)
    reader.feed(page)
    return reader.form()


def main() -> None:
    redis_port = int(sys.argv[1])
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
           "HTTPS": "1", "TRUSTED_PROXY_HEADER": "X-Forwarded-Proto", "EXPORT_RATE_LIMIT": "20/m",
           "CACHE_URL": f"redis://127.0.0.1:{redis_port}/0", "DJANGO_SETTINGS_MODULE": "league.settings"}
    manage = [PY, "manage.py"]
    for args in (["migrate", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"],
                 ["check", "--deploy", "--fail-level", "WARNING"]):
        done = subprocess.run(manage + args, cwd=REPO, env=env, capture_output=True, text=True)
        check(done.returncode == 0, f"manage.py {' '.join(args)}" + (f": {done.stderr}" if done.returncode else ""))
    made = subprocess.run(manage + ["shell", "--no-imports", "-c", SETUP], cwd=REPO, env=env, capture_output=True, text=True)
    check(made.returncode == 0, "a series, a scorer and a game" + (f": {made.stderr}" if made.returncode else ""))
    game = int(made.stdout.strip().splitlines()[-1])

    log = Path(os.environ.get("SMOKE_LOG", "/tmp/tenbou-smoke.log"))
    with serve(env, workers=2, args=("--capture-output", "--error-logfile", str(log))) as base:
        b = Browser(base)
        status, _, page, _ = b.request("/series/smoke/")
        check(status == 200 and "Smoke night" in page, "the series page")
        check(b.request("/readyz")[0] == 200, "/readyz with the database up")
        status, headers, _, _ = b.request("/series/smoke/standings.csv")
        check(status == 200 and headers.get("Content-Type", "").startswith("text/csv"), "the standings CSV")
        check(b.request("/static/admin/css/base.css")[0] == 200, "the admin's static files through WhiteNoise")
        status, headers, _, _ = b.request("/series/smoke/", https=False)
        check(status == 301 and headers["Location"].startswith("https://"), "plain HTTP redirected to HTTPS")
        status, headers, _, _ = b.request("/series/smoke/")
        check("max-age=31536000" in headers.get("Strict-Transport-Security", ""), "HSTS for a year")
        # The Content-Security-Policy, on the page served whole from the cache (Redis) too.
        csp = headers.get("Content-Security-Policy", "")
        check("script-src 'self' 'wasm-unsafe-eval'" in csp and "frame-ancestors 'none'" in csp
              and "object-src 'none'" in csp, "a Content-Security-Policy with scripts from the site only")
        status, headers, _, _ = b.request("/series/smoke/")
        check(headers.get("Content-Security-Policy") == csp, "the same policy on the cached page")

        staff = Browser(base)
        status, _, _, cookies = staff.request("/accounts/login/")
        check(status == 200 and any("csrftoken" in c and "Secure" in c for c in cookies), "a secure CSRF cookie")
        status, headers, _, cookies = staff.request("/accounts/login/", {
            "username": "director", "password": "smoke-test passphrase 7",
            "csrfmiddlewaretoken": staff.cookies["csrftoken"], "next": f"/staff/games/{game}/"})
        check(status == 302 and any("sessionid" in c and "Secure" in c for c in cookies), "a login, secure session")

        # A tsumo, entered as a scorer without JavaScript: check the payments, then save.
        status, headers, page, _ = staff.request(f"/staff/games/{game}/")
        check(headers.get("Content-Security-Policy") == csp, "the policy on the staff game page")
        form = fields_of(page, "outcome")
        data: dict[str, list[str]] = {}
        for name, value in form["fields"]:
            data.setdefault(name, []).append(value)
        data.update({"outcome": ["tsumo"], "winner": ["0"], "han_0": ["3"], "fu_0": ["30"]})
        status, _, page, _ = staff.request(f"/staff/games/{game}/", data)
        check(status == 200 and "2,000" in page, "the hand's payments shown before saving")
        form = fields_of(page, "outcome")
        data = {}
        for name, value in form["fields"]:
            data.setdefault(name, []).append(value)
        save = next((n, v) for n, v in form["buttons"] if v == "save")
        data[save[0]] = [save[1]]
        status, headers, _, _ = staff.request(f"/staff/games/{game}/", data)
        check(status == 302, "the hand saved")
        check(subprocess.run(manage + ["shell", "--no-imports", "-c", f"from league.models import Game; "
                                                      f"print(Game.objects.get(pk={game}).hands.count())"],
                             cwd=REPO, env=env, capture_output=True, text=True).stdout.split()[-1] == "1",
              "exactly one hand in the database")

        # django-ratelimit counts in fixed windows (EXPORT_RATE_LIMIT 20/m): a burst that
        # straddles a window's end is counted in two, and fewer than 5 of its 25 are refused
        # (CI's loaded machine once took long enough). A second burst, seconds later, cannot
        # straddle another end of a minute's window.
        for _ in range(2):
            codes = [Browser(base).request("/series/smoke/games.csv") for _ in range(25)]
            limited = [c for c in codes if c[0] == 429]
            if len(limited) >= 5:
                break
        check(len(limited) >= 5 and all(int(c[1]["Retry-After"]) > 0 for c in limited),
              f"a burst of 25 anonymous downloads: {len(limited)} refused with 429 and Retry-After")
        check(staff.request("/series/smoke/games.csv")[0] == 200, "staff still download during the burst")

        subprocess.run(["redis-cli", "-p", str(redis_port), "shutdown", "nosave"], capture_output=True)
        status = Browser(base).request("/series/smoke/games.csv")[0]
        check(status == 500, "a deliberate 500: the cache (Redis) stopped under a download")
    text = log.read_text(errors="replace")
    check("Internal Server Error: /series/smoke/games.csv" in text and "Traceback" in text
          and "ConnectionError" in text, f"the 500 in the log ({log}) with its traceback")
    print("production smoke test passed")


if __name__ == "__main__":
    main()
