"""Tournaments as stored (rulebook, "Tournaments Lobby"): the queues players join, the
tournaments a full (or scheduled) queue becomes, their participants, each round's pairings with
the match that decides them, rating changes, rewards, and the monthly sprint.

A queue has one number and the tournament it starts another ("if eight players joined queue
13, a tournament numbered 392 might kick off"): ``TournamentQueue.pk`` and ``Tournament.pk``.
Both copy their rules from ``EventRules``, so a tournament keeps the rules it started with
whatever staff change in its queue afterwards.
"""

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from game.models import MatchStructure
from tournaments.rewards import InvalidRewardStructure, parse_reward_structure

# The rulebook's "Game Clock": each style's total, half for each player.
STYLE_CLOCK_MINUTES = {
    MatchStructure.SINGLE_GAME: 30,
    MatchStructure.BEST_OF_THREE: 60,
    MatchStructure.BEST_OF_FIVE: 90,
}
# The rulebook's titles' style ("Standard Constructed Match Play (2-3)").
STYLE_LABELS = {
    MatchStructure.SINGLE_GAME: "Single Game",
    MatchStructure.BEST_OF_THREE: "Match Play (2-3)",
    MatchStructure.BEST_OF_FIVE: "Match Play (3-5)",
}
# Scheduled queues open this long before their start (rulebook, "Scheduled Tournament Queues").
SCHEDULED_QUEUE_OPENS = timedelta(minutes=30)
# How a recurring schedule writes its days: 0 Monday to 6 Sunday (datetime.date.weekday).
WEEKDAY_NUMBERS = {str(day) for day in range(7)}


class TournamentKind(models.TextChoices):
    CONSTRUCTED = "constructed", "Constructed"
    SEALED = "sealed", "Sealed"


class TournamentStructure(models.TextChoices):
    SWISS = "swiss", "Swiss"
    SINGLE_ELIMINATION = "single_elimination", "Single Elimination"
    CUT_TO_TOP_8 = "cut_top8", "Cut to Top 8"


