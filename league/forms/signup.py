"""The public sign-up form and the director's sign-up desk. Each field's
bound is the service's (league.services.signup through league.db_bounds), so a
refusal comes back next to its field, in the reader's language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from league.forms.base import StaffForm
from league.services import ServiceError

# The sense of each refusal in another language; English shows the service's
# own message, which names the field and the limit.
REFUSALS: dict[str, Any] = {
    "invalid_text": _("Not accepted: no control characters, at most 100 characters, and not starting with =, +, - or @."),
    "required": _("This field is required."),
    "invalid_country": _("Not a country code: two letters, e.g. NL, JP."),
    "invalid_ema_number": _("An EMA number is 1 to 20 digits."),
    "invalid_email": _("Enter a valid e-mail address."),
    "duplicate_email": _("This e-mail address has already signed up for this event."),
    "duplicate_ema_number": _("This EMA number is already registered for this event."),
    "already_registered": _("A player of this name is already registered for this event."),
    "ema_number_of_another": _("This EMA number belongs to another player, or this player is known with another "
                               "EMA number: ask the director."),
    "signup_closed": _("Registration for this event is closed."),
    "link_expired": _("This link has expired: please register again."),
    "bad_link": _("This link is not valid."),
    "not_active": _("This registration was already withdrawn."),
    "not_pending": _("This sign-up is not awaiting a decision."),
    "signup_open": _("Close the sign-up form before erasing its e-mails."),
    "invalid_cap": _("The cap is a whole number from 1 to 9,999."),
}


def signup_refusal(err: ServiceError) -> str:
    if (get_language() or "en").split("-")[0] == "en" or err.code not in REFUSALS:
        return err.message[:1].upper() + err.message[1:] + ("" if err.message.endswith(".") else ".")
    return str(REFUSALS[err.code])


class SignUpForm(StaffForm):
    # No max_length here: the service holds every field to its bound and says why.
    first_name = forms.CharField(label=_("First name"), strip=False)
    last_name = forms.CharField(label=_("Last name"), strip=False)
    ema_number = forms.CharField(label=_("EMA number"), required=False, strip=False,
                                 help_text=_("Digits only; leave empty if you have none."))
    country = forms.CharField(label=_("Country"), required=False, strip=False,
                              help_text=_("ISO 3166 code: NL, JP, DE..."))
    club = forms.CharField(label=_("Club"), required=False, strip=False)
    team = forms.CharField(label=_("Team"), required=False, strip=False)
    email = forms.CharField(label=_("E-mail"), strip=False, widget=forms.TextInput(attrs={"autocomplete": "email", "inputmode": "email"}),
                            help_text=_("Only the event's directors see it. We send the confirmation link there."))

    def add_service_error(self, err: ServiceError) -> None:
        self.add_error(self.service_field(err.field), ValidationError(signup_refusal(err), code=err.code))


class DeskForm(StaffForm):
    is_open = forms.BooleanField(label=_("Open the public sign-up form"), required=False)
    closes_at = forms.DateTimeField(label=_("Closes at"), required=False,
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
                                    help_text=_("Empty: open until you close it."))
    cap = forms.IntegerField(label=_("Cap"), required=False, min_value=1, max_value=9_999,
                             help_text=_("Registered players at most; past it, the waiting list. Empty: no cap."))
    moderated = forms.BooleanField(label=_("I approve each sign-up"), required=False)
