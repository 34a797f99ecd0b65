"""The 27 real three-player (sanma) games of ../shared/realdata/sanma, each read,
replayed through ``scoring`` under its sanma preset and compared with the log:
every hand's deltas, the end scores and the points (SOURCES.md there says what
each file is; ../shared/reference/sanma.md the rules).

No database: league.tenhou imports no Django.
"""

from __future__ import annotations

import json

import pytest

from league.tenhou import LogError, import_log_file, read_log, read_log_file
from scoring.game import replay
from scoring.hand import EAST, Hand, Situation, analyse_hand
from scoring.rules import get_ruleset
from scoring.tiles import parse_tile
from tests.realdata import REALDATA, require_realdata
from tests.tenhou.files import MJLOG, _theirs, _tiles

require_realdata()
SANMA = REALDATA / "sanma"

# file, format, preset, variants, hands, wins, draws (and aborts), kita on the wins,
# end scores and points (thousandths) as the log gives them (owari / sc / defen+point).
GAMES = [
    ("MahjongLM__2014091101gm-00b9-0000-5ca6b487.json", "kobalab", "tenhou-sanma", ("rounded_points",), 11, 8, 3, 5,
     [59200, 22800, 23000], [54000, -37000, -17000]),
    ("MahjongLM__2014091101gm-00b9-0000-5ca6b487.txt", "mjlog", "tenhou-sanma", ("rounded_points",), 11, 8, 3, 5,
     [59200, 22800, 23000], [54000, -37000, -17000]),
    ("MahjongLM__2023010100gm-00f1-0000-caffca62.json", "kobalab", "tenhou-sanma-east", (), 3, 3, 0, 4,
     [33000, 51000, 21000], [-7000, 46000, -39000]),
    ("Mortal_Sanma__2025020203gm-00b9-0000-bea67528.json", "tenhou6", "tenhou-sanma", (), 10, 9, 1, 10,
     [83300, 11900, 9800], [78300, -28100, -50200]),
    ("Mortal_Sanma__2025020501gm-00b9-0000-2c6f867d.json", "tenhou6", "tenhou-sanma", (), 7, 7, 0, 11,
     [38800, 41300, 24900], [-1200, 36300, -35100]),
    ("Mortal_Sanma__2025020508gm-00b9-0000-79ddbd9d.json", "tenhou6", "tenhou-sanma", (), 7, 7, 0, 6,
     [44500, 53800, 6700], [4500, 48800, -53300]),
    ("Mortal_Sanma__2025021501gm-00b9-0000-f91fb013.json", "tenhou6", "tenhou-sanma", (), 9, 8, 1, 10,
     [73100, -3000, 34900], [68100, -63000, -5100]),
    ("Mortal_Sanma__2025021522gm-00b9-0000-b5a02c99.json", "tenhou6", "tenhou-sanma", (), 7, 7, 0, 7,
     [38700, 7800, 58500], [-1300, -52200, 53500]),
    ("Mortal_Sanma__2025040519gm-00b9-0000-5f46d99c.json", "tenhou6", "tenhou-sanma", (), 11, 7, 4, 5,
     [-2500, 83600, 23900], [-62500, 78600, -16100]),
    ("Mortal_Sanma__2025060717gm-00b9-0000-5fafbe59.json", "tenhou6", "tenhou-sanma", (), 12, 12, 0, 15,
     [85600, 1400, 18000], [80600, -58600, -22000]),
    ("Mortal_Sanma__2025072919gm-00b9-0000-a7cc0243.json", "tenhou6", "tenhou-sanma", (), 13, 11, 2, 17,
     [35100, 19400, 50500], [-4900, -40600, 45500]),
    ("Mortal_Sanma__2025121618gm-00b9-0000-0bbd79eb.json", "tenhou6", "tenhou-sanma", (), 6, 6, 0, 1,
     [38600, 21100, 45300], [-1400, -38900, 40300]),
    ("Mortal_Sanma__template.json", "tenhou6", "tenhou-sanma", (), 7, 7, 0, 3,
     [43000, 34700, 27300], [38000, -5300, -32700]),
    ("auto-white-reimu__2009060321gm-00b9-0000-75b25bcf.xml", "mjlog", "tenhou-sanma", (), 1, 1, 0, 2,
     [71000, -1000, 35000], [66000, -61000, -5000]),
    ("auto-white-reimu__2018110809gm-00b9-0000-00a79b89.xml", "mjlog", "tenhou-sanma", ("rounded_points",), 3, 3, 0, 3,
     [48100, -6400, 63300], [8000, -66000, 58000]),
    ("dnovikoff-tenhou__sanma2.xml", "mjlog", "tenhou-sanma", ("rounded_points",), 6, 5, 1, 4,
     [27400, 83100, -5500], [-13000, 79000, -66000]),
    ("mjai-reviewer3p__chankan.json", "tenhou6", "mahjong-soul-sanma", (), 3, 3, 0, 1,
     [20200, 25800, 59000], [-29800, -9200, 39000]),
    ("mjai-reviewer3p__double_nukidora.json", "tenhou6", "tenhou-sanma", ("rounded_points",), 12, 8, 4, 8,
     [31900, 47200, 25900], [-8000, 42000, -34000]),
    ("mjai-reviewer3p__kan3_nuki_rinshan.json", "tenhou6", "mahjong-soul-sanma", (), 9, 9, 0, 14,
     [29600, 28900, 46500], [-5400, -21100, 26500]),
    ("mjai-reviewer3p__kokushi13_withnuki.json", "tenhou6", "mahjong-soul-sanma", (), 6, 6, 0, 1,
     [83200, -58100, 79900], [63200, -108100, 44900]),
    ("mjai-reviewer3p__kokushi_ankan.json", "tenhou6", "mahjong-soul-sanma", (), 1, 1, 0, 1,
     [83000, -13000, 35000], [63000, -63000, 0]),
    ("mjai-reviewer3p__kokushi_peinuki.json", "tenhou6", "mahjong-soul-sanma", ("sticks_left_out",), 4, 4, 0, 3,
     [-33600, 44600, 94000], [-83600, 9600, 74000]),
    ("mjai-reviewer3p__nukidora_doubleron.json", "tenhou6", "mahjong-soul-sanma", (), 5, 6, 0, 3,
     [30800, 45700, 28500], [-4200, 25700, -21500]),
    ("sanma-engine__2024010120gm-00b9-0000-e324b88a.json", "tenhou6", "tenhou-sanma", (), 8, 8, 0, 6,
     [75700, 6800, 22500], [70700, -53200, -17500]),
    ("sanma-engine__2024010120gm-00b9-0000-ef5da89f.json", "tenhou6", "tenhou-sanma", (), 9, 7, 2, 7,
     [-4900, 21600, 88300], [-64900, -18400, 83300]),
    ("sanma-engine__2024123123gm-00b9-0000-09c44fd1.json", "tenhou6", "tenhou-sanma", (), 10, 10, 0, 9,
     [59800, 33000, 12200], [54800, -7000, -47800]),
    ("sanma-engine__2024123123gm-00b9-0000-4a3a3639.json", "tenhou6", "tenhou-sanma", (), 5, 4, 1, 6,
     [77800, 28900, -1700], [72800, -11100, -61700]),
    ("sanma-engine__2024123123gm-00b9-0000-56cca963.json", "tenhou6", "tenhou-sanma", (), 7, 7, 0, 7,
     [39400, 19000, 46600], [-600, -41000, 41600]),
]
# The kobalab copy of the 2014 mjlog game is the same game (SOURCES.md), so 28 files hold 27 games.
TWIN = "MahjongLM__2014091101gm-00b9-0000-5ca6b487.json"


