"""Casual matches: create, join, leave, get ready, and play each game through the engine
(rulebook, Casual Lobby; docs/design.md, "Live play").

Every writer locks the match row first, so two requests on one match, from any web process,
run one after the other. An action is accepted only at the ply the game has reached: the
client sends the number of actions it has seen, so a resent action finds its ply already
played and is answered without being applied twice.
"""

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings as site_settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone

from collection.decks import selectors as deck_selectors
from collection.decks.models import Deck, PlayFormat
from game import fragments
from game.encounters import DEFAULT_DIFFICULTY, DIFFICULTIES
from game.engine import api as engine
from game.engine.actions import pass_
from game.engine.errors import IllegalAction, InvalidDecklist
from game.engine.events import WIN_REASONS
from game.engine.state import in_game
from game.live_states import live_states
from game.models import (
    Game,
    GameAction,
    Match,
    MatchSeat,
    MatchStatus,
    MatchStructure,
    QuickJoinSettings,
    ScenarioProgress,
    TutorialProgress,
)
from game.selectors import (
    MATCH_LOBBIES,
    MatchMoment,
    card_faces,
    clock_left_ms,
    computer_seats,
    deck_decklist,
    deck_faces,
    elapsed_ms,
    game_beginning,
    game_state,
    guide_of,
    match_join_refusal,
    match_unjoinable,
    match_watchers,
    match_winners,
    names_joined,
    open_matches,
    player_decks,
    practice_decklists,
    quick_join_settings,
    running_match,
    seed_commitment,
    side_of,
)
from game.services.decision_sql import (
    commit_unflushed,
    decision_reads,
    decision_transaction,
    fetch_in_order,
    locked_match_sql,
    log_and_game_save,
    row_match,
)
from game.services.raids import (
    RAID_PLAYERS,
    encounter_dialogs_told,
    raid_refusal,
    seat_boss,
)
from game.signals import match_finished_on_commit
from game.tutorials import PLAYER as TUTORIAL_PLAYER
from guilds.selectors import guild_id_of, guild_member_ids
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import ignored_ids, is_ignored
from tcgsite.errors import UserError
from tcgsite.jobs import job_after_commit
from tcgsite.lobbies.places import Lobby
from tcgsite.lobbies.registry import lobby_panel_message
from tcgsite.lobbies.services.presence import lobby_group
from tcgsite.realtime import send_on_commit, user_group

SEATS = 2
# Creating a Match, "Number of Players": the 2-versus-2 team game (MULTIPLAYER GAMES). Its
# seats alternate teams in turn order: a seat's team is ``seat % TEAMS``.
TEAM_PLAYERS = 4
TEAMS = 2
# A light versus dark team game: its first team plays the light side, its second the dark.
TEAM_SIDES = ("light", "dark")
ACTIVE_STATUSES = (MatchStatus.OPEN, MatchStatus.LAUNCHING, MatchStatus.PLAYING)
TITLE_MAX = Match._meta.get_field("title").max_length
PASSWORD_MAX = 60
STANDARD_FORMAT = "standard"
PRACTICE_DECK_NAME = "Practice deck"
# The Create window's time limits (the match's total, half for each player), in seconds.
TIME_LIMITS = (20 * 60, 30 * 60, 60 * 60, 90 * 60)
MAX_TIME_LIMIT = 3 * 60 * 60
BETWEEN_GAMES = "This game is over: the next game of the match begins in a moment."
# The longest batch of actions one button may stand for: the most a decision repeats (a
# combat's exerts, the points of damage to assign) is far fewer.
BATCH_MAX_ACTIONS = 40
# Large columns that deciding an action never reads: a seat's frozen decklist and card faces,
# a game's starting decklists and opening events (the state holds what the game needs).
# Deferred on the action's path, they cost no decoding on every ply.
SEAT_DECK_FIELDS = ("decklist", "faces")
GAME_START_FIELDS = ("decklists", "opening_events")
# A game's stored state is a snapshot at most this many actions behind its log (the log is
# stored with every action): writing the whole state (34 KB) with each action cost more than
# replaying a few actions where no process holds it live (game.live_states).
SNAPSHOT_ACTIONS = 20
# How a tutorial's game is won when its goal is reached (game.selectors.game_result).
TUTORIAL_WON = "the tutorial's goal is reached"
# How a scenario's game is won when its own victory condition is met before the rules'.
SCENARIO_WON = "the scenario's victory condition is met"
# The engine's action of a player leaving the game (conceding): taken only through
# ``match_concede`` and a fallen flag, for the player's own seat.
LEAVE = engine.leave(0)["kind"]
# The engine's event of a player of a team game losing, whatever made him lose: he is out
# of the game (the last of a side to lose leaves no "left_game" event: the game ends first).
PLAYER_LOST_EVENT = "player_lost"


class MatchError(UserError):
    pass


class MatchGone(MatchError):
    """The match filled, was cancelled or ended before this player's request reached it."""


class StalePly(MatchError):
    """A decision sent from a page that is behind the game: it needs the game as it stands."""


@dataclass(frozen=True)
class MatchSettings:
    """What the Create window sets (rulebook, Casual Lobby, "Creating a Match")."""

    title: str = ""
    structure: int = MatchStructure.SINGLE_GAME
    password: str = ""
    allow_observers: bool = True
    friends_only: bool = False
    # Only members of the host's guild may join and observe.
    guild_only: bool = False
    light_vs_dark: bool = False
    time_limit: int | None = None  # seconds in all, shared out equally among the players
    # "Number of Players": 2, or 4 for a 2-versus-2 team game.
    players: int = SEATS
    # Play Format *Raid*: the heroic encounter's slug (game.encounters); its match seats four
    # heroes and the boss, whatever ``players`` says.
    encounter: str = ""
    # A Raid's difficulty (game.encounters.DIFFICULTIES).
    difficulty: str = DEFAULT_DIFFICULTY
    practice: bool = False
    # A Challenge (the User List's menu): only this player may join.
    challenged: User | None = None


@dataclass(frozen=True)
class Played:
    """What one accepted action did: the game after it, its events, and whether the action
    was a resend of one already applied (then nothing changed)."""

    game: Game
    events: list[dict]
    resent: bool = False


