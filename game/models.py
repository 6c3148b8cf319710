"""Matches as stored: who plays, how, and each game's seed and action log (docs/design.md, "Live
play"). A game is its seed, its frozen decklists and its action log; the state kept beside
them is a snapshot that the log can always rebuild."""

from django.conf import settings
from django.db import models

from game.encounters import DEFAULT_DIFFICULTY, difficulty_named, encounter_named


class MatchStructure(models.IntegerChoices):
    """Rulebook, Casual Lobby, "Match Structure": how many games a match may last."""

    SINGLE_GAME = 1, "Single Game"
    BEST_OF_THREE = 3, "Best of Three"
    BEST_OF_FIVE = 5, "Best of Five"


class MatchStatus(models.TextChoices):
    OPEN = "open", "Waiting for a player"
    LAUNCHING = "launching", "Starting"  # both seats taken, on the Match Launch screen
    PLAYING = "playing", "In progress"
    ADJOURNED = "adjourned", "Adjourned"  # kept to be resumed later (/resume)
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class ComputerLevel(models.TextChoices):
    """How hard a Skirmish's computer opponent plays (game/ai/)."""

    EASY = "easy", "Easy"
    NORMAL = "normal", "Normal"
    HARD = "hard", "Hard"


class ComputerOpponent(models.Model):
    """One of Skirmish's four computer opponents, one per archetype, playing its starter deck
    (rulebook, "Skirmish"). Its account is a seat's player like anyone's, but never logs in."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="computer_opponent"
    )
    archetype = models.CharField(max_length=12)
    blurb = models.CharField(max_length=200)
    # Skirmish offers one opponent per archetype; the others are house players that staff
    # enter in tournaments (``manage.py computer_players``), and the bosses of the heroic
    # encounters.
    skirmish = models.BooleanField(default=True)
    # The boss of this heroic encounter (game.encounters): it plays nothing else.
    encounter = models.CharField(max_length=40, blank=True, db_index=True)

    class Meta:
        ordering = ["archetype"]
        constraints = [
            models.UniqueConstraint(
                fields=["archetype"],
                condition=models.Q(skirmish=True),
                name="skirmish_opponent_per_archetype",
            ),
            models.UniqueConstraint(
                fields=["encounter"], condition=~models.Q(encounter=""), name="boss_per_encounter"
            ),
        ]

    def __str__(self):
        return f"{self.player} ({self.archetype})"


# A match whose players agreed to a draw ends with this reason and no winner.
DRAWN_BY_AGREEMENT = "drawn by agreement"


class MatchOffer(models.TextChoices):
    """What a player may offer the other (rulebook, THE GAME SCREEN, "The Playmat")."""

    DRAW = "draw", "a draw"
    ADJOURN = "adjourn", "to adjourn"


class MatchQuerySet(models.QuerySet):
    def casual(self):
        """The matches of the Casual Lobby (and the Trade Lobby): made by a person there, not a
        Skirmish, a tutorial's, a scenario's or a tournament's match."""
        return self.filter(computer_level="", tutorial="", scenario=None, event=False)

    def skirmishes(self):
        """The Skirmishes (rulebook, "Skirmish"): a person against a computer opponent at a
        level; not a tutorial's, a scenario's or a tournament's match, which also seat one."""
        return self.filter(computer_level__gt="", tutorial="", scenario=None, event=False)


