"""The words of ``league.entry`` as data, per language: what the phone installs
so the offline engine (Pyodide, no Django) speaks the page's language.

On the server ``league.apps`` hands the package Django's gettext/ngettext and
``league.engine_words``' functions. The phone cannot run those, so the server
runs them here, once per language, and writes down their answers: every msgid
the package's modules pass to ``gettext``/``_``/``ngettext``/``gettext_noop``
(read from the modules' syntax trees, so a new message is in without a list
to keep), the plural rule of the language's catalogue with each plural
message's forms, every yaku id's name, every refusal code's text and every
abortive draw's reason. ``league.entry.translation.install_catalogue`` reads
it back. No word is written twice: these are the server's own answers.

Served at ``/words/engine/<language>.<version>.json`` (league/views/words.py),
the version a hash of the content, kept a year; the service worker keeps
every language's (docs/offline.md).
"""

from __future__ import annotations

import ast
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation as dj
from django.utils.translation.trans_real import DjangoTranslation
from django.views.i18n import JavaScriptCatalog

from league import engine_words
from league.entry import translation

PACKAGE = Path(__file__).resolve().parent / "entry"
CALLS = {"_", "gettext", "gettext_noop", "ngettext"}
_ABSENT = "\x00"


def package_msgids() -> tuple[list[str], list[tuple[str, str]]]:
    """Every msgid and plural pair ``league.entry`` names, from its modules'
    syntax trees (a call with a non-literal message is not counted: the
    catalogue test checks there is none but the marked field table's)."""
    singles: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id == "ngettext" and len(args) >= 2:
                pairs.add((args[0], args[1]))
            elif node.func.id != "ngettext" and args:
                singles.add(args[0])
    return sorted(singles), sorted(pairs)


def plural_expression(language: str) -> str:
    """The ``plural=`` rule of ``language``'s catalogue (gettext's C syntax)."""
    view = JavaScriptCatalog()
    view.translation = DjangoTranslation(language, domain="django")
    return view.get_plural() or "(n != 1)"


def catalogue(language: str) -> dict[str, Any]:
    """What ``league.entry.translation``'s functions answer in ``language``, as data."""
    singles, pairs = package_msgids()
    rule_text = plural_expression(language)
    rule = translation.plural_rule(rule_text)
    # One count for each plural form, the lowest that takes it.
    samples: dict[int, int] = {}
    for n in range(0, 1000):
        samples.setdefault(rule(n), n)
    with dj.override(language):
        messages = {m: str(dj.gettext(m)) for m in singles}
        plurals: dict[str, list[str]] = {}
        for singular, plural in pairs:
            forms = [str(dj.ngettext(singular, plural, samples[i])) for i in sorted(samples)]
            english = [singular if samples[i] == 1 else plural for i in sorted(samples)]
            if forms != english:  # an untranslated pair reads as English, as Django falls back
                plurals[singular] = forms
        yaku = {y: str(engine_words.yaku_name(y)) for y in translation.ENGLISH_YAKU}
        refusals = {}
        for code in engine_words.REFUSALS:
            text = engine_words.refusal(code, _ABSENT)
            if text != _ABSENT:  # English keeps the engine's own, detailed message
                refusals[code] = str(text)
        aborts = {r: engine_words.abort_reason_text(r) for r in engine_words.ABORT_REASONS}
    return {"language": language, "plural": rule_text, "messages": {k: v for k, v in messages.items() if k != v},
            "plurals": plurals, "yaku": yaku, "refusals": refusals, "aborts": aborts}


@cache
def catalogue_json(language: str) -> tuple[str, bytes]:
    """The version and the JSON body of ``language``'s catalogue, once per process."""
    body = json.dumps(catalogue(language), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    return hashlib.sha256(body).hexdigest()[:12], body