def match_create(*, host: User, deck: Deck | None, settings: MatchSettings) -> Match:
    """Open a match with ``host`` in its first seat (with ``deck``, unless it is a Practice
    Game, which deals its own decks); in a light versus dark team game, the first seat of
    the team of his deck's side.

    A team game (Creating a Match, "Number of Players") is a single game: a player who leaves
    it loses while his teammates play on (MULTIPLAYER GAMES, "Leaving the Game"), and the win
    is his side's, so there is no player who won a game to count towards a best of three, and
    no loser to choose who goes first in the next. Nor is it a Practice Game, whose two fixed
    decks are for two players."""
    title = " ".join(settings.title.split())[:TITLE_MAX] or host.username
    if settings.structure not in MatchStructure.values:
        raise MatchError("Choose a Single Game, Best of Three or Best of Five.")
    players = settings.players
    if settings.encounter:
        if refusal := raid_refusal(settings.encounter):
            raise MatchError(refusal)
        if settings.difficulty not in (difficulty.slug for difficulty in DIFFICULTIES):
            names = " or ".join(difficulty.name for difficulty in DIFFICULTIES)
            raise MatchError(f"Choose the Raid's difficulty: {names}.")
        players = RAID_PLAYERS
        if settings.light_vs_dark:
            raise MatchError(
                "A Raid's heroes may bring decks of either side: light versus dark is for "
                "games between players."
            )
    elif players not in (SEATS, TEAM_PLAYERS):
        raise MatchError("Choose the game for 2 players, or the 2-versus-2 team game for 4.")
    if players > SEATS:
        kind = "A Raid" if settings.encounter else "A 2-versus-2 team game"
        if settings.structure != MatchStructure.SINGLE_GAME:
            raise MatchError(
                f"{kind} is a Single Game: a player who leaves it loses while his teammates "
                "play on, so there is no best of three."
            )
        if settings.practice:
            raise MatchError("A Practice Game is for 2 players: its two decks are dealt to them.")
    if settings.time_limit is not None and not 0 < settings.time_limit <= MAX_TIME_LIMIT:
        raise MatchError("Choose a time limit from the list, or none.")
    if len(settings.password) > PASSWORD_MAX:
        raise MatchError(f"A match password has at most {PASSWORD_MAX} characters.")
    challenged = settings.challenged
    if challenged is not None:
        if challenged.pk == host.pk:
            raise MatchError("You can't challenge yourself.")
        if is_ignored(user=challenged, other=host):
            raise MatchError(f"{challenged.username} is not taking challenges from you.")
    with transaction.atomic():
        User.objects.select_for_update().get(pk=host.pk)
        refuse_if_busy(host)
        if settings.practice:
            deck, decklist, archetype = None, {}, ""
        else:
            decklist, archetype = checked_decklist(deck, host)
        guild_id = guild_id_of(user_id=host.pk) if settings.guild_only else None
        if settings.guild_only and guild_id is None:
            raise MatchError(
                "You are in no guild: only a guild's member can make a Guild-Only match."
            )
        match = Match.objects.create(
            title=title,
            host=host,
            structure=settings.structure,
            password=make_password(settings.password) if settings.password else "",
            allow_observers=settings.allow_observers,
            friends_only=settings.friends_only,
            guild_only=settings.guild_only,
            guild_id=guild_id,
            light_vs_dark=settings.light_vs_dark and not settings.practice,
            time_limit=settings.time_limit,
            practice=settings.practice,
            challenged=challenged,
            players=players,
            encounter=settings.encounter,
            difficulty=settings.difficulty if settings.encounter else "",
        )
        host_seat = 0
        if match.team_game and match.light_vs_dark:
            host_seat = TEAM_SIDES.index(side_of(archetype))
        _seat(match, host_seat, host, deck, decklist, archetype)
        if match.raid:
            seat_boss(match)
        if challenged is not None:
            send_on_commit(
                group=user_group(challenged.pk),
                message_type="lobby.toast",
                payload={"sender_id": host.pk, "html": fragments.challenge_toast(match)},
            )
        announce(match)
        announce_medallion(match, created=True)
    return match


def match_join(
    *, match_id: int, player: User, deck: Deck | None, password: str = "", team: int | None = None
) -> Match:
    """Take a free seat of an open match; once every seat is taken, the match moves to its
    Match Launch screen. In a team game the player may choose his ``team`` (0 or 1; in a
    light versus dark one, the team of his deck's side); None: the first free seat."""
    with transaction.atomic():
        User.objects.select_for_update().get(pk=player.pk)
        match = locked_match(match_id)
        if match.seats.filter(player=player).exists():
            raise MatchError("You are already in this match.")
        if gone := match_unjoinable(match):
            raise MatchGone(gone)
        refuse_if_busy(player)
        if match.needs_password and not check_password(password, match.password):
            raise MatchError("That is not the match's password (passwords are case-sensitive).")
        if refusal := match_join_refusal(match=match, player=player):
            raise MatchError(refusal)
        seats = list(match.seats.all())
        if match.practice:
            deck, decklist, archetype = None, {}, ""
        else:
            decklist, archetype = checked_decklist(deck, player)
        if match.team_game:
            seat = _team_seat_free(match, seats, side_of(archetype), team)
        else:
            (taken,) = seats
            if match.light_vs_dark and side_of(archetype) == taken.side:
                raise MatchError(
                    "This match is light versus dark: bring a deck of the other side "
                    f"({_side_archetypes(taken.side, other=True)})."
                )
            seat = 1 - taken.seat
        _seat(match, seat, player, deck, decklist, archetype)
        if len(seats) + 1 == match.players:
            match.status = MatchStatus.LAUNCHING
            match.save(update_fields=["status"])
        announce(match)
        announce_medallion(match)
    return match


def _side_archetypes(side: str, *, other: bool = False) -> str:
    light = side == "light"
    return "Jedi or Rebel" if light != other else "Sith or Imperial"


def _team_name(match: Match, team: int) -> str:
    """How a team of a team game is called: by its side in a light versus dark one."""
    return f"the {TEAM_SIDES[team]} side" if match.light_vs_dark else f"team {team + 1}"


