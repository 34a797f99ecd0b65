"""A service's refusal shown to staff: the flashed message, in the reader's
language (``league.entry.translation.refusal_of``), that a staff page shows after a POST the
services refused."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from league.entry.translation import refusal_of
from league.services import ServiceError


def report_refusal(request: HttpRequest, err: ServiceError) -> None:
    """Flash ``err`` as an error message on the next page."""
    messages.error(request, refusal_of(err))
