"""What a league stores, one module per concern: ``games`` (players, series,
games, seats, hands, penalties, the audit trail and standings),
``tournament`` (an event day: registrations, rounds of tables, seats,
substitutions and the clock), ``stages`` (stages, seeds, playoffs), ``ratings``
(which series a rating counts, its engine; merges of player rows), ``signoff``
(the table's confirmation of a game's result), ``signup`` (players registering
themselves) and ``webhooks`` (the URLs told of a series' events, and the outbox
of deliveries). Callers import from this package
(``from league.models import Game``); every public name is re-exported here.
"""

from league.models.changes import ResultsChange
from league.models.games import (
    SEAT,
    SEATS,
    WIND_NAMES,
    WINDS,
    AuditEntry,
    EntryKey,
    Game,
    Hand,
    Penalty,
    Player,
    Seat,
    SeatQuerySet,
    Series,
    StandingRow,
    Standings,
    Win,
    build_record,
    counting,
    seat_list,
    series_changed,
    stored_hand_input,
    validate_rules,
)
from league.models.ratings import PlayerMerge, Rating
from league.models.signoff import SignOff
from league.models.signup import SignUp, SignUpDesk
from league.models.stages import EventRules, Playoff, Stage, StageEntry
from league.models.tournament import (
    Registration,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
    TournamentAudit,
)
from league.models.webhooks import Delivery, HookEvent, WebHook

__all__ = [
    "SEAT", "SEATS", "WIND_NAMES", "WINDS", "AuditEntry", "Delivery", "HookEvent", "WebHook", "EntryKey", "EventRules", "Playoff", "Stage", "StageEntry", "Game",
    "Hand", "Penalty", "Player", "PlayerMerge", "Rating", "Registration", "ResultsChange", "Round",
    "RoundSeat", "RoundTable", "Seat", "SeatQuerySet", "Series", "SignOff", "SignUp", "SignUpDesk", "StandingRow", "Standings", "Tournament",
    "TournamentAudit", "Win", "build_record", "counting", "seat_list", "series_changed", "stored_hand_input", "validate_rules",
]
