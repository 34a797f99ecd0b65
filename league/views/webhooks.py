"""The webhooks page of a series (staff): the URLs told of its events, their
secrets, and the log of deliveries. Thin: the form validates, one service in
``league.services.webhooks`` writes, the page redirects."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from league.access import series_for_director
from league.forms.webhooks import HookForm
from league.models import Delivery, WebHook
from league.services import ServiceError
from league.services import webhooks as hooks
from league.views.access import staff_required

LOG_ROWS = 50


def _refusal(code: str) -> str:
    """Why a URL or a choice was refused, in the reader's language."""
    return {
        "url_scheme": _("Only http and https addresses are sent to."),
        "url_credentials": _("An address with a user name or password is not sent to."),
        "url_address": _("This address, or the one its name leads to, is not on the public internet: Tenbou does "
                         "not send to loopback, private, link-local or cloud metadata addresses."),
        "url_unresolved": _("This name does not lead to any address."),
        "url_bad_url": _("This is not a web address."),
        "url_too_long": _("An address of at most 500 characters."),
        "too_many_hooks": _("A series has at most 10 webhooks: remove one first."),
    }.get(code, _("Choose at least one event."))


@staff_required
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    series = series_for_director(request, slug)
    form = HookForm(request.POST or None)
    if request.method == "POST" and request.POST.get("remove"):
        hook = get_object_or_404(WebHook, series=series, pk=request.POST["remove"])
        hooks.remove_hook(hook=hook)
        messages.success(request, _("Webhook removed."))
        return redirect("webhooks-manage", slug=series.slug)
    if request.method == "POST" and form.is_valid():
        try:
            hooks.register_hook(series=series, url=form.cleaned_data["url"], events=form.cleaned_data["events"],
                                by=request.user)
        except ServiceError as err:
            form.add_error("url" if err.field == "url" else "events", _refusal(err.code))
        else:
            messages.success(request, _("Webhook added: give its secret to the receiver."))
            return redirect("webhooks-manage", slug=series.slug)
    ctx = {
        "series": series, "form": form, "hooks": WebHook.objects.filter(series=series),
        "deliveries": Delivery.objects.filter(hook__series=series).select_related("hook")[:LOG_ROWS],
    }
    return render(request, "league/webhooks_manage.html", ctx, status=400 if form.errors else 200)
