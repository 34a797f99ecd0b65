"""Tile notation, dora indicators and suit decompositions."""

from __future__ import annotations

import pytest

from scoring.errors import HandError
from scoring.tiles import DORA_AFTER, parse_tiles, standard_readings, suit_readings, tile_index, tile_name


@pytest.mark.parametrize("text, kinds, reds", [
    ("123m", (0, 1, 2), (0, 0, 0)),
    ("0m", (4,), (1, 0, 0)),
    ("406p", (12, 13, 14), (0, 1, 0)),
    ("0s5s", (22, 22), (0, 0, 1)),
    ("1234567z", (27, 28, 29, 30, 31, 32, 33), (0, 0, 0)),
    ("19m 19p", (0, 8, 9, 17), (0, 0, 0)),
])
def test_parse_tiles_reads_mpsz_with_red_fives(text, kinds, reds):
    assert parse_tiles(text) == (kinds, reds)


@pytest.mark.parametrize("text", ["0z", "8z", "9z", "123", "m", "12q", 5])
def test_parse_tiles_refuses_bad_notation(text):
    with pytest.raises(HandError) as err:
        parse_tiles(text)
    assert err.value.code == "invalid_tile"


@pytest.mark.parametrize("indicator, dora", [
    ("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"), ("0p", "6p"),
    ("1z", "2z"), ("3z", "4z"), ("4z", "1z"),  # winds: E S W N, North wraps to East
    ("5z", "6z"), ("6z", "7z"), ("7z", "5z"),  # dragons: white green red, red wraps to white
])
def test_dora_is_the_tile_after_the_indicator(indicator, dora):
    assert tile_name(DORA_AFTER[tile_index(indicator)]) == dora


def test_suit_readings_list_every_split_once():
    # 111222333: three triplets or three identical sequences
    readings = suit_readings(0, (3, 3, 3, 0, 0, 0, 0, 0, 0))
    assert sorted((r.seqs, r.trips) for r in readings) == [((), (0, 1, 2)), ((0, 0, 0), ())]


def test_standard_readings_need_exactly_one_pair():
    assert standard_readings(parse_tiles("11223344556677z").counts()) == []  # seven pairs only
    assert len(standard_readings(parse_tiles("123m456p789s234s99m").counts())) == 1
