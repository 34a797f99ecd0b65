"""One parser of a posted whole number (``league.db_bounds.int_param``): the
views' parameters and the entry protocol's hand number read the same
strings the same way, from the one function, not from two copies."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from league import db_bounds
from league.services import entry
from league.views import params

REPO = Path(__file__).resolve().parents[1]


def test_the_views_and_the_entry_protocol_share_one_parser() -> None:
    assert params.int_param is db_bounds.int_param
    assert entry.int_param is db_bounds.int_param


def test_no_second_copy_is_defined() -> None:
    """No module of ``league`` but ``db_bounds`` defines a function that calls
    ``int_param``'s own checks (``isascii`` and ``isdigit`` on one value, then
    ``int``): a second copy would drift from the first."""
    copies = []
    for path in sorted((REPO / "league").rglob("*.py")):
        if path.name == "db_bounds.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            calls = {c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
                     for c in ast.walk(node) if isinstance(c, ast.Call)}
            if {"isascii", "isdigit", "int"} <= calls and len(node.body) <= 4:
                copies.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name}")
    assert copies == []


@pytest.mark.parametrize(("value", "number"), [
    ("3", 3), ("03", 3), ("²", None), ("-3", None), (" 3", None), ("3.0", None), ("", None), (None, None),
    ("9" * 11, None), ("2147483647", 2147483647), ("2147483648", None), (3, None),
])
def test_a_posted_number_reads_as_the_views_read_it(value: object, number: int | None) -> None:
    assert db_bounds.int_param(value) == number
