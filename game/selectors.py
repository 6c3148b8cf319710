"""Reads of matches: the decklist a saved deck brings to a match, and the games as each seat
and each observer may see them."""

import copy
import functools
import hashlib
import json
import math
import pickle
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, OuterRef, Prefetch, Q, Subquery
from django.template.loader import render_to_string
from django.utils import timezone

from collection.cards import selectors as card_selectors
from collection.cards.models import PLAYER_AVATAR_SET_NUMBER, Card, CardSet
from collection.cards.services import printed_values, set_files
from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, DeckCard, PlayFormat
from game import fragments
from game.cues import playmat_cues
from game.encounters import ENCOUNTER_FACE, ENCOUNTERS, Encounter, encounter_named
from game.engine import api as engine
from game.engine.decklists import card_definition, load_set, starter_decklist, starter_decklists
from game.engine.events import WIN_REASONS
from game.engine.setup import created_titles
from game.engine.state import State, definition
from game.labels import action_label, damage_batch_label, exert_all_label, told_apart
from game.live_states import live_states, pack_state, packed_here, unpack_state
from game.models import (
    DRAWN_BY_AGREEMENT,
    ComputerOpponent,
    Game,
    Match,
    MatchChatKind,
    MatchChatLine,
    MatchOffer,
    MatchSeat,
    MatchStatus,
    QuickJoinSettings,
    ScenarioProgress,
    TutorialProgress,
)
from game.scenarios import (
    CHAPTERS,
    SCENARIOS,
    Scenario,
    next_in_chapter,
    scenario_numbered,
    scenario_of_position,
)
from game.tutorials import PLAYER as TUTORIAL_PLAYER
from game.tutorials import TUTORIALS, Dialog, Tutorial, tutorial_named
from guilds.models import Guild
from guilds.selectors import guild_id_of, guild_member_ids, guild_of
from tcgsite.accounts.models import CardSize, Preferences, User
from tcgsite.accounts.selectors import ignored_ids, is_friend, is_ignored
from tcgsite.errors import UserError
from tcgsite.lobbies.models import Connection, Presence
from tcgsite.lobbies.places import Lobby, Place, appears_in

LIGHT_ARCHETYPES = frozenset({"jedi", "rebel"})


def card_fields(card: Card) -> dict:
    """The printed fields of a card, as the engine reads them."""
    return card_definition(
        {
            "title": card.title,
            "type": card.card_type,
            "archetype": card.archetype,
            "traits": list(card.traits),
            "restriction": card.restriction,
            "cost": card.cost,
            "attack": card.attack,
            "defense": card.defense,
            "damage_bonus": card.damage_bonus,
            "health": card.health,
            "level": card.level,
            "rules": card.rules,
        }
    )


def deck_decklist(*, deck: Deck) -> dict:
    """The engine's decklist of a saved deck: its avatar, quest pile and deck, one dict per
    copy, and the cards its cards can create."""
    avatar, quests, cards = None, [], []
    for entry in deck.entries.select_related("card"):
        fields = card_fields(entry.card)
        if fields["type"] == "avatar":
            avatar = fields
        elif fields["type"] == "quest":
            quests += [fields] * entry.quantity
        else:
            cards += [fields] * entry.quantity
    titles = set()
    for fields in [avatar, *quests, *cards]:
        if fields is not None:
            titles |= created_titles(fields)
    created = [
        card_fields(card)
        for card in Card.objects.filter(title__in=titles, creator=None).order_by("title", "pk")
    ]
    unique_created = list({fields["title"]: fields for fields in created}.values())
    return {"avatar": avatar, "quests": quests, "deck": cards, "created": unique_created}


def deck_faces(*, deck: Deck) -> dict[str, list[int]]:
    """Each title of a deck's cards with the face to draw it with: [set number, number]."""
    return {
        entry.card.title: [entry.card.card_set.number, entry.card.number]
        for entry in deck.entries.select_related("card__card_set")
    }


# The two fixed decks of every Practice Game: the first set's Jedi and Sith starter decks.
PRACTICE_ARCHETYPES = ("jedi", "sith")


def practice_decklists() -> dict[str, dict]:
    """The decklists of the two practice decks, by archetype."""
    set_data = load_set(set_files()[0])
    return {archetype: starter_decklist(set_data, archetype) for archetype in PRACTICE_ARCHETYPES}


def starter_decklist_of(archetype: str) -> dict:
    """The decklist of the first set's starter deck of ``archetype``: a computer opponent's.
    A copy of the one read once per process, which its caller may change."""
    return copy.deepcopy(_first_set_starter_decklists()[archetype])


def starter_decklists_all() -> dict[str, dict]:
    """Every starter deck of the first set, by archetype."""
    return dict(_first_set_starter_decklists())


def tutorial_cards() -> dict[str, dict]:
    """The printed fields of every card of the first set, by title: what the tutorials'
    positions are made of."""
    return dict(_first_set_cards())


@functools.cache
def _first_set_cards() -> dict[str, dict]:
    return {card["title"]: card_definition(card) for card in load_set(set_files()[0])["cards"]}


def game_beginning(game: Game, events: list[dict] | None = None) -> State:
    """The state ``game`` began from, the setup's events added to ``events``: its tutorial's
    position, its scenario's for the player's decklist, or its decklists dealt by its seed."""
    scenario = scenario_of_position(game.position) if game.position else None
    if scenario is not None:
        return scenario.beginning(
            tutorial_cards(), starter_decklists_all(), game.seed, game.decklists[0]
        )
    if game.position:
        return tutorial_of(game.position).beginning(tutorial_cards(), game.seed)
    return engine.new_game(game.decklists, game.seed, events, first=game.first_seat)


def raid_choices() -> tuple[Encounter, ...]:
    """The heroic encounters a Raid may play, as the Create window lists them by name
    (Creating a Match, "Number of Players")."""
    return ENCOUNTERS


def guide_of(match: Match) -> Tutorial | Scenario | None:
    """The tutorial or scenario ``match`` is played in: its victory conditions, goal and
    dialogs; None for a game of the rules alone."""
    if match.tutorial:
        return tutorial_of(match.tutorial)
    if match.scenario is not None:
        return scenario_numbered(match.scenario)
    return None


def tutorial_of(slug: str) -> Tutorial:
    tutorial = tutorial_named(slug)
    if tutorial is None:
        raise ValueError(f"there is no tutorial {slug!r}")
    return tutorial


@functools.cache
def _first_set_starter_decklists() -> dict[str, dict]:
    # Read once per process: the computer opponent asks for these at every decision, and
    # parsing the set file costs more than the decision itself. The set files do not change
    # while the site runs (staff edit cards in the database, not in these files).
    return starter_decklists(set_files()[0])


def computer_opponents() -> list[ComputerOpponent]:
    """Skirmish's computer opponents, one per archetype, with their accounts."""
    return list(
        ComputerOpponent.objects.filter(skirmish=True).select_related("player__preferences")
    )


def computer_seats(match: Match) -> set[int]:
    """The seats of ``match`` that a computer opponent plays."""
    if not match.computers_may_play:
        return set()
    return set(
        match.seats.filter(player__computer_opponent__isnull=False).values_list("seat", flat=True)
    )


def card_faces(*, titles: set[str]) -> dict[str, list[int]]:
    """The face of each printed card of these titles: [set number, number]."""
    cards = Card.objects.filter(title__in=titles, creator=None).select_related("card_set")
    return {card.title: [card.card_set.number, card.number] for card in cards.order_by("-pk")}


def encounter_faces(encounter: Encounter) -> dict[str, list]:
    """The face address of each card of the boss's own in ``encounter``, by title."""
    return {
        card["title"]: [ENCOUNTER_FACE, encounter.slug, index]
        for index, card in enumerate(encounter.boss_only_cards)
    }


def match_faces(match: Match, seats: Iterable[MatchSeat]) -> dict[str, list]:
    """The face address of each title of the match's cards, by title. A player-made avatar's
    own address shows it to its creator alone (``Card.objects.visible_to``); in a match it is
    in play, public to everyone who sees the match, so it is drawn through the match's
    address (``match_card_face``), which asks the rule of watching and replays."""
    faces: dict[str, list] = {}
    for each in seats:
        faces.update(each.faces)
    return {
        title: [fragments.MATCH_FACE, match.pk, face[1]]
        if face[0] == PLAYER_AVATAR_SET_NUMBER
        else face
        for title, face in faces.items()
    }


def match_card_face(*, match_id: int, number: int, viewer: User, size: str) -> str | None:
    """The face of the player-made avatar numbered ``number`` that a seat of match
    ``match_id`` plays, for a viewer who may watch the match or its replay; None otherwise,
    as for a card that does not exist."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    seats = list(match.seats.only("player_id", "faces"))
    refusal = replay_refusal(
        match=match, seats=seats, viewer=viewer, viewer_guild_id=_guild_asked(match, viewer)
    )
    played = any([PLAYER_AVATAR_SET_NUMBER, number] in seat.faces.values() for seat in seats)
    if refusal or not played:
        return None
    card = (
        Card.objects.select_related("card_set")
        .filter(card_set__number=PLAYER_AVATAR_SET_NUMBER, number=number)
        .first()
    )
    return None if card is None else card_selectors.card_face(card=card, size=size)


def encounter_card_face(*, slug: str, index: int, size: str) -> str | None:
    """The face of the card of the boss's own numbered ``index`` in the encounter ``slug``,
    drawn as a catalog card's is, at ``size``; None if there is no such card."""
    try:
        encounter = encounter_named(slug)
    except KeyError:
        return None
    cards = encounter.boss_only_cards
    if not 0 <= index < len(cards):
        return None
    card = Card(
        card_set=CardSet(number=1, code="HE", name=f"Heroic encounter: {encounter.name}"),
        number=index + 1,
        **printed_values(cards[index]),
    )
    return card_selectors.card_face(card=card, size=size)


