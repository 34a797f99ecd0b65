"""The bounded memo (league/bounded_map.py): every way of adding a key keeps
the map within its bound, a full map keeps its keys when one is given a new
value, and the module, which the phone's engine carries, needs no Django."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from league.bounded_map import BoundedMap
from tests.realdata import REPO

FILLS: dict[str, Callable[[BoundedMap[int, int], int], None]] = {
    "item": lambda m, k: m.__setitem__(k, k),
    "setdefault": lambda m, k: m.setdefault(k, k) and None,
    "update": lambda m, k: m.update({k: k}),
    "update by pairs": lambda m, k: m.update([(k, k)]),
    "update by names": lambda m, k: m.update(**{f"k{k}": k}),  # type: ignore[arg-type]
    "|=": lambda m, k: m.__ior__({k: k}) and None,
}


@pytest.mark.parametrize("how", sorted(FILLS))
def test_a_bounded_map_never_holds_more_than_its_bound(how: str) -> None:
    held = BoundedMap[int, int](3)
    sizes = []
    for key in range(10):
        FILLS[how](held, key)
        sizes.append(len(held))
    assert max(sizes) == 3 and sizes == [1, 2, 3, 1, 2, 3, 1, 2, 3, 1]
    assert held.get(9, held.get("k9")) == 9  # type: ignore[call-overload]  # the newest key is always kept


def test_a_full_map_keeps_its_keys_when_one_is_given_a_new_value() -> None:
    held = BoundedMap[str, int](2)
    held["a"], held["b"] = 1, 2
    held["b"] = 3
    held.setdefault("a", 9)
    assert held == {"a": 1, "b": 3}
    held["c"] = 4  # a new key past the bound: the map starts again
    assert held == {"c": 4}


@pytest.mark.parametrize("bound", [0, -1])
def test_a_bound_below_one_is_refused(bound: int) -> None:
    with pytest.raises(ValueError, match=rf"^bound: a map must hold at least one key, not {bound}$"):
        BoundedMap(bound)


def test_the_map_and_the_field_table_load_without_django() -> None:
    code = ("import sys, league.bounded_map, league.entry.fields; "
            "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
