"""``python manage.py update_translations [--check | --compile]``: the one step that keeps
every language's catalogue (``league/locale/<code>/LC_MESSAGES/django.po``)
true to the code, and its ``django.mo`` compiled (docs/languages.md).

It runs Django's ``makemessages`` for each language of ``LANGUAGES`` but the
site's own (English), over the project's sources only (``IGNORED``: not the
virtualenv, the tests, node_modules, the fetched offline engine, collected
static files), with three settings of its own:

- no fuzzy matching: a new msgid starts untranslated, never with a guess
  taken from another message (gettext leaves a fuzzy guess out of the
  compiled file anyway; it only misleads whoever translates);
- locations by file only (``#: league/views/staff.py``): a moved line changes
  nothing in the catalogue;
- no obsolete (``#~``) entries: a msgid the code no longer marks is dropped,
  and printed with its translation, so that a string still shown at run time
  (passed through a variable) is noticed, and marked where it is defined
  (``gettext_noop``).

Before it, the catalogue is made mergeable: a msgid that two merged blocks
both add is kept once (their translations must agree), an obsolete entry
comes back to life (if the code marks it again, its translation is kept),
and the ``# issue <N>`` comments that head the engineers' blocks are removed
(the blocks dissolve into their places). After it, each ``django.mo`` is
compiled with polib, as the project always has. It says what happened:
translations kept, msgids new, msgids dropped, and fails (exit status 3)
while an entry is untranslated or fuzzy: translate those, run it again.

xgettext reads an f-string as a plain string, so ``f"{gettext('Before')}"``
is invisible to it: the step finds such calls itself (``fstring_calls``),
keeps their entries (their translations from before) and fails (exit status
3) until each call is taken out of its f-string.

``--compile`` only compiles each ``.mo`` from its ``.po`` as it stands (a
branch that added its block at the end; no gettext needed).

``--check`` changes nothing: it runs the same step in a scratch copy of the
sources and fails when the committed catalogue differs from what the step
makes there: a msgid the code marks missing or untranslated, an entry the
code no longer marks, a msgid only a call inside an f-string asks for, a
translation the step would change, a msgid twice,
a translation that fills in other names than its English (``%(name)s``,
``{name}``) or holds a bare ``%``, a ``.mo`` that is not its ``.po`` compiled.
``tests/league/test_translations_current.py`` runs it; it needs gettext's
tools (``apt-get install gettext``), as ``makemessages`` does.
"""

from __future__ import annotations

import ast
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.commands import makemessages

# Directory names never read for messages (nor copied by --check): besides
# makemessages' own (hidden ones, *.pyc), whatever is not the project's source.
IGNORED = (".venv", "venv", "tests", "node_modules", "offline_assets", "staticfiles", "artifacts", "build", "dist",
           "*.egg-info", "__pycache__")
ISSUE_COMMENT = re.compile(r"^issue \d+\b")  # a block's header: "# issue 28", "# issue 28 (the preview)"

Key = tuple[str | None, str]  # (msgctxt, msgid)
NEEDS_WORK = 3  # the exit status while something is to translate or to fix in the code


class MakeMessages(makemessages.Command):
    """Django's ``makemessages``, with msgmerge's fuzzy matching off."""

    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def po_path(root: Path, code: str) -> Path:
    return root / "league" / "locale" / code / "LC_MESSAGES" / "django.po"


def translation(entry: polib.POEntry) -> tuple[Any, ...]:
    return (entry.msgid_plural, entry.msgstr, tuple(sorted(entry.msgstr_plural.items())))


def translated(entry: polib.POEntry) -> bool:
    return entry.translated() and not entry.fuzzy


def active(po: polib.POFile) -> dict[Key, polib.POEntry]:
    return {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}


def duplicates(po: polib.POFile) -> list[Key]:
    seen: set[Key] = set()
    twice = []
    for e in po:
        if not e.obsolete:
            key = (e.msgctxt, e.msgid)
            if key in seen:
                twice.append(key)
            seen.add(key)
    return twice