def side_of(archetype: str) -> str:
    """Light (Jedi, Rebel) or dark (Sith, Imperial)."""
    return "light" if archetype in LIGHT_ARCHETYPES else "dark"


def open_matches(*, viewer: User) -> list[Match]:
    """The matches waiting for a player that ``viewer`` may see in the Casual Lobby: not those
    of a host who ignores them, nor friends-only ones of a host whose friend they are not."""
    ignoring = User.ignored.through.objects.filter(to_user_id=viewer.pk).values("from_user_id")
    befriending = User.friends.through.objects.filter(to_user_id=viewer.pk).values("from_user_id")
    guild_id = guild_id_of(user_id=viewer.pk)
    in_guild = Q(guild_only=True, guild_id=guild_id) if guild_id is not None else Q(pk__in=[])
    return list(
        Match.objects.filter(status=MatchStatus.OPEN)
        .exclude(host__in=ignoring)
        .filter(Q(friends_only=False) | Q(host=viewer) | Q(host__in=befriending))
        .filter(Q(guild_only=False) | Q(host=viewer) | in_guild)
        .filter(Q(challenged=None) | Q(challenged=viewer) | Q(host=viewer))
        .annotate(seat_count=Count("seats"))
        .order_by("pk")
    )


def match_info_refusal(*, match: Match, viewer: User) -> str | None:
    """Why ``viewer`` may not read ``match``'s Match Info (its set-up, who plays it with which
    deck), or None if they may. While it waits for players, those who may join it may
    (``match_join_refusal``); once begun, those who may watch it or its replay
    (``replay_refusal``): a match that allows no observers (a scenario, a tutorial, a private
    team game or Raid) is its players' and staff's alone."""
    seats = match.seats.all()
    if match.status == MatchStatus.OPEN and not viewer.is_staff:
        if any(seat.player_id == viewer.pk for seat in seats):
            return None
        return match_join_refusal(match=match, player=viewer)
    return replay_refusal(
        match=match, seats=seats, viewer=viewer, viewer_guild_id=_guild_asked(match, viewer)
    )


def in_lobby(player: User, lobby: str) -> bool:
    """Whether ``player`` is listed in ``lobby``'s User List now."""
    presence = Presence.objects.filter(user=player).first()
    return presence is not None and appears_in(lobby, room=presence.room, place=presence.place)


def resumable_matches(*, player: User, lobby: str) -> list[Match]:
    """``player``'s adjourned matches whose opponents are all in ``lobby`` now (rulebook,
    "/resume"), newest first."""
    adjourned = (
        Match.objects.filter(status=MatchStatus.ADJOURNED, seats__player=player)
        .prefetch_related("seats__player")
        .order_by("-pk")
    )
    return [
        match
        for match in adjourned
        if all(
            in_lobby(seat.player, lobby)
            for seat in match.seats.all()
            if seat.player_id != player.pk and not match.computer_level
        )
    ]


def watchable_match(*, player: User) -> Match | None:
    """The match ``player`` is playing now, if it allows observers."""
    return (
        Match.objects.filter(seats__player=player, status=MatchStatus.PLAYING, allow_observers=True)
        .order_by("-pk")
        .first()
    )


def quick_join_settings(*, player: User) -> QuickJoinSettings:
    """The player's Quick Join Settings; unsaved defaults (a Single Game, no time limit, the
    last deck used) until they save their own."""
    saved = QuickJoinSettings.objects.filter(player=player).select_related("deck").first()
    return saved or QuickJoinSettings(player=player)


# The lobbies whose pages show the waiting matches, with Create.
MATCH_LOBBIES = (Lobby.CASUAL, Lobby.TRADE)


def running_matches(*, viewer: User) -> list[Match]:
    """The casual matches in progress that ``viewer`` plays in or may observe (``may_watch``'s
    rule: not one that allows no observers, a Guild-Only one for its guild's members only),
    oldest first, each with its seats' players, ``observer_count`` and ``game_number``: the
    Casual Lobby's medallions of matches in progress."""
    guild_id = guild_id_of(user_id=viewer.pk)
    return [
        match
        for match in _running().filter(status=MatchStatus.PLAYING).order_by("pk")
        if any(seat.player_id == viewer.pk for seat in match.seats.all())
        or watch_now_refusal(match=match, viewer_guild_id=guild_id) is None
    ]


def running_match(*, match_id: int) -> Match | None:
    """One casual match as its medallion of a match in progress shows it (``running_matches``),
    whatever its status."""
    return _running().filter(pk=match_id).first()


def live_sockets():
    """The channel names of the sockets whose presence connection is alive: their page is
    open, on a web process that still beats."""
    expiry = timedelta(seconds=settings.LOBBY_PRESENCE_EXPIRY_SECONDS)
    return Connection.objects.filter(closed_at=None, seen_at__gte=timezone.now() - expiry).values(
        "channel_name"
    )


def _running():
    return (
        Match.objects.casual()
        .annotate(
            # A player watching in two tabs counts once; a socket whose process died, not at all.
            observer_count=Count(
                "observers__user",
                distinct=True,
                filter=Q(observers__channel_name__in=live_sockets()),
            ),
            game_number=Subquery(
                Game.objects.filter(match=OuterRef("pk")).order_by("-number").values("number")[:1]
            ),
        )
        .prefetch_related(
            Prefetch(
                "seats",
                # A medallion names the seats' players: their decklists (a few kilobytes of
                # JSON each) would be read and decoded for every match on every Casual Lobby
                # page for nothing.
                queryset=MatchSeat.objects.select_related("player")
                .defer("decklist", "faces", "sockets")
                .order_by("seat"),
            )
        )
    )


def match_watchers(match: Match) -> set[int] | None:
    """The players besides its own who may observe ``match`` (None: everybody), by
    ``observer_refusal``'s rule: nobody where it allows no observers, the members of its guild
    where it is Guild-Only."""
    if observer_refusal(match=match, viewer_guild_id=None) is None:
        return None
    if (
        match.guild_id is not None
        and observer_refusal(match=match, viewer_guild_id=match.guild_id) is None
    ):
        return set(guild_member_ids(guild_id=match.guild_id))
    return set()


def casual_running_panel(viewer: User) -> str:
    """The Casual Lobby's matches in progress (rulebook, Casual Lobby: "An area showing
    matches in progress"), each with Observe Match and its observers."""
    return render_to_string(
        "game/_running_panel.html",
        {"medallions": fragments.running_medallions(running_matches(viewer=viewer), viewer.pk)},
    )


def casual_panel(viewer: User) -> str:
    """The Casual Lobby's matches area: Create, and the Match Medallions."""
    return render_to_string(
        "game/_casual_panel.html",
        {"medallions": fragments.medallions(open_matches(viewer=viewer)), "user": viewer},
    )


def play_panel(viewer: User) -> str:
    """The Main Lobby's Play entry: the Tutorials first for a player who has not won them all,
    then Skirmish and the Casual Lobby."""
    places = tutorials_map(player=viewer)
    completed = sum(place.completed for place in places)
    return render_to_string(
        "game/_play_panel.html",
        {"completed": completed, "tutorials": len(places), "learning": completed < len(places)},
    )


def player_decks(*, player: User) -> list[tuple[Deck, bool]]:
    """The player's decks with whether each is valid in the Standard format, the deck used
    last first (rulebook: "The Deck Selection defaults to the last deck you used")."""
    standard = PlayFormat.objects.filter(slug="standard").first()
    last = (
        MatchSeat.objects.filter(player=player, deck__isnull=False)
        .order_by("-joined")
        .values_list("deck_id", flat=True)
        .first()
    )
    decks = sorted(player.decks.all(), key=lambda deck: (deck.pk != last, deck.name.lower()))
    return [
        (
            deck,
            standard is None or deck_selectors.deck_validate(deck=deck, play_format=standard).valid,
        )
        for deck in decks
    ]


def match_info(*, match_id: int) -> Match | None:
    return (
        Match.objects.select_related("host")
        .prefetch_related("seats__player")
        .filter(pk=match_id)
        .first()
    )


def match_join_refusal(*, match: Match, player: User) -> str | None:
    """Why ``player`` may not take a seat of ``match`` (or see it waiting: its medallion, its
    Match Info), or None if they may: its host ignores them, it is for the host's friends or
    guild, or it is the host's challenge to someone else."""
    host = match.host
    if is_ignored(user=host, other=player):
        return f"{host.username} is not taking you on."
    if match.friends_only and not is_friend(user=host, other=player):
        return f"Only {host.username}'s friends may join this match."
    if refusal := guild_only_refusal(match=match, viewer=player):
        return refusal
    if match.challenged_id is not None and match.challenged_id != player.pk:
        return f"This match is {host.username}'s challenge to another player."
    return None


def match_unjoinable(match: Match) -> str | None:
    """What became of a match a player saw waiting (its medallion, a challenge) and now
    tries to join; None while it still waits for a player."""
    if match.status == MatchStatus.OPEN:
        return None
    if match.status == MatchStatus.CANCELLED:
        return f"Match {match.pk} was cancelled: {match.end_reason or 'its host left it.'}"
    if match.status == MatchStatus.FINISHED:
        return f"Match {match.pk} is over."
    return f"Match {match.pk} is full: another player took its seat a moment before you."


