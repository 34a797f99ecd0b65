"""Build a believable club season through the services, so a newcomer sees
real standings at once: ``python manage.py demo_league [--reset]``."""

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
from league.models import AuditEntry, Game, Hand, Penalty, Player, Series
from scoring import game as sg
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
        if existing and not reset:
            self.stdout.write(f"The demo league is already there ({existing}); --reset builds it again.")
            self._demo_login(existing)
            return
        with transaction.atomic():
            if existing:
                delete_series(existing)
            series = build(random.Random(seed))
        games = series.games.count()
        hands = Hand.objects.filter(game__series=series).count()
        self.stdout.write(self.style.SUCCESS(f"Built {series}: {games} games, {hands} hands, {Player.objects.count()} players."))
        self._demo_login(series)

    def _demo_login(self, series: Series) -> None:
        """On a development set-up only, a scorer login so a newcomer can try
        the staff pages at once; never with DEBUG off (a known password)."""
        if not settings.DEBUG:
            return
        user, created = User.objects.get_or_create(username=DEMO_LOGIN)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        series.scorers.add(user)
        self.stdout.write(f"Staff entry: log in at /staff/ as {DEMO_LOGIN!r}, password {DEMO_PASSWORD!r} (DEBUG only).")


def delete_series(series: Series) -> None:
    # Score history is PROTECTed everywhere, so it goes in dependency order.
    AuditEntry.objects.filter(game__series=series).delete()
    Penalty.objects.filter(game__series=series).delete()
    Hand.objects.filter(game__series=series).delete()
    Game.objects.filter(series=series).delete()
    series.delete()
    Player.objects.filter(name__in=player_names(), seats=None).delete()


def player_names() -> list[str]:
    return [f"{first} {last}" for first, last in zip(FIRST_NAMES, LAST_NAMES, strict=True)]


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
    state = game.replay()
    number = 1
    while not state.finished and (stop_after is None or number <= stop_after):
        candidates = first if number == 1 and first else []
        for _ in range(20):
            hand = candidates.pop() if candidates else random_hand(rng, state)
            try:
                services.record_hand(game=game, number=number, hand=hand)
                break
            except services.ServiceError:
                continue  # an impossible random hand; draw another
        else:
            raise RuntimeError(f"no valid hand found for {game} hand {number}")
        number += 1
        state = game.replay()


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
