"""What the read API (``/api/v1/``) answers, field by field: the OpenAPI
schema (docs/api/openapi-v1.json) is made from these classes, and every
answer is built through them, so an answer cannot drift from the schema.

Units, everywhere: ``points`` and every field named for points (``total``,
``carried``, ``uma``, ``oka``, ``penalty``...) are thousandths of a point, as
integers (a settlement of +45.3 is 45300); ``score``, ``end_score``, ``deltas``
and ``scores`` are table points (25000 at the start of a game). Seats are
0 (East) to 3 (North). Times are ISO 8601 in UTC.
"""

from __future__ import annotations

import datetime

from ninja import Field, Schema

THOUSANDTHS = "thousandths of a point (+45.3 is 45300)"


class Error(Schema):
    code: str = Field(description="A stable code: not_found, invalid, too_many_requests")
    message: str
    field: str | None = Field(None, description="The parameter the error is about, if one")


class ErrorOut(Schema):
    error: Error


class SeriesOut(Schema):
    id: int
    slug: str
    name: str
    kind: str = Field(description="league or tournament")
    start_date: datetime.date | None
    end_date: datetime.date | None
    is_event: bool = Field(description="Run as an event: rounds, seating, stages and teams under /event/")
    finished_games: int
    live_games: int
    results_hidden_from_round: int | None = Field(
        description="The director hides results from this round on: nothing from it is shown")
    page: str = Field(description="The public page's path")


class SeriesList(Schema):
    series: list[SeriesOut] = Field(description="Newest first (start date, then name)")


class StandingRowOut(Schema):
    rank: int | None = Field(description="Place; null for a player under the series' minimum of games")
    tied: bool = Field(description="The place is shared (shown as =2)")
    player_id: int
    name: str
    games: int
    points: int = Field(description=f"What ranks the row, {THOUSANDTHS}: an event with a cut ranks by the stage "
                                    "the player ended in, carried points included")
    games_sum: int | None = Field(description=f"An event with a cut: the plain sum of every game, {THOUSANDTHS}; "
                                              "never ranks")
    average_points: int = Field(description=f"points / games, {THOUSANDTHS}, rounded half away from zero")
    place_sum: int = Field(description="The sum of the places (average place = place_sum / games)")
    places: list[int] = Field(description="How many 1st, 2nd, 3rd and 4th places")
    best: int = Field(description=f"The best game, {THOUSANDTHS}")
    worst: int = Field(description=f"The worst game, {THOUSANDTHS}")
    separated_by: str | None = Field(
        description="The tie-break rule that put this row below the one above (points, head_to_head, firsts, "
                    "...; stage: the players above reached a later stage); null for the first row or a tie")
    stage: str = Field(description="An event with a cut: the stage whose standings placed the row")


# A stored hand the engine now refuses: a game's ``refused``, and with where the
# game is (``GameWhereOut``) a standings' refused game. No docstrings: pydantic
# would write them into the OpenAPI document as the schemas' descriptions.
class RefusedOut(Schema):
    number: int = Field(description="The stored hand the engine now refuses")
    code: str = Field(description="The engine's error code for it")
    message: str = Field(description="The engine's reason, in English")
    text: str = Field(description="The same in the request's language, as the pages say it")


class GameWhereOut(Schema):
    game: int = Field(description="The game's id")
    round: int
    table: str


# Where the game is, then its refused hand: pydantic puts the fields of the last
# base first, so the JSON's keys keep their order (game, round, table, number, ...).
class RefusedGameOut(RefusedOut, GameWhereOut):
    pass


REFUSED_GAMES = ("Counted games with a stored hand the engine now refuses (a preset's rules changed, a row was "
                 "edited): each counts as it was last settled until staff correct or undo the hand")


