"""``{% script_words %}``: the script that hands the page's scripts their words in
the page's language (league/script_words.py), before ``words.js``."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, get_supported_language_variant

from league.script_words import words_script

register = template.Library()


@register.simple_tag
def script_words(defer: bool = False) -> SafeString:
    """A ``<script src>`` to /words/<language>.<version>.js: cached by the browser and
    kept by the service worker, so the page carries none of the words' bytes
    (3.6 KB in English, 4.9 KB in Japanese, on every page before)."""
    try:
        language = get_supported_language_variant(get_language() or "")
    except LookupError:
        language = settings.LANGUAGE_CODE
    version, _body = words_script(language)
    url = reverse("script-words", args=[language, version])
    return format_html('<script id="tenbou-words" src="{}"{}></script>', url, " defer" if defer else "")
