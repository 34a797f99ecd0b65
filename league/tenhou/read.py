"""The entry point for reading a log: gzip or not, mjlog XML, tenhou.net/6 JSON
or kobalab paipu JSON, told apart by the bytes, never by the file name."""

from __future__ import annotations

import gzip
import hashlib
import io
import zlib
from pathlib import Path

from league.tenhou.kobalab import _read_kobalab
from league.tenhou.mjlog import _read_mjlog
from league.tenhou.tenhou6 import _read_tenhou6
from league.tenhou.values import TENHOU_ID, LogError, TenhouLog

# The largest real log here unpacks to about 120 KB; 20 MB leaves room for
# any real game while refusing a small file that unpacks without end.
MAX_UNPACKED = 20 * 1024 * 1024


def _gunzip(raw: bytes) -> bytes:
    """Decompress with a ceiling, so a gzip bomb is refused, not unpacked."""
    stream = gzip.GzipFile(fileobj=io.BytesIO(raw))
    try:
        out = stream.read(MAX_UNPACKED + 1)
    except (OSError, EOFError, zlib.error) as err:
        # zlib.error: the deflate data itself is damaged (gzip's own checks raise OSError).
        raise LogError("truncated_log", f"the gzip stream is damaged or cut off: {err}") from None
    if len(out) > MAX_UNPACKED:
        raise LogError("broken_log", f"the log unpacks to more than {MAX_UNPACKED // 1024 // 1024} MB")
    return out


def read_log(data: bytes | str, filename: str | None = None) -> TenhouLog:
    """Read one log: mjlog XML (plain or gzip) or tenhou.net/6 JSON.

    ``filename`` only helps find the log id (a Tenhou id in the name).

    >>> read_log(b"<mjloggm ver='2.3'><GO type='185'/></mjloggm>")
    Traceback (most recent call last):
    ...
    league.tenhou.values.LogError: the log holds no hand
    """
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LogError("broken_log", "the log is neither gzip nor UTF-8 text") from None
    stripped = text.lstrip()
    if not stripped:
        raise LogError("broken_log", "the log is empty")
    fallback_id = _id_from_name(filename) or hashlib.sha256(raw).hexdigest()
    if stripped.startswith("<"):
        log = _read_mjlog(stripped, fallback_id)
    elif stripped[0] == "{" and '"qipai"' in stripped:
        log = _read_kobalab(stripped, fallback_id)
    elif stripped[0] in "[{":
        log = _read_tenhou6(stripped, fallback_id)
    else:
        raise LogError("broken_log", "the log is neither mjlog XML nor tenhou.net/6 JSON")
    _check_text(log)
    return log


def _check_text(log: TenhouLog) -> None:
    """Refuse NUL in the text a game keeps: PostgreSQL cannot store it (and no
    Tenhou name or yaku has one), so it must not get as far as the database."""
    for seat, name in enumerate(log.names):
        if "\x00" in name:
            raise LogError("broken_log", f"player {seat}'s name holds a NUL character")
    for i, k in enumerate(log.kyoku):
        if any("\x00" in y for w in k.wins for y in w.yaku):
            raise LogError("broken_log", f"hand {i + 1} ({k.round_label}): a yaku name holds a NUL character")


def read_log_file(path: str | Path) -> TenhouLog:
    """:func:`read_log` on a file, with its name as a hint for the log id."""
    p = Path(path)
    return read_log(p.read_bytes(), p.name)


def _id_from_name(filename: str | None) -> str | None:
    if not filename:
        return None
    m = TENHOU_ID.search(Path(filename).name)
    return m.group(1) if m else None