class Match(models.Model):
    """A casual match, from its creation in the Casual Lobby to its end. Its pk is the match
    number the Phase Meter shows."""

    title = models.CharField(max_length=60)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_matches"
    )
    status = models.CharField(
        max_length=12, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True
    )
    structure = models.PositiveSmallIntegerField(
        choices=MatchStructure.choices, default=MatchStructure.SINGLE_GAME
    )
    # Hashed like a login password; blank: anyone allowed may join.
    password = models.CharField(max_length=128, blank=True)
    allow_observers = models.BooleanField(default=True)
    friends_only = models.BooleanField(default=False)
    # A Guild-Only match (rulebook, Guilds, "Guild-Only Matches"): joined and observed only by
    # members of ``guild``, the host's guild when it was created. A guild disbanded since
    # leaves ``guild`` empty and the match closed to everyone but its players.
    guild_only = models.BooleanField(default=False)
    guild = models.ForeignKey(
        "guilds.Guild", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    light_vs_dark = models.BooleanField(default=False)
    # Creating a Match, "Number of Players": 2 for the normal game, 4 for the multiplayer
    # 2-versus-2 team game (MULTIPLAYER GAMES), whose seats' teams are ``seat % 2``; 5 for a
    # Raid, four heroes against the boss in the last seat (``team_of``).
    players = models.PositiveSmallIntegerField(default=2)
    # A Practice Game (rulebook, Casual Lobby, "Practice Games"): the players bring no deck;
    # the two fixed practice decks are dealt to them at random when it begins.
    practice = models.BooleanField(default=False)
    # The game clock (rulebook, Casual Lobby, "Time Limit"): the total in seconds, half for
    # each player, one clock for every game of the match; None: no time limit. Whose clock
    # runs and since when, so that any process can tell whose flag fell.
    time_limit = models.PositiveIntegerField(null=True, blank=True)
    clock_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_since = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches_won",
    )
    end_reason = models.CharField(max_length=200, blank=True)
    # A Challenge from the User List: only this player may join.
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges",
    )
    # The offer standing, the seat that made it and, in a team game, the seats that have
    # agreed to it so far: it is agreed once every other player still in the game has.
    offer = models.CharField(max_length=8, choices=MatchOffer.choices, blank=True)
    offer_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    offer_agreed = models.JSONField(default=list, blank=True)
    # Between two games of a match: the seat that lost the last game chooses who goes first
    # in the next, which begins when they choose or at ``next_game_at``.
    first_chooser = models.PositiveSmallIntegerField(null=True, blank=True)
    next_game_at = models.DateTimeField(null=True, blank=True)
    # A tournament's match (tournaments.Pairing): no draw or adjourn offers, nobody else may
    # join, and a player away for MATCH_EVENT_FORFEIT_SECONDS forfeits the game.
    event = models.BooleanField(default=False)
    # A Skirmish: the level its computer opponent plays at; blank for a match of two people.
    computer_level = models.CharField(max_length=6, choices=ComputerLevel.choices, blank=True)
    # A tutorial's match (game.tutorials): the tutorial's slug, and how many of its dialogs
    # the player has read.
    tutorial = models.CharField(max_length=40, blank=True)
    dialogs_read = models.PositiveSmallIntegerField(default=0)
    # A scenario's match (game.scenarios): the scenario's number; its dialogs are counted in
    # ``dialogs_read`` as a tutorial's are.
    scenario = models.PositiveSmallIntegerField(null=True, blank=True)
    # A Raid's match (Play Format *Raid*; game.encounters): the heroic encounter's slug. Its
    # boss is a computer in the last seat; ``dialogs_read`` counts the encounter's dialogs told
    # so far, each told to every hero when its moment comes.
    encounter = models.CharField(max_length=40, blank=True)
    # A Raid's difficulty (game.encounters.DIFFICULTIES): how hard its boss plays.
    difficulty = models.CharField(max_length=10, blank=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "matches"

    def __str__(self):
        return f"Match {self.pk}: {self.title}"

    @property
    def needs_password(self) -> bool:
        return bool(self.password)

    @property
    def skirmish(self) -> bool:
        """Whether this is a Skirmish (``MatchQuerySet.skirmishes``)."""
        return (
            bool(self.computer_level)
            and not self.tutorial
            and self.scenario is None
            and not self.event
        )

    @property
    def team_game(self) -> bool:
        """The 2-versus-2 team game (MULTIPLAYER GAMES)."""
        return self.players > 2

    @property
    def raid(self) -> bool:
        """A heroic encounter: four heroes against a computer boss (MULTIPLAYER GAMES)."""
        return bool(self.encounter)

    @property
    def boss_seat(self) -> int | None:
        return self.players - 1 if self.encounter else None

    @property
    def raid_name(self) -> str:
        """The name of the Raid's heroic encounter, as the Create window lists it."""
        return encounter_named(self.encounter).name if self.encounter else ""

    @property
    def raid_difficulty(self) -> str:
        """The name of the Raid's difficulty, as the Create window lists it."""
        if not self.encounter:
            return ""
        return difficulty_named(self.difficulty or DEFAULT_DIFFICULTY).name

    def team_of(self, seat: int) -> int:
        """The team of ``seat``: a Raid's heroes are the first, its boss the second; a 2-versus-2
        game's seats alternate teams in turn order; a two-player game's seat is its team."""
        if self.encounter:
            return int(seat == self.boss_seat)
        return seat % 2

    @property
    def computers_may_play(self) -> bool:
        """Whether a computer may hold a seat: a Skirmish's (or a tutorial's, or a house
        player's in a tournament), or one the host of a team game filled with a computer."""
        return bool(self.computer_level) or self.team_game


class Side(models.TextChoices):
    """Light versus dark (rulebook, Casual Lobby): Jedi and Rebel against Sith and Imperial."""

    LIGHT = "light", "Light side"
    DARK = "dark", "Dark side"


class MatchSeat(models.Model):
    """A player's seat in a match, with the decklist they brought, frozen when they sat.
    ``seat`` is the engine's seat, in turn order; its team is ``Match.team_of(seat)``."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_seats"
    )
    deck = models.ForeignKey(
        "decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deck_name = models.CharField(max_length=60)
    # The name the seat plays under, when not its player's own: a tutorial's or a scenario's
    # computer opponent is the one the lesson or the story names, not a Skirmish opponent.
    playing_as = models.CharField(max_length=60, blank=True)
    side = models.CharField(max_length=5, choices=Side.choices)
    archetype = models.CharField(max_length=12)
    decklist = models.JSONField()
    # Each title of the decklist's cards with its face: [set number, card number].
    faces = models.JSONField(default=dict)
    ready = models.BooleanField(default=False)
    # The player has left the team game (MULTIPLAYER GAMES, "Leaving the Game": conceded, his
    # flag fell, or he lost while his teammate plays on): he may play another match meanwhile.
    left_game = models.BooleanField(default=False)
    # A Raid's hero: how many of the encounter's dialogs told so far he has read.
    dialogs_read = models.PositiveSmallIntegerField(default=0)
    # Time left on this player's clock when it last stopped (timed matches).
    clock_left_ms = models.IntegerField(null=True, blank=True)
    # The channel names of the player's sockets on the match's page, and since when they
    # have had none (game/services/attendance.py).
    sockets = models.JSONField(default=list)
    away_since = models.DateTimeField(null=True, blank=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_once"),
            models.UniqueConstraint(fields=["match", "player"], name="match_player_once"),
        ]

    def __str__(self):
        return f"{self.player} in seat {self.seat} of match {self.match_id}"

    @property
    def name(self) -> str:
        """The seat's player as the match shows them: on the playmat, in its log and windows."""
        return self.playing_as or self.player.username

    @property
    def team_label(self) -> str:
        """The seat's team as the Match Info window names it."""
        if self.match.raid:
            return "the boss" if self.seat == self.match.boss_seat else "a hero"
        return f"team {self.match.team_of(self.seat) + 1}"


class MatchObserver(models.Model):
    """A socket open on a match's page by someone who does not play it: the Casual Lobby's
    medallion of a match in progress counts the players watching (rulebook, Casual Lobby,
    "Joining a Match": "Another number will appear below this if the match has observers").
    One row a socket, so a second tab counts once and closing one of two leaves the count
    alone; the row goes with its socket (game/services/attendance.py)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="observers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches_observed"
    )
    channel_name = models.CharField(max_length=200, unique=True)
    opened = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user} observing match {self.match_id}"


class Game(models.Model):
    """One game of a match: its seed (kept secret until the game ends, its hash published at
    the start), the decklists by seat, the number of actions of its log applied, and a
    snapshot of its state after the first ``state_applied`` of them (the state is the
    snapshot with the later actions replayed: ``game.selectors.game_state``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    # sha256 of "<salt>:<seed>": the salt keeps the seed from being found by trying them all.
    seed_salt = models.CharField(max_length=32)
    seed_hash = models.CharField(max_length=64)
    decklists = models.JSONField()
    # The seat the match chose to go first; None: chosen at random by the seed.
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The engine's JSON of the state after ``state_applied`` actions (game.engine.state.to_json),
    # stored every few actions and when the game ends.
    state = models.TextField()
    state_applied = models.PositiveIntegerField(default=0)
    applied = models.PositiveIntegerField(default=0)
    # The events of the setup (game.engine.events), shown to each viewer through ``redact``.
    opening_events = models.JSONField(default=list)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    win_reason = models.CharField(max_length=200, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)
    # When the computer opponent that decides next is due to act, its pause over; None when a
    # person decides. Stored with the decision that made it due, so that a turn the process
    # handing it off never plays (a management command's ends first) is found and played by
    # the periodic sweep, whatever process started the game.
    computer_due = models.DateTimeField(null=True, blank=True, db_index=True)
    # The tutorial or scenario whose position the game began from (game.tutorials, a
    # tutorial's slug; game.scenarios, "scenario-<number>"), instead of a shuffle of the
    # decklists; blank for a game set up by the rules.
    position = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_once"),
        ]

    def __str__(self):
        return f"Game {self.number} of match {self.match_id}"


class GameAction(models.Model):
    """One accepted action of a game's log, in the order applied (``number`` from 1)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # What the action did (game.engine.events), shown to each viewer through ``redact``.
    events = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="game_action_once"),
        ]

    def __str__(self):
        return f"Action {self.number} of {self.game}"


class MatchChatKind(models.TextChoices):
    SAY = "say", "Said"
    SAY_TO = "say_to", "Said to a player (/st)"
    WHISPER = "whisper", "Whispered (/whisper)"
    NOTICE = "notice", "Told by the match"  # offers, answers, absences: "* Carol is away."


class MatchChatLine(models.Model):
    """A line of player chat in a match's Chat Log (rulebook, THE GAME SCREEN, "Talking to
    Other Players"), from a player or an observer."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_lines")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_chat_lines"
    )
    kind = models.CharField(max_length=8, choices=MatchChatKind.choices)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="match_chat_lines_received",
    )
    text = models.CharField(max_length=500)
    sent_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["sent_at", "pk"]

    def __str__(self):
        return f"{self.sender}: {self.text[:40]}"


