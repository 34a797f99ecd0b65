"""Webhooks of a series: registering and removing a URL, and the outbox rows
the other services write when one of a series' events happens.

``announce`` runs inside the caller's transaction (the finish of a game, the
publishing or start of a round, a move of the results stamp), so the
deliveries commit with the change or not at all; it costs no query when the
series has no hook (``hooks_of`` keeps each series' hooks in the stamps'
shared store), and one INSERT per event when it has. The sending is ``league.webhooks``', woken after the commit.
Payloads name what happened and where the read API shows it (``data.api``):
results are the API's to give, under its visibility rules, so a game in a
round whose results the director hides is announced and its result is not.
"""

from __future__ import annotations

import datetime
import functools
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league import stamps, webhooks
from league.errors import ServiceError
from league.models import Delivery, Game, HookEvent, Round, RoundTable, Series, WebHook
from league.models.event import Event
from league.models.stages import Stage
from league.services.audit import Actor, user_of

MAX_HOOKS = 10  # per series


def register_hook(*, series: Series, url: str, events: list[str], by: Actor = None) -> WebHook:
    """Tell ``url`` of ``events`` of ``series``. Refused (naming the field)
    for a URL Tenbou would not send to and for an unknown event. Locks the series row."""
    url = url.strip()
    if len(url) > 500:
        raise ServiceError("url_too_long", "a URL of at most 500 characters", field="url")
    try:
        webhooks.check_target(url)
    except webhooks.Refused as exc:
        raise ServiceError(f"url_{exc.code}", exc.message, field="url") from None
    unknown = [e for e in events if e not in HookEvent.values]
    if unknown or not events:
        raise ServiceError("events", f"choose events among {', '.join(HookEvent.values)}", field="events")
    with transaction.atomic():
        Series.objects.select_for_update().filter(pk=series.pk).first()  # the count below is the series' own
        if WebHook.objects.filter(series=series).count() >= MAX_HOOKS:
            raise ServiceError("too_many_hooks", f"at most {MAX_HOOKS} webhooks a series", field="url")
        hook = WebHook.objects.create(series=series, url=url, events=sorted(set(events)), created_by=user_of(by))
        forget_hooks(series.pk)
    return hook


def remove_hook(*, hook: WebHook) -> None:
    """Stop sending to the hook; its deliveries and their log go with it."""
    with transaction.atomic():
        WebHook.objects.filter(pk=hook.pk).delete()
        forget_hooks(hook.series_id)


# -- which hooks a series has, without a query ------------------------------------------------------------


@dataclass(frozen=True)
class Hooks:
    slug: str
    events: dict[str, tuple[int, ...]]  # event -> the hooks that asked for it


def _key(series_id: int) -> str:
    return f"hooks-{series_id}"


def hooks_of(series_id: int) -> Hooks:
    """The series' active hooks by event, kept in the stamps' store
    (``league.stamps``), which every process shares: a save in a series
    asks no query to learn it has no hook, and one INSERT per event when it has."""
    text = stamps.store().get(_key(series_id))
    if text is None:
        slug = Series.objects.filter(pk=series_id).values_list("slug", flat=True).first() or ""
        by_event: dict[str, list[int]] = {}
        for pk, events in WebHook.objects.filter(series_id=series_id, active=True).values_list("pk", "events"):
            for event in events:
                by_event.setdefault(event, []).append(pk)
        text = json.dumps({"slug": slug, "hooks": by_event}, sort_keys=True)
        stamps.store().add(_key(series_id), text)
    return _parse(text)


@functools.lru_cache(maxsize=256)
def _parse(text: str) -> Hooks:
    found = json.loads(text)
    return Hooks(slug=found["slug"], events={e: tuple(ids) for e, ids in found["hooks"].items()})


def forget_hooks(series_id: int) -> None:
    """The series' hooks or its slug changed: read them again (now, and after the commit)."""
    key = _key(series_id)
    stamps.store().delete_many([key])
    transaction.on_commit(lambda: stamps.store().delete_many([key]))


def announce(series_id: int, event: str, data: dict[str, Any]) -> int:
    """Write a delivery of ``event`` for every active hook of the series that
    asked for it, in the caller's transaction (one INSERT); wake the sender
    after the commit. A series without such a hook costs no query."""
    hooks = hooks_of(series_id)
    targets = hooks.events.get(event, ())
    if not targets:
        return 0
    now = timezone.now()
    rows = []
    for hook_id in targets:
        row = Delivery(hook_id=hook_id, event=event, next_attempt_at=now)
        body = {"event": event, "delivery": str(row.delivery_id), "series": hooks.slug, "at": _iso(now), "data": data}
        row.body = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        rows.append(row)
    Delivery.objects.bulk_create(rows)
    transaction.on_commit(webhooks.wake)
    return len(rows)


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def game_finished(game: Game) -> None:
    """A game's first finish (a correction after it moves the standings
    instead). The delivery names the game; its result is the API's to give
    (``data.api``), which hides what the director hides."""
    hooks = hooks_of(game.series_id)
    if not hooks.events:
        return
    announce(game.series_id, HookEvent.GAME_FINISHED, {
        "game": game.pk, "round": game.round_number, "table": game.table,
        "api": reverse("api-v1:game_detail", args=[game.pk])})
    if hooks.events.get(HookEvent.EVENT_FINISHED) and _event_over(game.series_id):
        if not Delivery.objects.filter(hook__series_id=game.series_id, event=HookEvent.EVENT_FINISHED).exists():
            announce(game.series_id, HookEvent.EVENT_FINISHED,
                     {"api": reverse("api-v1:series_standings", args=[hooks.slug])})


def _event_over(series_id: int) -> bool:
    """Every planned round (and every stage's) started, and every table's game finished."""
    event = Event.objects.filter(series_id=series_id).first()
    if event is None:
        return False
    last_stage = Stage.objects.filter(series_id=series_id).order_by("-last_round").values_list("last_round", flat=True)
    planned = max(event.rounds, last_stage.first() or 0)
    started = Round.objects.filter(series_id=series_id, status=Round.Status.STARTED).count()
    if started < planned:
        return False
    return not RoundTable.objects.filter(round__series_id=series_id).exclude(game__status=Game.Status.FINISHED).exists()


def round_published(rnd: Round) -> None:
    hooks = hooks_of(rnd.series_id)
    if hooks.events:
        announce(rnd.series_id, HookEvent.ROUND_PUBLISHED,
                 {"round": rnd.number, "api": reverse("api-v1:event_detail", args=[hooks.slug])})


def round_started(rnd: Round) -> None:
    hooks = hooks_of(rnd.series_id)
    if hooks.events:
        announce(rnd.series_id, HookEvent.ROUND_STARTED,
                 {"round": rnd.number, "ends_at": _iso(rnd.ends_at) if rnd.ends_at else None,
                  "api": reverse("api-v1:event_detail", args=[hooks.slug])})


def standings_changed(series_ids: list[int], **kwargs: Any) -> None:
    """The receiver of ``stamps.results_changed``: the results stamp of these
    series moves when this transaction commits. One delivery per change (a
    receiver reads the standings anew whatever the number)."""
    for pk in series_ids:
        hooks = hooks_of(pk)
        if hooks.events.get(HookEvent.STANDINGS_CHANGED):
            announce(pk, HookEvent.STANDINGS_CHANGED, {"api": reverse("api-v1:series_standings", args=[hooks.slug])})
