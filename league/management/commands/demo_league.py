"""Build a believable club season and an event day through the services,
so a newcomer sees real standings, an event dashboard, printouts and
projector pages at once: ``python manage.py demo_league [--reset]``."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from league import services
from league.auth import DEMO_LOGIN, DEMO_PASSWORD
from league.management.demo import stages as demo_stages
from league.models import Game, GameAudit, Hand, Penalty, Player, Playoff, Registration, Round, Series, Stage
from league.services import event
from scoring import game as sg
from scoring.errors import ScoringError
from scoring.game import Abort, AbortReason, Chombo, Draw, HandInput, Ron, Tsumo, Win

SLUG = "demo-league"
FIRST_NAMES = [
    "Aiko", "Bram", "Chen", "Dana", "Emil", "Fumiko", "Gael", "Hana", "Ilse", "Jun", "Kasia", "Lars",
    "Mei", "Nils", "Oona", "Pavel", "Quentin", "Rin", "Sven", "Taro", "Ulla", "Vera", "Wen", "Xavi",
    "Yuki", "Zofia", "Akira", "Britt", "Carlo", "Daiki", "Elin", "Femke",
]
LAST_NAMES = [
    "Sato", "de Vries", "Wang", "Novak", "Lindqvist", "Tanaka", "Moreau", "Kimura", "Berg", "Ito",
    "Kowalska", "Hansen", "Lin", "Olsen", "Virtanen", "Dvorak", "Martin", "Suzuki", "Eriksson", "Yamada",
    "Nyberg", "Petrova", "Zhao", "Garcia", "Mori", "Wojcik", "Nakamura", "Jansen", "Rossi", "Kato",
    "Holm", "Bakker",
]
CLUBS = ["Tokyo Tenbou", "Amsterdam Riichi", "Warsaw Wind", "Nordic Mahjong"]
ROUNDS, TABLES = 5, 8
# A han and fu mix close to what a club sees; 5+ han needs no fu.
RON_VALUES = [(1, 30), (1, 40), (2, 30), (2, 40), (3, 30), (3, 40), (1, 50), (2, 25), (3, 25), (4, 30), (4, 40),
              (5, None), (6, None), (8, None)]
TSUMO_VALUES = [(1, 30), (1, 40), (2, 20), (2, 30), (3, 20), (3, 30), (3, 40), (4, 25), (4, 30), (5, None),
                (6, None), (7, None), (11, None)]
# One of each rare outcome, played as the first hand of the first games.
SPECIALS = [
    HandInput(Ron(loser=2, wins=(Win(winner=1, han=3, fu=40), Win(winner=3, han=2, fu=30))), riichi=(1,)),
    HandInput(Tsumo(winner=1, yakuman=1, pao=3), note="daisangen, the third dragon pon from North"),
    HandInput(Draw(tenpai=(0, 2), nagashi=(3,))),
    HandInput(Abort(reason=AbortReason.KYUUSHU_KYUUHAI)),
    HandInput(Chombo(offender=2), note="called ron on a tile that did not complete the hand"),
    HandInput(Ron(loser=0, wins=(Win(winner=2, yakuman=1, pao=3),)), note="daisuushii, pao on North"),
    HandInput(Abort(reason=AbortReason.SUUFON_RENDA)),
]


EVENT_SLUG = "demo-tournament"
EVENT_ROUNDS, EVENT_PLAYED = 8, 3
COUNTRIES = ["JP", "NL", "CN", "CZ", "SE", "JP", "FR", "JP", "DE", "JP", "PL", "DK", "TW", "NO", "FI", "CZ",
             "FR", "JP", "SE", "JP", "SE", "BG", "CN", "ES", "JP", "PL", "JP", "NL", "IT", "JP", "DK", "NL"]
TEAMS = ["Red Dragons", "Green Dragons", "White Dragons", "North Winds"]


class Command(BaseCommand):
    help = "Create a demo league season (players, games entered hand by hand, standings)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="Delete the demo series first and build it again.")
        parser.add_argument("--seed", type=int, default=2025)
        parser.add_argument("--allow-without-debug", action="store_true",
                            help="Build the demo data even with DEBUG off (a demo server; no demo login is made).")

    def handle(self, *args: Any, reset: bool, seed: int, allow_without_debug: bool, **options: Any) -> None:
        if not settings.DEBUG and not allow_without_debug:
            raise CommandError("DEBUG is off: this looks like a production database, and demo_league fills it with "
                               "made-up players and games. Pass --allow-without-debug if that is what you want.")
        existing = Series.objects.filter(slug=SLUG).first()
        existing_event = Series.objects.filter(slug=EVENT_SLUG).first()
        if existing and existing_event and not reset:
            self.stdout.write(f"The demo league is already there ({existing}); --reset builds it again.")
            cup = Series.objects.filter(slug=demo_stages.CUP_SLUG).first()
            self._demo_login(existing, existing_event, *([cup] if cup else []))
            return
        with transaction.atomic():
            cup = Series.objects.filter(slug=demo_stages.CUP_SLUG).first()
            if cup:
                delete_series(cup)
            if existing_event:
                delete_series(existing_event)
            if existing:
                delete_series(existing)
            series = build(random.Random(seed))
            event_day = build_event(random.Random(seed + 1))
            demo_stages.plan_final(event_day, EVENT_ROUNDS)
            cup = demo_stages.build_cup(random.Random(seed + 2), event_names(), COUNTRIES, whole_game)
        games = series.games.count()
        hands = Hand.objects.filter(game__series=series).count()
        self.stdout.write(self.style.SUCCESS(f"Built {series}: {games} games, {hands} hands, {Player.objects.count()} players."))
        self.stdout.write(self.style.SUCCESS(
            f"Built {event_day}: {event_day.registrations.count()} registered, {EVENT_ROUNDS} rounds seated, "
            f"{EVENT_PLAYED} played, one substitute. Dashboard: /staff/series/{EVENT_SLUG}/event/"))
        self.stdout.write(self.style.SUCCESS(f"Built {cup}: a cut to a final table, two teams, an EMA results file."))
        self._demo_login(series, event_day, cup)

    def _demo_login(self, *series_list: Series) -> None:
        """On a development set-up only, a scorer and director login so a newcomer can try
        the staff pages at once; never with DEBUG off (a known password)."""
        if not settings.DEBUG:
            return
        user, created = User.objects.get_or_create(username=DEMO_LOGIN)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        for series in series_list:
            series.scorers.add(user)
            series.directors.add(user)  # the demo's events are run from their own pages
        self.stdout.write(f"Staff entry: log in at /staff/ as {DEMO_LOGIN!r}, password {DEMO_PASSWORD!r} (DEBUG only).")


def delete_series(series: Series) -> None:
    # Score history is PROTECTed everywhere, so it goes in dependency order.
    Stage.objects.filter(series=series).delete()  # its seeds and playoffs
    Playoff.objects.filter(series=series).delete()
    Round.objects.filter(series=series).delete()  # its tables and seats; games are PROTECTed by the tables
    Registration.objects.filter(series=series).delete()
    GameAudit.objects.filter(game__series=series).delete()
    Penalty.objects.filter(game__series=series).delete()
    Hand.objects.filter(game__series=series).delete()
    Game.objects.filter(series=series).delete()
    series.delete()
    Player.objects.filter(name__in=player_names() + [f"{first} {last}" for first, last in event_names()], seats=None,
                          registrations=None).delete()


def player_names() -> list[str]:
    return [f"{first} {last}" for first, last in zip(FIRST_NAMES, LAST_NAMES, strict=True)]


def event_names() -> list[tuple[str, str]]:
    """The event's 32 players and its substitute: other people than the
    league's (a league game is still being played, and nobody sits in two)."""
    shifted = LAST_NAMES[7:] + LAST_NAMES[:7]
    return [*zip(FIRST_NAMES, shifted, strict=True), ("Sam", "Reserve")]


