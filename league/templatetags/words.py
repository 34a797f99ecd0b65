"""``{% script_words %}``: the words of the page's scripts as one JSON block (league/script_words.py)."""

from __future__ import annotations

import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from league.script_words import script_words as words

register = template.Library()

# As django.utils.html.json_script escapes them, so the block cannot close its <script>.
_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.simple_tag
def script_words() -> SafeString:
    """json_script's block, but compact and in UTF-8 (Japanese as \\uXXXX took 8.5 KB
    of the staff page instead of 4.9; the page has a byte budget)."""
    text = json.dumps(words(), ensure_ascii=False, separators=(",", ":")).translate(_ESCAPES)
    return format_html('<script id="tenbou-words" type="application/json">{}</script>', mark_safe(text))
