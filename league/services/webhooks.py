"""Webhooks of a series: registering and removing a URL, and the outbox rows
the other services write when one of a series' events happens.

``announce`` runs inside the caller's transaction (the finish of a game, the
publishing or start of a round, a move of the results stamp), so the
deliveries commit with the change or not at all; it costs one query when the
series has no hook. The sending is ``league.webhooks``', woken after the commit.
Payloads hold what the public may see: a game in a round whose results the
director hides is announced without its result.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from league import webhooks
from league.models import Delivery, Game, HookEvent, Round, RoundTable, Series, WebHook
from league.models.stages import Stage
from league.models.tournament import Tournament
from league.services.audit import Actor, user_of
from league.services.errors import ServiceError

MAX_HOOKS = 10  # per series


def register_hook(*, series: Series, url: str, events: list[str], by: Actor = None) -> WebHook:
    """Tell ``url`` of ``events`` of ``series``. Refused (naming the field)
    for a URL Tenbou would not send to and for an unknown event."""
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
        return WebHook.objects.create(series=series, url=url, events=sorted(set(events)), created_by=user_of(by))


def remove_hook(*, hook: WebHook) -> None:
    """Stop sending to the hook; its deliveries go with it."""
    with transaction.atomic():
        WebHook.objects.filter(pk=hook.pk).delete()


def announce(series_id: int, event: str, data: dict[str, Any], *, once: bool = False) -> int:
    """Write a delivery of ``event`` for every active hook of the series that
    asked for it, in the caller's transaction; wake the sender after the
    commit. ``once``: not while an earlier delivery of the same event to the
    hook waits untried (the standings: the receiver reads them anew anyway)."""
    hooks = [h for h in WebHook.objects.filter(series_id=series_id, active=True) if event in h.events]
    if not hooks:
        return 0
    slug = Series.objects.filter(pk=series_id).values_list("slug", flat=True).first()
    now = timezone.now()
    rows = []
    for hook in hooks:
        if once and Delivery.objects.filter(hook=hook, event=event, state=Delivery.State.PENDING, attempts=0).exists():
            continue
        row = Delivery(hook=hook, event=event, next_attempt_at=now)
        body = {"event": event, "delivery": str(row.delivery_id), "series": slug, "at": _iso(now), "data": data}
        row.body = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        rows.append(row)
    Delivery.objects.bulk_create(rows)
    if rows:
        transaction.on_commit(webhooks.wake)
    return len(rows)


def _iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def game_finished(game: Game) -> None:
    """A game's first finish (a correction after it moves the standings instead)."""
    if not WebHook.objects.filter(series_id=game.series_id, active=True).exists():
        return
    series = game.series
    tournament = Tournament.objects.filter(series_id=game.series_id).first()
    hidden = tournament is not None and not tournament.round_visible(game.round_number)
    data: dict[str, Any] = {"game": game.pk, "round": game.round_number, "table": game.table,
                            "results_hidden": hidden, "api": reverse("api-v1:game_detail", args=[game.pk])}
    if not hidden:
        data["seats"] = [{"seat": s.seat, "player_id": s.player_id, "name": s.player.name, "end_score": s.end_score,
                          "points": s.points, "place": s.place}
                         for s in game.seats.select_related("player").order_by("seat")]
    announce(series.pk, HookEvent.GAME_FINISHED, data)
    if tournament is not None and _event_over(series, tournament):
        if not Delivery.objects.filter(hook__series=series, event=HookEvent.EVENT_FINISHED).exists():
            announce(series.pk, HookEvent.EVENT_FINISHED,
                     {"api": reverse("api-v1:series_standings", args=[series.slug])})


def _event_over(series: Series, tournament: Tournament) -> bool:
    """Every planned round (and every stage's) started, and every table's game finished."""
    last_stage = Stage.objects.filter(series=series).order_by("-last_round").values_list("last_round", flat=True)
    planned = max(tournament.rounds, last_stage.first() or 0)
    started = Round.objects.filter(series=series, status=Round.Status.STARTED).count()
    if started < planned:
        return False
    return not RoundTable.objects.filter(round__series=series).exclude(game__status=Game.Status.FINISHED).exists()


def round_published(rnd: Round) -> None:
    announce(rnd.series_id, HookEvent.ROUND_PUBLISHED,
             {"round": rnd.number, "api": reverse("api-v1:event_detail", args=[rnd.series.slug])})


def round_started(rnd: Round) -> None:
    announce(rnd.series_id, HookEvent.ROUND_STARTED,
             {"round": rnd.number, "ends_at": _iso(rnd.ends_at) if rnd.ends_at else None,
              "api": reverse("api-v1:event_detail", args=[rnd.series.slug])})


def standings_changed(series_ids: list[int], **kwargs: Any) -> None:
    """The receiver of ``versions.results_changed``: the results stamp of these
    series moves when this transaction commits."""
    hooked = set(WebHook.objects.filter(series_id__in=series_ids, active=True).values_list("series_id", flat=True))
    for pk, slug in Series.objects.filter(pk__in=hooked).values_list("pk", "slug") if hooked else ():
        announce(pk, HookEvent.STANDINGS_CHANGED, {"api": reverse("api-v1:series_standings", args=[slug])},
                     once=True)
