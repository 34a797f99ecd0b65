"""Real game logs from Tenhou: read them, replay them through ``scoring``, write them back.

No Django here (standard library and ``scoring`` only), so every function runs
without a database; a test proves the package loads without Django. One module
per step: ``values`` (what a log says, ``LogError``), ``tiles`` (tile codes and
yaku names), ``read`` (the entry point), ``mjlog`` and ``tenhou6`` (the two
formats), ``check`` (a log as a game record, replayed and compared) and
``export`` (a record written back as tenhou.net/6 JSON). Callers use this
package (``from league import tenhou``), not the modules. The formats are documented in ../shared/realdata/FORMATS.md;
where that note and a real file disagree, the file wins.

Reading. :func:`read_log` takes the bytes of a Tenhou mjlog XML file (plain or
gzip-compressed, told apart by the gzip magic bytes ``1f 8b``, never by the file
name) or of a tenhou.net/6 JSON file (one object, one kyoku per line, or a list
of objects) and returns a :class:`TenhouLog` of frozen dataclasses. A log that
cannot be read is refused with :class:`LogError`, a ``ScoringError`` whose
``code`` says why: ``broken_log`` (not XML/JSON, or not a Tenhou log),
``truncated_log`` (a hand or the game has no end),
``invalid_tiles``, ``deltas_do_not_add_up`` (a hand's deltas do not balance,
or a hand does not start with the scores the previous one left),
``incomplete_log`` (a fragment that does not start at East 1 with 25,000 each).

What a hand keeps. Winners, loser, han, fu, yakuman, pao, Tenhou's yaku list,
the winning hand (concealed tiles with the winning tile, in the project's
notation ``123m0p`` where ``0`` is a red five, melds as ``{"type", "tiles"}``,
the winning tile), dora and ura indicators, riichi sticks paid in the hand,
tenpai and nagashi seats and the abort reason. tenhou.net/6 JSON does not say
who was tenpai: a seat paid noten money is noten, a seat receiving it is tenpai;
with no payments, everybody is tenpai if anybody declared riichi or the dealer
kept the deal, else nobody. Under a nagashi mangan the payments hide it, so the
tenpai seats are the riichi seats plus the dealer when the next hand keeps the
same dealer. Limit hands in JSON have no fu: below 5 han the fu comes from the
tile analysis of the kept hand, else the smallest fu that reaches the limit.

Three players (sanma, issue #35). mjlog GO types with bit 0x10 (185 =
三鳳南喰赤, 0xF1 = 三鳳東喰赤速), tenhou.net/6 logs whose ``rule.disp`` starts
with 三 (Mahjong Soul's 三金の間赤 too) and kobalab's paipu JSON read as three
seats: names, scores and deltas have three entries, the empty fourth seat of
the file is dropped (and refused if it holds anything). A North set aside
(kita: ``f44`` in JSON, an mjlog meld with bit 0x20, ``penuki`` in paipu) is
counted on the win (``WinResult.kita``) and kept in the tiles as ``"kita"``.
Rounds keep the four-player numbering (S1 is 4). Tenhou's games up to 2021
round the points (variant ``rounded_points``, not after
:data:`SANMA_ROUNDED_UNTIL`); one Mahjong Soul conversion leaves the loser's
riichi stick out of the last hand's deltas while its ``sc`` counts it, which
the reader repairs only when ``sc`` proves it (``TenhouLog.quirks``,
reported with the variants as ``sticks_left_out``).

Checking. :func:`check_log` replays the game under the log's ruleset
(``tenhou``, ``tenhou-east`` for the east-only lobbies, ``mahjong-soul`` for
Mahjong Soul conversions, which ``rule.disp`` gives away) and compares every
hand: round, honba, sticks, start scores and deltas. The log's deltas leave out
the riichi deposits while ours include them, so ours get 1,000 back per riichi
stick paid in the hand before comparing. Then the end scores and points with
``owari`` (XML) or ``sc`` (JSON).

Historical variants. Tenhou changed its rules twice within our logs:

* before August 2009 the uma was +10/+5/-5/-10 (:data:`OLD_UMA`);
* before mid-2010 there was no tenpai-yame (the all-last dealer played on
  after a tenpai draw while first).

The rule applied: replay under the preset; when the replay refuses a hand with
``game_over`` right after the game ended by tenpai-yame, replay with
``{"tenpai_yame": "none"}`` (variant ``no_tenpai_yame``); when the end points do
not fit the preset's uma but fit the old one, add ``{"uma": [10000, 5000,
-5000, -10000]}`` (variant ``old_uma``). A variant is taken only for a log not
dated after its cutoff (the date is in the Tenhou id; an undated log may take
it), and :class:`CheckReport` records which were taken.

In our logs that is ``old_uma`` for the six 2009 east-only games (four fastmaj
games of July 2009, ``bye.xml``, ``shuffle.xml``) and ``no_tenpai_yame`` for five
(fastmaj 2009-08-27, 2009-08-28, 2010-03-04, 2010-06-01 and ``bug1.xml``).

Special lobbies (``GO type`` bits above 0xFF: chip, custom rules) import under
the plain preset, and their discrepancies are reported with ``special`` set;
one that starts with other than 25,000 each is played from its own start
(variant ``special_start``) so that its hands can still be compared.

Normalised so that the XML and the JSON copy of a game read the same: melds
in tile order (the mjlog lists the last call first), riichi seats in seat
order, ``裏ドラ(0飜)`` left out of the yaku (as Tenhou's own JSON does), and
fu kept only below 5 han, where it changes the payment.

Writing. :func:`export_tenhou6` writes a GAME RECORD back as tenhou.net/6 JSON:
start state, results with deltas and score strings, the dora and ura
indicators, and the kept winning hands as a short tile flow (the haipai, the
calls, the riichi and the winning draw or discard) that :func:`read_log` turns
back into the same tiles. Discards that did not matter are not invented.
A three-player game is written as Tenhou writes one: four seats with the
fourth empty (no name, 0 points), its lobby in ``rule.disp`` (三鳳南喰赤,
三金の間赤, ...), and each kita of a winner as a North drawn and set aside
(``f44``) with its replacement drawn and let go.
"""

from league.tenhou.check import check_log, import_log, import_log_file, kyoku_to_hand, log_to_record
from league.tenhou.export import export_tenhou6
from league.tenhou.read import MAX_UNPACKED, read_log, read_log_file
from league.tenhou.tiles import YAKU_NAMES
from league.tenhou.values import (
    NO_TENPAI_YAME_UNTIL,
    OLD_UMA,
    OLD_UMA_UNTIL,
    SANMA_ROUNDED_UNTIL,
    TENHOU_ID,
    CheckReport,
    Discrepancy,
    ImportedGame,
    Kyoku,
    LogError,
    Owari,
    TenhouLog,
    WinResult,
)

__all__ = [
    "MAX_UNPACKED", "NO_TENPAI_YAME_UNTIL", "OLD_UMA", "OLD_UMA_UNTIL", "SANMA_ROUNDED_UNTIL", "TENHOU_ID", "YAKU_NAMES",
    "CheckReport", "Discrepancy", "ImportedGame", "Kyoku", "LogError", "Owari", "TenhouLog", "WinResult",
    "check_log", "export_tenhou6", "import_log", "import_log_file", "kyoku_to_hand", "log_to_record",
    "read_log", "read_log_file",
]
