"""Log import for staff: upload Tenhou logs into a series, and download an
imported game back as tenhou.net/6 JSON.

The same rule as the staff pages: a login that scores the series (its
``scorers``) or a superuser; any other login gets 403, never the form. The
result page is rendered straight from the POST: an upload sent twice only
says "already there" the second time, since the log id is unique per series.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from league import services
from league.access import can_score, series_for_scorer
from league.models import Game, Series

MAX_LOG_BYTES = 2 * 1024 * 1024  # a real mjlog is 10-60 kB; anything this big is not one

staff_required = login_required(login_url="login")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        files = data if isinstance(data, list | tuple) else [data]
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


class ImportForm(forms.Form):
    logs = MultipleFileField(label=_("Log files"), help_text=_("Tenhou mjlog (.mjlog, .xml, gzip or not) or tenhou.net/6 JSON."))
    names = forms.FileField(
        required=False, label=_("Player names (optional)"),
        help_text=_('JSON: {"<log id>": [four names in seat order], "<name in a log>": "<player name>"}.'),
    )
    force = forms.BooleanField(
        required=False, label=_("Import anyway when the log and our replay differ (the differences are kept)"),
    )

    def clean_names(self) -> dict[str, Any] | None:
        upload = self.cleaned_data.get("names")
        if not upload:
            return None
        try:
            names = json.loads(upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: nested past Python's limit
            raise forms.ValidationError("The names file is not JSON text.", code="invalid_names") from None
        if not isinstance(names, dict):
            raise forms.ValidationError("The names file must hold one JSON object.", code="invalid_names")
        return names


@dataclass
class FileOutcome:
    """One uploaded file's line on the result page."""

    name: str
    status: str  # "imported", "already" or "refused"
    message: str = ""
    code: str = ""
    log_id: str = ""
    game: Game | None = None
    variant: tuple[str, ...] = ()
    discrepancies: list[str] = field(default_factory=list)




@staff_required
def upload(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_for_scorer(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        outcomes = [_import_one(series, f, request, force=d["force"], names=d["names"]) for f in d["logs"]]
        return render(request, "league/import_result.html", {
            "series": series, "outcomes": outcomes, "force": d["force"],
            "counts": {s: sum(o.status == s for o in outcomes) for s in ("imported", "already", "refused")},
        })
    return render(request, "league/import_upload.html", {"series": series, "form": form})


def _import_one(series: Series, upload: UploadedFile, request: HttpRequest, *, force: bool,
                names: dict[str, Any] | None) -> FileOutcome:
    name = upload.name or "upload"
    if upload.size is not None and upload.size > MAX_LOG_BYTES:
        return FileOutcome(name, "refused", f"the file is {upload.size:,} bytes; a log is far smaller", "too_large")
    try:
        done = services.import_tenhou_log(
            series=series, data=upload.read(), filename=name, by=request.user, force=force, names=names
        )
    except services.LogRefused as err:
        return FileOutcome(name, "refused", err.message, err.code, err.log_id or "",
                           discrepancies=[services.describe_discrepancy(d) for d in err.discrepancies])
    except services.ServiceError as err:
        return FileOutcome(name, "refused", err.message, err.code)
    return FileOutcome(
        name, "imported" if done.created else "already", log_id=done.log_id, game=done.game, variant=done.variant,
        discrepancies=[services.describe_discrepancy(d) for d in done.discrepancies],
    )


@staff_required
def export_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The game as tenhou.net/6 JSON, a file our importer reads back."""
    game = get_object_or_404(Game.objects.select_related("series"), pk=pk)
    if not can_score(request.user, game.series):
        raise PermissionDenied("You do not score this series.")
    try:
        text = services.export_tenhou_log(game=game)
    except services.ServiceError as err:
        return HttpResponse(f"This game cannot be written as a tenhou.net/6 log: {err.message}\n",
                            status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game.source_id or f"game-{game.pk}"}.json"'
    return response
