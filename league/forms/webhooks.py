"""The director's webhook form: a URL and the events to send to it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from league.forms.base import StaffForm
from league.models import HookEvent


class HookForm(StaffForm):
    url = forms.CharField(label=_("URL (https://...)"), max_length=500,
                          widget=forms.URLInput(attrs={"inputmode": "url", "autocomplete": "off"}))
    events = forms.MultipleChoiceField(label=_("Events"), choices=HookEvent.choices,
                                       widget=forms.CheckboxSelectMultiple, initial=list(HookEvent.values))