class StandingsOut(Schema):
    series: str = Field(description="The series' slug")
    is_event: bool
    staged: bool = Field(description="The event has a cut: points are the final stage's")
    through_round: int | None = Field(description="The last round counted; null: every round")
    results_hidden_from_round: int | None
    ranked: list[StandingRowOut]
    unranked: list[StandingRowOut] = Field(description="Under the series' minimum of games, in the same order")
    refused_games: list[RefusedGameOut] = Field(description=REFUSED_GAMES)


class SeatOut(Schema):
    seat: int = Field(description="0 East, 1 South, 2 West, 3 North")
    player_id: int
    name: str
    end_score: int | None = Field(description="Table points at the end; null while the game is played")
    points: int | None = Field(description=f"Settled points, {THOUSANDTHS}; null while the game is played")
    place: int | None


class GameSummary(Schema):
    id: int
    series: str
    round: int
    table: str
    status: str = Field(description="in_progress or finished")
    started_at: datetime.datetime
    finished_at: datetime.datetime | None
    seats: list[SeatOut]
    page: str


class GamesPage(Schema):
    count: int = Field(description="Games in the series (hidden rounds left out)")
    page: int
    per_page: int
    pages: int
    next: str | None = Field(description="The next page's path, or null on the last")
    games: list[GameSummary] = Field(description="Oldest first, by id: a new game never moves a game to "
                                                 "another page")


class HandOut(Schema):
    number: int
    round: str = Field(description="The round wind and dealer, e.g. E1")
    dealer: int
    honba: int
    riichi_sticks: int = Field(description="Riichi sticks on the table before the hand")
    riichi: list[int] = Field(description="Seats that declared riichi")
    deltas: list[int] = Field(description="Each seat's change in table points")
    scores: list[int] = Field(description="Each seat's table points after the hand")
    description: str = Field(description="The hand in words, in the request's language")
    note: str


class SettlementOut(Schema):
    seat: int
    player_id: int
    place: int
    end_score: int = Field(description="Table points")
    base: int = Field(description=f"End score minus the return score, {THOUSANDTHS}")
    uma: int = Field(description=THOUSANDTHS)
    oka: int = Field(description=THOUSANDTHS)
    penalty: int = Field(description=THOUSANDTHS)
    points: int = Field(description=f"The game's result, {THOUSANDTHS}: base + uma + oka + penalty")


class PenaltyOut(Schema):
    seat: int
    points: int = Field(description=THOUSANDTHS)
    reason: str


class GameOut(GameSummary):
    end: str = Field(description="How the game ended (blank while it is played)")
    hands: list[HandOut] = Field(description="Every hand; with ``refused``, the hands before the refused one")
    refused: RefusedOut | None = Field(
        None, description="A stored hand the engine now refuses (its rules changed, its row was edited): the game "
                          "is replayed only up to it, and a finished game counts as last settled (the seats)")
    settlement: list[SettlementOut] = Field(description="By place; empty while the game is played")
    penalties: list[PenaltyOut]


class PlayerSeriesOut(Schema):
    series: str = Field(description="The series' slug")
    name: str
    kind: str
    start_date: datetime.date | None
    games: int
    points: int = Field(description=f"The sum of the counted games, {THOUSANDTHS}")
    average_points: int = Field(description=THOUSANDTHS)
    place_sum: int
    places: list[int]
    results_hidden: bool = Field(description="The director hides later rounds: only earlier ones are counted here")


class PlayerOut(Schema):
    id: int
    name: str
    series: list[PlayerSeriesOut] = Field(description="Newest first")
    games: int
    points: int = Field(description=f"Over every series, {THOUSANDTHS}")
    average_points: int = Field(description=THOUSANDTHS)
    place_sum: int
    places: list[int]


class RoundOut(Schema):
    number: int
    status: str = Field(description="published or started (drafts are not public)")
    published_at: datetime.datetime | None
    started_at: datetime.datetime | None
    time_limit: int = Field(description="Minutes")
    ends_at: datetime.datetime | None = Field(description="The clock's end (before any table's extra time)")
    clock_running: bool
    finished: bool