class EventRules(models.Model):
    """What a tournament is: its type, structure, style, size, entry fee and rewards."""

    title = models.CharField(max_length=80)
    kind = models.CharField(
        max_length=12, choices=TournamentKind.choices, default=TournamentKind.CONSTRUCTED
    )
    play_format = models.ForeignKey(
        "decks.PlayFormat",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Constructed: the format decks must be valid in (empty: Standard).",
    )
    structure = models.CharField(
        max_length=20, choices=TournamentStructure.choices, default=TournamentStructure.SWISS
    )
    style = models.PositiveSmallIntegerField(
        choices=MatchStructure.choices,
        default=MatchStructure.SINGLE_GAME,
        help_text="The matches' style (for a Cut to Top 8, its Swiss rounds').",
    )
    cut_style = models.PositiveSmallIntegerField(
        choices=MatchStructure.choices,
        null=True,
        blank=True,
        help_text="Cut to Top 8 only: the style of the top-8 bracket's matches when it differs "
        'from the Swiss rounds\' (rulebook, "Tournament Style": "or a combination of the '
        'two"). Empty: the same style throughout.',
    )
    max_players = models.PositiveIntegerField(
        default=8,
        help_text="On-demand: the tournament starts when this many have joined. "
        "Scheduled: shown only; any number may join.",
    )
    rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss rounds (for a Cut to Top 8, those before the cut). Empty: "
        "derived from the field, ceil(log2(players)).",
    )
    round_minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The longest a round lasts (the lobby's Time column). Empty: the round's "
        "style's game clock plus ten minutes.",
    )
    k = models.PositiveSmallIntegerField(
        default=16, help_text="The K value: how much each match moves the Player Rating."
    )
    pack_pool = models.ForeignKey(
        "collection.Product",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        limit_choices_to={"kind": "booster_pack"},
        help_text="The booster pack rewards are paid in (and a Sealed entry opens).",
    )
    reward_structure = models.CharField(
        max_length=60,
        blank=True,
        help_text="Packs per final place, e.g. 5-4-3-2-1* (see the tournament's info page).",
    )
    entry_passes = models.PositiveSmallIntegerField(
        default=1, help_text="Event passes taken from each player when the event begins."
    )
    sealed_starters = models.PositiveSmallIntegerField(
        default=0, help_text="Sealed: unopened starter decks each player brings."
    )
    sealed_boosters = models.PositiveSmallIntegerField(
        default=0, help_text="Sealed: unopened booster packs of the Pack Pool each player brings."
    )
    sealed_minutes = models.PositiveSmallIntegerField(
        default=10, help_text="Sealed: minutes in the Limited Deck Builder before round one."
    )
    sprint = models.BooleanField(
        default=False, help_text="A Sprint tournament: entrants earn Sprint points."
    )

    class Meta:
        abstract = True

    @property
    def bracket_style(self) -> int:
        """The style of a Cut to Top 8's bracket matches: its own, or the Swiss rounds'."""
        if self.structure == TournamentStructure.CUT_TO_TOP_8 and self.cut_style:
            return self.cut_style
        return self.style

    @property
    def styles_combined(self) -> bool:
        return self.bracket_style != self.style

    def round_style(self, *, in_bracket: bool) -> int:
        """The style of a round's matches: a Cut to Top 8's bracket rounds may have their own."""
        return self.bracket_style if in_bracket else self.style

    def round_length_at(self, style: int) -> timedelta:
        return timedelta(minutes=self.round_minutes or STYLE_CLOCK_MINUTES[style] + 10)

    @property
    def clock_minutes(self) -> int:
        return STYLE_CLOCK_MINUTES[self.style]

    @property
    def bracket_clock_minutes(self) -> int:
        return STYLE_CLOCK_MINUTES[self.bracket_style]

    @property
    def round_length(self) -> timedelta:
        """The longest a round lasts (a Cut to Top 8's Swiss rounds, with combined styles)."""
        return self.round_length_at(self.style)

    @property
    def bracket_round_length(self) -> timedelta:
        return self.round_length_at(self.bracket_style)

    @property
    def swiss_round_minutes(self) -> int:
        """Minutes a round lasts (a Cut to Top 8's Swiss rounds)."""
        return int(self.round_length.total_seconds()) // 60

    @property
    def bracket_round_minutes(self) -> int:
        return int(self.bracket_round_length.total_seconds()) // 60

    @property
    def time_label(self) -> str:
        """The lobby's Time column: minutes a round, the top 8's after a slash when they
        differ."""
        if self.bracket_round_minutes == self.swiss_round_minutes:
            return str(self.swiss_round_minutes)
        return f"{self.swiss_round_minutes} / {self.bracket_round_minutes}"

    @property
    def full_title(self) -> str:
        """The title with type, structure and style, as the lobby lists it."""
        return (
            f"{self.title} ({self.type_label}, {self.get_structure_display()}, {self.style_label})"
        )

    @property
    def type_label(self) -> str:
        if self.kind == TournamentKind.SEALED:
            return "Sealed"
        return f"{self.play_format.name if self.play_format else 'Standard'} Constructed"

    @property
    def style_label(self) -> str:
        """The style as the rulebook's titles write it; combined styles name both, e.g.
        "Single Game, top 8 Match Play (2-3)"."""
        if self.styles_combined:
            return f"{self.swiss_style_label}, top 8 {self.bracket_style_label}"
        return self.swiss_style_label

    @property
    def swiss_style_label(self) -> str:
        """The style of the matches (a Cut to Top 8's Swiss rounds)."""
        return STYLE_LABELS[self.style]

    @property
    def bracket_style_label(self) -> str:
        return STYLE_LABELS[self.bracket_style]

    @classmethod
    def rule_fields(cls) -> list[str]:
        return [field.name for field in EventRules._meta.get_fields()]

    def rules(self) -> dict:
        """The rules as field values, to copy into a queue or a tournament."""
        return {name: getattr(self, name) for name in self.rule_fields()}

    def clean(self):
        problems = self.problems()
        if problems:
            raise ValidationError(problems)

    def problems(self) -> dict[str, str]:
        """What staff must get right before a schedule or a queue is saved (the admin's forms
        call ``clean``), by field: a reward structure that tournaments.rewards can pay, the Pack
        Pool it and a Sealed event's boosters are drawn from, an on-demand field of two at
        least, and a cut style only where there is a cut."""
        errors: dict[str, str] = {}
        if self.reward_structure.strip():
            try:
                parse_reward_structure(self.reward_structure)
            except InvalidRewardStructure as error:
                errors["reward_structure"] = str(error)
            else:
                if self.pack_pool_id is None:
                    errors["pack_pool"] = (
                        "The reward structure pays booster packs of the Pack Pool: choose one, "
                        "or leave the reward structure empty."
                    )
        if self.kind == TournamentKind.SEALED and self.sealed_boosters and not self.pack_pool_id:
            errors["pack_pool"] = (
                "This Sealed event asks each player for booster packs of the Pack Pool: choose one."
            )
        if self.max_players is not None and self.max_players < 2:
            errors["max_players"] = "A tournament queue fills with two players at least."
        if self.cut_style and self.structure != TournamentStructure.CUT_TO_TOP_8:
            errors["cut_style"] = (
                "Only a Cut to Top 8 has a top-8 bracket with a style of its own: choose that "
                "structure, or leave the cut style empty."
            )
        return errors


