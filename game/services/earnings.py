"""A finished match's earnings (README, "How to earn credits"): the facts the match stored,
read from its games' final states and event logs (never from a browser), handed to
collection's earnings services, which pay each income once. Run by the match's finishing
task (game/tasks.py); safe to run again."""

from collection.earnings.facts import GameFacts, MatchFacts, SeatFacts
from collection.earnings.services import (
    match_earnings_pay,
    scenario_earnings_pay,
    tutorial_earnings_pay,
)
from game.encounters import DEFAULT_DIFFICULTY, difficulty_named
from game.models import GameAction, Match, MatchStatus, TutorialProgress
from game.scenarios import scenario_numbered
from game.selectors import computer_seats, game_state
from game.services.matches import SCENARIO_WON, TUTORIAL_WON
from game.services.skirmish import TEAM_LEVEL
from game.tutorials import PLAYER, TUTORIALS, tutorial_named

# The level of a computer seat whose match names none.
FILLER_LEVEL = "easy"
GUIDE_GOALS = frozenset({TUTORIAL_WON, SCENARIO_WON})
STAFF_ENDED = "ended by staff"


def match_mode(match: Match) -> str:
    """How the match was played, in the rates table's words (collection/earnings/rates.py)."""
    if match.tutorial:
        return "tutorial"
    if match.scenario is not None:
        return "scenario"
    if match.raid:
        return "raid"
    if match.event:
        return "tournament"
    if match.team_game:
        return "team"
    return "skirmish" if match.skirmish else "casual"


def match_facts(match: Match) -> MatchFacts:
    """What ``match`` (finished) tells its earnings: each game's length and ending, and each
    seat's side, deck, result and what it played, counted from the games' stored events."""
    games = list(match.games.order_by("number"))
    states = {game.pk: game_state(game) for game in games}
    played: dict[int, dict[str, int]] = {}
    actions = GameAction.objects.filter(game__in=games).values_list("game_id", "events")
    for game_id, events in actions.iterator():
        state = states[game_id]
        for event in events:
            counts = played.setdefault(event.get("seat", event.get("attacker")), {})
            if event["type"] == "card_played":
                definition = state.definitions[state.cards[event["card"]].definition]
                if definition["type"] == "unit":
                    counts["units_played"] = counts.get("units_played", 0) + 1
            elif event["type"] == "tactic_played":
                counts["tactics_played"] = counts.get("tactics_played", 0) + 1
            elif event["type"] == "quest_completed":
                counts["quests_completed"] = counts.get("quests_completed", 0) + 1
            elif event["type"] == "combat_began" and event["kind"] == "raid":
                counts["raids"] = counts.get("raids", 0) + 1
    last = games[-1] if games else None
    computers = computer_seats(match)
    seats = []
    for seat in match.seats.select_related("player").order_by("seat"):
        side = match.team_of(seat.seat)
        if match.team_game:
            won = (
                last is not None
                and last.winner_seat is not None
                and (match.team_of(last.winner_seat) == side and not seat.left_game)
            )
        else:
            won = match.winner_id == seat.player_id
        level = ""
        if seat.seat in computers:
            if match.raid and seat.seat == match.boss_seat:
                level = difficulty_named(match.difficulty or DEFAULT_DIFFICULTY).boss_level
            elif match.team_game:
                level = TEAM_LEVEL
            else:
                level = match.computer_level or FILLER_LEVEL
        seats.append(
            SeatFacts(
                player_id=seat.player_id,
                side=side,
                archetype=seat.archetype,
                computer_level=level,
                won=won,
                **played.get(seat.seat, {}),
            )
        )
    return MatchFacts(
        match_id=match.pk,
        day=match.ended.date(),
        mode=match_mode(match),
        games=tuple(
            GameFacts(
                turns=states[game.pk].turn,
                decided_by_play=game.win_reason in GUIDE_GOALS
                or (states[game.pk].winner is not None and states[game.pk].win_reason != "left"),
            )
            for game in games
        ),
        seats=tuple(seats),
    )


def match_earnings_report(*, match_id: int) -> int:
    """Pay what the finished match ``match_id`` earns its players: wins and quests, and a
    tutorial's or a scenario's first completion. The number of players counted now."""
    match = Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).first()
    # A match staff ended (stuck) was not played out: it earns nobody anything.
    if match is None or match.ended is None or match.end_reason.startswith(STAFF_ENDED):
        return 0
    facts = match_facts(match)
    person_won = (
        match.winner is not None and match.seats.filter(seat=PLAYER, player=match.winner).exists()
    )
    if match.tutorial and person_won:
        tutorial = tutorial_named(match.tutorial)
        completed = TutorialProgress.objects.filter(player=match.winner).count()
        tutorial_earnings_pay(
            player=match.winner,
            slug=tutorial.slug,
            title=tutorial.title,
            all_completed=completed >= len(TUTORIALS),
        )
    if match.scenario is not None and person_won:
        scenario = scenario_numbered(match.scenario)
        scenario_earnings_pay(player=match.winner, number=scenario.number, title=scenario.title)
    return len(match_earnings_pay(match=facts))
