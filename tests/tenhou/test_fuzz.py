"""Property: any damaged copy of a real Tenhou log is read or refused with a
``LogError`` code, never a crash (issue 13). A fixed, derandomized budget so CI
is deterministic and quick; ``tests/benchmarks/fuzz_logs.py`` and
``TENBOU_FUZZ_EXAMPLES=N`` are the long runs (docs/development.md).

CI's 1,000 examples (the same every run, about 10 s) damage each of the 187
real logs about five times, one to three mutations each at the depths
mutate.py works at (bytes, mjlog tags, JSON tree): they prove that those
damages are read or refused by name; the long run searches further."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import tenhou
from scoring.game import replay
from tests.realdata import REALDATA, require_realdata
from tests.tenhou.mutate import examples, log_paths, mutate

require_realdata()

PATHS = log_paths(REALDATA / "tenhou")
ORIGINALS = {p.name: p.read_bytes() for p in PATHS}


@pytest.mark.fuzz
@settings(max_examples=examples(1000), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(ORIGINALS)), rng=st.randoms(use_true_random=False))
def test_a_damaged_real_log_is_read_or_refused_never_crashes(name, rng) -> None:
    data = mutate(ORIGINALS[name], rng)
    try:
        imported = tenhou.import_log(data, name)
    except tenhou.LogError as err:
        assert err.code and err.message  # a named refusal: any other exception fails the test
        return
    # What is read is a game with text the database can hold, which the engine
    # replays unless the report says where it refuses a hand (and the import refuses it).
    assert len(imported.record.hands) == imported.report.hands == len(imported.log.kyoku)
    assert not any("\x00" in n for n in imported.names)
    if not any(d.what in ("refused", "game over") for d in imported.report.discrepancies):
        replay(imported.record)


SANMA = {p.name: p.read_bytes() for p in sorted((REALDATA / "sanma").iterdir()) if p.suffix != ".md"}


@pytest.mark.fuzz
@settings(max_examples=examples(600), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SANMA)), rng=st.randoms(use_true_random=False))
def test_a_damaged_real_sanma_log_is_read_or_refused_never_crashes(name, rng) -> None:
    # The three-player readers (issue #35), the kobalab paipu one included.
    data = mutate(SANMA[name], rng)
    try:
        imported = tenhou.import_log(data, name)
    except tenhou.LogError as err:
        assert err.code and err.message
        return
    assert len(imported.record.hands) == imported.report.hands == len(imported.log.kyoku)
    if not any(d.what in ("refused", "game over") for d in imported.report.discrepancies):
        replay(imported.record)