class EventSchedule(EventRules):
    """A recurring scheduled tournament (the admin's schedule): on each of ``weekdays`` at
    ``start_time`` (UTC) a scheduled queue is created, two weeks ahead so the Events Calendar
    shows it."""

    weekdays = models.CharField(
        max_length=13, default="0,1,2,3,4", help_text="Days, 0 Monday to 6 Sunday: 0,1,2,3,4."
    )
    start_time = models.TimeField(help_text="UTC.")
    active = models.BooleanField(default=True)
    # Which of the site's default schedules this is (tournaments.services.defaults), so that
    # creating them again finds it, however staff have changed it; blank for staff's own.
    standard_key = models.CharField(max_length=40, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start_time", "title"]
        constraints = [
            models.UniqueConstraint(
                fields=["standard_key"],
                condition=~models.Q(standard_key=""),
                name="standard_schedule_once",
            ),
        ]

    def __str__(self):
        return f"{self.title} at {self.start_time:%H:%M} UTC on days {self.weekdays}"

    def problems(self) -> dict[str, str]:
        """Besides the rules': the days are numbers 0 to 6, each once."""
        errors = super().problems()
        days = [day.strip() for day in self.weekdays.split(",")]
        if not all(day in WEEKDAY_NUMBERS for day in days) or len(set(days)) != len(days):
            errors["weekdays"] = (
                "Write the days as numbers from 0 (Monday) to 6 (Sunday), separated by commas, "
                "each once: e.g. 0,1,2,3,4 for every weekday."
            )
        return errors


class QueueStatus(models.TextChoices):
    OPEN = "open", "Waiting"
    STARTED = "started", "Started"
    CANCELLED = "cancelled", "Cancelled"
    CLOSED = "closed", "Closed"


class TournamentQueue(EventRules):
    """A queue players join before a tournament begins. On demand: always there, it starts a
    tournament whenever ``max_players`` have joined and re-opens empty. Scheduled: listed from
    30 minutes before ``starts_at``, it starts one tournament at ``starts_at`` exactly."""

    on_demand = models.BooleanField(default=True)
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)
    schedule = models.ForeignKey(
        EventSchedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="queues"
    )
    status = models.CharField(
        max_length=10, choices=QueueStatus.choices, default=QueueStatus.OPEN, db_index=True
    )
    end_reason = models.CharField(max_length=200, blank=True)
    position = models.PositiveSmallIntegerField(default=0, help_text="Order in the lobby.")
    # Which of the site's standard on-demand queues this is (tournaments.services.defaults);
    # blank for staff's own and for a schedule's queues.
    standard_key = models.CharField(max_length=40, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "starts_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts_at"], name="scheduled_queue_once"),
            models.UniqueConstraint(
                fields=["standard_key"],
                condition=~models.Q(standard_key=""),
                name="standard_queue_once",
            ),
        ]

    def __str__(self):
        return f"Queue {self.pk}: {self.title}"

    @property
    def opens_at(self):
        return None if self.starts_at is None else self.starts_at - SCHEDULED_QUEUE_OPENS

    def problems(self) -> dict[str, str]:
        """Besides the rules': a scheduled queue has a start time, an on-demand one none."""
        errors = super().problems()
        if not self.on_demand and self.starts_at is None:
            errors["starts_at"] = "A scheduled queue needs its start time (UTC)."
        if self.on_demand and self.starts_at is not None:
            errors["starts_at"] = (
                "An on-demand queue starts when it is full: leave the start time empty, or "
                "untick On demand for a scheduled event."
            )
        return errors


