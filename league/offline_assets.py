"""What a phone downloads to price hands without network: the Pyodide runtime
(fetched from the npm registry at build time, never committed) and the
server's own Python as one zip.

The runtime is pinned (``PYODIDE_VERSION``) and checked against the tarball's
SHA-256 before anything is kept; only the five files the runtime loads are
extracted, into ``ASSETS`` (git-ignored). Without them the server works as
before and says offline entry is off (``status``).

Pure Python (no Django): the management command, the views and the tests
share it.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYODIDE_VERSION = "0.27.7"  # Python 3.12; runs in Debian's Chromium and in Node 18+
PYODIDE_SHA256 = "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"
# The files loadPyodide() fetches for the bare interpreter (no extra packages).
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ASSETS = Path(os.environ.get("TENBOU_OFFLINE_ASSETS", REPO / "offline_assets")) / f"pyodide-{PYODIDE_VERSION}"
SIZES = "sizes.json"  # written by fetch(): each file's bytes, raw and gzipped

# The Python the phone runs: scoring, and the Django-free hand entry.
ENGINE_SOURCES = ("scoring/*.py", "league/__init__.py", "league/db_bounds.py", "league/bounded_map.py",
                  "league/entry/*.py")
NOTICE_MISSING = ("Offline entry is off: this server has no copy of the Pyodide runtime "
                  "(run `python manage.py fetch_offline_assets`). Hands need the network.")


class FetchError(Exception):
    pass


def fetch(dest: Path | None = None, *, npm: str = "npm") -> dict[str, dict[str, int]]:
    """Download pyodide@PYODIDE_VERSION with ``npm pack``, check its SHA-256,
    keep RUNTIME_FILES in ``dest`` and return their sizes (raw and gzip)."""
    dest = ASSETS if dest is None else dest
    if shutil.which(npm) is None:
        raise FetchError(f"{npm} is not installed (Debian: apt-get install nodejs npm)")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=tmp,
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise FetchError(f"npm pack pyodide@{PYODIDE_VERSION} failed: {done.stderr.strip()[-500:]}")
        tarball = Path(tmp) / f"pyodide-{PYODIDE_VERSION}.tgz"
        digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
        if digest != PYODIDE_SHA256:
            raise FetchError(f"{tarball.name} has SHA-256 {digest}, not the pinned {PYODIDE_SHA256}")
        staging = Path(tmp) / "out"
        staging.mkdir()
        with tarfile.open(tarball) as tar:
            for name in RUNTIME_FILES:
                member = tar.getmember(f"package/{name}")
                source = tar.extractfile(member)
                assert source is not None
                (staging / name).write_bytes(source.read())
        sizes = {}
        for name in RUNTIME_FILES:
            data = (staging / name).read_bytes()
            # Kept gzipped too: served so to a phone that accepts it (less than half the bytes).
            packed = gzip.compress(data, compresslevel=9, mtime=0)
            (staging / f"{name}.gz").write_bytes(packed)
            sizes[name] = {"bytes": len(data), "gzip_bytes": len(packed)}
        (staging / SIZES).write_text(json.dumps(sizes, indent=1) + "\n")
        if dest.exists():
            shutil.rmtree(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), dest)
    return sizes


def measure(data: bytes) -> dict[str, int]:
    return {"bytes": len(data), "gzip_bytes": len(gzip.compress(data, compresslevel=6, mtime=0))}


@dataclass(frozen=True)
class Status:
    available: bool
    notice: str | None
    sizes: dict[str, dict[str, int]]  # runtime file -> {"bytes", "gzip_bytes"}, engine.zip included


def status(dest: Path | None = None) -> Status:
    """Whether the runtime is here, and what a phone downloads for offline use."""
    dest = ASSETS if dest is None else dest
    engine = engine_zip()
    sizes = {"engine.zip": {"bytes": len(engine.data), "gzip_bytes": engine.gzip_bytes}}
    if not all((dest / name).is_file() for name in (*RUNTIME_FILES, SIZES)):
        return Status(False, NOTICE_MISSING, sizes)
    return Status(True, None, {**json.loads((dest / SIZES).read_text()), **sizes})


@dataclass(frozen=True)
class EngineZip:
    data: bytes
    etag: str
    gzip_bytes: int


def _sources() -> list[Path]:
    return sorted(p for pattern in ENGINE_SOURCES for p in REPO.glob(pattern))


def engine_zip() -> EngineZip:
    """The phone's Python as one zip, rebuilt only when a source file changes."""
    files = _sources()
    return _build(tuple((str(p.relative_to(REPO)), p.stat().st_mtime_ns) for p in files))


@functools.lru_cache(maxsize=4)
def _build(stamp: tuple[tuple[str, int], ...]) -> EngineZip:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, _ in stamp:
            # A fixed date: the same sources give the same bytes, so the same ETag.
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, (REPO / name).read_bytes())
    data = buf.getvalue()
    return EngineZip(data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"', measure(data)["gzip_bytes"])