def build_event(rng: random.Random) -> Series:
    """An event day: 32 registered players and a substitute, 8 rounds
    seated by the engine, rounds 1-3 played (a no-show in round 3 replaced by
    the substitute), round 4 published and waiting to start."""
    day = datetime.date(2025, 11, 15)
    series = Series.objects.create(
        name="Tenbou Open 2025", slug=EVENT_SLUG, kind=Series.Kind.TOURNAMENT,
        rules={"preset": "ema-2016", "overrides": {}}, start_date=day, end_date=day,
    )
    event.configure_event(series=series, rounds=EVENT_ROUNDS, seed=7, time_limit=90,
                               ending="one_more_hand", substitute_result="fixed")
    lines = ["number,first name,last name,EMA number,country,club,team,substitute"]
    for i, (first, last) in enumerate(event_names(), start=1):
        sub = i > 32
        lines.append(f"{i},{first},{last},{'' if sub or i % 7 == 0 else 10990000 + i},{'GB' if sub else COUNTRIES[i - 1]},"
                     f"{CLUBS[i % len(CLUBS)]},{'' if sub else TEAMS[i % len(TEAMS)]},{'yes' if sub else 'no'}")
    event.import_registrations(series=series, text="\n".join(lines) + "\n")
    rounds = event.seat_rounds(series=series).rounds
    event.check_in(registrations=series.registrations.all())
    for rnd in rounds[: EVENT_PLAYED + 1]:
        event.publish_round(round=rnd)
    for rnd in rounds[:EVENT_PLAYED]:
        rnd.refresh_from_db()
        started = timezone.make_aware(datetime.datetime.combine(day, datetime.time(9 + 2 * (rnd.number - 1), 30)))
        if rnd.number == EVENT_PLAYED:
            # A player did not come back after lunch: the substitute takes the seat.
            no_show = rnd.seats.get(table__number=5, wind=2)
            event.check_in(registrations=[no_show.registration], present=False)
            event.substitute(seat=no_show, substitute=series.registrations.get(is_substitute=True))
        for game in event.start_round(round=rnd, now=started):
            services.record_hands(game=game, first=1, hands=whole_game(rng, game))
            Game.objects.filter(pk=game.pk).update(
                finished_at=started + datetime.timedelta(minutes=rng.randrange(70, 95)))
    return series


