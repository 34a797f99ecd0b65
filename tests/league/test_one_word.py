"""One word per concept (STYLE.md habit 2, issue 33): an event is not also a
tournament, and "entry" is hand entry only. The models, the modules of the
models, services and pure packages, the event's views and templates, and
the functions that answer about a round's tables say so. The series kind's
stored value "tournament" and the record files' "tournament" key stay: files
users hold name them. URL paths never changed (tests/league/test_old_urls.py).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from django.apps import apps

REPO = Path(__file__).resolve().parents[2]


def test_no_model_is_named_tournament_or_entry() -> None:
    names = sorted(m.__name__ for m in apps.get_app_config("league").get_models())
    assert [n for n in names if "Tournament" in n or "Entry" in n] == []
    assert {"Event", "EventAudit", "GameAudit", "SaveKey", "StageSeed"} <= set(names)


def test_no_module_or_template_is_named_tournament() -> None:
    # Files, not directories: a checkout from before the rename may keep an empty
    # league/tournament/ with only __pycache__ in it, which is nobody's module.
    files = [p.relative_to(REPO) for p in [*(REPO / "league").rglob("*"), *(REPO / "templates").rglob("*")]
             if p.is_file() and not {"__pycache__", "migrations", "locale"} & set(p.parts)]
    assert [f.as_posix() for f in files if any("tournament" in part for part in f.parts)] == []


def test_the_stage_choices_and_the_models_say_what_they_hold() -> None:
    from league.models import Stage

    assert not hasattr(Stage, "Entry") and Stage.Qualification.TOP == "top"


def test_each_answer_about_a_rounds_tables_has_its_own_name() -> None:
    """Two different ``round_tables`` once answered two questions; each answer
    has its own name now, across the models, services, read models and views."""
    roots = ["league/models", "league/services", "league/standings", "league/views", "league/event"]
    names: Counter[str] = Counter()
    for root in roots:
        for path in (REPO / root).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names.update(n.name for n in tree.body if isinstance(n, ast.FunctionDef))
    assert names["table_states"] == 1 and names["tables_as_ids"] == 1 and names["round_tables"] == 0


def test_no_test_file_keeps_an_old_module_name() -> None:
    """The tests of a renamed module follow it (``versions`` → ``stamps``,
    ``records`` → ``game_records``, ``bounds`` → ``db_bounds``, the tournament
    → the event), so a newcomer finds a module's tests by its name."""
    old = {"tournament", "versions", "records", "bounds"}
    tests = [p.relative_to(REPO).as_posix() for p in (REPO / "tests" / "league").rglob("test_*.py")]
    assert [t for t in tests if Path(t).stem.removeprefix("test_").split("_")[0] in old] == []