@dataclass(frozen=True)
class Team:
    """One team of a 2-versus-2 team game as its Join window and Match Launch screen show it
    (Creating a Match, "Number of Players"): its seats in turn order, None where free. Seats
    alternate teams: a seat's team is its number modulo 2."""

    number: int
    name: str
    seats: list[MatchSeat | None]

    @property
    def free(self) -> int:
        return self.seats.count(None)


def match_teams(match: Match, seats: Iterable[MatchSeat] | None = None) -> list[Team]:
    """The two teams of the team game ``match``, from its ``seats`` (its prefetched ones if
    not given); in a light versus dark game its first team plays the light side."""
    taken = {seat.seat: seat for seat in (match.seats.all() if seats is None else seats)}
    if match.raid:
        names = ("Heroes", "Boss")
    elif match.light_vs_dark:
        names = ("Light side (Jedi, Rebel)", "Dark side (Sith, Imperial)")
    else:
        names = ("Team 1", "Team 2")
    return [
        Team(
            number=team + 1,
            name=names[team],
            seats=[taken.get(seat) for seat in range(match.players) if match.team_of(seat) == team],
        )
        for team in range(len(names))
    ]


def team_winners(
    match: Match, seats: Iterable[MatchSeat], winner_seat: int | None
) -> list[str] | None:
    """The players of a team game's winning side, in seat order (MULTIPLAYER GAMES, "Winning
    the Game": the side wins, not a player); None when nobody won."""
    if winner_seat is None:
        return None
    return [
        seat.name
        for seat in sorted(seats, key=lambda each: each.seat)
        if match.team_of(seat.seat) == match.team_of(winner_seat)
    ]


def side_wins(winners: list[str]) -> str:
    """ "Carol and Dora win", or, for a side of one (a raid's boss), "Mother-Zhevra wins"."""
    return f"{names_joined(winners)} {'win' if len(winners) > 1 else 'wins'}"


def names_joined(names: list[str]) -> str:
    """ "Carol", "Carol and Dora", "Carol, Dora and Erin"."""
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


class NotAllowedToWatch(UserError):
    pass


@dataclass
class MatchScreen:
    """What one viewer's match page shows: the Match Launch screen before the first game,
    the playmat after; ``seat`` is None for an observer."""

    match: Match
    seats: list[MatchSeat]
    seat: int | None
    game: Game | None = None
    board: dict | None = None
    log: list[str] = field(default_factory=list)
    # Each seat's game clock: {"ms": time left, "running": bool}; empty when untimed.
    clocks: list[dict] = field(default_factory=list)
    # (game number, actions applied) up to which ``log`` goes; (0, 0) before the first game.
    logged: tuple[int, int] = (0, 0)
    # For a replay (``match_replay``): where the step lies, and what was checked.
    replay: dict | None = None
    # The offer standing: {"label": "a draw", "by": name, "mine": bool}.
    offer: dict | None = None
    # The players away from the match's page: [{"name", "minutes"}], and for the player who
    # stayed, whether they may claim the win or adjourn yet, or in how many minutes.
    away: list[dict] = field(default_factory=list)
    claimable: bool = False
    claim_in_minutes: int | None = None
    # Best of Three or Five: each player's games won, in seat order, [{"name", "wins"}].
    score: list[dict] = field(default_factory=list)
    # The tactic played since the screen last shown, shown oversized: {"id", "title",
    # "face", "player"} (``_tactic_shown``).
    tactic: dict | None = None
    # Between two games: {"number": the next game's, "chooser": name, "mine": bool, "ms"}.
    between_games: dict | None = None
    # A tutorial's dialog for its player to read now: {"index", "dialog"}.
    tutorial_dialog: dict | None = None
    # A Raid's dialog told and not yet read by the hero viewing: {"index", "dialog"}.
    encounter_dialog: dict | None = None

    @property
    def tutorial(self) -> Tutorial | None:
        return tutorial_named(self.match.tutorial) if self.match.tutorial else None

    @property
    def encounter(self) -> Encounter | None:
        """A Raid's heroic encounter: its victory conditions and dialogs."""
        return encounter_named(self.match.encounter) if self.match.encounter else None

    @property
    def scenario(self) -> Scenario | None:
        return scenario_numbered(self.match.scenario) if self.match.scenario else None

    @property
    def guide(self) -> Tutorial | Scenario | None:
        """The tutorial or scenario of the match: its victory conditions (the Info button)
        and its dialogs (Review Dialogs)."""
        return self.tutorial or self.scenario

    @property
    def own_deck_id(self) -> int | None:
        """The saved deck the viewer plays in this match, if they still have it."""
        mine = next((each for each in self.seats if each.seat == self.seat), None)
        return mine.deck_id if mine is not None else None

    @property
    def scenario_first_win(self) -> bool:
        """Whether this match is the player's first win of its scenario: the one that earned
        its reward card."""
        return ScenarioProgress.objects.filter(
            scenario=self.match.scenario, match_id=self.match.pk
        ).exists()

    @property
    def scenario_next(self) -> Scenario | None:
        """After a scenario its player won, the next of its chapter, now open to them."""
        scenario = self.scenario
        if scenario is None or self.outcome != "victory":
            return None
        return next_in_chapter(scenario)

    @property
    def tutorial_next(self) -> Tutorial | None:
        """After a tutorial its player won, the first other one they have not won yet."""
        mine = next((each for each in self.seats if each.seat == self.seat), None)
        if self.tutorial is None or mine is None:
            return None
        done = set(
            TutorialProgress.objects.filter(player_id=mine.player_id).values_list(
                "tutorial", flat=True
            )
        )
        return next(
            (each for each in TUTORIALS if each.slug not in done | {self.match.tutorial}), None
        )

    @property
    def tutorial_dialogs_read(self) -> list[Dialog]:
        guide = self.guide
        return list(guide.dialogs[: self.match.dialogs_read]) if guide else []

    @property
    def launching(self) -> bool:
        return _launching(self.match)

    @property
    def viewer_is_host(self) -> bool:
        mine = next((each for each in self.seats if each.seat == self.seat), None)
        return mine is not None and mine.player_id == self.match.host_id

    @property
    def computer_seats(self) -> set[int]:
        return computer_seats(self.match)

    @property
    def teams(self) -> list[Team]:
        """A team game's two teams on its Match Launch screen; [] for a 2-player match."""
        return match_teams(self.match, self.seats) if self.match.team_game else []

    @property
    def team_winners(self) -> list[str] | None:
        """The players of the side that won the finished team game; None otherwise."""
        game = self.game
        if not self.match.team_game or game is None or game.ended is None:
            return None
        return team_winners(self.match, self.seats, game.winner_seat)

    @property
    def side_won(self) -> str | None:
        """The end screen's title for an observer of a finished team game, "Carol and Dora
        win" or "Mother-Zhevra wins"; None otherwise."""
        winners = self.team_winners
        return side_wins(winners) if winners else None

    @property
    def team_result(self) -> str | None:
        """A finished team game's result in words, "Carol and Dora win the game by
        destroying the opposing avatar"; None otherwise."""
        game = self.game
        if not self.match.team_game or game is None or game.ended is None:
            return None
        return game_result(game, [], winners=self.team_winners)

    @property
    def left_game(self) -> bool:
        """Whether this viewer's seat has left the team game that goes on for the others
        (MULTIPLAYER GAMES, "Leaving the Game")."""
        board = self.board
        return (
            bool(board and board.get("team"))
            and self.seat is not None
            and bool(board["me"].get("left"))
            and self.match.status == MatchStatus.PLAYING
        )

    @property
    def concede_question(self) -> str | None:
        """What Concede asks a player of a team game before he leaves it (MULTIPLAYER GAMES,
        "Leaving the Game"), from the players still in the game: "Concede and leave this
        game? You lose and leave it; your teammate Dora plays on alone against both
        opponents.", or, once his teammates have left, that his team loses. None for a
        two-player game or an observer."""
        board = self.board
        if not board or not board.get("team") or self.seat is None:
            return None
        ask = "Concede and leave this game?"
        teammates = board["teammates"]
        playing_on = [player["name"] for player in teammates if not player["left"]]
        if not playing_on:
            gone = f"{teammates[0]['name']} has" if len(teammates) == 1 else "Your teammates have"
            return f"{ask} {gone} left already: your team loses it."
        if len(playing_on) > 1:
            return (
                f"{ask} You lose and leave it; your teammates {names_joined(playing_on)} play on."
            )
        opponents = board["opponents"]
        against = [player["name"] for player in opponents if not player["left"]]
        if len(opponents) == 1:
            alone = ""
        elif len(against) == len(opponents):
            alone = " alone against both opponents"
        else:
            alone = f" alone against {names_joined(against)}"
        return f"{ask} You lose and leave it; your teammate {playing_on[0]} plays on{alone}."

    @property
    def winner_name(self) -> str | None:
        """The match's winner as the match shows them (``MatchSeat.name``); None if nobody won."""
        winner = next((each for each in self.seats if each.player_id == self.match.winner_id), None)
        return winner.name if winner is not None else None

    @property
    def outcome(self) -> str | None:
        """How the finished match ended for this viewer: victory, defeat or draw; "over" for
        an observer of a match someone won. None while it is not finished, and in a replay,
        whose Prompt tells each step's own result: the end panel would cover the board."""
        if self.match.status != MatchStatus.FINISHED or self.replay is not None:
            return None
        if self.match.team_game:
            # Won by a side, not by a player (MULTIPLAYER GAMES, "Winning the Game").
            winner = self.game.winner_seat if self.game is not None else None
            if winner is None:
                return "draw"
            if self.seat is None:
                return "over"
            if self.match.team_of(self.seat) != self.match.team_of(winner):
                return "defeat"
            # A player who left the game ("Leaving the Game") lost it: the win his side went
            # on to is not his victory (his computer teammates would otherwise earn him one).
            return "left" if self._mine.left_game else "victory"
        if self.match.winner_id is None:
            return "draw"
        mine = next((each for each in self.seats if each.seat == self.seat), None)
        if mine is None:
            return "over"
        return "victory" if self.match.winner_id == mine.player_id else "defeat"

    @property
    def _mine(self) -> MatchSeat:
        return next(each for each in self.seats if each.seat == self.seat)

    @property
    def seed_verified(self) -> bool:
        """The last game's revealed seed and salt hash to the commitment shown all game."""
        game = self.game
        return game is not None and seed_commitment(game.seed, game.seed_salt) == game.seed_hash

    @property
    def rematch(self) -> bool:
        """A finished Skirmish its player may play again, same opponent and level."""
        return self.outcome is not None and self.match.skirmish and self.seat == 0

    @property
    def place(self) -> str:
        return _place_of(self.match)