def test_every_file_of_the_folder_is_in_the_table():
    files = sorted(p.name for p in SANMA.iterdir() if p.suffix in (".json", ".xml", ".txt"))
    assert files == sorted(g[0] for g in GAMES)


@pytest.mark.parametrize(("name", "fmt", "preset", "variant", "hands", "wins", "draws", "kita", "scores", "points"),
                         GAMES, ids=[g[0] for g in GAMES])
def test_real_sanma_game_replays_as_logged(name, fmt, preset, variant, hands, wins, draws, kita, scores, points):
    game = import_log_file(SANMA / name)
    log, report = game.log, game.report
    assert (log.format, log.players, get_ruleset(log.rules).name) == (fmt, 3, preset)
    assert get_ruleset(log.rules).players == 3
    assert report.variant == variant
    assert report.discrepancies == ()
    assert (report.hands, report.wins, sum(k.kind != "win" for k in log.kyoku)) == (hands, wins, draws)
    assert sum(w.kita for k in log.kyoku for w in k.wins) == kita
    # Hand by hand, straight from the replay: the start of each hand and its
    # deltas (the log's leave the riichi deposits out).
    result = replay(game.record)
    assert len(result.hands) == hands and result.finished
    for played, k in zip(result.hands, log.kyoku, strict=True):
        assert (played.round, played.dealer, played.honba, played.riichi_sticks) == (k.round, k.dealer, k.honba, k.sticks)
        assert list(played.start.scores) == list(k.start_scores)
        assert _theirs(played.deltas, played.input.riichi) == list(k.deltas), (name, k.round_label, k.honba)
    s = result.settlement
    assert list(s.final_scores) == scores == list(log.owari.scores)
    assert list(s.points) == points == list(log.owari.points)
    assert sum(s.points) == 0


