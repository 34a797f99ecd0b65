"""What a league stores, one module per concern: ``people`` (players, series
and the version a change moves), ``games`` (games, seats, hands, wins,
penalties), ``audit`` (a game's trail and the scorer's save keys),
``standing_rows`` (the standings as values), ``event`` (an event day:
registrations, rounds of tables, seats, substitutions and the clock),
``stages`` (stages, seeds, playoffs), ``ratings`` (which series a rating
counts, its engine; merges of player rows), ``signoff`` (the table's
confirmation of a game's result), ``signup`` (players registering
themselves), ``webhooks`` (the URLs told of a series' events, and the outbox
of deliveries), ``changes`` (the rounds a change of results touched) and
``validators`` (the checks the fields share). Callers import from this
package (``from league.models import Game``); every public name is
re-exported here.
"""

from league.models.audit import GameAudit, SaveKey
from league.models.changes import ResultsChange
from league.models.event import (
    Event,
    EventAudit,
    Registration,
    Round,
    RoundSeat,
    RoundTable,
)
from league.models.games import (
    WIND_NAMES,
    WINDS,
    Game,
    Hand,
    Penalty,
    Seat,
    SeatQuerySet,
    Win,
    build_record,
    counting,
    stored_hand_input,
)
from league.models.people import Player, Series, series_changed
from league.models.ratings import PlayerMerge, Rating
from league.models.signoff import SignOff
from league.models.signup import SignUp, SignUpDesk
from league.models.stages import EventRules, Playoff, Stage, StageSeed
from league.models.standing_rows import StandingRow, Standings
from league.models.validators import SEAT, SEATS, seat_list, validate_rules
from league.models.webhooks import Delivery, HookEvent, WebHook

__all__ = [
    "SEAT", "SEATS", "WIND_NAMES", "WINDS", "GameAudit", "Delivery", "HookEvent", "WebHook", "SaveKey", "EventRules", "Playoff", "Stage", "StageSeed", "Game",
    "Hand", "Penalty", "Player", "PlayerMerge", "Rating", "Registration", "ResultsChange", "Round",
    "RoundSeat", "RoundTable", "Seat", "SeatQuerySet", "Series", "SignOff", "SignUp", "SignUpDesk", "StandingRow", "Standings", "Event",
    "EventAudit", "Win", "build_record", "counting", "seat_list", "series_changed", "stored_hand_input", "validate_rules",
]