def _launching(match: Match) -> bool:
    return match.status in (MatchStatus.OPEN, MatchStatus.LAUNCHING)


def _place_of(match: Match) -> str:
    """Where a match's page keeps its viewer: starting a game, then in a game."""
    return Place.LAUNCH if _launching(match) else Place.GAME


@dataclass(frozen=True)
class MatchMoment:
    """A match as stored at one moment: the rows and game state that every viewer's screen of
    that moment is built from. Read once, it serves every socket of the match that a process
    holds (``match_screen(moment=...)``); nothing in it is changed by building a screen.

    The service that accepts an action makes the moment it committed and ships it, packed,
    in the message that announces it (``pack``): every web process of the match's sockets
    builds their screens from it without reading the match again."""

    match: Match
    seats: list[MatchSeat]
    game: Game | None
    state: State | None  # the game's, None before the first game
    # The seat that won each game played to its end, in order (Best of Three and Five).
    winners: list[int]
    # The game's actions after number ``recent_since`` (number, created, events), the Chat
    # Log's news for every socket that saw the game at or after that number; None when not
    # read.
    recent_actions: list[tuple] | None = None
    recent_since: int = 0
    # The actions that took the game from ``recent_since`` actions to this moment, in order,
    # when the moment was made by applying them (``game_act``); None when it was read.
    actions: list | None = None

    def pack(self) -> bytes:
        """The moment as bytes for the channel layer, which carries them between the site's
        own processes only (a socket's client is sent the HTML of its viewer's screen, never
        these). The game's state travels as the ``actions`` that made it, when the moment has
        them: a receiving process applies them to the state it keeps from the announcement
        before (``game.live_states``), cheaper than packing and unpacking the whole state.
        Otherwise the state travels packed (``pack_state``), without the game's stored JSON of
        it, and is unpacked once by each receiving process."""
        game, state = self.game, None
        if game is not None:
            game = copy.copy(game)
            game.__dict__.pop("state", None)  # deferred in the copy: not read again
            if self.actions is None:
                state = pack_state(self.state)
        packed = pickle.dumps(
            (replace(self, game=game, state=None), state), protocol=pickle.HIGHEST_PROTOCOL
        )
        packed_here.keep(packed, self)
        return packed

    @classmethod
    def unpack(cls, packed: bytes) -> "MatchMoment":
        """The moment ``pack`` made, after the commit it announces: its game's state is kept
        for the process's next action on the game (``game.live_states``). In the process that
        packed it, the moment itself (nothing changes a moment once made)."""
        original = packed_here.original(packed)
        if original is not None:
            moment = original
        else:
            moment, state = pickle.loads(packed)  # noqa: S301 - written by ``pack`` in a web process
            if moment.game is not None:
                moment = replace(
                    moment, state=_state_replayed(moment) if state is None else unpack_state(state)
                )
        if moment.game is not None:
            live_states.keep(moment.game, moment.state)
        return moment


def _state_replayed(moment: MatchMoment) -> State:
    """The state of a moment shipped as its ``actions``: the state this process keeps from
    before them with them applied, or, where it keeps none (its sockets joined the match since,
    or it forgot the game), the game's as stored at the moment's number of actions."""
    game = moment.game
    state = live_states.take(game, applied=moment.recent_since)
    if state is None:
        return game_state_at(game, applied=game.applied)
    for action in moment.actions:
        engine.apply(state, action)
    return state


def game_state_at(game: Game, *, applied: int) -> State:
    """The game's state after its first ``applied`` actions, read afresh: its stored snapshot,
    or, when the snapshot is past them (stored since), the game's beginning, with the log's
    later actions replayed. ``NotAllowedToWatch`` if the game is gone."""
    stored = Game.objects.filter(pk=game.pk).values("state", "state_applied").first()
    if stored is None:
        raise NotAllowedToWatch("There is no such match.")
    if stored["state_applied"] <= applied:
        state, since = engine.from_json(stored["state"]), stored["state_applied"]
    else:
        state, since = game_beginning(game), 0
    return _log_replayed(game, state, since=since, until=applied)


def game_state(game: Game) -> State:
    """The game's state after its ``applied`` actions: its stored snapshot, with the actions
    of its log since replayed."""
    state = engine.from_json(game.state)
    return _log_replayed(game, state, since=game.state_applied, until=game.applied)


def _replayed(state: State, actions: Iterable[dict]) -> State:
    for action in actions:
        engine.apply(state, action)
    return state


def _log_replayed(game: Game, state: State, *, since: int, until: int) -> State:
    """``state``, the game's after ``since`` actions, with its logged actions up to number
    ``until`` applied."""
    actions = game.actions.filter(number__gt=since, number__lte=until).order_by("number")
    for action in actions.values_list("action", flat=True):
        engine.apply(state, action)
    return state


# A change is rarely more than a few actions: one, and the passes of Pass When Out of Actions.
RECENT_ACTIONS = 8


def match_moment(*, match_id: int, with_recent_actions: bool = False) -> MatchMoment:
    """The match as it is stored now; ``NotAllowedToWatch`` if there is no such match. With
    ``with_recent_actions``, for the sockets that follow the match, its game's last actions
    too."""
    # The match comes with its latest game, one read (the decklists, large, are the game's
    # business, not the screen's); its winner, which only the last screen shows, is read then.
    game = (
        Game.objects.select_related("match")
        .defer("decklists")
        .filter(match_id=match_id)
        .order_by("-number")
        .first()
    )
    match = game.match if game is not None else Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotAllowedToWatch("There is no such match.")
    if game is None and match.status == MatchStatus.PLAYING:
        # Begun between the two reads: its first game is there now, and the playing screen
        # needs its board.
        return match_moment(match_id=match_id, with_recent_actions=with_recent_actions)
    seats = list(match.seats.select_related("player").defer(*MOMENT_SEAT_DEFERRED).order_by("seat"))
    state = None
    if game is not None:
        state = game_state(game)
        # Committed with the game's ``applied`` actions, and never changed by a screen: the
        # process's next action on the game, or its next announcement's actions, start from it.
        live_states.keep(game, state)
    recent_actions, recent_since = None, 0
    if game is not None and with_recent_actions:
        recent_since = game.applied - RECENT_ACTIONS
        recent = game.actions.filter(number__gt=recent_since).order_by("number")
        recent_actions = list(recent.values_list("number", "created", "events"))
    return MatchMoment(
        match=match,
        seats=seats,
        game=game,
        state=state,
        winners=match_winners(match),
        recent_actions=recent_actions,
        recent_since=recent_since,
    )


# What a moment's seats leave unread: the screens never show a seat's decklist, and the
# player's password hash has no business in a moment shipped between processes.
MOMENT_SEAT_DEFERRED = ("decklist", "player__password")


def match_winners(match: Match) -> list[int]:
    """The seat that won each game of ``match`` played to its end, in order; [] for a single
    game, whose screen shows no score."""
    if match.structure <= 1:
        return []
    games = match.games.exclude(winner_seat=None).order_by("number")
    return list(games.values_list("winner_seat", flat=True))


