"""Players registering themselves for an event the size of Vortex Gallery
2021 (a cap of 256) on a throwaway test database, each figure next to its
baseline in the same run:

- a self-registration (``sign_up`` + ``confirm_signup``: the checks, the
  mail, a place) next to the director's ``register_player`` of the same player;
- a confirmation past the cap (onto the waiting list) next to the same baseline;
- a withdrawal that moves the first of the waiting list up, next to ``drop_player``;
- the director's players page with 256 registrations and 300 sign-ups, next
  to the same page of an event with the same 256 registrations and no sign-up.

    python tests/benchmarks/bench_signup.py [--cap 256] [--extra 44]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=int, default=256)
    parser.add_argument("--extra", type=int, default=44, help="sign-ups past the cap (the waiting list)")
    args = parser.parse_args()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ALLOWED_HOSTS = ["testserver"]

    from django.test import Client

    from league.services import event
    from league.services import signup as desk
    from tests.benchmarks.events import new_event, throwaway_database, timed
    from tests.factories import make_director

    with throwaway_database():
        series, baseline = new_event(4), new_event(4)
        desk.configure_signup(series=series, is_open=True, closes_at=None, cap=args.cap, moderated=False)
        own, director, past_cap = [], [], []
        for i in range(args.cap + args.extra):
            person = {"first_name": f"P{i}", "last_name": f"L{i}", "ema_number": f"1099{i:04d}", "country": "NL"}
            t0 = time.perf_counter()
            signup = desk.sign_up(series=series, email=f"p{i}@example.org", **person)
            signup = desk.confirm_signup(token=desk.link_token(signup))
            (own if signup.status == "registered" else past_cap).append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            event.register_player(series=baseline, **person)
            director.append(time.perf_counter() - t0)
        withdrawals, drops = [], []
        registered = list(series.signups.filter(status="registered").order_by("pk")[: args.extra // 2])
        for signup, reg in zip(registered, baseline.registrations.order_by("number"), strict=False):
            t0 = time.perf_counter()
            desk.withdraw_signup(signup=signup)
            withdrawals.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            event.drop_player(registration=reg)
            drops.append(time.perf_counter() - t0)
        user = make_director(series, "director")
        baseline.scorers.add(user)
        client = Client()
        client.force_login(user)
        pages = {}
        for s in (series, baseline):
            url = f"/staff/series/{s.slug}/event/players/"
            assert client.get(url).status_code == 200
            pages[s.pk] = timed(lambda url=url: client.get(url), repeat=7)

        def ms(values: list[float]) -> float:
            return statistics.median(values) * 1000

        print(f"database: {connection.vendor}; cap {args.cap}, {args.cap + args.extra} sign-ups, "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"sign up + confirm, a place:      {ms(own):6.2f} ms median   "
              f"register_player {ms(director):6.2f} ms   ratio {ms(own) / ms(director):.2f}x")
        print(f"sign up + confirm, waiting list: {ms(past_cap):6.2f} ms median   ratio {ms(past_cap) / ms(director):.2f}x")
        print(f"withdraw + move up:              {ms(withdrawals):6.2f} ms median   "
              f"drop_player     {ms(drops):6.2f} ms   ratio {ms(withdrawals) / ms(drops):.2f}x")
        (with_t, with_q, _), (without_t, without_q, _) = pages[series.pk], pages[baseline.pk]
        print(f"players page with the sign-ups:  {with_t * 1000:6.1f} ms, {with_q} queries   without: "
              f"{without_t * 1000:6.1f} ms, {without_q} queries   ratio {with_t / without_t:.2f}x")


if __name__ == "__main__":
    main()
