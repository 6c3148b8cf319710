"""What players earned, as records beside the ledger (the ledger row holds the credits and
cards; these say what they were for), each finished match as it was counted, and each
player's progress on the day's quests."""

from django.conf import settings
from django.db import models


class EarningKind(models.TextChoices):
    WIN = "win", "Match win"
    QUEST = "quest", "Daily quest"
    TUTORIAL = "tutorial", "Tutorial completed"
    ALL_TUTORIALS = "all_tutorials", "Every tutorial completed"
    SCENARIO = "scenario", "Scenario won"
    SPRINT_MEDAL = "sprint_medal", "Sprint medal"
    TOURNAMENT_FINISH = "tournament_finish", "Tournament finish"


class Earning(models.Model):
    """One income paid to a player, once: its ledger operation carries the same unique
    reference (``win:<match>:<player>``, ``quest:<player>:<day>:<quest>``, ...)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="earnings"
    )
    kind = models.CharField(max_length=20, choices=EarningKind.choices)
    # The UTC day the income counts toward: a win's daily cap, a quest's day.
    day = models.DateField(db_index=True)
    credits = models.PositiveIntegerField(default=0)
    card = models.ForeignKey(
        "cards.Card", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    operation = models.OneToOneField(
        "collection.LedgerOperation", on_delete=models.PROTECT, related_name="earning"
    )
    note = models.CharField(max_length=200)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["player", "kind", "day"])]

    def __str__(self):
        return f"{self.player}: {self.note}"


class MatchTally(models.Model):
    """A finished match as counted for one of its players, once: whether it counted (the
    guards against farming), whether its win was paid, and what it added to the quests."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_tallies"
    )
    # The match's number (game.Match), kept as a plain number: the game app is above this one.
    match_number = models.PositiveIntegerField()
    day = models.DateField()
    won = models.BooleanField(default=False)
    win_paid = models.BooleanField(default=False)
    # Why the match earned nothing, or why its win was not paid; blank when all was paid.
    withheld = models.CharField(max_length=120, blank=True)
    # The people the player met (ids), for the daily cap of wins between two people.
    opponents = models.JSONField(default=list)
    facts = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name_plural = "match tallies"
        indexes = [models.Index(fields=["player", "day"])]
        constraints = [
            models.UniqueConstraint(fields=["player", "match_number"], name="match_tally_once")
        ]

    def __str__(self):
        return f"Match {self.match_number} for {self.player}"


class QuestProgress(models.Model):
    """A player's progress on one of a day's quests (collection/earnings/quests.py)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quest_progress"
    )
    day = models.DateField()
    quest = models.CharField(max_length=40)
    progress = models.PositiveIntegerField(default=0)
    goal = models.PositiveIntegerField()
    completed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-day", "player", "quest"]
        verbose_name_plural = "quest progress"
        constraints = [
            models.UniqueConstraint(fields=["player", "day", "quest"], name="quest_progress_once")
        ]

    def __str__(self):
        return f"{self.player}: {self.quest} on {self.day} ({self.progress}/{self.goal})"