def match_screen(
    *,
    match_id: int,
    viewer: User,
    logged: tuple[int, int] | None = None,
    moment: MatchMoment | None = None,
    card_size: str | None = None,
    card_warnings: bool | None = None,
) -> MatchScreen:
    """The match as ``viewer`` may see it, with the Chat Log's lines after ``logged`` (the
    ``logged`` of the screen last shown; None: the whole log). ``moment`` is the match as
    read for another viewer of the same moment, if there is one; ``card_size``, the viewer's
    playmat card size, if known, and ``card_warnings`` his Card Warnings. Raises
    ``NotAllowedToWatch`` for a player who may not see it."""
    if moment is None:
        moment = match_moment(match_id=match_id)
    match, seats, game, state = moment.match, moment.seats, moment.game, moment.state
    seat = may_watch(match=match, viewer=viewer, seats=seats)
    screen = MatchScreen(match=match, seats=seats, seat=seat, clocks=_clocks(match, seats))
    if match.status == MatchStatus.PLAYING:
        _attendance(screen)
    if game is None:
        if logged is None:
            screen.log = [html for _, html in _chat_lines(match, viewer, since=None)]
        return screen
    names = [each.name for each in seats]
    titles = engine.card_titles(state)
    faces = match_faces(match, seats)
    screen.game = game
    if match.structure > 1:
        screen.score = [
            {"name": name, "wins": moment.winners.count(index)} for index, name in enumerate(names)
        ]
    if match.next_game_at is not None and match.status == MatchStatus.PLAYING:
        screen.between_games = {
            "number": game.number + 1,
            "chooser": names[match.first_chooser],
            "mine": seat is not None and seat == match.first_chooser,
            "ms": max(0, int((match.next_game_at - timezone.now()).total_seconds() * 1000)),
        }
    screen.board = _board(state, seat, names, titles, faces)
    _keep_card_warnings(screen.board, viewer, card_warnings)
    screen.board["card_size"] = card_size or playmat_card_size(viewer=viewer)
    screen.board["cues"] = playmat_cues(
        screen.board["view"],
        seat,
        game_number=game.number,
        over=match.status == MatchStatus.FINISHED,
    )
    for player in screen.board["players"]:
        player["clock"] = screen.clocks[player["seat"]] if screen.clocks else None
    screen.tactic = _tactic_shown(moment, logged, names, titles, faces)
    screen.log, screen.logged = _log(moment, seat, names, titles, faces, logged, viewer)
    guide = guide_of(match)
    if guide and seat == TUTORIAL_PLAYER and match.status == MatchStatus.PLAYING:
        screen.tutorial_dialog = _guide_dialog(guide, match, state)
        _ask_for(screen.board, _asking_dialog(guide, match, state, screen.tutorial_dialog))
    if match.raid and seat is not None and match.status == MatchStatus.PLAYING:
        screen.encounter_dialog = _encounter_dialog(match, seats[seat])
    return screen


def _guide_dialog(guide: Tutorial | Scenario, match: Match, state: State) -> dict | None:
    """The tutorial's or scenario's dialog to show its player now: its index and the dialog."""
    index = guide.dialog_due(state, match.dialogs_read)
    if index is None:
        return None
    return {"index": index, "dialog": guide.dialogs[index]}


def _asking_dialog(
    guide: Tutorial | Scenario, match: Match, state: State, shown: dict | None
) -> Dialog | None:
    """The dialog whose request the Prompt puts forward: the one shown, else the last one
    read while its moment lasts (the player does what it asked once it is closed)."""
    if shown is not None:
        return shown["dialog"]
    if not match.dialogs_read:
        return None
    last = guide.dialogs[match.dialogs_read - 1]
    return last if last.due(engine.view(state, TUTORIAL_PLAYER)) else None


def _ask_for(board: dict, dialog: Dialog | None) -> None:
    """Put first, and mark ``asked``, the Prompt's buttons that ``dialog`` asks the player to
    click: in a long list, the one it names would otherwise start out of sight."""
    if dialog is None or not dialog.asks_for:
        return
    for key in ("batches", "actions"):
        for button in board[key]:
            button["asked"] = button["label"].startswith(dialog.asks_for)
        board[key].sort(key=lambda button: not button["asked"])


def _encounter_dialog(match: Match, mine: MatchSeat) -> dict | None:
    """The first dialog of the Raid's encounter told and not yet read by the hero ``mine``."""
    if mine.seat == match.boss_seat or mine.dialogs_read >= match.dialogs_read:
        return None
    index = mine.dialogs_read
    return {"index": index, "dialog": encounter_named(match.encounter).dialogs[index]}


@dataclass(frozen=True)
class TutorialPlace:
    """A tutorial on the map (rulebook, "Tutorials"), and whether the player has won it."""

    tutorial: Tutorial
    completed: bool


def tutorials_map(*, player: User) -> list[TutorialPlace]:
    completed = set(
        TutorialProgress.objects.filter(player=player).values_list("tutorial", flat=True)
    )
    return [TutorialPlace(tutorial, tutorial.slug in completed) for tutorial in TUTORIALS]


SCENARIO_WON, SCENARIO_OPEN, SCENARIO_LOCKED = "won", "open", "locked"


@dataclass(frozen=True)
class ScenarioPlace:
    """A scenario on its chapter's map (rulebook, "Scenarios"): ``state`` is won, open (the
    first of its chapter, or the one after a scenario won) or locked; ``reward`` the reward
    card, as the set holds it."""

    scenario: Scenario
    state: str
    reward: Card | None

    @property
    def playable(self) -> bool:
        return self.state != SCENARIO_LOCKED


@dataclass(frozen=True)
class ScenarioChapter:
    """A chapter of the scenarios, with the player's decks it may be played with: their
    valid decks of its archetypes."""

    number: int
    title: str
    archetypes: tuple[str, ...]
    places: list[ScenarioPlace]
    decks: list[Deck]

    @property
    def won(self) -> int:
        return sum(place.state == SCENARIO_WON for place in self.places)

    @property
    def next_place(self) -> ScenarioPlace | None:
        return next((place for place in self.places if place.state == SCENARIO_OPEN), None)


def scenarios_map(*, player: User) -> list[ScenarioChapter]:
    """The two chapters of the scenarios as ``player`` stands in them."""
    won = set(ScenarioProgress.objects.filter(player=player).values_list("scenario", flat=True))
    rewards = {
        card.title: card
        for card in Card.objects.filter(
            title__in=[scenario.reward for scenario in SCENARIOS], creator=None
        ).select_related("card_set")
    }
    decks = scenario_decks(player=player)
    chapters = []
    for number, title in CHAPTERS.items():
        places = []
        for scenario in SCENARIOS:
            if scenario.chapter != number:
                continue
            if scenario.number in won:
                state = SCENARIO_WON
            elif not places or places[-1].state == SCENARIO_WON:
                state = SCENARIO_OPEN
            else:
                state = SCENARIO_LOCKED
            places.append(ScenarioPlace(scenario, state, rewards.get(scenario.reward)))
        archetypes = places[0].scenario.archetypes
        chapters.append(
            ScenarioChapter(
                number=number,
                title=title,
                archetypes=archetypes,
                places=places,
                decks=[deck for deck, archetype in decks if archetype in archetypes],
            )
        )
    return chapters


def scenario_decks(*, player: User) -> list[tuple[Deck, str]]:
    """The player's decks valid in the Standard format, each with its avatar's archetype,
    the deck used last first: the decks a scenario may be played with."""
    archetypes = dict(
        DeckCard.objects.filter(deck__owner=player, card__card_type="avatar").values_list(
            "deck_id", "card__archetype"
        )
    )
    return [
        (deck, archetypes[deck.pk])
        for deck, valid in player_decks(player=player)
        if valid and archetypes.get(deck.pk)
    ]


def tutorial_dialogs_read(*, match_id: int, viewer: User) -> list[Dialog]:
    """The dialogs of the match ``match_id`` that ``viewer`` has read (rulebook, "Review
    Dialogs"): a tutorial's or a scenario's, for its player; a Raid's, for each hero; none
    in a game without dialogs.
    ``NotAllowedToWatch`` for a match they do not play."""
    match = Match.objects.filter(pk=match_id).first()
    seat = match and match.seats.filter(player=viewer).first()
    if seat is None:
        raise NotAllowedToWatch("There is no such match of yours.")
    if match.raid and seat.seat != match.boss_seat:
        return list(encounter_named(match.encounter).dialogs[: seat.dialogs_read])
    guide = guide_of(match)
    if guide is None or seat.seat != TUTORIAL_PLAYER:
        return []
    return list(guide.dialogs[: match.dialogs_read])