def _team_seat_free(match: Match, seats: list[MatchSeat], side: str, team: int | None) -> int:
    """The seat a player joining a team game takes: the first free one of ``team`` (None:
    of either team; in a light versus dark game, the team of his deck's ``side``)."""
    if match.raid:
        if team not in (None, 0):
            raise MatchError("A Raid's players are all heroes, on one team against its boss.")
        team = 0
    if team is not None and team not in range(TEAMS):
        raise MatchError("Choose team 1 or team 2.")
    if match.light_vs_dark:
        sided = TEAM_SIDES.index(side)
        if team is not None and team != sided:
            raise MatchError(
                f"This match is light versus dark: {_team_name(match, team)} plays "
                f"{_side_archetypes(TEAM_SIDES[team])} decks."
            )
        team = sided
    taken = {each.seat for each in seats}
    free = [
        seat
        for seat in range(match.players)
        if seat not in taken and (team is None or match.team_of(seat) == team)
    ]
    if not free:
        if team is None or match.raid:
            raise MatchError(f"Match {match.pk} is full.")
        other = "" if match.light_vs_dark else ": join the other team"
        raise MatchError(f"{_team_name(match, team).capitalize()} is full{other}.")
    return free[0]


def quick_join_settings_save(
    *, player: User, structure: int, time_limit: int | None, deck: Deck | None
) -> QuickJoinSettings:
    """Save the kind of match Quick Join looks for, or creates."""
    if structure not in MatchStructure.values:
        raise MatchError("Choose a Single Game, Best of Three or Best of Five.")
    if time_limit is not None and time_limit not in TIME_LIMITS:
        raise MatchError("Choose a time limit from the list, or none.")
    if deck is not None and deck.owner_id != player.pk:
        raise MatchError("Choose one of your own decks.")
    saved, _ = QuickJoinSettings.objects.update_or_create(
        player=player, defaults={"structure": structure, "time_limit": time_limit, "deck": deck}
    )
    return saved


def quick_join(*, player: User) -> Match:
    """Join the first waiting match that fits the player's Quick Join Settings (no password,
    not a Practice Game), or create one with them."""
    wanted = quick_join_settings(player=player)
    deck = wanted.deck or next((deck for deck, valid in player_decks(player=player) if valid), None)
    if deck is None:
        raise MatchError("Quick Join needs a valid deck: open a starter deck first.")
    for match in open_matches(viewer=player):
        fits = (
            match.host_id != player.pk
            and not match.practice
            and not match.password
            and match.structure == wanted.structure
            and match.time_limit == wanted.time_limit
            and match.challenged_id is None
            and not match.team_game
        )
        if not fits:
            continue
        try:
            return match_join(match_id=match.pk, player=player, deck=deck)
        except MatchError:
            continue  # taken meanwhile, or not for this deck: try the next
    settings = MatchSettings(structure=wanted.structure, time_limit=wanted.time_limit)
    return match_create(host=player, deck=deck, settings=settings)


def match_leave(*, match_id: int, player: User) -> Match:
    """Leave a match before it begins: the host's leaving cancels it, the other player's
    opens their seat again."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = seat_of(match, player)
        if match.status not in (MatchStatus.OPEN, MatchStatus.LAUNCHING):
            raise MatchError("The match has begun: concede the game instead.")
        if match.games.exists():
            # A resumed match left before it went on is adjourned again.
            match.status = MatchStatus.ADJOURNED
            match.end_reason = f"{player.username} left before the match went on."
            match.save(update_fields=["status", "end_reason"])
            match.seats.update(ready=False)
            announce(match)
            return match
        if player.pk == match.host_id:
            match.status = MatchStatus.CANCELLED
            match.ended = timezone.now()
            match.end_reason = f"{player.username} cancelled the match."
            match.save(update_fields=["status", "ended", "end_reason"])
        else:
            seat.delete()
            # Computer players stay ready: nobody else would get them ready again.
            match.seats.filter(player__computer_opponent=None).update(ready=False)
            match.status = MatchStatus.OPEN
            match.save(update_fields=["status"])
        announce(match)
        announce_medallion(match, created=match.status == MatchStatus.OPEN)
    return match


def match_challenge_decline(*, match_id: int, player: User) -> Match:
    """The challenged player declines: the challenge is cancelled."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.challenged_id != player.pk or match.status != MatchStatus.OPEN:
            raise MatchError("There is no challenge of yours to decline here.")
        match.status = MatchStatus.CANCELLED
        match.ended = timezone.now()
        match.end_reason = f"{player.username} declined the challenge."
        match.save(update_fields=["status", "ended", "end_reason"])
        announce(match)
        announce_medallion(match)
    return match