class QueueEntry(models.Model):
    """A player waiting in a queue, with the deck they chose (Constructed). A player waits in
    one queue at most."""

    queue = models.ForeignKey(TournamentQueue, on_delete=models.CASCADE, related_name="entries")
    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    deck = models.ForeignKey(
        "decks.Deck", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["queue", "joined", "pk"]
        verbose_name_plural = "queue entries"

    def __str__(self):
        return f"{self.player} in queue {self.queue_id}"


class TournamentStatus(models.TextChoices):
    DECK_BUILDING = "building", "Deck building"
    PLAYING = "playing", "Playing"
    CONCLUDED = "concluded", "Concluded"
    CANCELLED = "cancelled", "Cancelled"


class Tournament(EventRules):
    """A tournament from its start to its conclusion; its pk is its number."""

    queue = models.ForeignKey(
        TournamentQueue,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    status = models.CharField(
        max_length=10,
        choices=TournamentStatus.choices,
        default=TournamentStatus.PLAYING,
        db_index=True,
    )
    # Decides round one's random pairing, so that it can be re-derived.
    seed = models.BigIntegerField()
    # The Swiss rounds it plays (before the cut, for a Cut to Top 8), resolved at the start.
    swiss_rounds = models.PositiveSmallIntegerField(default=0)
    round = models.PositiveSmallIntegerField(default=0)
    round_ends = models.DateTimeField(null=True, blank=True)
    building_ends = models.DateTimeField(null=True, blank=True)
    # The bracket's places (participant ids, null for an empty place) of the round being
    # played, in single elimination and after the cut.
    bracket = models.JSONField(null=True, blank=True)
    bracket_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    concluded = models.DateTimeField(null=True, blank=True, db_index=True)
    # When every reward was paid (the payout task's last step).
    paid = models.DateTimeField(null=True, blank=True)
    # A simulation (benchmarks/tournament_simulation.py): its rounds are paired, scored,
    # rated and paid like any, but no match is opened; the computer decides each pairing.
    simulated = models.BooleanField(default=False)

    class Meta:
        ordering = ["-started"]

    def __str__(self):
        return f"Tournament {self.pk}: {self.title}"


class Participant(models.Model):
    """A player in a tournament, with the deck they play and how they finished."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="participants"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="participations"
    )
    deck = models.ForeignKey(
        "decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deck_name = models.CharField(max_length=80, blank=True)
    # Constructed: the decklist as it was at the start, locked (rulebook, "Changing Decks
    # Between Rounds"). Sealed: read from the pool's deck at each round.
    decklist = models.JSONField(null=True, blank=True)
    pool = models.OneToOneField(
        "decks.LimitedPool",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="participant",
    )
    # 1 for the best seed: rating order at the start (elimination brackets).
    seed = models.PositiveIntegerField()
    rating_start = models.IntegerField()
    # Sealed: the player saved a valid deck and is ready for round one.
    ready = models.BooleanField(default=False)
    dropped = models.DateTimeField(null=True, blank=True)
    eliminated_round = models.PositiveSmallIntegerField(null=True, blank=True)
    final_rank = models.PositiveIntegerField(null=True, blank=True)
    packs = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="participant_once"),
        ]

    def __str__(self):
        return f"{self.player} in tournament {self.tournament_id}"

    @property
    def active(self) -> bool:
        return self.dropped is None and self.eliminated_round is None


class Decision(models.TextChoices):
    PLAYED = "played", "Played"
    TIME = "time", "Round time"
    BYE = "bye", "Bye"
    DROPPED = "dropped", "Opponent dropped"
    STAFF = "staff", "Decided by staff"
    SIMULATED = "computer", "Decided by the computer (a simulation)"


class Pairing(models.Model):
    """A match of a round (``second`` empty: ``first``'s bye), the game match that decides it,
    and its winner."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    match = models.OneToOneField(
        "game.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_pairing",
    )
    winner = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True)
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "table"], name="table_once"),
        ]

    def __str__(self):
        return f"Round {self.round}, table {self.table} of tournament {self.tournament_id}"