def prepare(path: Path) -> None:
    """Make a merged catalogue one msgmerge reads: each msgid once (kept
    translated), obsolete entries live again, no ``# issue <N>`` comments
    (nor the step's note on a call xgettext cannot see)."""
    po = polib.pofile(str(path), wrapwidth=79)
    kept: dict[Key, polib.POEntry] = {}
    changed = False
    for entry in list(po):
        key = (entry.msgctxt, entry.msgid)
        lines = entry.tcomment.splitlines()
        ours = [line for line in lines if ISSUE_COMMENT.match(line.strip()) or line.strip() == HIDDEN_NOTE]
        if ours:  # the step's own notes: made again below where they still hold
            entry.tcomment = "\n".join(line for line in lines if line not in ours)
            changed = True
        if entry.obsolete:
            entry.obsolete = False
            changed = True
        first = kept.get(key)
        if first is None:
            kept[key] = entry
            continue
        changed = True
        if translated(entry) and translated(first) and translation(entry) != translation(first):
            raise CommandError(f"{path}: msgid {entry.msgid!r} is translated twice, differently: "
                               f"{first.msgstr or first.msgstr_plural!r} and {entry.msgstr or entry.msgstr_plural!r}; "
                               "keep one")
        if translated(entry) and not translated(first):
            po.remove(first)
            kept[key] = entry
        else:
            po.remove(entry)
    if changed:
        po.save(str(path))


# The functions makemessages reads (Django's xgettext keywords), and where each
# takes its (context, msgid).
KEYWORDS = {"gettext": 0, "gettext_lazy": 0, "gettext_noop": 0, "_": 0, "ngettext": 0, "ngettext_lazy": 0,
            "pgettext": 1, "pgettext_lazy": 1, "npgettext": 1, "npgettext_lazy": 1}


@dataclass(frozen=True)
class Hidden:
    """A marked message that xgettext cannot see: a call inside an f-string
    (gettext's Python reader takes an f-string for a plain string)."""

    where: str
    context: str | None
    msgid: str
    plural: str


