"""The translation catalogues are the ones `python manage.py update_translations`
makes (docs/languages.md): every msgid the code marks is in them, translated,
and they hold nothing the code no longer marks. A translation that is in the
.po but not marked where its English is written is dropped by makemessages,
so leaving it there would put English back on a Japanese page at the next
regeneration.

The tests of the whole step run gettext's tools (makemessages needs them) on
a scratch copy of the sources; CI installs them and sets
TENBOU_REQUIRE_GETTEXT=1 (.ci/run), so there they run, never skip."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management.base import CommandError

from league.management.commands.update_translations import (
    check_tree,
    copy_sources,
    placeholder_faults,
    placeholders,
    po_path,
    prepare,
    run_in,
)

ROOT = Path(settings.BASE_DIR)
TOOLS = ("xgettext", "msgmerge", "msguniq", "msgattrib")

needs_gettext = pytest.mark.skipif(
    not all(shutil.which(t) for t in TOOLS) and not os.environ.get("TENBOU_REQUIRE_GETTEXT"),
    reason="gettext's tools are not installed (apt-get install gettext); CI requires them")


def test_placeholders_are_read_as_python_fills_them() -> None:
    assert placeholders("%(a)s of %(b)d, 50%% done, %d left", brace=False) == ["%d", "a", "b"]
    assert placeholders("50% done", brace=False) == ["%d"]  # "% d" is a directive to Python too
    assert placeholders("100%", brace=False) is None  # a bare %: the page fails
    assert placeholders("{game}: {x:.1f} {{literal}}", brace=True) == ["game", "x"]
    english = polib.POEntry(msgid="%(n)d of %(total)d", flags=["python-format"])
    assert placeholder_faults(english, polib.POEntry(msgid=english.msgid, msgstr="%(total)d中%(n)d")) == []
    assert placeholder_faults(english, polib.POEntry(msgid=english.msgid, msgstr="%(n)d件")) == [
        "'%(n)d件' fills in ['n'], the English ['n', 'total']"]
    plural = polib.POEntry(msgid="one hand", msgid_plural="%(n)d hands", flags=["python-format"])
    assert placeholder_faults(plural, polib.POEntry(msgid="one hand", msgid_plural="%(n)d hands",
                                                    msgstr_plural={0: "%(n)d局"})) == []
    assert placeholder_faults(polib.POEntry(msgid="100%"), polib.POEntry(msgid="100%", msgstr="100%")) == []


HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def test_a_merged_catalogue_is_made_readable_before_msgmerge(tmp_path: Path) -> None:
    """What a union merge of two branches leaves: a msgid twice (once
    untranslated), an obsolete entry, block headers. No gettext needed."""
    path = tmp_path / "django.po"
    path.write_text(HEADER + 'msgid "Kept"\nmsgstr ""\n\n# issue 28 (a branch)\nmsgid "Kept"\nmsgstr "残る"\n\n'
                    '#~ msgid "Back"\n#~ msgstr "戻る"\n\n# a translator\'s note\n# issue 31\nmsgid "Noted"\n'
                    'msgstr "注記"\n', encoding="utf-8")
    prepare(path)
    po = polib.pofile(str(path))
    assert [(e.msgid, e.msgstr, e.obsolete, e.tcomment) for e in po] == [
        ("Kept", "残る", False, ""), ("Back", "戻る", False, ""), ("Noted", "注記", False, "a translator's note")]
    path.write_text(HEADER + 'msgid "Kept"\nmsgstr "残る"\n\nmsgid "Kept"\nmsgstr "残ります"\n', encoding="utf-8")
    with pytest.raises(CommandError, match="'Kept' is translated twice, differently: '残る' and '残ります'"):
        prepare(path)


@needs_gettext
def test_the_committed_catalogues_are_what_the_step_makes() -> None:
    assert check_tree(ROOT) == [], "run: python manage.py update_translations"


def _entry(po: polib.POFile, msgid: str) -> polib.POEntry:
    found = [e for e in po if e.msgid == msgid]
    assert len(found) == 1, msgid
    return found[0]


@needs_gettext
def test_a_catalogue_out_of_step_is_found_and_a_merged_one_regenerated(tmp_path: Path) -> None:
    """A copy of the tree whose .po is what a merge of parallel branches and
    a careless edit leave: the check names each fault; the step then puts
    the merged blocks in place and keeps every translation still marked."""
    tree = tmp_path / "tree"
    copy_sources(ROOT, tree)
    path = po_path(tree, "ja")
    po = polib.pofile(str(path))
    original = {e.msgid: e.msgstr for e in po}
    missing, merged, twice, revived = ("Enter a whole number.", "Enter a valid value.", "Enter a list of values.",
                                       "Null characters are not allowed.")
    po.remove(_entry(po, missing))
    moved = _entry(po, merged)  # a branch's block at the very end, as docs/languages.md asks
    po.remove(moved)
    moved.tcomment, moved.occurrences = "issue 99 (a branch)", []
    po.append(moved)
    po.append(polib.POEntry(msgid=twice, msgstr=original[twice]))  # another branch added it too
    _entry(po, revived).obsolete = True  # a plain makemessages run, while the string was not marked
    po.append(polib.POEntry(msgid="Words the code never marks", msgstr="コードにない言葉"))
    misnamed = "Ensure this value is greater than or equal to %(limit_value)s."
    _entry(po, misnamed).msgstr = "%(limit)s以上の値を入力してください。"  # would fail when shown: KeyError
    hidden = "Words in an f-string"  # xgettext cannot see the call: the step must keep it, and say so
    (tree / "league" / "hidden_words.py").write_text(
        f'from django.utils.translation import gettext\n\nLINE = f"<b>{{gettext({hidden!r})}}</b>"\n', encoding="utf-8")
    original[hidden] = "f文字列の言葉"
    po.append(polib.POEntry(msgid=hidden, msgstr=original[hidden]))
    po.save(str(path))

    problems = check_tree(tree)
    assert any(f"{hidden!r} is passed to gettext inside an f-string at league/hidden_words.py:3" in p
               for p in problems), problems
    assert any(f"{missing!r} is marked in the code but missing" in p for p in problems), problems
    assert any(f"{twice!r} is in the catalogue twice" in p for p in problems), problems
    assert any(f"{revived!r} is obsolete" in p for p in problems), problems
    assert any("'Words the code never marks' is no longer marked" in p for p in problems), problems
    assert any(f"{misnamed!r}: '%(limit)s以上の値を入力してください。' fills in ['limit'], the English ['limit_value']"
               in p for p in problems), problems
    assert any("django.mo is not this .po compiled" in p for p in problems), problems  # edited, not compiled
    assert not any(merged in p for p in problems), problems  # a block in the right words is in step
    assert len(problems) == 8, problems  # the obsolete one is missing too

    run = run_in(tree)
    assert run.returncode == 3 and f"to translate: {missing!r}" in run.stdout, run.stdout + run.stderr
    assert f"hidden from xgettext, kept: {hidden!r} (league/hidden_words.py:3" in run.stdout
    assert "gettext inside an f-string, which xgettext does not read, at league/hidden_words.py:3" in run.stderr
    assert "dropped (the code no longer marks it): 'Words the code never marks'" in run.stdout
    made = polib.pofile(str(path))
    for msgid in (merged, twice, revived, hidden):
        assert _entry(made, msgid).msgstr == original[msgid] and not _entry(made, msgid).obsolete
    assert _entry(made, missing).msgstr == ""
    assert not any(e.msgid == "Words the code never marks" for e in made)
    assert "# issue 99" not in path.read_text(encoding="utf-8")
    assert _entry(made, merged).occurrences == [("league/entry/fields.py", "")]  # back in its place
    compiled = polib.mofile(str(path.with_suffix(".mo")))
    assert {e.msgid for e in compiled} >= {merged, twice, revived, hidden} and missing not in {e.msgid for e in compiled}
