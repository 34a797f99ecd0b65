"""Staff admin. Anything that changes a game's score history goes through
``league.services`` so the replay and the audit trail always happen: hands,
seats, results and the audit log are read-only here."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy

from league import exports, game_records, services
from league.forms.players import PlayerChoiceField
from league.models import (
    EventAudit,
    EventRules,
    Game,
    GameAudit,
    Hand,
    Penalty,
    Player,
    PlayerMerge,
    Playoff,
    Rating,
    Registration,
    Seat,
    Series,
    SignOff,
    Stage,
    StageSeed,
    Win,
)
from scoring.errors import ScoringError


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def by_game(path: str = "") -> list[str]:
    """The admin lists' order for a game's rows: newest series first, then
    round, table and game. The models' default orderings stop at the game's
    own columns (a join on every read); the lists across series spell it out."""
    return [f"{path}series", f"{path}round_number", f"{path}table", f"{path}id"]


def pretty_json(value: Any) -> str:
    if value is None:
        return "-"
    return format_html("<pre>{}</pre>", json.dumps(value, indent=1, ensure_ascii=False))


class AuditJsonMixin:
    """An audit entry's before and after values, readable, for the inline and the list."""

    @admin.display(description="before")
    def before_json(self, obj: GameAudit) -> str:
        return pretty_json(obj.before)

    @admin.display(description="after")
    def after_json(self, obj: GameAudit) -> str:
        return pretty_json(obj.after)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "ema_number", "club", "country", "user"]
    list_filter = ["country", "club"]
    search_fields = ["name", "ema_number", "club"]
    raw_id_fields = ["user"]
    actions = ["merge_players"]

    @admin.action(description=gettext_lazy("Merge two rows of one person"))
    def merge_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> HttpResponse | None:
        """Two selected rows: a page asks which to keep and why, then ``services.merge_players`` runs."""
        players = list(queryset.order_by("pk"))
        if len(players) != 2:
            self.message_user(request, gettext("Select exactly two players to merge."), messages.ERROR)
            return None
        if request.POST.get("apply"):
            keep_id = request.POST.get("keep")
            keep = next((p for p in players if str(p.pk) == keep_id), None)
            if keep is None:
                self.message_user(request, gettext("keep: choose the row to keep."), messages.ERROR)
                return None
            merge = players[1] if keep is players[0] else players[0]
            try:
                record = services.merge_players(keep=keep, merge=merge, reason=request.POST.get("reason", ""), by=request.user)
            except services.ServiceError as err:
                self.message_user(request, err.message, messages.ERROR)
                return None
            self.message_user(request, gettext("%(merged)s merged into %(kept)s: %(moved)s") % {
                "merged": record.merged_name, "kept": keep.name,
                "moved": ", ".join(f"{k} {v}" for k, v in record.moved.items())}, messages.SUCCESS)
            return None
        return TemplateResponse(request, "admin/league/player/merge.html", {
            **self.admin_site.each_context(request), "players": players,
            "rows": [(p, p.seats.count()) for p in players],
            "title": gettext("Merge two rows of one person"), "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        })


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "start_date", "end_date", "min_games", "standings_per_page"]
    list_filter = ["kind", "start_date"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors", "scorers"]
    actions = ["export_standings_csv", "export_games_csv", "export_hands_csv", "export_game_records"]

    # Each export is one series' file, the same as its public URL (or export_games).
    @admin.action(description="Export standings as CSV (one series)")
    def export_standings_csv(self, request: HttpRequest, queryset: QuerySet[Series]) -> HttpResponse | None:
        return self._csv(request, queryset, "standings", exports.standings_rows)

    @admin.action(description="Export games as CSV (one series)")
    def export_games_csv(self, request: HttpRequest, queryset: QuerySet[Series]) -> HttpResponse | None:
        return self._csv(request, queryset, "games", lambda s: exports.game_rows(exports.series_games(s)))

    @admin.action(description="Export hands as CSV (one series)")
    def export_hands_csv(self, request: HttpRequest, queryset: QuerySet[Series]) -> HttpResponse | None:
        return self._csv(request, queryset, "hands", lambda s: exports.hand_rows(exports.series_games(s)))

    @admin.action(description="Export game records as JSON lines (one series)")
    def export_game_records(self, request: HttpRequest, queryset: QuerySet[Series]) -> HttpResponse | None:
        series = self._one(request, queryset)
        if series is None:
            return None
        response = StreamingHttpResponse(
            (line.encode("utf-8") for line in game_records.export_lines(exports.series_games(series))),
            content_type="application/jsonl; charset=utf-8",
        )
        response["Content-Disposition"] = f'attachment; filename="{series.slug}-games.jsonl"'
        return response

    def _csv(
        self, request: HttpRequest, queryset: QuerySet[Series], what: str, rows: Callable[[Series], Iterable[Any]]
    ) -> HttpResponse | None:
        series = self._one(request, queryset)
        if series is None:
            return None
        return exports.csv_response(rows(series), f"{series.slug}-{what}.csv")

    def _one(self, request: HttpRequest, queryset: QuerySet[Series]) -> Series | None:
        if len(selected := list(queryset[:2])) != 1:
            self.message_user(request, "Select exactly one series to export.", messages.WARNING)
            return None
        return selected[0]


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ["seat", "player", "end_score", "place", "points"]
    readonly_fields = fields


class HandInline(ReadOnlyMixin, admin.TabularInline):
    model = Hand
    fields = ["number", "round", "honba", "summary", "scores_after", "entered_by", "updated_at"]
    readonly_fields = fields
    replayed: dict[int, Any] = {}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hand]:
        return super().get_queryset(request).prefetch_related("wins").select_related("entered_by")

    @admin.display(description="round")
    def round(self, obj: Hand) -> str:
        played = self.replayed.get(obj.number)
        return played.round_label if played else "?"

    @admin.display(description="honba")
    def honba(self, obj: Hand) -> str:
        played = self.replayed.get(obj.number)
        return str(played.honba) if played else "?"

    @admin.display(description="scores after")
    def scores_after(self, obj: Hand) -> str:
        played = self.replayed.get(obj.number)
        return " / ".join(f"{s:,}" for s in played.scores) if played else "?"


class PenaltyInline(ReadOnlyMixin, admin.TabularInline):
    model = Penalty
    fields = ["seat", "points", "reason", "given_by", "given_at", "cancelled_at", "cancelled_by"]
    readonly_fields = fields


class AuditInline(AuditJsonMixin, ReadOnlyMixin, admin.TabularInline):
    model = GameAudit
    fields = ["at", "action", "hand_number", "username", "before_json", "after_json"]
    readonly_fields = fields
    ordering = ["-at", "-pk"]


class GameAddForm(forms.ModelForm):
    east = PlayerChoiceField()
    south = PlayerChoiceField()
    west = PlayerChoiceField()
    north = PlayerChoiceField()

    class Meta:
        model = Game
        fields = ["series", "round_number", "table"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seen: set[int] = set()
        for wind in ("east", "south", "west", "north"):
            player = data.get(wind)
            if player is not None and player.pk in seen:
                self.add_error(wind, "The same player cannot sit twice at one game.")
            if player is not None:
                seen.add(player.pk)
        return data


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "series", "round_number", "table", "status", "end", "started_at", "finished_at"]
    list_filter = ["status", "end", "series", "source"]
    search_fields = ["series__name", "table", "seats__player__name"]
    date_hierarchy = "started_at"
    inlines = [SeatInline, HandInline, PenaltyInline, AuditInline]
    ordering = by_game()
    actions = ["finish_early", "undo_last_hand", "export_games_csv", "export_hands_csv"]

    def get_form(self, request: HttpRequest, obj: Game | None = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = GameAddForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        if obj is None:
            return ["series", "round_number", "table", "east", "south", "west", "north"]
        fields = ["series", "round_number", "table", "rules", "status", "end", "final_scores",
                  "final_riichi_sticks", "started_at", "finished_at"]
        if obj.source:
            fields += ["source", "source_id", "variant", "discrepancies_view"]
        return fields

    @admin.display(description="differences from the log")
    def discrepancies_view(self, obj: Game) -> str:
        # Stored only when staff imported a log that differs from our replay.
        if not obj.discrepancies:
            return "none: every hand, the end scores and the points match the log"
        items = format_html_join("", "<li>{}</li>", ((services.describe_discrepancy(d),) for d in obj.discrepancies))
        return format_html("<ul>{}</ul>", items)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        # A game's content only changes through the services (actions, scorer pages).
        return self.get_fields(request, obj) if obj is not None else []

    def get_inline_instances(self, request: HttpRequest, obj: Game | None = None) -> list[Any]:
        if obj is None:
            return []
        inlines = super().get_inline_instances(request, obj)
        # Inline instances are built per request, so the replay can live on one.
        try:
            replayed = {h.number: h for h in obj.replay().result.hands}
        except ScoringError:
            replayed = {}
        for inline in inlines:
            if isinstance(inline, HandInline):
                inline.replayed = replayed
        return inlines

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        if change:
            return
        d = form.cleaned_data
        game = services.start_game(
            series=d["series"], players=[d["east"], d["south"], d["west"], d["north"]],
            round_number=d["round_number"], table=d["table"], by=request.user,
        )
        obj.pk = game.pk
        obj.refresh_from_db()

    @admin.action(description="Finish selected games early (time)", permissions=["change"])
    def finish_early(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        self._each(request, queryset, lambda g: services.finish_game(game=g, by=request.user), "finished")

    @admin.action(description="Undo the last hand of selected games", permissions=["change"])
    def undo_last_hand(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        self._each(request, queryset, lambda g: services.undo_last_hand(game=g, by=request.user), "undone")

    @admin.action(description="Export selected games as CSV (one row per seat)")
    def export_games_csv(self, request: HttpRequest, queryset: QuerySet[Game]) -> StreamingHttpResponse:
        return exports.csv_response(exports.game_rows(queryset), "games.csv")

    @admin.action(description="Export the hands of selected games as CSV")
    def export_hands_csv(self, request: HttpRequest, queryset: QuerySet[Game]) -> StreamingHttpResponse:
        return exports.csv_response(exports.hand_rows(queryset), "hands.csv")

    def _each(self, request: HttpRequest, queryset: QuerySet[Game], change: Any, verb: str) -> None:
        done = 0
        for game in queryset:
            try:
                change(game)
                done += 1
            except services.ServiceError as err:
                self.message_user(request, f"{game}: {err.message}", messages.ERROR)
        if done:
            self.message_user(request, f"{done} game(s) {verb}.", messages.SUCCESS)


class WinInline(ReadOnlyMixin, admin.TabularInline):
    model = Win
    fields = ["order", "winner", "han", "fu", "yakuman", "pao"]
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "number", "outcome", "summary", "entered_by", "updated_at"]
    list_filter = ["outcome", "abort_reason", "game__series"]
    search_fields = ["game__series__name", "note", "game__seats__player__name"]
    list_select_related = ["game__series", "entered_by"]
    ordering = [*by_game("game__"), "number"]
    inlines = [WinInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Hand]:
        return super().get_queryset(request).prefetch_related("wins")


@admin.register(Win)
class WinAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "hand", "winner", "han", "fu", "yakuman", "pao"]
    list_filter = ["yakuman", "han", "hand__game__series"]
    search_fields = ["hand__game__series__name"]
    list_select_related = ["hand__game__series"]
    ordering = [*by_game("hand__game__"), "hand__number", "order"]


@admin.register(SignOff)
class SignOffAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The table's answers, read-only: signing goes through the sign-off pages."""

    list_display = ["game", "seat", "player", "kind", "via", "at", "withdrawn_at", "resolution", "note"]
    list_filter = ["kind", "via", "resolution", "game__series"]
    search_fields = ["player__name", "game__series__name", "note"]
    list_select_related = ["game__series", "player"]
    ordering = [*by_game("game__"), "seat", "at"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "seat", "player", "end_score", "place", "points"]
    list_filter = ["place", "game__series", "game__status"]
    search_fields = ["player__name", "game__series__name"]
    list_select_related = ["game__series", "player"]
    ordering = [*by_game("game__"), "seat"]


class PenaltyForm(forms.ModelForm):
    class Meta:
        model = Penalty
        fields = ["game", "seat", "points", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seat, points = data.get("seat"), data.get("points")
        if seat is not None and seat > 3:
            self.add_error("seat", "A seat is 0 (first East) to 3.")
        if points == 0:
            self.add_error("points", "Penalty points are thousandths and not 0: -20.0 is -20000.")
        game, reason = data.get("game"), data.get("reason")
        if not self.errors and game is not None:
            # The service's own checks (the limits among them), so that saving
            # cannot refuse what the form accepted.
            try:
                services.check_penalty(game=game, seat=seat, points=points, reason=reason or "")
            except services.ServiceError as err:
                self.add_error(err.field if err.field in self.fields else None, err.message)
        return data


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    form = PenaltyForm
    list_display = ["game", "seat", "points", "reason", "given_by", "given_at", "cancelled_at"]
    list_filter = ["game__series", ("cancelled_at", admin.EmptyFieldListFilter)]
    search_fields = ["reason", "game__series__name", "game__seats__player__name"]
    raw_id_fields = ["game"]
    ordering = [*by_game("game__"), "given_at", "pk"]
    actions = ["cancel"]

    def get_readonly_fields(self, request: HttpRequest, obj: Penalty | None = None) -> list[str]:
        if obj is None:
            return []
        return ["game", "seat", "points", "reason", "given_by", "given_at", "cancelled_at", "cancelled_by"]

    def has_delete_permission(self, request: HttpRequest, obj: Penalty | None = None) -> bool:
        return False  # cancel instead, so the history stays

    def save_model(self, request: HttpRequest, obj: Penalty, form: Any, change: bool) -> None:
        if change:
            return
        penalty = services.add_penalty(
            game=obj.game, seat=obj.seat, points=obj.points, reason=obj.reason, by=request.user
        )
        obj.pk = penalty.pk
        obj.refresh_from_db()

    @admin.action(description="Cancel selected penalties", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Penalty]) -> None:
        for penalty in queryset.filter(cancelled_at=None):
            services.cancel_penalty(penalty=penalty, by=request.user)
        self.message_user(request, "Penalties cancelled.", messages.SUCCESS)


@admin.register(GameAudit)
class GameAuditAdmin(AuditJsonMixin, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["at", "action", "game", "hand_number", "username"]
    list_filter = ["action", "game__series"]
    search_fields = ["username", "game__series__name", "game__seats__player__name"]
    date_hierarchy = "at"
    list_select_related = ["game__series"]
    fields = ["at", "action", "game", "hand_number", "user", "username", "before_json", "after_json"]
    readonly_fields = fields


# -- an event day (issue 15): read-only; changes go through the event pages' services --


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("number", "first_name", "last_name", "series", "country", "ema_number", "club", "team",
                    "is_substitute", "status")
    list_filter = ("series", "status", "is_substitute")
    search_fields = ("first_name", "last_name", "ema_number")


@admin.register(EventAudit)
class EventAuditAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("at", "series", "action", "round_number", "username", "describe")
    list_filter = ("series", "action")


# Stages, seeds and playoffs change through the stages page (league.services.stages); the admin shows them.
class StageSeedInline(ReadOnlyMixin, admin.TabularInline):
    model = StageSeed
    fields = ("seed", "registration", "previous_total", "carried")
    readonly_fields = fields
    extra = 0


@admin.register(Stage)
class StageAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("series", "number", "name", "first_round", "last_round", "entry", "top", "carry", "seating", "cut_at")
    list_filter = ("series",)
    inlines = [StageSeedInline]


@admin.register(Playoff)
class PlayoffAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("series", "stage", "registration", "place")
    list_filter = ("series",)


@admin.register(EventRules)
class EventRulesAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("series", "tiebreaks", "team_scoring", "team_best", "teammates_apart", "ema_city", "ema_country")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """A rating is a choice (series, engine, parameters); its values are always recomputed, never edited."""

    list_display = ("name", "slug", "engine", "version", "changed_at")
    list_filter = ("engine",)
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("series",)
    readonly_fields = ("version", "changed_at")


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("at", "merged_name", "merged_id", "into", "username", "reason")
    search_fields = ("merged_name", "into__name")