def fstring_calls(root: Path) -> list[Hidden]:
    """Every gettext-family call with literal words inside an f-string, in the
    Python files the step reads."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not any(fnmatch.fnmatch(d, p) for p in IGNORED))
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            path = Path(dirpath) / name
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            for fstring in ast.walk(tree):
                if not isinstance(fstring, ast.JoinedStr):
                    continue
                for call in ast.walk(fstring):
                    if not isinstance(call, ast.Call):
                        continue
                    func = call.func
                    fname = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                    if fname not in KEYWORDS:
                        continue
                    at = KEYWORDS[fname]
                    words = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                             for a in call.args]
                    if len(words) <= at or words[at] is None:
                        continue
                    plural = words[at + 1] if fname.startswith(("ngettext", "npgettext")) and len(words) > at + 1 \
                        else None
                    found.append(Hidden(f"{path.relative_to(root)}:{call.lineno}", words[0] if at else None,
                                        words[at], plural or ""))
    return found


HIDDEN_NOTE = "xgettext cannot see it: a call inside an f-string"


def keep_hidden(path: Path, before: dict[Key, polib.POEntry], hidden: list[Hidden]) -> list[Hidden]:
    """Append to the regenerated ``.po`` an entry for each message xgettext
    could not see (its translation from before, else empty), so that nothing
    is lost while the call is fixed; returns those appended."""
    made = active(polib.pofile(str(path)))
    added: dict[Key, polib.POEntry] = {}
    for h in hidden:
        key = (h.context, h.msgid)
        if key in made or key in added:
            continue
        old = before.get(key)
        if old is not None and not translated(old):
            old = None  # a fuzzy guess stays out
        entry = polib.POEntry(msgctxt=h.context, msgid=h.msgid, msgid_plural=h.plural,
                              msgstr=old.msgstr if old else "",
                              msgstr_plural=dict(old.msgstr_plural) if old and h.plural else ({0: ""} if h.plural else {}),
                              occurrences=[(h.where.rsplit(":", 1)[0], "")],
                              flags=list(old.flags) if old else [],
                              tcomment=HIDDEN_NOTE)
        entry.obsolete = False
        added[key] = entry
    if added:
        with path.open("a", encoding="utf-8") as f:
            for entry in added.values():
                f.write("\n" + entry.__unicode__(wrapwidth=79) + "\n")
    return [h for h in hidden if (h.context, h.msgid) in added]


@dataclass
class Report:
    code: str
    kept: int = 0
    new: list[str] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    untranslated: list[str] = field(default_factory=list)
    hidden: list[Hidden] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{self.code}: {self.kept} translations kept, {len(self.new)} msgids new, "
               f"{len(self.dropped)} dropped, {len(self.changed)} translations changed, "
               f"{len(self.untranslated)} to translate"]
        out += [f"  new: {m!r}" for m in self.new]
        out += [f"  dropped (the code no longer marks it): {m!r} = {s!r}" for m, s in self.dropped]
        out += [f"  changed: {m!r}" for m in self.changed]
        out += [f"  to translate: {m!r}" for m in self.untranslated]
        out += [f"  hidden from xgettext, kept: {h.msgid!r} ({h.where}: gettext inside an f-string; call it "
                "outside, into a variable)" for h in self.hidden]
        return out


def update(root: Path, verbosity: int = 0) -> list[Report]:
    """Run the step on the tree at ``root`` (this process's own tree: its
    settings name the locale directory) and compile each ``.mo``."""
    before = {}
    for code in languages():  # a new language's .po is made by makemessages
        path = po_path(root, code)
        before[code] = polib.pofile(str(path)) if path.exists() else polib.POFile()
        if path.exists():
            prepare(path)
    cwd = os.getcwd()
    os.chdir(root)  # makemessages reads the directory it runs in
    try:
        call_command(MakeMessages(), locale=languages(), ignore_patterns=list(IGNORED), add_location="file",
                     no_obsolete=True, verbosity=verbosity)
    finally:
        os.chdir(cwd)
    calls = fstring_calls(root)
    reports = []
    for code in languages():
        path = po_path(root, code)
        old_all = {(e.msgctxt, e.msgid): e for e in before[code]}  # obsolete ones too
        hidden = keep_hidden(path, old_all, calls)
        after = polib.pofile(str(path))
        new = active(after)
        report = Report(code, hidden=hidden)
        for key, entry in new.items():
            if key not in old_all:
                report.new.append(entry.msgid)
            elif translated(old_all[key]) and translation(old_all[key]) != translation(entry):
                report.changed.append(entry.msgid)
            elif translated(entry):
                report.kept += 1
            if not translated(entry):
                report.untranslated.append(entry.msgid)
        report.dropped = [(e.msgid, e.msgstr or str(e.msgstr_plural)) for key, e in old_all.items()
                          if key not in new]
        after.save_as_mofile(str(path.with_suffix(".mo")))
        reports.append(report)
    return reports


def compiled_in_step(path: Path) -> bool:
    """Whether the ``.mo`` beside ``path`` holds what the ``.po`` translates."""
    mo = path.with_suffix(".mo")
    if not mo.exists():
        return False
    wanted = {(e.msgctxt, e.msgid): translation(e) for e in polib.pofile(str(path)).translated_entries()}
    return {(e.msgctxt, e.msgid): translation(e) for e in polib.mofile(str(mo)) if e.msgid} == wanted


def copy_sources(root: Path, dest: Path) -> None:
    """Copy what the step reads (and runs) of the tree at ``root`` to ``dest``."""
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(*IGNORED, ".*", "*.pyc", "*.sqlite3"))


def run_in(tree: Path) -> subprocess.CompletedProcess[str]:
    """Run the step as a command in another tree (its own settings and locale)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "league.settings", "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run([sys.executable, "manage.py", "update_translations"], cwd=tree, env=env,
                         capture_output=True, text=True)
    if run.returncode not in (0, NEEDS_WORK):
        raise CommandError(f"update_translations failed in {tree}:\n{run.stdout}\n{run.stderr}")
    return run


