"""Which tests each pass of .ci/run collects, and their union.

    python .ci/pass_counts.py [CHECKOUT ...]

For each checkout (default: this one) it asks pytest for the node ids of the
three passes as .ci/run runs them: the README command's (SQLite), the
PostgreSQL pass's (``--db-only``) and the browser pass's (``tests/browser``),
and prints the counts, the union and how many tests run in two passes. Run
with the project's Python (``.venv/bin/python``); it only collects, nothing
runs. With two checkouts (before and after a change) it also prints the
tests of the first that the second no longer collects, so a change cannot
drop a test from every pass unseen.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PASSES = {
    "SQLite (README command)": [],
    "PostgreSQL (--db-only)": ["--db-only"],
    "browser": ["tests/browser"],
}


def collect(checkout: Path, args: list[str]) -> set[str]:
    env = {**os.environ, "DJANGO_ALLOW_ASYNC_UNSAFE": "true"}
    env.pop("CI", None)  # browser tests that cannot run here are still collected
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                         cwd=checkout, env=env, capture_output=True, text=True, check=False)
    ids = {line.strip() for line in out.stdout.splitlines() if "::" in line}
    if out.returncode != 0 or not ids:
        raise SystemExit(f"{checkout}: pytest {' '.join(args)} collected nothing:\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return ids


def counts(checkout: Path) -> dict[str, set[str]]:
    passes = {name: collect(checkout, args) for name, args in PASSES.items()}
    union = set().union(*passes.values())
    print(f"{checkout}:")
    for name, ids in passes.items():
        print(f"  {name:26} {len(ids):6,}")
    twice = sum(1 for t in union if sum(t in ids for ids in passes.values()) > 1)
    print(f"  {'union':26} {len(union):6,}  (in two passes: {twice:,})")
    passes["union"] = union
    return passes


def main(argv: list[str]) -> None:
    checkouts = [Path(a).resolve() for a in argv] or [Path(__file__).resolve().parents[1]]
    found = [counts(c) for c in checkouts]
    if len(found) == 2:
        gone = sorted(found[0]["union"] - found[1]["union"])
        print(f"collected in {checkouts[0]} and in no pass of {checkouts[1]}: {len(gone)}")
        for t in gone:
            print(f"  {t}")


if __name__ == "__main__":
    main(sys.argv[1:])
