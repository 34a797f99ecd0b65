"""Commit messages against the contributing habits (docs/development.md, "Contributing").

    python tests/check_commits.py [RANGE]      # default: main..HEAD

Lists every commit in RANGE whose subject is over 72 characters, or whose
second line is not blank (the detail goes in a body after a blank line), and
exits 1 if there is one. Merge commits are checked too. Not collected by
pytest: the history before this script is what it is.
"""

from __future__ import annotations

import subprocess
import sys

LIMIT = 72


def problems(messages: list[tuple[str, str]]) -> list[str]:
    """(hash, message) pairs -> one line per commit that breaks a habit.

    >>> problems([("a1", "Short subject\\n\\nThe detail."), ("b2", "x" * 73), ("c3", "Subject\\nno blank line")])
    ['b2: subject is 73 characters (at most 72)', 'c3: no blank line after the subject']
    """
    found = []
    for sha, message in messages:
        lines = message.splitlines()
        subject = lines[0] if lines else ""
        if len(subject) > LIMIT:
            found.append(f"{sha}: subject is {len(subject)} characters (at most {LIMIT})")
        if len(lines) > 1 and lines[1].strip():
            found.append(f"{sha}: no blank line after the subject")
    return found


def main(argv: list[str]) -> int:
    rev = argv[0] if argv else "main..HEAD"
    out = subprocess.run(["git", "log", "--format=%h%x00%B%x01", rev], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    messages = [tuple(chunk.strip("\n").split("\0", 1)) for chunk in out.split("\x01") if chunk.strip()]
    found = problems([(sha, body) for sha, body in messages])
    for line in found:
        print(line)
    print(f"{len(messages)} commits, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
