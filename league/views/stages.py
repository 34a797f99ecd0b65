"""The director's pages of an event's stages, teams and EMA results: the
stages page (define stages, make a cut, seat a cut stage's round, record a
playoff, tie-break and team rules) and the EMA page (the players the EMA will ask about, each
player's MERS base rank, the tournament's weight, the CSV and Excel files).
The public stage standings and team page are ``views/stages_public.py``.
Views are thin: a form validates, one service in ``league.services.stages`` writes.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from league import ema
from league.access import event_for_director
from league.forms.stages import EventRulesForm, PlayoffForm, StagesForm, stages_text
from league.models import Series
from league.models.stages import EventRules, Stage
from league.services import ServiceError
from league.services import stages as st
from league.templatetags.event import rule_names
from league.views.access import director_post, staff_required
from league.views.refusals import report_refusal

# -- staff: stages ----------------------------------------------------------------------------------


@staff_required
def stages_manage(request: HttpRequest, slug: str) -> HttpResponse:
    series = event_for_director(request, slug)
    if request.method == "POST":
        form = StagesForm(request.POST)
        if form.is_valid():
            try:
                st.set_stages(series=series, plans=form.cleaned_data["stages"], by=request.user)
                messages.success(request, _("Stages saved."))
                return redirect("stages-manage", slug=series.slug)
            except ServiceError as err:
                form.add_error("stages", err.message)
        return _manage_page(request, series, stages_form=form, status=400)
    return _manage_page(request, series)


def _manage_page(request: HttpRequest, series: Series, status: int = 200, **forms: Any) -> HttpResponse:
    stages = list(Stage.objects.filter(series=series).order_by("number"))
    rules = EventRules.objects.filter(series=series).first() or EventRules(series=series)
    ctx = {
        "series": series, "stages": stages, "tables": st.stage_tables(series),
        "stages_form": forms.get("stages_form") or StagesForm(initial={"stages": stages_text(stages) or
                                                                       "Qualifying: rounds 1-4\nFinal: round 5, top 4, half, snake"}),
        "rules_form": forms.get("rules_form") or EventRulesForm(instance=rules),
        "playoff_form": forms.get("playoff_form") or PlayoffForm(series=series),
        "rule_names": rule_names(),
    }
    return render(request, "league/stages_manage.html", ctx, status=status)


@director_post
def stages_rules(request: HttpRequest, series: Series) -> HttpResponse:
    rules = EventRules.objects.filter(series=series).first() or EventRules(series=series)
    form = EventRulesForm(request.POST, instance=rules)
    if not form.is_valid():
        return _manage_page(request, series, rules_form=form, status=400)
    values = {name: form.cleaned_data[name] for name in form.Meta.fields}
    try:
        st.configure_event_rules(series=series, by=request.user, **values)
    except ServiceError as err:
        form.add_error(None, err.message)
        return _manage_page(request, series, rules_form=form, status=400)
    messages.success(request, _("Tie-breaks, teams and EMA details saved."))
    return redirect("stages-manage", slug=series.slug)


@director_post
def stages_cut(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    stage = get_object_or_404(Stage, series=series, number=number)
    try:
        entries = st.cut_to_stage(stage=stage, by=request.user)
        messages.success(request, _("Cut made: %(n)d players go on to %(stage)s.") % {"n": len(entries), "stage": stage.name})
    except ServiceError as err:
        report_refusal(request, err)
    return redirect("stages-manage", slug=series.slug)


@director_post
def stages_seat(request: HttpRequest, series: Series, number: int) -> HttpResponse:
    stage = get_object_or_404(Stage, series=series, number=number)
    try:
        rnd = st.seat_stage_round(stage=stage, by=request.user)
    except ServiceError as err:
        report_refusal(request, err)
        return redirect("stages-manage", slug=series.slug)
    messages.success(request, _("Round %(n)d seated for %(stage)s: review, swap and publish it.") % {
        "n": rnd.number, "stage": stage.name})
    return redirect("event-round", slug=series.slug, number=rnd.number)


@director_post
def stages_playoff(request: HttpRequest, series: Series) -> HttpResponse:
    form = PlayoffForm(request.POST, series=series)
    if not form.is_valid():
        return _manage_page(request, series, playoff_form=form, status=400)
    number = form.cleaned_data["stage"]  # one of the event's stages, or None when it has none
    stage = None if number is None else Stage.objects.filter(series=series, number=number).first()
    try:
        st.record_playoff(series=series, stage=stage, places=form.cleaned_data["places"], by=request.user)
    except ServiceError as err:
        form.add_error(None, err.message)
        return _manage_page(request, series, playoff_form=form, status=400)
    messages.success(request, _("Playoff recorded."))
    return redirect("stages-manage", slug=series.slug)


# -- staff: EMA -------------------------------------------------------------------------------------


def _ema_export_or_report(request: HttpRequest, series: Series) -> Any:
    """The event's EMA export, or None with the refusal reported (a
    three-player event has no EMA results: ``stages.ema_export``)."""
    try:
        return st.ema_export(series)
    except ServiceError as err:
        report_refusal(request, err)
        return None


@staff_required
def ema_preview(request: HttpRequest, slug: str) -> HttpResponse:
    series = event_for_director(request, slug)
    export = _ema_export_or_report(request, series)
    if export is None:
        return redirect("stages-manage", slug=series.slug)
    ranks = ema.base_ranks([p.place for p in export.players], export.weight.player_count)
    shared = ema.shared_places([p.place for p in export.players])
    ctx = {
        "series": series, "export": export, "missing": ema.missing(export.players), "weight": export.weight,
        "rows": [{"player": p, "rank": r, "shared": f"{float(s):g}"} for p, r, s in zip(export.players, ranks, shared,
                                                                                       strict=True)],
        "w": {k: ema.half(getattr(export.weight, k))
              for k in ("days", "players", "countries", "qualification", "total", "countries_2018")},
        "header": ema.HEADER,
    }
    return render(request, "league/ema_preview.html", ctx)


@staff_required
def ema_file(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    series = event_for_director(request, slug)
    export = _ema_export_or_report(request, series)
    if export is None:
        return redirect("stages-manage", slug=series.slug)
    if kind == "csv":
        response = HttpResponse(ema.csv_bytes(export.event, export.players), content_type="text/csv; charset=utf-8")
    elif kind == "xlsx":
        response = HttpResponse(ema.xlsx_bytes(export.event, export.players), content_type=(
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"))
    else:
        raise Http404("the EMA file is csv or xlsx")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-ema.{kind}"'
    return response

