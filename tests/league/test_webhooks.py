"""Webhooks: a local receiver verifies every delivery's signature over a whole
event; the outbox commits with the change (and not without it), survives a
restart and is retried with backoff; targets Tenbou must not reach are
refused; slow, huge and redirecting answers are cut off; the thread sends
after the commit."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import socket
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league import webhooks
from league.models import Delivery, Game, HookEvent, WebHook
from league.services import ServiceError, event, record_final_scores
from league.services import stages as st
from league.services import webhooks as hooks
from tests.factories import make_director, make_game, make_scorer, make_series
from tests.league.services.test_stages import QUALIFYING, SCORES, P, make_event, play_round, play_seated
from tests.league.webhook_receiver import receiver

pytestmark = pytest.mark.django_db

ALL = list(HookEvent.values)


def verify(secret: str, body: bytes, header: str) -> bool:
    """The receiver's check, as docs/api.md gives it."""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)


@pytest.fixture
def loopback(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS = True
    settings.WEBHOOK_THREAD = False  # these tests drain the outbox themselves


def drain() -> None:
    while webhooks.deliver_due():
        pass


def test_a_local_receiver_verifies_every_signature_over_a_whole_event(loopback: None) -> None:
    series = make_event("hooked")
    with receiver() as r:
        hook = hooks.register_hook(series=series, url=f"{r.base}/ok", events=ALL)
        for n, tables in enumerate(QUALIFYING, start=1):
            play_round(series, n, tables, {t: SCORES[(n, t)] for (rn, t) in SCORES if rn == n})
            drain()  # between rounds, as the thread would: standings_changed waits for one untried row at most
        final = series.stages.get(number=2)
        st.cut_to_stage(stage=final)
        play_seated(series, st.seat_stage_round(stage=final), {1: P}, order={1: [4, 1, 5, 2]})
        drain()
        received = r.received
    assert received and all(verify(hook.secret, x.body, x.headers["X-Tenbou-Signature"]) for x in received)
    bodies = [json.loads(x.body) for x in received]
    assert [b["delivery"] for b in bodies] == [x.headers["X-Tenbou-Delivery"] for x in received]
    assert len({b["delivery"] for b in bodies}) == len(bodies)
    assert [b["event"] for b in bodies] == [x.headers["X-Tenbou-Event"] for x in received]
    count = {e: sum(1 for b in bodies if b["event"] == e) for e in ALL}
    assert count["game_finished"] == Game.objects.filter(series=series).count() == 17
    assert (count["round_published"], count["round_started"], count["event_finished"]) == (5, 5, 1)
    assert count["standings_changed"] >= 5
    assert bodies[-1]["event"] == "event_finished"
    # A finished game's delivery names the game; the API link gives its result.
    finished = next(b for b in bodies if b["event"] == "game_finished")
    assert finished["data"]["api"] == f"/api/v1/games/{finished['data']['game']}"
    assert finished["series"] == "hooked" and finished["data"]["round"] == 1
    assert set(Delivery.objects.filter(hook=hook).values_list("state", flat=True)) == {"delivered"}
    # A tampered body fails the check.
    assert not verify(hook.secret, received[0].body + b" ", received[0].headers["X-Tenbou-Signature"])


def test_a_hidden_rounds_game_is_announced_and_its_result_stays_hidden(loopback: None, client: Any) -> None:
    series = make_event("hooked-hidden")
    event.hide_results(series=series, from_round=1)
    with receiver() as r:
        hooks.register_hook(series=series, url=f"{r.base}/ok", events=["game_finished"])
        play_round(series, 1, QUALIFYING[0])
        drain()
        bodies = [json.loads(x.body) for x in r.received]
    assert len(bodies) == 4
    for body in bodies:
        assert set(body["data"]) == {"game", "round", "table", "api"}  # no result in the delivery
        assert client.get(body["data"]["api"]).status_code == 404  # and none from the API while hidden


def test_a_rolled_back_change_leaves_no_delivery_and_a_restart_loses_none(loopback: None) -> None:
    series = make_series("ari-ari", slug="club-hooks")
    with receiver() as r:
        hooks.register_hook(series=series, url=f"{r.base}/ok", events=["game_finished", "standings_changed"])
        game = make_game(series)
        with pytest.raises(ServiceError):
            record_final_scores(game=game, scores=[25000, 25000, 25000, 24000])  # does not add up
        assert Delivery.objects.count() == 0
        record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
        assert sorted(Delivery.objects.values_list("event", flat=True)) == ["game_finished", "standings_changed"]
        # Nothing sent yet (as if the process stopped after the commit): a new process's command sends them.
        call_command("deliver_webhooks")
        assert sorted(x.headers["X-Tenbou-Event"] for x in r.received) == ["game_finished", "standings_changed"]


def test_failures_are_retried_with_backoff_then_given_up(loopback: None) -> None:
    series = make_series("ari-ari", slug="club-retry")
    with receiver() as r:
        hooks.register_hook(series=series, url=f"{r.base}/fail", events=["game_finished"])
        record_final_scores(game=make_game(series), scores=[40000, 30000, 20000, 10000])
        delivery = Delivery.objects.get()
        now = timezone.now()
        waits = []
        for attempt in range(1, webhooks.MAX_ATTEMPTS + 1):
            assert webhooks.deliver_due(now=now) == 1
            delivery.refresh_from_db()
            assert (delivery.attempts, delivery.last_status) == (attempt, 500)
            if attempt < webhooks.MAX_ATTEMPTS:
                assert delivery.state == "pending"
                assert webhooks.deliver_due(now=now) == 0  # not due before its backoff
                waits.append((delivery.next_attempt_at - now).total_seconds())
                now = delivery.next_attempt_at + datetime.timedelta(seconds=1)
        assert delivery.state == "failed"
        assert waits == [30, 120, 480, 1800, 3600, 3600, 3600]
        assert len({x.headers["X-Tenbou-Delivery"] for x in r.received}) == 1  # one id on every retry


@pytest.mark.parametrize(("url", "code"), [
    ("ftp://example.com/hook", "url_scheme"),
    ("javascript:alert(1)", "url_scheme"),
    ("http://127.0.0.1:8000/hook", "url_address"),
    ("http://localhost/hook", "url_address"),
    ("http://[::1]/hook", "url_address"),
    ("http://[::ffff:127.0.0.1]/hook", "url_address"),
    ("http://10.1.2.3/hook", "url_address"),
    ("http://192.168.1.10/hook", "url_address"),
    ("http://172.16.0.5/hook", "url_address"),
    ("http://169.254.169.254/latest/meta-data/", "url_address"),
    ("http://[fd00:ec2::254]/", "url_address"),
    ("http://100.100.100.200/", "url_address"),
    ("http://0.0.0.0/", "url_address"),
    ("http://224.0.0.1/", "url_address"),
    ("http://user:pw@93.184.215.14/", "url_credentials"),
])
def test_targets_that_must_not_be_reached_are_refused(url: str, code: str) -> None:
    series = make_series("ari-ari", slug="club-refuse")
    with pytest.raises(ServiceError) as refused:
        hooks.register_hook(series=series, url=url, events=["game_finished"])
    assert (refused.value.code, refused.value.field) == (code, "url")
    assert WebHook.objects.count() == 0


def test_a_name_with_any_private_address_is_refused() -> None:
    def resolves_to(*addresses: str) -> Any:
        return lambda host, port, type: [(socket.AF_INET, type, 6, "", (a, port)) for a in addresses]

    target = webhooks.check_target("https://hooks.example/x?y=1", resolve=resolves_to("93.184.215.14"))
    assert (target.url, target.host_header, target.address) == ("https://93.184.215.14:443/x?y=1", "hooks.example",
                                                                 "93.184.215.14")
    with pytest.raises(webhooks.Refused) as refused:
        webhooks.check_target("https://hooks.example/", resolve=resolves_to("93.184.215.14", "10.0.0.7"))
    assert refused.value.code == "address" and "10.0.0.7" in refused.value.message


def test_the_loopback_switch_is_off_outside_tests(settings: Any) -> None:
    from league import settings as project_settings

    assert project_settings.WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS is False
    with pytest.raises(webhooks.Refused):
        webhooks.check_target("http://127.0.0.1:9/")


def test_redirects_are_not_followed(loopback: None) -> None:
    with receiver() as r:
        outcome = webhooks.send(f"{r.base}/redirect", "k", "game_finished", "id-1", b"{}")
        assert (outcome.delivered, outcome.status) == (False, 302) and "redirect" in outcome.error
        assert [x.path for x in r.received] == ["/redirect"]


def test_slow_and_huge_answers_are_cut_off(loopback: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webhooks, "READ_SECONDS", 0.5)  # the hang is cut off at the read timeout, whatever it is
    with receiver() as r:
        slow = webhooks.send(f"{r.base}/hang", "k", "game_finished", "id-2", b"{}")
        assert not slow.delivered and slow.status is None and "Timeout" in slow.error
        huge = webhooks.send(f"{r.base}/huge", "k", "game_finished", "id-3", b"{}")
        assert huge.delivered  # a 200, whose answer nobody needs: reading stopped at MAX_ANSWER_BYTES
        r.release.set()
        r.wait_for(2)
    assert r.huge_written == [] or r.huge_written[0] < 10_000 * 1024


def test_a_director_names_events_and_the_field_of_a_mistake(loopback: None) -> None:
    series = make_series("ari-ari", slug="club-fields")
    with pytest.raises(ServiceError) as refused:
        hooks.register_hook(series=series, url="http://127.0.0.1:9/", events=["game_over"])
    assert (refused.value.code, refused.value.field) == ("events", "events")
    with pytest.raises(ServiceError) as refused:
        hooks.register_hook(series=series, url="http://127.0.0.1:9/" + "x" * 500, events=ALL)
    assert refused.value.field == "url"


@pytest.mark.django_db(transaction=True)
def test_the_thread_sends_after_the_commit(settings: Any) -> None:
    settings.WEBHOOK_ALLOW_LOOPBACK_FOR_TESTS = True
    settings.WEBHOOK_THREAD = True
    series = make_series("ari-ari", slug="club-thread")
    with receiver() as r:
        hooks.register_hook(series=series, url=f"{r.base}/ok", events=["game_finished"])
        game = make_game(series)
        with transaction.atomic():
            record_final_scores(game=game, scores=[40000, 30000, 20000, 10000])
            assert r.received == []  # nothing leaves before the commit
        received = r.wait_for(1)
    assert [x.headers["X-Tenbou-Event"] for x in received] == ["game_finished"]
    assert Delivery.objects.get().state in ("delivered", "pending")  # the row is written after the POST returns


def test_the_staff_page_registers_shows_the_secret_and_logs_deliveries(loopback: None, client: Any) -> None:
    series = make_series("ari-ari", slug="club-page")
    other = make_series("ari-ari", slug="club-other")
    url = reverse("webhooks-manage", args=[series.slug])
    assert client.get(url).status_code == 302  # the login first
    client.force_login(make_scorer(other, "not-here"))
    assert client.get(url).status_code == 403
    client.force_login(make_scorer(series, "scorer"))
    assert client.get(url).status_code == 403  # a scorer enters hands; hooks are the director's
    client.force_login(make_director(series, "director"))
    refused = client.post(url, {"url": "http://169.254.169.254/latest", "events": ["game_finished"]})
    assert refused.status_code == 400 and "cloud metadata" in refused.content.decode()
    assert WebHook.objects.count() == 0
    with receiver() as r:
        added = client.post(url, {"url": f"{r.base}/ok", "events": ["game_finished"]})
        assert added.status_code == 302
        hook = WebHook.objects.get()
        record_final_scores(game=make_game(series), scores=[40000, 30000, 20000, 10000])
        drain()
        assert len(r.received) == 1
    page = client.get(url).content.decode()
    assert hook.secret in page and f'data-delivery="{Delivery.objects.get().delivery_id}" data-state="delivered"' in page
    client.post(url, {"remove": str(hook.pk)})
    assert WebHook.objects.count() == 0 and Delivery.objects.count() == 0