def test_the_counts_of_sources_md():
    by_format: dict[str, list[int]] = {}
    for name, fmt, _preset, _v, hands, wins, *_ in GAMES:
        if name == TWIN:
            continue
        key = "mahjong-soul" if _preset == "mahjong-soul-sanma" else fmt
        h, w, n = by_format.get(key, [0, 0, 0])
        by_format[key] = [h + hands, w + wins, n + 1]
    # SOURCES.md: 4 mjlog games (21 kyoku, 17 wins), 16 Tenhou tenhou.net/6 games (140, 125),
    # 1 new kobalab game (3, 3) and 6 Mahjong Soul games (28, 29): 27 games.
    assert by_format == {"mjlog": [21, 17, 4], "tenhou6": [140, 125, 16], "kobalab": [3, 3, 1],
                         "mahjong-soul": [28, 29, 6]}


def test_the_kobalab_copy_is_the_mjlog_game():
    xml, paipu = read_log_file(SANMA / "MahjongLM__2014091101gm-00b9-0000-5ca6b487.txt"), read_log_file(SANMA / TWIN)
    assert xml.log_id == paipu.log_id == "2014091101gm-00b9-0000-5ca6b487"
    assert [(k.round, k.honba, k.start_scores, k.deltas, k.riichi) for k in xml.kyoku] == \
        [(k.round, k.honba, k.start_scores, k.deltas, k.riichi) for k in paipu.kyoku]
    def wins(log):
        return [(w.winner, w.loser, w.han, w.fu, w.kita, sorted(_tiles(w.tiles)), w.melds, w.win_tile)
                for k in log.kyoku for w in k.wins]

    assert wins(xml) == wins(paipu)  # the paipu's shoupai reads as the mjlog's hai and m


def test_the_converter_quirk_is_repaired_only_as_sc_proves_it():
    # kokushi_peinuki.json: the last hand's deltas leave out the loser's riichi
    # stick (+48000) while sc counts it (94000); we give the stick to the winner.
    name = "mjai-reviewer3p__kokushi_peinuki.json"
    raw = json.loads((SANMA / name).read_text(encoding="utf-8"))
    assert raw["log"][-1][16][1][:3] == [-48000, 0, 48000]
    log = read_log_file(SANMA / name)
    assert log.quirks == ("sticks_left_out",)
    assert log.kyoku[-1].deltas == (-48000, 0, 49000)
    # With sc changed to the deltas as written, the slip is not "repaired": the log is refused.
    raw["sc"][4] -= 1000
    raw["sc"][0] += 1000
    with pytest.raises(LogError) as err:
        read_log(json.dumps(raw, ensure_ascii=False))
    assert err.value.code == "deltas_do_not_add_up"


