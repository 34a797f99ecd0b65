"""``{% script_words %}``: the words of the page's scripts as one JSON block (league/script_words.py)."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from league.script_words import script_words as words

register = template.Library()


@register.simple_tag
def script_words() -> SafeString:
    return json_script(words(), "tenbou-words")
