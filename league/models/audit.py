"""The trail of a game's changes (who, when, before and after) and the keys
that make a scorer's save idempotent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models.games import Game
from league.statements import Names, for_read, for_write, statement


class GameAudit(models.Model):
    """One change to a game: who, when, and the values before and after."""

    class Action(models.TextChoices):
        START = "start", _("Start game")
        RECORD_HAND = "record_hand", _("Record hand")
        CORRECT_HAND = "correct_hand", _("Correct hand")
        UNDO_HAND = "undo_hand", _("Undo last hand")
        FINISH = "finish", _("Finish game")
        REOPEN = "reopen", _("Reopen game")
        # Staff took back an early end (or agari-yame): no hand is removed.
        REOPEN_GAME = "reopen_game", _("Reopen game (staff)")
        RESETTLE = "resettle", _("Results recalculated")
        FINAL_SCORES = "final_scores", _("Record end scores")
        ADD_PENALTY = "add_penalty", _("Add penalty")
        CANCEL_PENALTY = "cancel_penalty", _("Cancel penalty")
        IMPORT_LOG = "import_log", _("Import log")
        # The table's sign-off of the result (league.services.signoff).
        SIGN_OFF = "sign_off", _("Result confirmed by a player")
        DISPUTE = "dispute", _("Result disputed by a player")
        RESOLVE = "resolve_dispute", _("Dispute resolved by staff")
        WITHDRAW_SIGNOFFS = "signoffs_withdrawn", _("Sign-offs withdrawn (result changed)")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="audit")
    action = models.CharField(max_length=20, choices=Action.choices)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # The username as it was, so the trail survives a deleted login.
    username = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        who = self.username or "system"
        return f"{self.get_action_display()} by {who} on {self.game}"

    @classmethod
    def latest(cls, game_id: int, count: int) -> list[GameAudit]:
        """The game's ``count`` latest entries, newest first (the model's
        ordering), as ``game.audit.all()[:count]`` gives them but with only the
        columns a list of changes shows (action, hand, who, when): one
        statement built once, not by the ORM on every staff page and every
        save's answer in place, where building the query cost more than
        running it. The other fields load on first use."""
        db = for_read(cls)
        return list(cls.objects.raw(_latest_sql(db), [game_id, count], using=db.alias))

    def get_action_display(self) -> str:
        """The action's label, as Django's own display gives it (the stored value
        when it is no choice). Django's builds a dict of every choice on each
        call, hashing each lazy label (a translation apiece): the staff game
        page and each save's answer in place list twelve entries."""
        try:
            return str(self.Action(self.action).label)
        except ValueError:
            return self.action


@statement
def _latest_sql(n: Names) -> str:
    cols = ", ".join(n.cols(GameAudit, "id", "game", "action", "hand_number", "username", "at"))
    at, pk, game = n.cols(GameAudit, "at", "id", "game")
    return (f"SELECT {cols} FROM {n.table(GameAudit)} WHERE {game} = %s "
            f"ORDER BY {at} DESC, {pk} DESC LIMIT %s")


class SaveKey(models.Model):
    """One scorer's entry (a hand, a correction, an undo), by the key the
    client made for it. A resubmitted key finds what was saved instead of
    saving it twice; ``entry`` is the digest of what was sent, so a reused
    key with other content is told apart from a resubmission."""

    class Action(models.TextChoices):
        RECORD = "record", _("Record hand")
        CORRECT = "correct", _("Correct hand")
        UNDO = "undo", _("Undo last hand")
        REOPEN = "reopen", _("Reopen game")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="save_keys")
    key = models.CharField(max_length=64)
    action = models.CharField(max_length=10, choices=Action.choices)
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    entry = models.CharField(max_length=64, help_text=_("SHA-256 of the entry as sent (scoring.digest)."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="entrykey_unique_key_per_game")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.hand_number or ''} ({self.key[:8]})"

    @classmethod
    def find(cls, game_id: int, key: str) -> SaveKey | None:
        """The game's entry under ``key`` (at most one: the constraint), as
        ``filter(game=..., key=...).first()`` finds it, by a statement built
        once: every save asks (issue 28), and the ORM's building of the query
        cost several times its running."""
        db = for_read(cls)
        found = list(cls.objects.raw(_save_key_sql(db)[0], [game_id, key], using=db.alias))
        return found[0] if found else None

    @classmethod
    def keep(cls, *, game_id: int, key: str, action: str, hand_number: int | None, entry: str,
             user_id: int | None) -> None:
        """Store an entry's key, as ``objects.create`` would (``at`` now; no
        signal listens), by a statement built once; the constraint's
        ``IntegrityError`` is raised as the ORM's insert raises it."""
        db = for_write(cls)
        with db.cursor() as cursor:
            cursor.execute(_save_key_sql(db)[1], [game_id, key, action, hand_number, entry, user_id,
                                                 db.ops.adapt_datetimefield_value(timezone.now())])


    @classmethod
    def claim(cls, *, game_id: int, key: str, action: str, hand_number: int | None, entry: str,
              user_id: int | None) -> SaveKey | None:
        """Store an entry's key unless the game has it already: None when it
        was new (now stored, as ``keep`` stores it), else the entry stored
        under it (as ``find`` gives it), left as it was. One statement where
        the database returns what it inserted (``ON CONFLICT DO NOTHING``):
        a save's lookup and insert of its key in one. Under the game's lock,
        so no other save of the game claims between."""
        db = for_write(cls)
        if not db.features.can_return_columns_from_insert:
            found = cls.find(game_id, key)
            if found is None:
                cls.keep(game_id=game_id, key=key, action=action, hand_number=hand_number, entry=entry,
                         user_id=user_id)
            return found
        with db.cursor() as cursor:
            cursor.execute(_save_key_sql(db)[2], [game_id, key, action, hand_number, entry, user_id,
                                                   db.ops.adapt_datetimefield_value(timezone.now())])
            if cursor.fetchone() is not None:
                return None
        return cls.find(game_id, key)


@statement
def _save_key_sql(n: Names) -> tuple[str, str, str]:
    """The key's lookup, its insert, and its insert unless the key is there."""
    cols = n.cols(SaveKey, "game", "key", "action", "hand_number", "entry", "user", "at")
    table, pk = n.table(SaveKey), n.col(SaveKey, "pk")
    find = f"SELECT {pk}, {', '.join(cols)} FROM {table} WHERE {cols[0]} = %s AND {cols[1]} = %s LIMIT 1"
    keep = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})"
    claim = f"{keep} ON CONFLICT ({cols[0]}, {cols[1]}) DO NOTHING RETURNING {pk}"
    return find, keep, claim
