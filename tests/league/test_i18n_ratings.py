"""The rating engines' how-line templates reach the Japanese catalogue by the
normal path: ``makemessages`` runs xgettext with Django's keywords, which
finds each template at its definition (``gettext_noop`` in the pure package),
and the page translates it before filling in the numbers (issue 38)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.utils import translation

from league.ratings import mers, skill, tenhou

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "league" / "locale" / "ja" / "LC_MESSAGES" / "django.po"
TEMPLATES = {"tenhou.HOW": tenhou.HOW, "skill.HOW": skill.HOW, "mers.HOW": mers.HOW,
             "mers.HOW_UNRANKED": mers.HOW_UNRANKED}


def extracted() -> set[str]:
    """The msgids makemessages' own xgettext call (Django's keyword list) finds in league/ratings."""
    if shutil.which("xgettext") is None:
        pytest.skip("xgettext (gettext) is not installed; makemessages needs it too")
    files = sorted(str(p) for p in (ROOT / "league" / "ratings").glob("*.py"))
    out = subprocess.run(
        ["xgettext", "-d", "django", "--language=Python", "--from-code=UTF-8", "--keyword=gettext_noop",
         "--keyword=gettext_lazy", "--keyword=ngettext_lazy:1,2", "--keyword=pgettext:1c,2",
         "--keyword=npgettext:1c,2,3", "--keyword=pgettext_lazy:1c,2", "--keyword=npgettext_lazy:1c,2,3",
         "--output=-", *files],
        check=True, capture_output=True, text=True,
    ).stdout
    return {e.msgid for e in polib.pofile(out)}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_how_line_template_is_found_by_makemessages(name: str) -> None:
    assert TEMPLATES[name] in extracted()


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_how_line_template_is_translated_with_every_number_kept(name: str) -> None:
    template = TEMPLATES[name]
    entry = polib.pofile(str(PO)).find(template)
    assert entry is not None and entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags
    with translation.override("ja"):
        japanese = translation.gettext(template)
    assert japanese == entry.msgstr != template
    fields = {f: "1" for f in _fields(template)}
    assert set(_fields(japanese)) == set(fields)  # every number the English line names, and no other
    japanese.format(**fields)


def _fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]
