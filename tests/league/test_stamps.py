"""The stamps' directory, which every worker of one machine reads: no database."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from league import stamps


def test_stamps_are_shared_between_processes_through_their_directory(tmp_path) -> None:
    """Two workers are two processes: what one publishes, the other reads."""
    one, two = stamps.DirectoryStore(str(tmp_path)), stamps.DirectoryStore(str(tmp_path))
    one.add("stamp-1", "a:1")
    two.add("stamp-1", "b:2")  # an add never replaces
    assert two.get("stamp-1") == "a:1"
    assert one.get("stamp-1") == "a:1"  # remembered by both
    two.set_many({"stamp-1": "c:3"})
    assert one.get("stamp-1") == "c:3"
    one.delete_many(["stamp-1"])
    assert two.get("stamp-1") is None


def test_a_read_is_remembered_until_the_generation_moves(tmp_path) -> None:
    """While nothing is written through a store, a read opens no file: the
    file taken away behind the stores' backs is not noticed until a write."""
    reader, writer = stamps.DirectoryStore(str(tmp_path)), stamps.DirectoryStore(str(tmp_path))
    writer.set_many({"stamp-1": "a:1", "stamp-2": "b:2"})
    assert reader.get("stamp-1") == "a:1"
    os.unlink(tmp_path / "stamp-1")
    assert reader.get("stamp-1") == "a:1"
    writer.set_many({"stamp-2": "c:3"})
    assert reader.get("stamp-1") is None
    assert reader.get("stamp-2") == "c:3"


def test_a_write_in_another_process_is_seen_at_once(tmp_path) -> None:
    reader = stamps.DirectoryStore(str(tmp_path))
    reader.add("stamp-1", "a:1")
    assert reader.get("stamp-1") == "a:1"
    code = f"from league.stamps import DirectoryStore; DirectoryStore({str(tmp_path)!r}).set_many({{'stamp-1': 'b:2'}})"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "DJANGO_SETTINGS_MODULE": ""})
    assert reader.get("stamp-1") == "b:2"


def test_stamps_survive_their_directory_being_cleaned_away(tmp_path) -> None:
    store = stamps.DirectoryStore(str(tmp_path / "stamps"))
    store.add("stamp-1", "a:1")
    store.clear()
    shutil.rmtree(tmp_path / "stamps")
    assert store.get("stamp-1") is None
    store.add("stamp-1", "b:2")
    assert store.get("stamp-1") == "b:2"


def test_a_process_mapping_a_cleaned_away_directory_finds_the_new_one(tmp_path) -> None:
    """A worker still maps the deleted generation; within ``recheck`` seconds
    it looks again and reads what a new process published in the new directory."""
    worker = stamps.DirectoryStore(str(tmp_path / "stamps"), recheck=0)
    worker.add("stamp-1", "a:1")
    assert worker.get("stamp-1") == "a:1"
    shutil.rmtree(tmp_path / "stamps")
    stamps.DirectoryStore(str(tmp_path / "stamps")).set_many({"stamp-1": "b:2"})
    assert worker.get("stamp-1") == "b:2"


def test_what_a_process_remembers_is_bounded(tmp_path) -> None:
    """A crawler asking for every game number does not grow a worker without end."""
    store = stamps.DirectoryStore(str(tmp_path))
    store.set_many({"stamp-1": "a:1"})
    for n in range(3 * store.MEMO_LIMIT):
        store.get(f"game-{n}")
    assert len(store._memo[1]) <= store.MEMO_LIMIT
    assert store.get("stamp-1") == "a:1"