class QuickJoinSettings(models.Model):
    """The kind of match a player's Quick Join looks for, or creates (rulebook, Casual Lobby,
    "Quick Join")."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quick_join"
    )
    structure = models.PositiveSmallIntegerField(
        choices=MatchStructure.choices, default=MatchStructure.SINGLE_GAME
    )
    time_limit = models.PositiveIntegerField(null=True, blank=True)
    deck = models.ForeignKey(
        "decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name_plural = "quick join settings"

    def __str__(self):
        return f"Quick Join settings of {self.player}"


class TutorialProgress(models.Model):
    """A tutorial a player has won (rulebook, "Tutorials"), once; the map shows it done."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tutorials_done"
    )
    tutorial = models.CharField(max_length=40)
    match = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True)
    completed = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "completed"]
        verbose_name_plural = "tutorial progress"
        constraints = [
            models.UniqueConstraint(fields=["player", "tutorial"], name="tutorial_done_once"),
        ]

    def __str__(self):
        return f"{self.player} completed the tutorial {self.tutorial}"


class ScenarioProgress(models.Model):
    """A scenario a player has won (rulebook, "Scenarios"), once: it opens the next scenario
    of its chapter, and its reward card was granted with it."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios_won"
    )
    scenario = models.PositiveSmallIntegerField()
    match = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True)
    won = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "scenario"]
        verbose_name_plural = "scenario progress"
        constraints = [
            models.UniqueConstraint(fields=["player", "scenario"], name="scenario_won_once"),
        ]

    def __str__(self):
        return f"{self.player} won Scenario {self.scenario}"
