"""Skirmish (rulebook, "Skirmish"): a player's deck against one of four computer opponents,
each playing its archetype's starter deck, at the level the player chooses.

The computer's seat plays through the same match service as a person: each of its decisions
is a task run off the request path after a short pause (tcgsite/jobs.py), which reads the
game, lets the agent choose from its seat's view, and sends the action with the ply it was
scheduled for, so a task run twice, or late, changes nothing.
"""

from django.db import transaction
from django.utils import timezone

from collection.decks.models import Deck
from game.ai.search import SearchAgent
from game.encounters import DEFAULT_DIFFICULTY, difficulty_named, encounter_named
from game.engine import api as engine
from game.engine.actions import Agent
from game.engine.state import in_game
from game.models import (
    ComputerLevel,
    ComputerOpponent,
    Match,
    MatchOffer,
    MatchSeat,
    MatchStatus,
)
from game.selectors import (
    card_faces,
    computer_seats,
    game_state,
    side_of,
    starter_decklist_of,
    starter_decklists_all,
)
from game.services.matches import (
    GAME_START_FIELDS,
    TIME_LIMITS,
    MatchError,
    StalePly,
    announce,
    checked_decklist,
    computers_play_on,
    decklist_titles,
    game_act,
    refuse_if_busy,
    start_first_game,
)
from game.services.offers import match_offer_answer
from game.services.raids import boss_decklist
from tcgsite.accounts.models import User

SKIRMISH_DECK = "{archetype} starter deck"
# The level of the computer players of a team game (teammates, opponents, a Raid's heroes):
# the best teammate a person can have; its decisions take well under the computer's pause.
TEAM_LEVEL = "hard"
# A team game's computer seats are seeded apart: game seed times this, plus the seat.
SEATS_SEED = 8
# The computer accepts a draw when its avatar has this much less health left than yours.
DRAW_WHEN_BEHIND_BY = 5


def skirmish_start(
    *, player: User, deck: Deck | None, archetype: str, level: str, time_limit: int | None = None
) -> Match:
    """A Skirmish of ``player``'s ``deck`` against the computer opponent of ``archetype``; it
    begins at once, the player in the first seat."""
    if level not in ComputerLevel.values:
        raise MatchError("Choose Easy, Normal or Hard.")
    if time_limit is not None and time_limit not in TIME_LIMITS:
        raise MatchError("Choose a time limit from the list, or none.")
    if deck is None:
        raise MatchError("Choose one of your decks.")
    opponent = (
        ComputerOpponent.objects.select_related("player")
        .filter(archetype=archetype, skirmish=True)
        .first()
    )
    if opponent is None:
        raise MatchError("Choose one of the four computer opponents.")
    with transaction.atomic():
        User.objects.select_for_update().get(pk=player.pk)
        refuse_if_busy(player)
        decklist, player_archetype = checked_decklist(deck, player)
        computer_decklist = starter_decklist_of(archetype)
        match = Match.objects.create(
            title=f"Skirmish: {player.username} vs {opponent.player.username}",
            host=player,
            status=MatchStatus.PLAYING,
            started=timezone.now(),
            computer_level=level,
            time_limit=time_limit,
        )
        MatchSeat.objects.create(
            match=match,
            seat=0,
            player=player,
            deck=deck,
            deck_name=deck.name,
            side=side_of(player_archetype),
            archetype=player_archetype,
            decklist=decklist,
            faces=card_faces(titles=decklist_titles(decklist)),
            ready=True,
        )
        MatchSeat.objects.create(
            match=match,
            seat=1,
            player=opponent.player,
            deck_name=SKIRMISH_DECK.format(archetype=archetype.capitalize()),
            side=side_of(archetype),
            archetype=archetype,
            decklist=computer_decklist,
            faces=card_faces(titles=decklist_titles(computer_decklist)),
            ready=True,
        )
        start_first_game(match)
        announce(match)
    return match


def skirmish_rematch(*, player: User, match_id: int) -> Match:
    """The same Skirmish again (its end screen's Rematch): ``player``'s deck of that match
    against the same computer opponent, at the same level and time limit."""
    match = Match.objects.skirmishes().filter(pk=match_id).first()
    seats = {seat.seat: seat for seat in match.seats.select_related("deck")} if match else {}
    if match is None or 0 not in seats or seats[0].player_id != player.pk:
        raise MatchError("There is no Skirmish of yours to play again.")
    if match.status != MatchStatus.FINISHED:
        raise MatchError("This Skirmish is not over yet.")
    if seats[0].deck is None:
        raise MatchError(
            f"{seats[0].deck_name} is no longer among your decks: choose one on the Skirmish page."
        )
    return skirmish_start(
        player=player,
        deck=seats[0].deck,
        archetype=seats[1].archetype,
        level=match.computer_level,
        time_limit=match.time_limit,
    )


