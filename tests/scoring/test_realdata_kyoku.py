"""Every four-player win of a standard Tenhou game gives its recorded deltas.

Source: ../shared/realdata/derived/tenhou_mjlog_agari.csv (one row per win).
A double ron is two rows of one hand and one request; `riichi_sticks` there
already counts the sticks declared in that hand and `score_deltas` leave out
the declarers' own 1,000, so we enter them as sticks on the table with no
declarers.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from scoring.game import Ron, Tsumo, Win, settle_kyoku
from scoring.rules import get_ruleset
from tests.realdata import read_csv, reproduced_tenhou_files, require_realdata

require_realdata()

TENHOU = get_ruleset("tenhou")


def _hands():
    standard = reproduced_tenhou_files()
    hands = defaultdict(list)
    for row in read_csv("derived/tenhou_mjlog_agari.csv"):
        if row["sanma"] == "1" or row["file"] not in standard:
            continue
        hands[row["file"], int(row["hand_index"])].append(row)
    return sorted(hands.items())


HANDS = _hands()


def _value(row):
    if int(row["yakuman_count"]):
        return {"yakuman": int(row["yakuman_count"])}
    return {"han": int(row["han"]), "fu": int(row["fu"])}


def test_the_real_wins_are_all_here():
    assert sum(len(rows) for _, rows in HANDS) >= 900
    assert sum(len(rows) > 1 for _, rows in HANDS) >= 10  # double rons


@pytest.mark.parametrize(("key", "rows"), HANDS, ids=[f"{f.rsplit('/', 1)[-1]}#{i}" for (f, i), _ in HANDS])
def test_real_win_gives_recorded_deltas(key, rows):
    first = rows[0]
    pao = lambda row: int(row["pao_who"]) if row["pao_who"] not in ("", "-1") else None  # noqa: E731
    if first["tsumo"] == "1":
        assert len(rows) == 1
        outcome = Tsumo(winner=int(first["winner"]), pao=pao(first), **_value(first))
    else:
        outcome = Ron(
            loser=int(first["from_who"]),
            wins=tuple(Win(winner=int(r["winner"]), pao=pao(r), **_value(r)) for r in rows),
        )
    result = settle_kyoku(
        TENHOU,
        dealer=int(first["dealer"]),
        honba=int(first["honba"]),
        riichi_sticks=int(first["riichi_sticks"]),
        outcome=outcome,
    )
    expected = [0, 0, 0, 0]
    for row in rows:
        for seat, delta in enumerate(row["score_deltas"].split()):
            expected[seat] += int(delta)
    assert list(result.deltas) == expected
