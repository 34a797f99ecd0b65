"""The body of a batch of kept hands (queue/sending.js, issue 30): the hands the phone
kept while the network was down, sent in one request, each as the single save
posts it (its fields, number, state, key, digest and the payments the scorer
saw). This module reads the body's shape and nothing more; the server takes
each entry as a single save (``league.views.staff_kept.kept``, docs/entry.md).

>>> read_kept(b'{"entries": [{"fields": {"outcome": "draw", "tenpai": ["0"]}, "number": "1",'
...           b' "state": "s", "key": "k", "checked": "c", "seen": "0 0 0 0"}]}')[0]["tenpai"]
['0']
"""

from __future__ import annotations

import json
from typing import Any

from league.entry.digest import BadSeen, read_seen

# At most this many entries in one request: a phone keeps a few hands, and a
# bounded batch bounds the request's work (each entry is one transaction).
MAX_KEPT = 50

# What the batch sets on each entry itself: a field of these names is not the hand's.
_SET_BY_BATCH = ("csrfmiddlewaretoken", "action", "number", "state", "key", "checked", "seen", "editing")
_REQUIRED = ("number", "state", "key", "checked")


class BadKept(ValueError):
    """The body is not a batch of kept hands: ``field`` names the part at
    fault (``entries[2].key``), ``code`` the reason (the view words it)."""

    def __init__(self, field: str, code: str) -> None:
        super().__init__(f"{field}: {code}")
        self.field, self.code = field, code


def read_kept(body: bytes, *, cap: int = MAX_KEPT) -> list[dict[str, str | list[str]]]:
    """Each entry as the single save's POST holds it: its fields (a value or a
    list of values, all text), ``action`` save, its ``number``, ``state``,
    ``key`` and ``checked``, and ``seen`` when the phone sent one (an entry the
    scorer chose to send at the server's price has none). Raises ``BadKept``."""
    try:
        parsed = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested past Python's limit
        raise BadKept("body", "not_json") from None
    if not isinstance(parsed, dict):
        raise BadKept("body", "not_object")
    entries = parsed.get("entries")
    if not isinstance(entries, list):
        raise BadKept("entries", "not_list")
    if not entries:
        raise BadKept("entries", "empty")
    if len(entries) > cap:
        raise BadKept("entries", "too_many")
    return [_entry(e, f"entries[{i}]") for i, e in enumerate(entries)]


def _entry(raw: Any, at: str) -> dict[str, str | list[str]]:
    if not isinstance(raw, dict):
        raise BadKept(at, "not_object")
    fields = raw.get("fields")
    if not isinstance(fields, dict):
        raise BadKept(f"{at}.fields", "not_object")
    data: dict[str, str | list[str]] = {}
    for name, value in fields.items():
        if name in _SET_BY_BATCH:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            data[name] = list(value)
        elif isinstance(value, str):
            data[name] = value
        else:
            raise BadKept(f"{at}.fields.{name}", "not_text")
    for name in _REQUIRED:
        value = raw.get(name)
        if value is not None and not isinstance(value, str):
            raise BadKept(f"{at}.{name}", "not_text")  # a number sent as 3, not "3": not missing
        if not value:
            raise BadKept(f"{at}.{name}", "missing")
        data[name] = value
    if "seen" in raw:
        if not isinstance(raw["seen"], str):
            raise BadKept(f"{at}.seen", "not_text")
        try:
            read_seen(raw["seen"])  # malformed: the batch is refused before any entry is saved
        except BadSeen:
            raise BadKept(f"{at}.seen", "not_payments") from None
        data["seen"] = raw["seen"]
    data["action"] = "save"
    return data