def match_ready(*, match_id: int, player: User, ready: bool = True) -> Match:
    """Ready to go (or not) on the Match Launch screen; when both players are ready, the
    first game begins."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = seat_of(match, player)
        if match.status != MatchStatus.LAUNCHING:
            if match.status != MatchStatus.OPEN:
                raise MatchError("The match has already begun.")
            raise MatchError(
                "Wait for every seat to be taken."
                if match.team_game
                else "Wait for an opponent to join."
            )
        seat.ready = ready
        seat.save(update_fields=["ready"])
        if ready and not match.seats.filter(ready=False).exists():
            resumed = match.games.order_by("-number").first()
            match.status = MatchStatus.PLAYING
            if resumed is not None and resumed.ended is not None:
                match.save(update_fields=["status"])
                _next_game(match, match.first_chooser)
            elif resumed is not None:
                match.save(update_fields=["status"])
                state = game_state(resumed)
                clock_switch(match, engine.legal_actions(state).seat)
                resumed.computer_due = _computer_due(match, state)
                resumed.save(update_fields=["computer_due"])
                _computer_turn(match, resumed)
            else:
                match.started = timezone.now()
                match.save(update_fields=["status", "started"])
                start_first_game(match)
            announce_running(match, started=True)
        announce(match)
    return match


def game_act(*, match_id: int, player: User, ply: int, action: object) -> Played:
    """Apply ``action`` for ``player`` at ``ply`` (the number of actions they have seen).

    A stale ply is refused, except when the action at that ply is the very one sent again
    by the same seat: that is a resend, answered as played.
    """
    return game_act_batch(match_id=match_id, player=player, ply=ply, actions=[action])


def game_act_batch(*, match_id: int, player: User, ply: int, actions: list) -> Played:
    """Apply the batch ``actions`` for ``player`` from ``ply``: one button that stands for
    several decisions in a row (the Prompt's "Exert all for attack", "Damage ... with up to
    3"), in one transaction under the match's lock.

    Each action is checked against the legal actions at its moment and logged as its own
    action, so the log and its replay are those of the same clicks one by one. The first
    action is refused as ``game_act`` refuses one; the batch stops, keeping what it applied,
    at the first later action that is no longer legal, or once the decision is no longer
    the player's. Between two of its actions, the opponent is never skipped: only passes that
    are all a seat can do are made, and only for a seat whose player asked for them (Pass When
    Out of Actions) or for a computer opponent, which could choose nothing else. A resent
    batch (its first action already stored at ``ply`` by this seat) is answered as played.
    """
    if not actions or len(actions) > BATCH_MAX_ACTIONS:
        raise MatchError("That action could not be read.")
    if any(isinstance(action, dict) and action.get("kind") == LEAVE for action in actions):
        raise MatchError("To leave the game, concede it.")
    with decision_transaction():
        match, seats, game = decision_reads(match_id)
        if match is None:
            raise MatchError("There is no such match.")
        seat = seat_among(seats, player).seat
        if match.status != MatchStatus.PLAYING:
            raise MatchError("The match is not in progress.")
        if _time_out(match):
            return Played(game=game, events=[])
        if game.ended is not None:
            raise MatchError(BETWEEN_GAMES)
        if ply != game.applied:
            stored = game.actions.filter(number=ply + 1).first()
            if stored is not None and stored.seat == seat and stored.action == actions[0]:
                return Played(game=game, events=[], resent=True)
            raise StalePly("The game has moved on since: here it is as it stands.")
        state = _current_state(game)
        if engine.legal_actions(state).seat != seat:
            raise MatchError("It is not your decision: wait for your opponent.")
        autopass = {each.seat for each in seats if each.autopass}
        logged: list[GameAction] = []
        events = _batch_applied(match, game, state, seat, actions, autopass, logged)
        _state_store(match, game, state, logged, seats=seats)
        moment = _moment_after(match, seats, game, state, ply, logged)
        if moment is not None and not site_settings.DECISION_COMMIT_FLUSHED:
            # The game goes on: its end, and whatever follows from it, always waits for disk.
            commit_unflushed()
        announce(match, moment=moment)
    return Played(game=game, events=events)


def _batch_applied(
    match: Match,
    game: Game,
    state,
    seat: int,
    actions: list,
    autopass: set[int],
    logged: list[GameAction],
) -> list[dict]:
    """Apply the batch's ``actions`` for ``seat`` as ``game_act_batch`` says, adding each
    action stored to ``logged``; the events, in order."""
    events: list[dict] = []
    forced_passers = None
    for index, action in enumerate(actions):
        if index:
            if forced_passers is None:
                forced_passers = autopass | computer_seats(match)
            events += _passes_when_out_of_actions(forced_passers, game, state, logged)
            if state.winner is not None or engine.legal_actions(state).seat != seat:
                break
        try:
            applied = engine.apply(state, action)
        except IllegalAction as error:
            if index:
                break
            raise MatchError("That is not a legal action now.") from error
        game.applied += 1
        logged.append(_logged(game, seat, action, applied))
        # A new list: the logged action keeps its own events.
        events += applied + _passes_when_out_of_actions(autopass, game, state, logged)
    return events


def _moment_after(
    match: Match, seats: list[MatchSeat], game: Game, state, ply: int, logged: list[GameAction]
) -> MatchMoment | None:
    """The match as ``game_act`` leaves it, made from what it read and wrote under the
    match's lock, for the sockets to show without reading it again; None when the action
    ended the game, whose ending changes more than the action did (the sockets read it)."""
    if state.winner is not None or match.status != MatchStatus.PLAYING:
        return None
    return MatchMoment(
        match=match,
        seats=seats,
        game=game,
        state=state,
        winners=match_winners(match),
        recent_actions=[(each.number, each.created, each.events) for each in logged],
        recent_since=ply,
        actions=[each.action for each in logged],
    )


def computers_play_on(*, match_id: int, game_number: int, ply: int, agents: dict) -> int:
    """In a match whose every seat is a computer (house players in a tournament), apply from
    ``ply`` the decision of each seat's agent (``agents[seat].choose(state, decision)``), one
    after the other in one transaction, up to ``COMPUTER_RUN_ACTIONS`` actions or the game's
    end; the number applied. Each action is checked and logged as ``game_act`` does it; only
    the lock, the state's decoding and its saving are shared by the run. Nothing is applied
    when the game has moved on from ``ply`` (a task run twice, or late)."""
    with decision_transaction():
        match = locked_match(match_id)
        if match.status != MatchStatus.PLAYING:
            return 0
        game = (
            match.games.defer(*GAME_START_FIELDS)
            .select_for_update()
            .filter(number=game_number, ended=None)
            .first()
        )
        if game is None or game.applied != ply or _time_out(match):
            return 0
        state = _current_state(game)
        logged = []
        while state.winner is None and len(logged) < site_settings.COMPUTER_RUN_ACTIONS:
            decision = engine.legal_actions(state)
            if decision.seat not in agents:
                break
            action = agents[decision.seat].choose(state, decision)
            events = engine.apply(state, action)
            game.applied += 1
            logged.append(_logged(game, decision.seat, action, events))
        _state_store(match, game, state, logged)
        announce(match)
    return len(logged)


def _current_state(game: Game):
    """The state of ``game``, read under its match's lock: as this process kept it, if it
    did, else as stored (its snapshot and the log since)."""
    state = live_states.take(game)
    return game_state(game) if state is None else state


def _logged(game: Game, seat: int, action: object, events: list[dict]) -> GameAction:
    """The game's latest action (its ``applied``-th), to store with the game (``_state_store``)."""
    return GameAction(
        game=game,
        number=game.applied,
        seat=seat,
        action=action,
        events=events,
        created=timezone.now(),
    )


def _state_store(
    match: Match, game: Game, state, logged: list[GameAction], *, seats: list[MatchSeat] = ()
) -> None:
    """Save the game as ``state`` left it, with the actions ``logged`` since it was read,
    and go on: the match's next game or end when the game is won, else the next decider's
    clock and, if a computer decides, its turn. The match's ``seats``, when the caller holds
    them, follow the clocks."""
    fields = ["applied"]
    guide = guide_of(match)
    goal_reached = guide is not None and guide.goal_reached(state)
    ends = state.winner is not None or goal_reached
    if ends or game.applied - game.state_applied >= SNAPSHOT_ACTIONS:
        game.state, game.state_applied = engine.to_json(state), game.applied
        fields += ["state", "state_applied"]
    if state.winner is not None:
        game.winner_seat = state.winner
        game.win_reason = WIN_REASONS.get(state.win_reason or "", state.win_reason or "")
    elif goal_reached:
        # The tutorial's (or scenario's) victory condition ends its game before the rules
        # would.
        game.winner_seat = TUTORIAL_PLAYER
        game.win_reason = TUTORIAL_WON if match.tutorial else SCENARIO_WON
    if ends:
        game.ended = timezone.now()
        fields += ["winner_seat", "win_reason", "ended"]
    if match.computers_may_play:
        game.computer_due = None if ends else _computer_due(match, state)
        fields.append("computer_due")
    log_and_game_save(logged, game, fields)
    if match.raid:
        _encounter_dialogs_tell(match, state)
    if match.team_game:
        _leavers_mark(match, logged)
    if ends:
        finish_game(match, game)
    else:
        clock_switch(match, engine.legal_actions(state).seat, seats=seats)
        _computer_turn(match, game)


def _encounter_dialogs_tell(match: Match, state) -> None:
    """Tell the heroes of a Raid the encounter's dialogs whose moment has come."""
    told = encounter_dialogs_told(match, state)
    if told != match.dialogs_read:
        match.dialogs_read = told
        match.save(update_fields=["dialogs_read"])


def _leavers_mark(match: Match, logged: list[GameAction]) -> None:
    """Mark the seats whose players lost, and so left, the team game with the actions
    ``logged``."""
    leavers = [
        event["seat"]
        for action in logged
        for event in action.events
        if event["type"] == PLAYER_LOST_EVENT
    ]
    if leavers:
        match.seats.filter(seat__in=leavers).update(left_game=True)
        if match.offer:
            # Those left to answer it, or its maker, are not who they were when it was made.
            match.offer, match.offer_seat, match.offer_agreed = "", None, []
            match.save(update_fields=["offer", "offer_seat", "offer_agreed"])


def match_pass_if_out_of_actions(*, match_id: int, player: User) -> bool:
    """Pass for ``player`` if it is their decision and Pass is all they can do: they have just
    turned Pass When Out of Actions on (Preferences), and the game should not wait for the
    click the setting is there to save. Whether it passed; a game that moved on meanwhile, or a
    match they do not play, is left as it is."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING).first()
    seat = match and match.seats.filter(player=player).first()
    game = seat and match.games.order_by("-number").first()
    if game is None or game.ended is not None:
        return False
    decision = engine.legal_actions(game_state(game))
    if decision.seat != seat.seat or decision.actions != [pass_()]:
        return False
    try:
        game_act(match_id=match_id, player=player, ply=game.applied, action=pass_())
    except MatchError:
        return False
    return True


def _passes_when_out_of_actions(
    autopass: set[int], game: Game, state, logged: list[GameAction]
) -> list[dict]:
    """Pass for each seat in ``autopass`` (its player asked for it: Preferences, "Pass When
    Out of Actions") whenever passing is all it can do; each pass is stored in the log like
    any action, and added to ``logged``."""
    events: list[dict] = []
    while state.winner is None:
        decision = engine.legal_actions(state)
        if decision.seat not in autopass or decision.actions != [pass_()]:
            break
        passed = engine.apply(state, pass_())
        game.applied += 1
        logged.append(_logged(game, decision.seat, pass_(), passed))
        events += passed
    return events


def match_concede(*, match_id: int, player: User) -> Match:
    """Concede the current game (rulebook, THE GAME SCREEN, "The Playmat"). In a team game
    the player leaves it: he loses, and his teammate plays on (MULTIPLAYER GAMES, "Leaving
    the Game"); the game ends when the last player of a side has left."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = seat_of(match, player).seat
        if match.status != MatchStatus.PLAYING:
            raise MatchError("The match is not in progress.")
        game = match.games.select_for_update().order_by("-number").first()
        if _time_out(match):
            return match
        if game.ended is not None:
            raise MatchError(BETWEEN_GAMES)
        if match.team_game:
            _game_left(match, game, seat)
            announce(match)
            return match
        game.winner_seat = 1 - seat
        game.win_reason = f"{player.username} conceded"
        game.ended = timezone.now()
        game.save(update_fields=["winner_seat", "win_reason", "ended"])
        finish_game(match, game)
        announce(match)
    return match


def _game_left(match: Match, game: Game, seat: int) -> None:
    """``seat``'s player leaves the team game ``game`` (read with its state, under the
    match's lock): the engine's ``leave``, logged like any action, after which the game goes
    on for the others, or ends (MULTIPLAYER GAMES, "Leaving the Game")."""
    state = _current_state(game)
    if not in_game(state, seat):
        raise MatchError("You have left this game already.")
    left = engine.leave(seat)
    events = engine.apply(state, left)
    game.applied += 1
    _state_store(match, game, state, [_logged(game, seat, left, events)])


def match_end_by_staff(*, match_id: int, staff: User, reason: str) -> Match:
    """End a match that is stuck, with no winner and the reason recorded (the admin)."""
    reason = " ".join(reason.split())
    if not reason:
        raise MatchError("Give the reason for ending the match.")
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status not in ACTIVE_STATUSES:
            raise MatchError("The match has already ended.")
        now = timezone.now()
        game = match.games.select_for_update().order_by("-number").first()
        if game is not None and game.ended is None:
            game.ended, game.win_reason = now, "ended by staff"
            game.save(update_fields=["ended", "win_reason"])
        clock_switch(match, None)
        match.status = MatchStatus.FINISHED if game is not None else MatchStatus.CANCELLED
        match.ended = now
        match.end_reason = f"ended by staff ({staff.username}): {reason}"[:200]
        match.save(update_fields=["status", "ended", "end_reason"])
        match_finished_on_commit(match.pk)
        announce(match)
        announce_medallion(match)
    return match


def match_time_check(*, match_id: int) -> bool:
    """End the match if its running clock has run out (in a team game: its player leaves
    the game); whether it did."""
    with transaction.atomic():
        match = locked_match(match_id)
        return match.status == MatchStatus.PLAYING and _time_out(match)


def match_clocks_sweep() -> int:
    """End every timed match whose running clock has run out (in a team game: its player
    leaves the game), also while nobody is connected to it; the number of flags fallen.
    Safe to run twice, or in two processes at once."""
    running = Match.objects.filter(status=MatchStatus.PLAYING, clock_seat__isnull=False)
    return sum(
        match_time_check(match_id=match_id) for match_id in running.values_list("pk", flat=True)
    )


def clock_switch(match: Match, seat: int | None, *, seats: Iterable[MatchSeat] = ()) -> None:
    """Stop the running clock, charging it the time since it started, and start ``seat``'s
    (None: no clock runs). Only in a timed match; the caller holds the match's lock. The
    seat charged is updated among ``seats`` too, the match's seats as the caller read them."""
    if match.time_limit is None:
        return
    now = timezone.now()
    if match.clock_seat is not None and match.clock_since is not None:
        running = (
            match.seats.defer(*SEAT_DECK_FIELDS).select_for_update().get(seat=match.clock_seat)
        )
        running.clock_left_ms -= elapsed_ms(match.clock_since, now)
        running.save(update_fields=["clock_left_ms"])
        for each in seats:
            if each.seat == running.seat:
                each.clock_left_ms = running.clock_left_ms
    match.clock_seat = seat
    match.clock_since = None if seat is None else now
    match.save(update_fields=["clock_seat", "clock_since"])


def _time_out(match: Match) -> bool:
    """If the running clock has run out, its player loses the match on time (rulebook:
    "If your total time runs out, you forfeit the game"; one clock serves every game of the
    match, so the match is lost); in a team game he leaves it, as if he conceded, and the
    game goes on for the others if his side still has a player (MULTIPLAYER GAMES, "Leaving
    the Game"). Whether a flag fell; the caller holds the match's lock."""
    if match.time_limit is None or match.clock_seat is None:
        return False
    seats = match.seats.defer(*SEAT_DECK_FIELDS).select_related("player")
    seat = seats.get(seat=match.clock_seat)
    if clock_left_ms(match, seat, timezone.now()) > 0:
        return False
    game = match.games.select_for_update().order_by("-number").first()
    if match.team_game:
        _game_left(match, game, seat.seat)
        announce(match)
        return True
    winner = seats.get(seat=1 - seat.seat)
    now = timezone.now()
    reason = f"{seat.player.username} ran out of time"
    game.winner_seat, game.win_reason, game.ended = winner.seat, reason, now
    game.save(update_fields=["winner_seat", "win_reason", "ended"])
    clock_switch(match, None)
    match.status = MatchStatus.FINISHED
    match.ended = now
    match.winner = winner.player
    match.end_reason = reason
    match.offer, match.offer_seat, match.offer_agreed = "", None, []
    match.save(
        update_fields=[
            *("status", "ended", "winner", "end_reason"),
            *("offer", "offer_seat", "offer_agreed"),
        ]
    )
    match_finished_on_commit(match.pk)
    announce_running(match)
    announce(match)
    return True


def match_group(match_id: int) -> str:
    """The group of every socket open on a match's page, players' and observers'."""
    return f"match.{match_id}"


def announce(match: Match, *, moment: MatchMoment | None = None) -> None:
    """After the commit, the match's sockets show it anew: from ``moment``, the match as
    committed, when the caller made it, else as each process reads it then."""
    payload = {} if moment is None else {"moment": moment.pack()}
    send_on_commit(group=match_group(match.pk), message_type="match.changed", payload=payload)


def announce_medallion(match: Match, *, created: bool = False) -> None:
    """After the commit, the Casual Lobby's Match Medallions follow: a medallion shows while
    its match waits for a player, to the players allowed to join it."""
    if match.status == MatchStatus.OPEN:
        html = fragments.medallion(match, added=created)
        visible_to = None
        if match.challenged_id is not None:
            visible_to = {match.host_id, match.challenged_id}
        elif match.friends_only:
            visible_to = {match.host_id, *match.host.friends.values_list("pk", flat=True)}
        if match.guild_only:
            members = set(guild_member_ids(guild_id=match.guild_id)) if match.guild_id else set()
            visible_to = (members if visible_to is None else visible_to & members) | {match.host_id}
        payload = lobby_panel_message(
            html, visible_to=visible_to, hidden_from=ignored_ids(user_id=match.host_id)
        )
    else:
        payload = lobby_panel_message(fragments.medallion_removed(match.pk))
    for lobby in MATCH_LOBBIES:
        send_on_commit(group=lobby_group(lobby), message_type="lobby.panel", payload=payload)


def announce_running(match: Match, *, started: bool = False) -> None:
    """After the commit, the Casual Lobby's medallion of a casual match in progress follows:
    added when it begins (``started``), redrawn while it goes on (its observers), removed
    once it is no longer in progress (finished, adjourned). Its players are shown it with
    Back to the match, whoever else may observe it (``match_watchers``) with Observe Match,
    and nobody else gets it."""
    shown = running_match(match_id=match.pk)
    if shown is None:
        return  # not a match of the Casual Lobby
    players = {seat.player_id for seat in shown.seats.all()}
    watchers = match_watchers(shown)
    others = None if watchers is None else watchers - players
    if shown.status != MatchStatus.PLAYING:
        removed = fragments.running_medallion_removed(shown.pk)
        audience = None if others is None else players | others
        payloads = [lobby_panel_message(removed, visible_to=audience)]
    else:
        payloads = [
            lobby_panel_message(
                fragments.running_medallion(shown, min(players), added=started),
                visible_to=players,
            )
        ]
        if others is None or others:
            html = fragments.running_medallion(shown, None, added=started)
            payloads.append(lobby_panel_message(html, visible_to=others, hidden_from=players))
    for payload in payloads:
        send_on_commit(group=lobby_group(Lobby.CASUAL), message_type="lobby.panel", payload=payload)


def locked_match(match_id: int) -> Match:
    rows = fetch_in_order([(locked_match_sql(), [match_id])])[0]
    if not rows:
        raise MatchError("There is no such match.")
    return row_match(rows[0])


def seat_of(match: Match, player: User) -> MatchSeat:
    return seat_among(match.seats.filter(player=player), player)


def seat_among(seats: Iterable[MatchSeat], player: User) -> MatchSeat:
    """``player``'s seat among a match's ``seats``, already read."""
    seat = next((each for each in seats if each.player_id == player.pk), None)
    if seat is None:
        raise MatchError("You are not playing in this match.")
    return seat


def refuse_if_busy(player: User) -> None:
    """Refuse a player already in a match, unless he has left its team game."""
    other = (
        Match.objects.filter(
            seats__player=player, seats__left_game=False, status__in=ACTIVE_STATUSES
        )
        .order_by("-pk")
        .first()
    )
    if other is not None:
        raise MatchError(f"You are already in match {other.pk}: finish or leave it first.")


def checked_decklist(deck: Deck, player: User) -> tuple[dict, str]:
    if deck.owner_id != player.pk:
        raise MatchError("Choose one of your own decks.")
    standard = PlayFormat.objects.filter(slug=STANDARD_FORMAT).first()
    if standard is not None:
        validation = deck_selectors.deck_validate(deck=deck, play_format=standard)
        if not validation.valid:
            raise MatchError(f"{deck.name} is not a valid {standard.name} deck.")
    decklist = deck_decklist(deck=deck)
    if decklist["avatar"] is None or not decklist["quests"]:
        raise MatchError(f"{deck.name} needs an avatar and a quest pile.")
    return decklist, decklist["avatar"]["archetype"]


def _seat(match, seat, player, deck, decklist, archetype) -> MatchSeat:
    return MatchSeat.objects.create(
        match=match,
        seat=seat,
        player=player,
        deck=deck,
        deck_name=deck.name if deck else PRACTICE_DECK_NAME,
        side=side_of(archetype) if archetype else "",
        archetype=archetype,
        decklist=decklist,
        faces=deck_faces(deck=deck) if deck else {},
    )


def _practice_decks_deal(match: Match) -> None:
    """Deal the two fixed practice decks to the two players at random (rulebook: "The two
    decks are the same in each Practice Game, and are randomly assigned")."""
    decklists = practice_decklists()
    archetypes = list(decklists)
    if secrets.randbelow(2):
        archetypes.reverse()
    for seat, archetype in zip(match.seats.order_by("seat"), archetypes, strict=True):
        seat.decklist = decklists[archetype]
        seat.archetype = archetype
        seat.side = side_of(archetype)
        seat.deck_name = f"{PRACTICE_DECK_NAME} ({archetype.capitalize()})"
        seat.faces = card_faces(titles=decklist_titles(decklists[archetype]))
        seat.save(update_fields=["decklist", "archetype", "side", "deck_name", "faces"])


def decklist_titles(decklist: dict) -> set[str]:
    cards = [decklist["avatar"], *decklist["quests"], *decklist["deck"], *decklist["created"]]
    return {card["title"] for card in cards}


def match_first_choose(*, match_id: int, player: User, go_first: bool) -> Match:
    """Between two games of a match, the loser of the last chooses who goes first in the
    next, which begins at once."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = seat_of(match, player).seat
        if match.status != MatchStatus.PLAYING or match.next_game_at is None:
            raise MatchError("No game of this match is about to begin.")
        if seat != match.first_chooser:
            raise MatchError("The loser of the last game chooses who goes first.")
        _next_game(match, seat if go_first else 1 - seat)
        announce(match)
        announce_running(match)  # its game number
    return match


def match_next_game_check(*, match_id: int) -> bool:
    """Begin the next game of the match if its pause is over (the loser of the last game goes
    first when they did not choose); whether it began."""
    with transaction.atomic():
        match = locked_match(match_id)
        due = (
            match.status == MatchStatus.PLAYING
            and match.next_game_at is not None
            and match.next_game_at <= timezone.now()
        )
        if due:
            _next_game(match, match.first_chooser)
            announce(match)
            announce_running(match)  # its game number
    return due


def match_next_games_sweep() -> int:
    """Begin every next game whose pause is over, also while nobody is connected; how many.
    Safe to run twice, or in two processes at once."""
    due = Match.objects.filter(status=MatchStatus.PLAYING, next_game_at__lte=timezone.now())
    return sum(
        match_next_game_check(match_id=match_id) for match_id in due.values_list("pk", flat=True)
    )


def start_first_game(match: Match) -> Game:
    """The match's first game, its clocks set; the caller holds the match's lock."""
    if match.time_limit is not None:
        match.seats.update(clock_left_ms=match.time_limit * 1000 // match.players)
    if match.practice:
        _practice_decks_deal(match)
    return _game_start(match)


def _computer_due(match: Match, state) -> datetime | None:
    """When the computer opponent that decides next in ``state`` is due to act, after its
    pause; None when a person decides, or the game is won."""
    if not match.computers_may_play or state.winner is not None:
        return None
    if engine.legal_actions(state).seat not in computer_seats(match):
        return None
    return _after_the_computers_pause()


def _after_the_computers_pause() -> datetime:
    return timezone.now() + timedelta(seconds=site_settings.COMPUTER_PAUSE_SECONDS)


def _computer_turn(match: Match, game: Game) -> None:
    """If a computer opponent decides next (``game.computer_due``, stored with the game), its
    turn runs after the commit, off the request path (tcgsite/jobs.py); one that no process
    plays is handed on by ``computer_turns_sweep``."""
    if game.computer_due is not None:
        job_after_commit(
            "game.computer_move",
            background=True,
            pause=site_settings.COMPUTER_PAUSE_SECONDS,
            match_id=match.pk,
            game_number=game.number,
            ply=game.applied,
        )


def computer_turns_sweep() -> int:
    """Hand on every computer turn overdue by ``COMPUTER_OVERDUE_SECONDS``, to be played where
    the site's turns are (the Celery worker, or the web process's background threads): a turn
    handed off by a process that ended before playing it, a management command's, or lost
    with a worker; how many. Safe to run twice, or in two processes at once: each turn is
    handed on under its match's lock, its due time moved on."""
    overdue = Game.objects.filter(
        computer_due__lte=_overdue_since(), ended=None, match__status=MatchStatus.PLAYING
    )
    return sum(
        _computer_turn_hand_on(match_id=match_id, game_id=game_id)
        for match_id, game_id in overdue.values_list("match_id", "pk")
    )


def _overdue_since():
    return timezone.now() - timedelta(seconds=site_settings.COMPUTER_OVERDUE_SECONDS)


def _computer_turn_hand_on(*, match_id: int, game_id: int) -> bool:
    with transaction.atomic():
        match = locked_match(match_id)
        game = (
            match.games.defer(*GAME_START_FIELDS, "state")
            .select_for_update()
            .filter(pk=game_id, ended=None, computer_due__lte=_overdue_since())
            .first()
        )
        if match.status != MatchStatus.PLAYING or game is None:
            return False
        game.computer_due = _after_the_computers_pause()
        game.save(update_fields=["computer_due"])
        _computer_turn(match, game)
    return True


def _next_game(match: Match, first: int | None) -> None:
    match.first_chooser = match.next_game_at = None
    match.save(update_fields=["first_chooser", "next_game_at"])
    _game_start(match, first=first)


def _game_start(match: Match, *, first: int | None = None) -> Game:
    seed = secrets.randbits(63)
    salt = secrets.token_hex(16)
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]
    if match.team_game:
        # The engine takes a team game's decklists grouped in sides. A 2-versus-2 game's
        # seats alternate sides in turn order: seats 0 and 2 play on the first, 1 and 3 on
        # the second, as the match's seats do. A Raid's four heroes come first, its boss last.
        decklists = [
            [decklist for seat, decklist in enumerate(decklists) if match.team_of(seat) == team]
            for team in range(TEAMS)
        ]
    # A tutorial or scenario begins from its own position (game.selectors.game_beginning).
    guide = guide_of(match)
    game = Game(
        match=match,
        number=match.games.count() + 1,
        seed=seed,
        seed_salt=salt,
        seed_hash=seed_commitment(seed, salt),
        decklists=decklists,
        first_seat=first,
        position=guide.slug if guide is not None else "",
    )
    try:
        state = game_beginning(game, game.opening_events)
    except InvalidDecklist as error:
        raise MatchError(f"A deck cannot be played: {error}") from error
    clock_switch(match, engine.legal_actions(state).seat)
    if match.raid:
        _encounter_dialogs_tell(match, state)
    game.state = engine.to_json(state)
    game.computer_due = _computer_due(match, state)
    game.save()
    _computer_turn(match, game)
    return game


def finish_game(match: Match, game: Game) -> None:
    """After a game: the next game of the match, or the match's end once a player has won
    the games the structure asks for."""
    if match.offer:
        match.offer, match.offer_seat, match.offer_agreed = "", None, []
        match.save(update_fields=["offer", "offer_seat", "offer_agreed"])
    if match.team_game:
        _team_game_finish(match, game)
        return
    games = list(match.games.exclude(winner_seat=None).values_list("winner_seat", flat=True))
    needed = match.structure // 2 + 1
    for seat in range(SEATS):
        if games.count(seat) >= needed:
            match.status = MatchStatus.FINISHED
            match.ended = timezone.now()
            match.winner = match.seats.get(seat=seat).player
            match.end_reason = game.win_reason
            match.save(update_fields=["status", "ended", "winner", "end_reason"])
            if match.tutorial and seat == TUTORIAL_PLAYER:
                TutorialProgress.objects.bulk_create(
                    [TutorialProgress(player=match.winner, tutorial=match.tutorial, match=match)],
                    ignore_conflicts=True,
                )
            if match.scenario is not None and seat == TUTORIAL_PLAYER:
                # Opens the chapter's next scenario; the finishing task grants the reward.
                ScenarioProgress.objects.bulk_create(
                    [ScenarioProgress(player=match.winner, scenario=match.scenario, match=match)],
                    ignore_conflicts=True,
                )
            clock_switch(match, None)
            match_finished_on_commit(match.pk)
            announce_running(match)
            return
    # Rule taken for Best of Three and Best of Five: the loser of a game chooses who goes
    # first in the next, during a short pause; if they let it pass, they go first.
    clock_switch(match, None)
    match.first_chooser = 1 - game.winner_seat
    match.next_game_at = timezone.now() + timedelta(seconds=site_settings.MATCH_NEXT_GAME_SECONDS)
    match.save(update_fields=["first_chooser", "next_game_at"])


def _team_game_finish(match: Match, game: Game) -> None:
    """A team game's match ends with its game, won by a side (MULTIPLAYER GAMES, "Winning
    the Game"): ``game.winner_seat`` is the engine's winning seat, and the end reason names
    the side's players; the match has no single winner."""
    winners = [
        seat.player.username
        for seat in match.seats.select_related("player")
        if game.winner_seat is not None
        and match.team_of(seat.seat) == match.team_of(game.winner_seat)
    ]
    match.status = MatchStatus.FINISHED
    match.ended = timezone.now()
    match.end_reason = (
        f"{names_joined(winners)} won by {game.win_reason}" if winners else game.win_reason
    )[:200]
    match.save(update_fields=["status", "ended", "end_reason"])
    clock_switch(match, None)
    match_finished_on_commit(match.pk)
    announce_running(match)