class RatingChange(models.Model):
    """One match's change to a player's rating (rulebook, "K"): the rating history."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="rating_changes")
    before = models.IntegerField()
    after = models.IntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "player"], name="rating_change_once"),
        ]

    def __str__(self):
        return f"{self.player}: {self.before} → {self.after}"


class SpecialReward(models.Model):
    """A reward staff give by hand after a tournament, within 48 hours of its conclusion
    (rulebook, "The Tournaments Conclusion")."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="special_rewards"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    product = models.ForeignKey("collection.Product", on_delete=models.PROTECT, related_name="+")
    quantity = models.PositiveSmallIntegerField(default=1)
    note = models.CharField(max_length=200, blank=True)
    # From the form that gave it: the same form sent twice gives once.
    token = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"{self.quantity} × {self.product} to {self.player}"


class SprintSettings(models.Model):
    """The month's Sprint rules, one row, set by staff."""

    points_for_entry = models.PositiveSmallIntegerField(default=1)
    points_per_win = models.PositiveSmallIntegerField(default=2)
    silver_level = models.PositiveIntegerField(default=60)
    bronze_level = models.PositiveIntegerField(default=30)

    class Meta:
        verbose_name_plural = "sprint settings"

    def __str__(self):
        return "Sprint settings"


class SprintScore(models.Model):
    """A player's Sprint points in one month (``month``: its first day)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sprint_scores"
    )
    month = models.DateField()
    points = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-month", "-points", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "month"], name="sprint_score_once"),
        ]

    def __str__(self):
        return f"{self.player}: {self.points} in {self.month:%B %Y}"


class SprintEntry(models.Model):
    """The Sprint points one tournament gave one player, written once."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="sprint_entries"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    points = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="sprint_entry_once"),
        ]

    def __str__(self):
        return f"{self.points} Sprint points to {self.player} in tournament {self.tournament_id}"


class MedalColor(models.TextChoices):
    GOLD = "gold", "Gold"
    SILVER = "silver", "Silver"
    BRONZE = "bronze", "Bronze"


class SprintMedal(models.Model):
    """A Sprint Winner Medal won in one month; a player's medals of a colour are counted."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sprint_medals"
    )
    month = models.DateField()
    color = models.CharField(max_length=6, choices=MedalColor.choices)
    points = models.PositiveIntegerField()
    awarded = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-month", "color"]
        constraints = [
            models.UniqueConstraint(fields=["player", "month"], name="sprint_medal_once"),
        ]

    def __str__(self):
        return f"{self.get_color_display()} Sprint Winner Medal, {self.month:%B %Y}: {self.player}"