class TableSeatOut(Schema):
    seat: int
    number: int = Field(description="The event number of who plays the seat")
    name: str
    substitute_for: str = Field(description="The registered player's name when a substitute plays; else blank")
    score: int | None = Field(description="Table points now (a game being played) or at the end; null when the "
                                          "round's results are hidden or the game has not started")
    points: int | None = Field(description=f"A finished game's result, {THOUSANDTHS}")
    place: int | None


class TableOut(Schema):
    number: int
    state: str = Field(description="waiting, playing, finished or over_time")
    game: int | None = Field(description="The game's id, once the round started")
    hand: str = Field(description="The hand being played (e.g. S2, 1 honba); blank when none")
    hands: int = Field(description="Hands played")
    ends_at: datetime.datetime | None = Field(description="This table's end, with its extra time")
    extra_minutes: int
    seats: list[TableSeatOut]
    refused: RefusedOut | None = Field(
        None, description="A stored hand of the game being played that the engine now refuses; the scores are "
                          "those before it")


class EventOut(Schema):
    series: str
    name: str
    rounds_planned: int
    rounds: list[RoundOut] = Field(description="Published and started rounds")
    current_round: int | None = Field(description="The round players care about: the newest published one not "
                                                  "started, else the newest started")
    clock_ends_at: datetime.datetime | None = Field(description="The current round's end while its clock runs")
    tables: list[TableOut] = Field(description="The current round's tables")
    results_hidden_from_round: int | None
    standings: StandingsOut


class StageRowOut(Schema):
    rank: int
    tied: bool
    player_id: int
    number: int
    name: str
    seed: int | None = Field(description="Seed into a cut stage")
    carried: int = Field(description=f"Points carried in, {THOUSANDTHS}")
    stage_points: int = Field(description=f"This stage's games, {THOUSANDTHS}")
    total: int = Field(description=f"carried + stage_points, {THOUSANDTHS}: what ranks the row")
    games: int
    places: list[int]
    separated_by: str | None = Field(description="The tie-break rule that put this row below the one above")
    goes_on: bool = Field(description="Above the cut line into the next stage")


class StageOut(Schema):
    number: int
    name: str
    first_round: int
    last_round: int
    entry: str
    carry: str
    entrants_known: bool
    preview: bool = Field(description="Entrants worked out from the previous stage; the cut is not made yet")
    rounds_finished: int
    complete: bool
    cut: int | None = Field(description="Rows above the line go on to the next stage")
    cut_rule: str | None = Field(description="The rule that separated the last player through from the next")
    cut_tie: list[str] = Field(description="Names level across the line after every rule")
    rows: list[StageRowOut]


class FinalRowOut(Schema):
    place: int
    tied: bool
    player_id: int
    number: int
    name: str
    total: int = Field(description=f"In the standings of the stage they ended in, {THOUSANDTHS}")
    stage: str


class StagesOut(Schema):
    series: str
    results_hidden: bool = Field(description="The director hides results: no stage is shown")
    tiebreaks: list[str] = Field(description="The series' tie-break rules, in order")
    stages: list[StageOut]
    final: list[FinalRowOut] = Field(description="The whole event's order")
    refused_games: list[RefusedGameOut] = Field(description=REFUSED_GAMES)


class TeamMemberOut(Schema):
    player_id: int
    number: int
    name: str
    points: int = Field(description=f"The member's games, {THOUSANDTHS}")


class TeamRoundOut(Schema):
    round: int
    points: int = Field(description=THOUSANDTHS)
    counted: list[int] = Field(description="Event numbers of the members whose points counted")


class TeamOut(Schema):
    rank: int
    tied: bool
    name: str
    total: int = Field(description=THOUSANDTHS)
    rounds: list[TeamRoundOut]
    members: list[TeamMemberOut]


class TeamsOut(Schema):
    series: str
    results_hidden: bool
    scoring: str = Field(description="sum (every member) or best (the best K members each round)")
    best: int | None = Field(description="K, for best")
    teams: list[TeamOut]
    refused_games: list[RefusedGameOut] = Field(description=REFUSED_GAMES)
