"""Damaged copies of real Tenhou logs, for the fuzz tests and the fuzz benchmark.

Every mutation draws its choices from a ``random.Random`` (Hypothesis passes its
own, the benchmark a seeded one), so a damaged log is reproducible from its seed.
Mutations work at three depths: the bytes (flips, cuts, inserts; for a gzip file
before or after unpacking), the mjlog tags and attributes, and the tenhou.net/6
JSON tree (a node replaced, dropped, duplicated or buried in nesting). The values
they put in are the ones a reader trips on: non-numbers where numbers belong,
numbers too big for anything, ``1e400``, NUL, empty lists, deep nesting.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
from pathlib import Path
from typing import Any

# Text that replaces an attribute value or a JSON string.
NASTY_TEXT = (
    "", "x", "-1", "0", "4", "255", "136", "1.5", "-0", " 1", "1e400", "NaN", "Infinity", "99999999999999999999",
    "9" * 5000, "\u0000", "A\u0000B", "%00", "%FF", "1,2", ",", "1,,2", "-5,-5,-5", "0,0,0,0,0,0,0,0",
    "a" * 300, "2009139999gm-00a9-0000-f6eff225", "0001010100gm-00a9-0000-f6eff225",
)
# JSON values that replace a node of a tenhou.net/6 tree (written as JSON text).
NASTY_JSON = (
    "0", "-1", "4", "60", "99", "1e400", "-1e400", "1.5", "true", "null", '""', '"x"', '"\\u0000"', "[]", "{}",
    "[0]", "[[]]", "99999999999999999999", "9" * 5000, '"r99"', '"60p6060"', '"流局"', '"和了"',
    '"30符1飜1000点"', '"役満48000点"', '"立直(1飜)"', '"x(99999999999999飜)"', "[-1,-1,-1,-1]",
    "[100000000000000000000,0,0,0]", "2147483648", '"0001-01-01T00:00:00+05:00"', '"9999-12-31T23:00:00-05:00"',
    '{"tiles": "x", "melds": [1]}', '[{"winner": 0, "yaku": 5}]', '"x\\u0000y"',
)
DEEP = 100_000  # nesting far past Python's recursion limit


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One damaged copy of a log file's bytes (1 to 3 mutations)."""
    gz = data[:2] == b"\x1f\x8b"
    if gz and rng.random() < 0.3:
        return _bytes(data, rng)  # damage the compressed stream itself
    raw = gzip.decompress(data) if gz else data
    for _ in range(rng.randint(1, 3)):
        text = raw.decode("utf-8", "replace")
        kind = rng.random()
        if kind < 0.15:
            raw = _bytes(raw, rng)
        elif text.lstrip().startswith("<"):
            raw = _mjlog(text, rng).encode("utf-8", "surrogatepass")
        else:
            raw = mutate_json(text, rng).encode("utf-8", "surrogatepass")
    return gzip.compress(raw) if gz and rng.random() < 0.8 else raw


def _bytes(raw: bytes, rng: random.Random) -> bytes:
    b = bytearray(raw)
    if not b:
        return bytes(rng.randbytes(8))
    kind = rng.randrange(4)
    at = rng.randrange(len(b))
    if kind == 0:
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif kind == 1:
        del b[at:at + rng.randint(1, 64)]
    elif kind == 2:
        b[at:at] = rng.randbytes(rng.randint(1, 16))
    else:
        del b[at:]
    return bytes(b)


_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TAG = re.compile(r"<[A-Z][A-Z0-9]*\b[^>]*/>")


def _mjlog(text: str, rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind <= 1:  # one attribute value replaced
        attrs = list(_ATTR.finditer(text))
        if not attrs:
            return text
        m = rng.choice(attrs)
        value = rng.choice(NASTY_TEXT) if kind == 0 else _nudge(m.group(2), rng)
        return text[:m.start(2)] + value.replace('"', "") + text[m.end(2):]
    tags = list(_TAG.finditer(text))
    if not tags:
        return text
    m = rng.choice(tags)
    if kind == 2:  # a tag dropped
        return text[:m.start()] + text[m.end():]
    if kind == 3:  # a tag repeated elsewhere
        other = rng.choice(tags)
        return text[:other.start()] + m.group(0) + text[other.start():]
    # an attribute dropped from a tag
    attrs = list(_ATTR.finditer(m.group(0)))
    if not attrs:
        return text
    a = rng.choice(attrs)
    tag = m.group(0)[:a.start()] + m.group(0)[a.end():]
    return text[:m.start()] + tag + text[m.end():]


def _nudge(value: str, rng: random.Random) -> str:
    """A list of numbers with one number changed a little or a lot."""
    parts = value.split(",")
    i = rng.randrange(len(parts))
    try:
        n = int(parts[i])
    except ValueError:
        return rng.choice(NASTY_TEXT)
    parts[i] = str(rng.choice([n + 1, n - 1, -n, n * 1000, n + 136, 2**31, -(2**63)]))
    if rng.random() < 0.2:
        del parts[i]
    return ",".join(parts)


_MARK = "\u2603NASTY{}\u2603"


def mutate_json(text: str, rng: random.Random) -> str:
    """JSON text with one node replaced, dropped, duplicated, nudged or buried in
    nesting (a tenhou.net/6 log, or a game record line)."""
    try:
        tree = json.loads(text)
    except ValueError:
        return _bytes(text.encode("utf-8"), rng).decode("utf-8", "replace")
    except RecursionError:
        return text
    nodes = list(_nodes(tree))
    parent, key = rng.choice(nodes)
    kind = rng.randrange(5)
    literal = None
    if kind <= 1:  # a node replaced by a nasty value (kept as a marker, spliced in as JSON text)
        literal = rng.choice(NASTY_JSON)
        parent[key] = _MARK.format(0)
    elif kind == 2 and isinstance(parent, list):
        del parent[key]
    elif kind == 3 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif kind == 4 and rng.random() < 0.1:
        literal = "[" * DEEP + "]" * DEEP
        parent[key] = _MARK.format(0)
    else:  # a number nudged
        value = parent[key]
        if isinstance(value, int) and not isinstance(value, bool):
            parent[key] = rng.choice([value + 1, value - 1, -value, value * 1000, value + 40])
        else:
            literal = rng.choice(NASTY_JSON)
            parent[key] = _MARK.format(0)
    out = json.dumps(tree, ensure_ascii=False)
    if literal is not None:
        out = out.replace(json.dumps(_MARK.format(0), ensure_ascii=False), literal, 1)
    return out


def _nodes(tree: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every node below the root, iteratively (no recursion limit)."""
    out: list[tuple[Any, Any]] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            out.append((node, k))
            if isinstance(v, dict | list):
                stack.append(v)
    return out or [([tree], 0)]


def examples(ci: int) -> int:
    """A fuzz test's budget: ``ci`` (fixed, so CI is quick and deterministic),
    or ``TENBOU_FUZZ_EXAMPLES`` for a longer run by hand."""
    return int(os.environ.get("TENBOU_FUZZ_EXAMPLES") or ci)


def log_paths(tenhou: Path) -> list[Path]:
    """Every real log file: mjlog (plain and gzip) and tenhou.net/6 JSON."""
    return sorted(p for p in tenhou.rglob("*") if p.is_file())