def test_the_three_player_copy_in_the_four_player_folder_reads_the_same():
    assert read_log_file(MJLOG / "dnovikoff-tenhou__sanma2.xml").kyoku == \
        read_log_file(SANMA / "dnovikoff-tenhou__sanma2.xml").kyoku


def test_a_log_that_names_seat_3_in_a_three_player_game_is_refused():
    raw = json.loads((SANMA / "Mortal_Sanma__template.json").read_text(encoding="utf-8"))
    raw["log"][0][1][3] = 35000
    with pytest.raises(LogError) as err:
        read_log(json.dumps(raw, ensure_ascii=False))
    assert err.value.code == "broken_log" and "empty fourth seat" in err.value.message


def test_a_three_player_hand_with_2m_to_8m_is_refused():
    raw = json.loads((SANMA / "Mortal_Sanma__template.json").read_text(encoding="utf-8"))
    raw["log"][0][4][0] = 15
    with pytest.raises(LogError) as err:
        read_log(json.dumps(raw, ensure_ascii=False))
    assert err.value.code == "invalid_tiles" and "2m-8m" in err.value.message


# -- the winning hands, re-scored from their tiles ---------------------------------

_FLAGS = {"立直": "riichi", "両立直": "double_riichi", "一発": "ippatsu", "海底摸月": "haitei", "河底撈魚": "houtei",
          "嶺上開花": "rinshan", "槍槓": "chankan", "天和": "tenhou", "地和": "chiihou"}


def _kept_wins():
    for name, *_ in GAMES:
        log = read_log_file(SANMA / name)
        for k in log.kyoku:
            for w in k.wins:
                assert w.tiles, (name, k.round_label)  # every format keeps the winning hand
                if name != "MahjongLM__2014091101gm-00b9-0000-5ca6b487.txt":  # the kobalab copy is the same game
                    yield name, log, k, w


KEPT = list(_kept_wins())


def test_174_winning_hands_of_27_games_keep_their_tiles():
    assert len(KEPT) == 174  # 17 + 125 + 3 + 29 wins: SOURCES.md's counts
    assert sum(1 for *_, w in KEPT if w.kita) == 108  # wins with at least one kita


@pytest.mark.parametrize(("name", "log", "k", "w"), KEPT,
                         ids=[f"{n[:28]}-{k.round_label}-{k.honba}-{w.winner}" for n, _, k, w in KEPT])
def test_real_sanma_win_rescored_from_tiles(name, log, k, w):
    # Every format: mjlog, tenhou.net/6 (Tenhou and Mahjong Soul) and kobalab paipu.
    # The flags come from the log's yaku; han (kita and dora included), fu
    # and yakuman must come out of the tiles, the indicators and the kita.
    names = {y.split("(")[0] for y in w.yaku}
    flags = {flag: True for jp, flag in _FLAGS.items() if jp in names}
    riichi = flags.get("riichi") or flags.get("double_riichi")
    hand = Hand.parse(w.tiles, win=w.win_tile, melds=list(w.melds))
    sit = Situation(tsumo=w.tsumo, seat=EAST + (w.winner - k.dealer) % 3, round=EAST + k.round // 4,
                    dora=tuple(parse_tile(t, "dora")[0] for t in k.dora),
                    ura=tuple(parse_tile(t, "ura")[0] for t in k.ura) if riichi else (), kita=w.kita, **flags)
    result = analyse_hand(get_ruleset(log.rules), hand, sit)
    assert result.yakuman == w.yakuman
    if not w.yakuman:
        assert result.han == w.han
        if w.han < 5:
            assert result.fu == w.fu