def computer_move(*, match_id: int, game_number: int, ply: int) -> bool:
    """The computer's decision at ``ply`` of game ``game_number``, if it is still its to make;
    whether it acted. Thinks outside any lock: the match service checks the ply again. In a
    match where no person plays on (two computers; a team game its people left), nobody waits
    on a decision: a run of them is thought and applied under the match's lock
    (``computers_play_on``)."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING).first()
    if match is None or not match.computers_may_play:
        return False
    game = match.games.defer(*GAME_START_FIELDS).filter(number=game_number, ended=None).first()
    if game is None or game.applied != ply:
        return False
    state = game_state(game)
    decision = engine.legal_actions(state)
    computers = computer_seats(match)
    if decision.seat not in computers:
        return False
    # A seat's decklist is read only for the agent that plays it (``seat_agent``).
    seats = list(match.seats.defer("faces", "decklist").select_related("player"))
    if not any(seat.seat not in computers and in_game(state, seat.seat) for seat in seats):
        agents = {
            seat.seat: seat_agent(match, game, seat) for seat in seats if seat.seat in computers
        }
        return bool(
            computers_play_on(match_id=match_id, game_number=game_number, ply=ply, agents=agents)
        )
    seat = next(each for each in seats if each.seat == decision.seat)
    action = seat_agent(match, game, seat).choose(state, decision)
    try:
        game_act(match_id=match_id, player=seat.player, ply=ply, action=action)
    except (StalePly, MatchError):
        return False  # the game moved on meanwhile (a concession, a flag fallen)
    return True


def seat_agent(match: Match, game, seat: MatchSeat) -> Agent:
    """The agent of a computer's seat: the search agent everywhere, from its seat's own view.
    A Raid's boss plays at its difficulty's level (``game.encounters.DIFFICULTIES``, measured
    with ``manage.py simulate --encounter``); a computer teammate or opponent of a team game,
    and a Raid's computer hero, at ``TEAM_LEVEL``; Skirmish and tournament house players at
    the match's level. In a game with sides every seat expects the boss's decklist behind
    its avatar (the encounter is public)."""
    if not match.team_game:
        return computer_agent(match.computer_level, seed=game.seed, own=seat.decklist)
    priors = starter_decklists_all()
    level = TEAM_LEVEL
    if match.raid:
        boss = boss_decklist(encounter_named(match.encounter))
        priors = {**priors, boss["avatar"]["title"]: boss}
        if seat.seat == match.boss_seat:
            level = difficulty_named(match.difficulty or DEFAULT_DIFFICULTY).boss_level
    # Each seat its own seed: the computer teammates think apart.
    return SearchAgent(game.seed * SEATS_SEED + seat.seat, level, priors=priors, own=seat.decklist)


def computer_answer_offer(*, match_id: int) -> bool:
    """Each computer player asked answers a person's offer: it agrees to adjourn, and to a
    draw only when its side's avatars are well behind; whether one answered."""
    answered = False
    while True:
        match = Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING).first()
        if match is None or not match.offer:
            return answered
        seats = computer_seats(match)
        if match.offer_seat in seats:
            return answered
        asked = [
            seat
            for seat in match.seats.select_related("player").filter(seat__in=seats, left_game=False)
            if seat.seat not in match.offer_agreed
        ]
        if not asked:
            return answered
        seat = asked[0]
        accept = match.offer == MatchOffer.ADJOURN or _behind(match, seat.seat)
        try:
            match_offer_answer(match_id=match_id, player=seat.player, accept=accept)
        except MatchError:
            return answered
        answered = True
        if not accept:
            return answered


def computer_agent(level: str, *, seed: int, own: dict) -> SearchAgent:
    """The agent that plays at ``level`` with the decklist ``own``; seeded with the game's
    seed (it mixes in the ply itself), so a game against it replays exactly. It expects its
    opponent to play like the starter deck of the opponent's archetype."""
    return SearchAgent(seed, level, priors=starter_decklists_all(), own=own)


def _behind(match: Match, seat: int) -> bool:
    """Whether the avatars on ``seat``'s side have this much less health left than the other
    side's (a side of one in a two-player game; the seats alternate sides in a team game)."""
    game = match.games.order_by("-number").first()
    seen = engine.view(game_state(game), seat)
    health = [0, 0]
    for index, player in enumerate(seen["players"]):
        health[match.team_of(index)] += player["avatar"]["health"] - player["avatar"]["damage"]
    mine = match.team_of(seat)
    return health[1 - mine] - health[mine] >= DRAW_WHEN_BEHIND_BY
