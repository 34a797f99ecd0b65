"""The stamps' directory, which every worker of one machine reads: no database."""

from __future__ import annotations

from league import versions


def test_stamps_are_shared_between_processes_through_their_directory(tmp_path) -> None:
    """Two workers are two processes: what one publishes, the other reads."""
    one, two = versions.DirectoryStore(str(tmp_path)), versions.DirectoryStore(str(tmp_path))
    one.add("stamp-1", "a:1")
    two.add("stamp-1", "b:2")  # an add never replaces
    assert two.get("stamp-1") == "a:1"
    two.set_many({"stamp-1": "c:3"})
    assert one.get("stamp-1") == "c:3"
    one.delete_many(["stamp-1"])
    assert two.get("stamp-1") is None


def test_stamps_survive_their_directory_being_cleaned_away(tmp_path) -> None:
    store = versions.DirectoryStore(str(tmp_path / "stamps"))
    store.add("stamp-1", "a:1")
    store.clear()
    (tmp_path / "stamps").rmdir()
    assert store.get("stamp-1") is None
    store.add("stamp-1", "b:2")
    assert store.get("stamp-1") == "b:2"