def build(rng: random.Random) -> Series:
    start = datetime.date(2025, 9, 4)
    series = Series.objects.create(
        name="Tenbou Club League 2025", slug=SLUG, kind=Series.Kind.LEAGUE, rules={"preset": "ari-ari", "overrides": {}},
        start_date=start, end_date=start + datetime.timedelta(weeks=ROUNDS - 1), min_games=3,
    )
    players = []
    for i, name in enumerate(player_names()):
        player, _ = Player.objects.get_or_create(name=name, defaults={"club": CLUBS[i % len(CLUBS)]})
        players.append(player)
    specials = list(SPECIALS)
    for round_number in range(1, ROUNDS + 1):
        played_on = timezone.make_aware(datetime.datetime.combine(start + datetime.timedelta(weeks=round_number - 1),
                                                                  datetime.time(19, 0)))
        rng.shuffle(players)
        for table in range(TABLES):
            seated = players[4 * table : 4 * table + 4]
            game = services.start_game(series=series, players=seated, round_number=round_number,
                                       table=str(table + 1), started_at=played_on)
            last_round = round_number == ROUNDS
            if last_round and table < 2:
                # Two tables kept paper score sheets only.
                services.record_final_scores(game=game, scores=random_end_scores(rng), finished_at=played_on)
                continue
            first = [specials.pop(0)] if specials else []
            play_game(rng, game, first, stop_after=6 if last_round and table == TABLES - 1 else None)
            # Games end on club night, not when this command runs.
            Game.objects.filter(pk=game.pk, status=Game.Status.FINISHED).update(
                finished_at=played_on + datetime.timedelta(minutes=rng.randrange(70, 110))
            )
    late = series.games.filter(round_number=2, status=Game.Status.FINISHED).order_by("table").first()
    assert late is not None
    services.add_penalty(game=late, seat=2, points=-10000, reason="arrived 20 minutes late")
    return series


def play_game(rng: random.Random, game: Game, first: list[HandInput], *, stop_after: int | None = None) -> None:
    """Hands until the ruleset ends the game (or ``stop_after`` hands: a game still at the table)."""
    state = game.replay().result
    number = 1
    saved: list[sg.GameResult] = []

    def keep(done: services.HandSaved) -> None:
        saved.append(done.replayed)  # the game replayed by the save itself: no need to read it again

    while not state.finished and (stop_after is None or number <= stop_after):
        candidates = first if number == 1 and first else []
        for _ in range(20):
            hand = candidates.pop() if candidates else random_hand(rng, state)
            try:
                services.record_hand(game=game, number=number, hand=hand, then=keep)
                break
            except services.ServiceError:
                continue  # an impossible random hand; draw another
        else:
            raise RuntimeError(f"no valid hand found for {game} hand {number}")
        number += 1
        state = saved[-1]


def whole_game(rng: random.Random, game: Game) -> list[HandInput]:
    """Random hands until the ruleset ends the game, checked by the engine
    alone, so the game is stored in one batch (one replay, one insert)."""
    rules = game.ruleset()
    hands: list[HandInput] = []
    state = sg.replay(sg.GameRecord(rules=rules, hands=()))
    while not state.finished:
        for _ in range(20):
            hand = random_hand(rng, state)
            try:
                state = sg.replay(sg.GameRecord(rules=rules, hands=(*hands, hand)))
            except ScoringError:
                continue  # an impossible random hand; draw another
            hands.append(hand)
            break
        else:
            raise RuntimeError(f"no valid hand found for {game} hand {len(hands) + 1}")
    return hands


def random_hand(rng: random.Random, state: sg.GameResult) -> HandInput:
    assert state.next is not None
    scores = state.next.scores
    riichi = tuple(s for s in range(4) if scores[s] >= 1000 and rng.random() < 0.18)
    roll = rng.random()
    if roll < 0.45:
        winner, loser = rng.sample(range(4), 2)
        han, fu = rng.choice(RON_VALUES)
        return HandInput(Ron(loser=loser, wins=(Win(winner=winner, han=han, fu=fu),)), riichi=riichi)
    if roll < 0.75:
        han, fu = rng.choice(TSUMO_VALUES)
        return HandInput(Tsumo(winner=rng.randrange(4), han=han, fu=fu), riichi=riichi)
    if roll < 0.97:
        tenpai = tuple(sorted(set(riichi) | {s for s in range(4) if rng.random() < 0.35}))
        return HandInput(Draw(tenpai=tenpai), riichi=riichi)
    return HandInput(Abort(reason=AbortReason.KYUUSHU_KYUUHAI))


def random_end_scores(rng: random.Random) -> list[int]:
    scores = [rng.randrange(50, 450) * 100 for _ in range(3)]
    return [*scores, 100000 - sum(scores)]