def check_tree(root: Path) -> list[str]:
    """What is wrong with the committed catalogues of the tree at ``root``:
    the step, run in a scratch copy, would make them differ (empty: nothing)."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="tenbou-messages-") as scratch:
        copy = Path(scratch) / "tree"
        copy_sources(root, copy)
        run_in(copy)
        calls = fstring_calls(root)
        for code in languages():
            where = f"{code} ({po_path(root, code).relative_to(root)})"
            if not po_path(root, code).exists():
                problems.append(f"{where}: there is no catalogue")
                continue
            committed = polib.pofile(str(po_path(root, code)))
            made = active(polib.pofile(str(po_path(copy, code))))
            mine = active(committed)
            problems += [f"{where}: msgid {h.msgid!r} is passed to gettext inside an f-string at {h.where}, which "
                         "xgettext does not read, and nowhere else: call it outside the f-string" for h in calls
                         if HIDDEN_NOTE in made.get((h.context, h.msgid), polib.POEntry()).tcomment]
            if not compiled_in_step(po_path(root, code)):
                problems.append(f"{where}: django.mo is not this .po compiled (update_translations --compile)")
            problems += [f"{where}: msgid {k[1]!r} is in the catalogue twice" for k in duplicates(committed)]
            problems += [f"{where}: msgid {k[1]!r} is marked in the code but missing" for k in made if k not in mine]
            problems += [f"{where}: msgid {k[1]!r} is no longer marked in the code (shown at run time? mark it "
                         "with gettext_noop where it is defined; else delete it)" for k in mine if k not in made]
            problems += [f"{where}: msgid {e.msgid!r} is obsolete (#~)" for e in committed.obsolete_entries()]
            for key, entry in made.items():
                if key in mine and not translated(mine[key]):
                    problems.append(f"{where}: msgid {key[1]!r} is untranslated or fuzzy")
                elif key in mine and translation(mine[key]) != translation(entry):
                    problems.append(f"{where}: msgid {key[1]!r}: the step would change its translation")
                elif key in mine:
                    problems += [f"{where}: msgid {key[1]!r}: {p}" for p in placeholder_faults(entry, mine[key])]
    return problems


# A printf directive of Python's % (named or not), and a str.format field.
PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?([diouxXeEfFgGcrsa%])")
BRACE = re.compile(r"\{(\w*)(?:[.\[!:][^{}]*)?\}")


def placeholders(text: str, brace: bool) -> list[str] | None:
    """The names a message fills in, or None when a % is not a directive."""
    if brace:
        return sorted(BRACE.findall(text.replace("{{", "").replace("}}", "")))
    names = []
    for match in PERCENT.finditer(text):
        if match.group(2) != "%":
            names.append(match.group(1) or "%" + match.group(2))
    if text.count("%") != sum(m.group(0).count("%") for m in PERCENT.finditer(text)):
        return None
    return sorted(names)


def placeholder_faults(made: polib.POEntry, mine: polib.POEntry) -> list[str]:
    """A translation must fill in what its English does (the flags are
    xgettext's, from the code): a name missing loses a number, a name or a %
    too many fails when the page is made."""
    brace = "python-brace-format" in made.flags
    if not brace and "python-format" not in made.flags:
        return []
    english = set(placeholders(made.msgid, brace) or []) | set(placeholders(made.msgid_plural, brace) or [])
    faults = []
    for form in (dict(mine.msgstr_plural) if mine.msgid_plural else {0: mine.msgstr}).values():
        names = placeholders(form, brace)
        if names is None:
            faults.append(f"a % in {form!r} is not a directive (write %%)")
        elif set(names) - english or (not mine.msgid_plural and set(names) != english):
            faults.append(f"{form!r} fills in {sorted(set(names))}, the English {sorted(english)}")
    return faults


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # as makemessages: the catalogue needs no URL or model checks
    help = ("Bring each language's django.po in step with the messages the code marks (makemessages) and "
            "compile its django.mo; --check only says whether that would change anything.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="Change nothing; fail when the committed catalogues are not what the step makes.")
        parser.add_argument("--compile", action="store_true", dest="compile_only",
                            help="Only compile each django.mo from its django.po, as it stands (no gettext needed).")

    def handle(self, *args: Any, check: bool = False, compile_only: bool = False, **options: Any) -> None:
        root = Path(settings.BASE_DIR)
        if compile_only:
            for code in languages():
                path = po_path(root, code)
                polib.pofile(str(path)).save_as_mofile(str(path.with_suffix(".mo")))
                self.stdout.write(f"{code}: compiled {path.with_suffix('.mo').relative_to(root)}")
            return
        if check:
            problems = check_tree(root)
            if problems:
                raise CommandError("the catalogues are not in step with the code; run "
                                   "`python manage.py update_translations` (docs/languages.md):\n  "
                                   + "\n  ".join(problems))
            self.stdout.write("The catalogues are in step with the code.")
            return
        reports = update(root, verbosity=max(0, options["verbosity"] - 1))
        for report in reports:
            self.stdout.write("\n".join(report.lines()))
        missing = [m for r in reports for m in r.untranslated]
        hidden = sorted({h.where for r in reports for h in r.hidden},
                        key=lambda w: (w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1])))
        faults = []
        if missing:
            faults.append(f"{len(missing)} to translate: fill their msgstr in the .po, then run this again")
        if hidden:
            faults.append(f"gettext inside an f-string, which xgettext does not read, at {', '.join(hidden)}: "
                          "call it outside the f-string (into a variable), then run this again")
        if faults:
            raise CommandError("; ".join(faults), returncode=NEEDS_WORK)