def _attendance(screen: MatchScreen) -> None:
    """The offer standing and who is away, as ``screen``'s viewer is told them."""
    match, now = screen.match, timezone.now()
    if match.offer:
        offering = screen.seats[match.offer_seat]
        screen.offer = {
            "label": MatchOffer(match.offer).label,
            "by": offering.name,
            "mine": offering.seat == screen.seat,
            # A team game's offer waits for every other player still in the game.
            "agreed": screen.seat in match.offer_agreed,
            "waiting": [
                seat.name
                for seat in screen.seats
                if not seat.left_game
                and seat.seat != match.offer_seat
                and seat.seat not in match.offer_agreed
            ],
        }
    claim_after = settings.MATCH_AWAY_CLAIM_SECONDS
    for seat in screen.seats:
        if seat.away_since is None:
            continue
        away_seconds = (now - seat.away_since).total_seconds()
        screen.away.append({"name": seat.name, "minutes": int(away_seconds // 60)})
        if screen.seat is not None and seat.seat != screen.seat and match.time_limit is None:
            screen.claimable = away_seconds >= claim_after
            if not screen.claimable:
                screen.claim_in_minutes = max(1, math.ceil((claim_after - away_seconds) / 60))


def match_place(*, match_id: int, viewer: User) -> str | None:
    """Where a match's page keeps ``viewer`` (starting a game, or in a game); None if they
    may not see the match."""
    match = Match.objects.filter(pk=match_id).first()
    try:
        if match is None:
            raise NotAllowedToWatch("There is no such match.")
        may_watch(match=match, viewer=viewer)
    except NotAllowedToWatch:
        return None
    return _place_of(match)


def _clocks(match: Match, seats: list[MatchSeat]) -> list[dict]:
    if match.time_limit is None or match.status != MatchStatus.PLAYING:
        return []
    now = timezone.now()
    clocks = []
    for seat in seats:
        left = max(0, clock_left_ms(match, seat, now) or 0)
        clocks.append(
            {
                "ms": left,
                "text": f"{left // 60000}:{left // 1000 % 60:02d}",
                "running": match.clock_seat == seat.seat,
            }
        )
    return clocks


def clock_left_ms(match: Match, seat: MatchSeat, now) -> int | None:
    """What is left on ``seat``'s clock at ``now``; None in an untimed match."""
    if match.time_limit is None or seat.clock_left_ms is None:
        return None
    if match.clock_seat != seat.seat or match.clock_since is None:
        return seat.clock_left_ms
    return seat.clock_left_ms - elapsed_ms(match.clock_since, now)


def elapsed_ms(since, now) -> int:
    return max(0, int((now - since).total_seconds() * 1000))


def may_watch(*, match: Match, viewer: User, seats: list[MatchSeat] | None = None) -> int | None:
    """The viewer's seat in the match, or None for an observer; ``NotAllowedToWatch`` if they
    may not see it (a match not begun, or one that allows no observers)."""
    if seats is None:
        seats = list(match.seats.all())
    seat = next((each.seat for each in seats if each.player_id == viewer.pk), None)
    if seat is None and (
        refusal := watch_now_refusal(match=match, viewer_guild_id=_guild_asked(match, viewer))
    ):
        raise NotAllowedToWatch(refusal)
    return seat


def watch_now_refusal(*, match: Match, viewer_guild_id: int | None) -> str | None:
    """Why a player who does not play ``match``, a member of the guild ``viewer_guild_id``,
    may not open its page as an observer now, or None if they may."""
    if match.status == MatchStatus.ADJOURNED:
        return "This match is adjourned."
    if match.status not in (MatchStatus.PLAYING, MatchStatus.FINISHED):
        return "This match has not begun: join it from the Casual Lobby."
    return observer_refusal(match=match, viewer_guild_id=viewer_guild_id)


def observer_refusal(*, match: Match, viewer_guild_id: int | None) -> str | None:
    """Why a player who did not play ``match``, a member of the guild ``viewer_guild_id``,
    may not watch it, live or in its replay, or None if they may: a match that allows no
    observers is for its players alone, a Guild-Only match for its guild's members too
    (rulebook, Guilds, "Guild-Only Matches")."""
    if not match.allow_observers:
        return "This match does not allow observers."
    if match.guild_only and not _in_the_guild_of(match, viewer_guild_id):
        return GUILD_ONLY_REFUSAL
    return None


def _guild_asked(match: Match, viewer: User) -> int | None:
    """The viewer's guild, read only when the match is for a guild's members."""
    return guild_id_of(user_id=viewer.pk) if match.guild_only else None


def _in_the_guild_of(match: Match, guild_id: int | None) -> bool:
    return match.guild_id is not None and guild_id == match.guild_id


def host_guild(*, player: User) -> Guild | None:
    """The guild a Guild-Only match of ``player``'s would be for."""
    return guild_of(user_id=player.pk)


GUILD_ONLY_REFUSAL = (
    "This is a Guild-Only match: only members of its host's guild may join or observe it."
)


def guild_only_refusal(*, match: Match, viewer: User) -> str | None:
    """Why ``viewer`` may not join or observe a Guild-Only match (rulebook, Guilds,
    "Guild-Only Matches"), or None if they may."""
    if not match.guild_only or _in_the_guild_of(match, guild_id_of(user_id=viewer.pk)):
        return None
    return GUILD_ONLY_REFUSAL


def _chat_lines(match: Match, viewer: User, *, since) -> list[tuple]:
    """The match's chat lines ``viewer`` may read, as (time, html), after ``since``."""
    lines = (
        MatchChatLine.objects.filter(match=match)
        .filter(
            Q(kind__in=[MatchChatKind.SAY, MatchChatKind.SAY_TO, MatchChatKind.NOTICE])
            | Q(sender=viewer)
            | Q(recipient=viewer)
        )
        .exclude(Q(sender_id__in=ignored_ids(user_id=viewer.pk)) & ~Q(kind=MatchChatKind.NOTICE))
        .select_related("sender", "recipient")
    )
    if since is not None:
        lines = lines.filter(sent_at__gt=since)
    return [(line.sent_at, fragments.chat_line(line, viewer_id=viewer.pk)) for line in lines]


# What is done with a card of the hand: two copies there are the same card, so their actions
# are the same choice. Cards in play may differ (damage, tokens, what else applies to them).
FROM_THE_HAND = frozenset({"play", "play_tactic", "discard"})


def _group_copies(actions: list[dict]) -> None:
    """Mark the Prompt's actions that repeat another's for a copy of the same card in the hand:
    the first shows how many copies it stands for (``copies``), the others are hidden
    (``repeat``) but kept for double-clicking the copy itself."""
    counts = Counter(action["label"] for action in actions if action["kind"] in FROM_THE_HAND)
    seen: set[str] = set()
    for action in actions:
        grouped = action["kind"] in FROM_THE_HAND
        action["copies"] = counts[action["label"]] if grouped else 1
        action["repeat"] = grouped and action["label"] in seen
        if grouped:
            seen.add(action["label"])


def _places_in_play(view: dict, seat: int | None, names) -> dict[int, tuple[tuple[str, ...], int]]:
    """Where each unit, item and ability in play stands, in the words that tell copies of one
    card apart (``labels.told_apart``): whose it is, its quest or zone, ready or exerted, and
    its damage; with its place in its row from the left."""
    places = {}

    def words(card: dict, whose: str, where: str) -> tuple[str, ...]:
        damage = f"with {card['damage']} damage" if card["damage"] else "undamaged"
        return (whose, where, "exerted" if card["exerted"] else "ready", damage)

    for index, player in enumerate(view["players"]):
        whose = "yours" if index == seat else f"{names[index]}'s"
        for zone in ("items", "abilities"):
            for left, card in enumerate(player[zone]):
                places[card["id"]] = (words(card, whose, f"among the {zone}"), left)
    for quest in view["quests"]:
        for index, units in enumerate(quest["units"]):
            whose = "yours" if index == seat else f"{names[index]}'s"
            for left, card in enumerate(units):
                places[card["id"]] = (words(card, whose, f"at {quest['card']['title']}"), left)
    return places


def _tell_copies_apart(buttons: list[dict], places: dict, card_of) -> None:
    """Give the Prompt's buttons that would read alike for copies of a card in play labels
    that say which copy each is for (a copy in the hand is the same choice: ``_group_copies``)."""
    alike: dict[str, list[dict]] = {}
    for button in buttons:
        if card_of(button) in places:
            alike.setdefault(button["label"], []).append(button)
    for label, same in alike.items():
        if len(same) > 1:
            told = told_apart(label, [places[card_of(button)] for button in same])
            for button, text in zip(same, told, strict=True):
                button["label"] = text


def _batches(decision: dict, combat: dict | None, titles: list[str]) -> list[dict]:
    """The Prompt's batch choices: one button for a run of the decision's single actions that
    its player may make one after the other (``game_act_batch`` plays it as far as the rules
    let it go). Every exert for the combat's total (COMBAT, "Combat Actions": the opponent
    may answer each exert, so the batch goes on only through the passes made for him), and
    all the damage left to assign on one combatant (COMBAT, "Take Damage": the player taking
    it distributes it as he chooses)."""
    actions = decision.get("actions", ())
    batches = []
    if decision["kind"] == "combat_action":
        exerts = [action for action in actions if action["kind"] == "exert"]
        if len(exerts) > 1:
            batches.append((exert_all_label(exerts[0]["attribute"], len(exerts)), exerts))
    elif decision["kind"] == "assign_damage" and combat is not None:
        taker = next(side for side in combat["sides"] if side["seat"] == combat["to_act"])
        dealer = next(side for side in combat["sides"] if side is not taker)
        left = dealer["damage"] - len(taker["assigned"])
        if left > 1:
            batches += [
                (damage_batch_label(titles[action["card"]], left), [action] * left)
                for action in actions
            ]
    return [{"label": label, "actions": run, "json": json.dumps(run)} for label, run in batches]


def _board(state, seat: int | None, names, titles, faces) -> dict:
    view = engine.view(state, seat)
    bottom = 0 if seat is None else seat
    decision = view["decision"]
    avatars = {player["avatar"]["id"]: names[index] for index, player in enumerate(view["players"])}
    actions = [
        {
            "label": action_label(action, titles, names=names, avatars=avatars),
            "json": json.dumps(action),
            "kind": action["kind"],
            # A quest's own actions (attempt, raid) belong to the quest's card on the playmat.
            "card": action.get("card", action.get("quest")),
            # Where a card is played (a unit names its quest): the quest to drop it on.
            "quest": action.get("quest"),
        }
        for action in decision.get("actions", ())
    ]
    _group_copies(actions)
    _warn_of_restrictions(state, decision["seat"], actions, titles)
    _dress_cards(view, faces, actions)
    _mark_cards(view, titles)
    batches = _batches(decision, view["combat"], titles)
    if actions:  # only the deciding seat's screen has buttons to tell apart
        places = _places_in_play(view, seat, names)
        _tell_copies_apart(actions, places, lambda action: action["card"])
        _tell_copies_apart(batches, places, lambda batch: batch["actions"][0].get("card"))

    def player(seat: int) -> dict:
        seen = view["players"][seat]
        most = max(seen["avatar"]["health"] or 0, seen["health"])
        return {
            "seat": seat,
            "name": names[seat],
            **seen,
            "health_segments": [index < seen["health"] for index in range(most)],
            "power_segments": range(seen["power"]),
            "left": seat in view.get("left", ()),
            "sentries": _sentries(view, seat),
        }

    board = {
        "view": view,
        "deciding": None if decision["seat"] is None else names[decision["seat"]],
        "my_decision": seat is not None and decision["seat"] == seat,
        "actions": actions,
        "batches": batches,
        "ply": state.applied,
        "winner": None if view["winner"] is None else names[view["winner"]],
    }
    if "sides" in view:
        board.update(_team_board(view, seat, bottom, names, player))
        return board
    me, opponent = player(bottom), player(1 - bottom)
    board.update(
        team=False,
        combat=None,
        me=me,
        opponent=opponent,
        players=[me, opponent],
        quests=[
            {
                **quest,
                "near": quest["units"][bottom],
                "far": quest["units"][1 - bottom],
                "my_tokens": quest["tokens"][bottom],
                "their_tokens": quest["tokens"][1 - bottom],
                "my_pips": _pips(quest["tokens"][bottom], quest["card"]["level"]),
                "their_pips": _pips(quest["tokens"][1 - bottom], quest["card"]["level"]),
                "combat": _quest_combat(view["combat"], quest["card"]["id"], {bottom}, names),
            }
            for quest in view["quests"]
        ],
    )
    return board


def _warn_of_restrictions(state: State, seat: int | None, actions: list[dict], titles) -> None:
    """Give each play of a card whose restriction would destroy a card the deciding player
    has in play the question Card Warnings asks first (Preferences, Game/Playmat; TYPES OF
    CARDS, "Restrictions"), naming that card: ``warning``. The engine says which card."""
    if seat is None:
        return
    for action in actions:
        if action["kind"] != "play":
            continue
        replaced = engine.replaced_by_restriction(state, seat, action["card"])
        if replaced is not None:
            restriction = definition(state, replaced)["restriction"]
            action["warning"] = (
                f"Play {titles[action['card']]}? You may have one {restriction} in play: "
                f"your {titles[replaced]} will be destroyed, and you will draw a card."
            )


def _keep_card_warnings(board: dict, viewer: User, card_warnings: bool | None) -> None:
    """Card warnings ask a player whose Card Warnings preference is on, and nobody else:
    the preference, when not given, is read only when a warning is due."""
    warned = [action for action in board["actions"] if action.get("warning")]
    if not warned:
        return
    if not (card_warnings_on(viewer=viewer) if card_warnings is None else card_warnings):
        for action in warned:
            action["warning"] = None


def card_warnings_on(*, viewer: User) -> bool:
    """Whether ``viewer`` is asked before a card's restriction destroys one of theirs
    (Preferences, Card Warnings; on for a player who never saved the preference)."""
    saved = Preferences.objects.filter(user=viewer).values_list("card_warnings", flat=True)
    return saved.first() is not False


def _team_board(view: dict, seat: int | None, bottom: int, names, player) -> dict:
    """A team game's playmat (MULTIPLAYER GAMES), as the seat at its bottom reads it (an
    observer reads it from seat 0's): his side's players at the bottom, he first (a Raid's
    four heroes in their seats' order), the opponents at the top; at each quest the units of
    every player grouped by side, each player's level tokens, and the players who have it in
    reach ("Quests"); the mini-map's players ("Mini-Map": whose turn, who decides now, power
    and health, who has left); the combat's two commanders ("Commanders")."""
    friendly = next(side for side in view["sides"] if bottom in side)
    enemy = next(side for side in view["sides"] if bottom not in side)
    friends = [bottom, *(each for each in friendly if each != bottom)]
    deciding = view["decision"]["seat"]
    players = {}
    for each in (*friends, *enemy):
        shown = player(each)
        shown.update(
            friendly=each in friendly,
            you=each == seat,
            active=each == view["active"],
            deciding=each == deciding,
            archetype=shown["avatar"].get("archetype") or "",
            reach=[view["quests"][index]["card"]["title"] for index in view["reach"][each]],
        )
        players[each] = shown

    def groups(quest: dict, seats: list[int]) -> list[dict]:
        return [
            {
                "seat": each,
                "name": names[each],
                "units": quest["units"][each],
                "tokens": quest["tokens"][each],
            }
            for each in seats
        ]

    quests = [
        {
            **quest,
            "near": groups(quest, friends),
            "far": groups(quest, enemy),
            "reach": [names[each] for each in players if index in view["reach"][each]],
            "my_reach": seat is not None and index in view["reach"][seat],
            "combat": _quest_combat(view["combat"], quest["card"]["id"], set(friendly), names),
        }
        for index, quest in enumerate(view["quests"])
    ]
    combat = next((quest for quest in quests if quest["combat"]), None)
    # Four heroes sit in a row as their reach runs, left to right ("In a 4-versus-1 game,
    # the players to the far left and right begin the game with only one quest in reach").
    near = sorted(friendly) if len(friendly) > 2 else friends
    return {
        "team": True,
        "me": players[bottom],
        "teammates": [players[each] for each in friends[1:]],
        "near_players": [players[each] for each in near],
        "opponents": [players[each] for each in enemy],
        "players": list(players.values()),
        "quests": quests,
        "combat": combat and {"quest": combat["card"]["title"], **combat["combat"]},
    }


# Where a view holds cards (game.engine.views): each player's avatar and zones, each quest
# and its units; a "choose" decision's choices besides.
_PLAYER_ZONES = ("hand", "discard", "quest_pile", "items", "abilities", "completed", "removed")

# The kinds of action that play a card from the hand: the hand's affordable cards.
_PLAY_KINDS = frozenset({"play", "play_tactic"})


def _playmat_cards(view: dict) -> Iterator[dict]:
    for player in view["players"]:
        yield player["avatar"]
        for zone in _PLAYER_ZONES:
            yield from player[zone] or ()
    for quest in view["quests"]:
        yield quest["card"]
        for units in quest["units"]:
            yield from units


def _dress_cards(view: dict, faces: dict, actions: list[dict]) -> None:
    """Give each card of ``view`` (a view the engine has just made for this screen) its face
    address, [set, number], where its deck had one; and mark the playmat's cards that a legal
    action names (``actionable``: a double-click, Enter or a drag does it), those the viewer
    can play from the hand now (``playable``, the playmat's affordable hint) and those in the
    combat. Only the deciding seat's view holds actions, so nothing is marked actionable or
    playable for anyone else."""
    named = {action["card"] for action in actions if action["card"] is not None}
    playable = {action["card"] for action in actions if action["kind"] in _PLAY_KINDS}
    combatants = set()
    for side in (view["combat"] or {}).get("sides", ()):
        combatants.update(side["combatants"])
    for card in view["decision"].get("choices", ()):
        if card["title"] in faces:
            card["face"] = faces[card["title"]]
    for card in _playmat_cards(view):
        if card["title"] in faces:
            card["face"] = faces[card["title"]]
        card["actionable"] = card["id"] in named
        card["playable"] = card["id"] in playable
        card["combatant"] = card["id"] in combatants


def _mark_cards(view: dict, titles) -> None:
    """Give each card of the playmat its links and targets (glossary, "link", "target"), as
    (how, the other card's id, its title): ``targeted`` by the other card, ``targeting`` it,
    or ``linked`` to it; and mark ``choosable`` the cards an effect or a combat's damage is
    choosing among now, which every viewer sees."""
    marks: dict[int, list[tuple[str, int, str]]] = {}
    for mark in view["marks"]:
        source, card = mark["source"], mark["card"]
        if source is None:
            continue
        if mark["kind"] == "target":
            ends = (("targeting", source, card), ("targeted", card, source))
        else:
            ends = (("linked", source, card), ("linked", card, source))
        for how, end, other in ends:
            marks.setdefault(end, []).append((how, other, titles[other]))
    choosable = set(view["decision"].get("candidates", ()))
    for card in _playmat_cards(view):
        card["marks"] = tuple(marks.get(card["id"], ()))
        card["choosable"] = card["id"] in choosable


def _sentries(view: dict, seat: int) -> int:
    """How many of ``seat``'s units have Sentry, shown on his avatar (glossary, "sentry")."""
    return sum(
        "sentry" in unit["keywords"] for quest in view["quests"] for unit in quest["units"][seat]
    )


def _pips(tokens: int, level: int | None) -> list[bool]:
    """A quest meter's pips: one per level point, filled by the level tokens placed."""
    return [index < tokens for index in range(max(level or 0, tokens))]


def _quest_combat(combat: dict | None, quest: int, near: set[int], names) -> dict | None:
    """The combat at ``quest``, as the players at the bottom of the playmat (``near``: the
    viewer, and his teammate in a team game) read it: the attacker's and defender's totals
    beside the quest meter (rulebook, "Quest Meter"), and the two commanders, who decide for
    each side (MULTIPLAYER GAMES, "Commanders")."""
    if combat is None or combat["quest"] != quest:
        return None
    attacker, defender = combat["sides"]
    near_side, far_side = (attacker, defender) if attacker["seat"] in near else (defender, attacker)
    return {
        "kind": combat["kind"],
        "near": near_side["total"],
        "far": far_side["total"],
        "near_attacks": attacker["seat"] in near,
        "attacker": names[attacker["seat"]],
        "defender": names[defender["seat"]],
        "to_act": names[combat["to_act"]],
    }


def playmat_card_size(*, viewer: User) -> str:
    """The size ``viewer`` draws the playmat's cards at (Preferences, Card Size)."""
    return (
        Preferences.objects.filter(user=viewer).values_list("card_size_playmat", flat=True).first()
        or CardSize.MEDIUM
    )


def _tactic_shown(moment: MatchMoment, logged, names, titles, faces) -> dict | None:
    """The tactic played last since the screen shown at ``logged``, which the playmat shows
    oversized (rulebook, "Tactics": "You'll see an oversized version of any tactic that's
    played appear on the screen"). A first look, or a new game, has no news to show."""
    game = moment.game
    if logged is None or logged[0] != game.number:
        return None
    played = [
        event
        for _, _, events in _actions_since(moment, logged[1])
        for event in events
        if event["type"] == "tactic_played"
    ]
    if not played:
        return None
    card = played[-1]["card"]
    return {
        "id": card,
        "title": titles[card],
        "face": faces.get(titles[card]),
        "player": names[played[-1]["seat"]],
    }


def _log(
    moment: MatchMoment, seat, names, titles, faces, logged: tuple[int, int] | None, viewer: User
):
    """The Chat Log's lines (HTML) after ``logged`` and the point they reach. A first look,
    or a new game, gets the game's messages from its opening, with the match's player chat
    among them in time order; later, only the game messages since (chat arrives live)."""
    game = moment.game
    number, applied = logged or (0, 0)
    full = logged is None or number != game.number
    timed_events = [(game.started, event) for event in game.opening_events] if full else []
    since = 0 if full else applied
    for _, created, events in _actions_since(moment, since):
        timed_events += [(created, event) for event in events]
    lines = []
    for at, event in timed_events:
        if parts := engine.render_parts(event, seat, names, titles):
            lines.append((at, fragments.game_line(parts, faces)))
    if full:
        lines += _chat_lines(moment.match, viewer, since=None)
        lines.sort(key=lambda line: line[0])
    return [html for _, html in lines], (game.number, game.applied)


def _actions_since(moment: MatchMoment, since: int):
    """The game's actions after number ``since`` as (number, created, events): from the
    moment's recent actions when they reach back that far, else read."""
    if moment.recent_actions is not None and since >= moment.recent_since:
        return [action for action in moment.recent_actions if action[0] > since]
    actions = moment.game.actions.filter(number__gt=since).order_by("number")
    return actions.values_list("number", "created", "events")


class NoReplay(UserError):
    """The match has no replay yet (it is not over)."""


class NoSuchMatch(NoReplay):
    pass


def match_replay(
    *, match_id: int, viewer: User, game_number: int | None, step: int | None, own_view: bool
) -> MatchScreen:
    """A finished match's game as it stood after ``step`` of its actions (None: the end),
    from the public view, or from the viewer's own seat when they played it and ask for it
    (``own_view``). A game that ended outside its log (a concession, a flag fallen, a draw
    agreed, staff) has one step more, its ending, with the result. The screen's ``replay``
    says where the step lies, whether the seed matches its published hash and the log
    replays to the stored game, and the stored result."""
    match = Match.objects.select_related("host", "winner").filter(pk=match_id).first()
    if match is None:
        raise NoSuchMatch("There is no such match.")
    seats = list(match.seats.select_related("player").order_by("seat"))
    if refusal := replay_refusal(
        match=match, seats=seats, viewer=viewer, viewer_guild_id=_guild_asked(match, viewer)
    ):
        raise NotAllowedToWatch(refusal)
    if match.status != MatchStatus.FINISHED:
        raise NoReplay("A match's replay opens when the match has ended.")
    games = list(match.games.order_by("number"))
    if not games:
        raise NoReplay("This match ended before its first game began.")
    game = next((each for each in games if each.number == game_number), games[-1])
    actions = list(game.actions.order_by("number").values_list("action", flat=True))
    stored = game_state(game)
    ends_off_the_log = game.ended is not None and stored.winner is None
    steps = len(actions) + ends_off_the_log
    step = steps if step is None else max(0, min(step, steps))
    own_seat = next((each.seat for each in seats if each.player_id == viewer.pk), None)
    seat = own_seat if own_view else None
    names = [each.name for each in seats]
    faces = match_faces(match, seats)
    events: list[dict] = []
    state = game_beginning(game, events)
    for action in actions[:step]:
        events += engine.apply(state, action)
    titles = engine.card_titles(state)
    board = _board(state, seat, names, titles, faces)
    board["card_size"] = playmat_card_size(viewer=viewer)
    board["my_decision"] = False
    lines = [
        parts for event in events if (parts := engine.render_parts(event, seat, names, titles))
    ]
    winners = team_winners(match, seats, game.winner_seat) if match.team_game else None
    result = game_result(game, names, winners=winners)
    board["result"] = result if step > len(actions) else None
    if board["result"]:
        lines.append([(f"* {result}.", False)])
    # The check of the whole log reuses the step's state when the step is the last one.
    replayed = state if step >= len(actions) else _replayed(game_beginning(game), actions)
    screen = MatchScreen(match=match, seats=seats, seat=seat, game=game, board=board)
    screen.log = [fragments.game_line(parts, faces) for parts in lines]
    screen.replay = {
        "games": games,
        "step": step,
        "steps": steps,
        "actions": len(actions),
        "own_seat": own_seat,
        "own_view": seat is not None,
        "hash_matches": seed_commitment(game.seed, game.seed_salt) == game.seed_hash,
        "log_replays": engine.to_json(replayed) == engine.to_json(stored)
        and replayed.winner in (None, game.winner_seat),
        "result": result,
    }
    return screen


def game_result(game: Game, names: list[str], *, winners: list[str] | None = None) -> str | None:
    """A game's stored result in words: "Carol wins the game by destroying the opposing
    avatar", "Carol wins the game: Bob conceded", "The game has no winner: drawn by
    agreement"; for a team game, won by a side, its ``winners``: "Carol and Dora win the
    game by ..." (MULTIPLAYER GAMES, "Winning the Game"). None while it goes on."""
    if game.ended is None:
        return None
    if game.winner_seat is None:
        outcome = "The game has no winner"
    elif winners:
        outcome = f"{side_wins(winners)} the game"
    else:
        outcome = f"{names[game.winner_seat]} wins the game"
    if not game.win_reason:
        return outcome
    by_the_rules = game.win_reason in WIN_REASONS.values()
    return f"{outcome} by {game.win_reason}" if by_the_rules else f"{outcome}: {game.win_reason}"


def replay_refusal(
    *, match: Match, seats: Iterable[MatchSeat], viewer: User, viewer_guild_id: int | None
) -> str | None:
    """Why ``viewer``, a member of the guild ``viewer_guild_id``, may not see ``match``'s
    replay, or None if they may: its players and staff may, anyone else as they may watch it
    (``observer_refusal``)."""
    if viewer.is_staff or any(seat.player_id == viewer.pk for seat in seats):
        return None
    return observer_refusal(match=match, viewer_guild_id=viewer_guild_id)


def seed_commitment(seed: int, salt: str) -> str:
    """The published hash of a game's seed: sha256 of "<salt>:<seed>" in hexadecimal."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


@dataclass(frozen=True)
class PastMatch:
    match: Match
    # Every seat of the other side in seat order (a team game's two, a Raid's boss), and the
    # player's teammates' seats: each shown as the match showed it (``MatchSeat.name``).
    opponents: list[MatchSeat]
    teammates: list[MatchSeat]
    archetype: str
    opponent_archetypes: list[str]
    result: str  # "Won", "Lost", "Drawn" or "Ended"
    score: str  # games won and lost, e.g. "2–1"
    actions: int
    # A Skirmish's level ("Hard"); blank for a match of two people.
    skirmish: str = ""


def _computer_match_kind(match: Match) -> str:
    """A Skirmish's level ("Hard"); blank for any other match."""
    return match.get_computer_level_display() if match.skirmish else ""


def skirmish_record(*, player: User) -> dict[str, int]:
    """The player's finished Skirmishes: how many won and lost."""
    finished = Match.objects.skirmishes().filter(seats__player=player, status=MatchStatus.FINISHED)
    won = finished.filter(winner=player).count()
    return {"won": won, "lost": finished.exclude(winner=None).count() - won}


def match_history(*, player: User, viewer: User) -> list[PastMatch]:
    """The player's finished matches whose replay ``viewer`` may see (``replay_refusal``),
    newest first: opponents (every one of a team game's, with the player's teammates), decks'
    archetypes, result, length and date (rulebook: match history per player)."""
    viewer_guild_id = guild_id_of(user_id=viewer.pk) if viewer != player else None
    matches = (
        Match.objects.filter(seats__player=player, status=MatchStatus.FINISHED)
        .select_related("winner")
        .prefetch_related("seats__player", "games")
        .annotate(action_count=Count("games__actions", distinct=True))
        .order_by("-ended", "-pk")
    )
    history = []
    for match in matches:
        if replay_refusal(
            match=match, seats=match.seats.all(), viewer=viewer, viewer_guild_id=viewer_guild_id
        ):
            continue
        mine = next(seat for seat in match.seats.all() if seat.player_id == player.pk)
        mine_team = match.team_of(mine.seat)
        seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
        theirs = [seat for seat in seats if match.team_of(seat.seat) != mine_team]
        ours = [seat for seat in seats if match.team_of(seat.seat) == mine_team and seat != mine]
        # A team game's win is its side's (MULTIPLAYER GAMES).
        winners = [
            match.team_of(game.winner_seat)
            for game in match.games.all()
            if game.winner_seat is not None
        ]
        won = winners.count(mine_team)
        lost = len(winners) - won
        if match.team_game and winners:
            # A player who left the game lost it, whatever his side went on to do.
            result = ("Left (team won)" if mine.left_game else "Won") if won else "Lost"
        elif match.winner_id is None:
            result = "Drawn" if match.end_reason == DRAWN_BY_AGREEMENT else "Ended"
        else:
            result = "Won" if match.winner_id == player.pk else "Lost"
        history.append(
            PastMatch(
                match=match,
                opponents=theirs,
                teammates=ours,
                archetype=mine.archetype,
                opponent_archetypes=[seat.archetype for seat in theirs],
                result=result,
                score=f"{won}–{lost}",
                actions=match.action_count,
                skirmish=_computer_match_kind(match),
            )
        )
    return history
