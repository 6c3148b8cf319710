"""Scenarios (rulebook, "Scenarios"): a game of the player's own deck against the computer,
begun at once from the scenario's position (game/scenarios.py), and the reward card its first
win earns.

Winning a scenario is recorded with the match's end (``finish_game``: it opens the next
scenario of the chapter); the reward card is granted afterwards by the match's finishing task
(game/tasks.py, queued when the match ends), through collection's ledger writer, under the
unique reference ``scenario-reward:<player id>:<scenario number>``: the task run twice, or a
second win of the same scenario, grants nothing more.
"""

from django.db import transaction
from django.utils import timezone

from collection.cards.models import Card, Rarity
from collection.decks.models import Deck
from collection.models import LedgerReason
from collection.services.ledger import CardChange, LedgerOperationDone, ledger_operation
from collection.services.wants import want_keep_owned
from game.models import ComputerOpponent, Match, MatchSeat, MatchStatus, ScenarioProgress
from game.scenarios import Scenario, chapter_scenarios, scenario_numbered
from game.selectors import card_faces, side_of, starter_decklists_all, tutorial_cards
from game.services.matches import (
    MatchError,
    announce,
    checked_decklist,
    decklist_titles,
    match_concede,
    refuse_if_busy,
    start_first_game,
)
from game.tutorials import OPPONENT, PLAYER
from tcgsite.accounts.models import User

UNKNOWN_SCENARIO = "Choose one of the scenarios on the map."
NO_DECK = "Choose one of your decks to bring."
LOCKED = "Scenario {number} is locked: win Scenario {previous} first."
WRONG_CHAPTER = (
    "{deck} is a {archetype} deck: Chapter {chapter}'s scenarios are played with {allowed} decks."
)
NO_OPPONENT = "The scenario's computer opponent is not set up on this site yet."


def scenario_reference(*, player_id: int, number: int) -> str:
    """The ledger reference of the reward card of Scenario ``number`` for the player: written
    once, so the card is granted once."""
    return f"scenario-reward:{player_id}:{number}"


def scenario_open(*, player: User, scenario: Scenario) -> bool:
    """Whether ``player`` may play ``scenario``: the first of each chapter always; another
    once they have won the one before it."""
    first = chapter_scenarios(scenario.chapter)[0]
    return (
        scenario == first
        or ScenarioProgress.objects.filter(player=player, scenario=scenario.number - 1).exists()
    )


def scenario_start(*, player: User, number: int | None, deck_id: int | None) -> Match:
    """A game of Scenario ``number`` with ``player``'s deck ``deck_id``, against the
    scenario's computer opponent, begun at once. A tutorial or scenario of theirs left
    unfinished is conceded first, as choosing another tutorial does."""
    scenario = scenario_numbered(number) if number is not None else None
    if scenario is None:
        raise MatchError(UNKNOWN_SCENARIO)
    if not scenario_open(player=player, scenario=scenario):
        raise MatchError(LOCKED.format(number=scenario.number, previous=scenario.number - 1))
    deck = Deck.objects.filter(pk=deck_id).first() if deck_id is not None else None
    if deck is None:
        raise MatchError(NO_DECK)
    decklist, archetype = checked_decklist(deck, player)
    if archetype not in scenario.archetypes:
        raise MatchError(
            WRONG_CHAPTER.format(
                deck=deck.name,
                archetype=archetype.capitalize() if archetype else "neutral",
                chapter=scenario.chapter,
                allowed=" or ".join(each.capitalize() for each in scenario.archetypes),
            )
        )
    opponent = (
        ComputerOpponent.objects.select_related("player")
        .filter(archetype=scenario.opponent.archetype, skirmish=True)
        .first()
    )
    if opponent is None:
        raise MatchError(NO_OPPONENT)
    unfinished = Match.objects.filter(seats__player=player, status=MatchStatus.PLAYING).exclude(
        tutorial="", scenario=None
    )
    for match in unfinished:
        match_concede(match_id=match.pk, player=player)
    theirs = scenario.opponent_decklist(tutorial_cards(), starter_decklists_all())
    with transaction.atomic():
        User.objects.select_for_update().get(pk=player.pk)
        refuse_if_busy(player)
        match = Match.objects.create(
            title=f"Scenario {scenario.number}: {scenario.title}",
            host=player,
            status=MatchStatus.PLAYING,
            started=timezone.now(),
            computer_level=scenario.level,
            scenario=scenario.number,
            allow_observers=False,
        )
        MatchSeat.objects.create(
            match=match,
            seat=PLAYER,
            player=player,
            deck=deck,
            deck_name=deck.name,
            side=side_of(archetype),
            archetype=archetype,
            decklist=decklist,
            # The scenario's allies stand beside the player's own cards: their faces too.
            faces=card_faces(titles=decklist_titles(decklist) | set(scenario.ally_titles())),
            ready=True,
        )
        MatchSeat.objects.create(
            match=match,
            seat=OPPONENT,
            player=opponent.player,
            playing_as=scenario.opponent_name,
            deck_name=f"{scenario.opponent_name}'s forces",
            side=side_of(scenario.opponent.archetype),
            archetype=scenario.opponent.archetype,
            decklist=theirs,
            faces=card_faces(titles=decklist_titles(theirs)),
            ready=True,
        )
        start_first_game(match)
        announce(match)
    return match


def scenario_reward_grant(*, match_id: int) -> bool:
    """The reward card of the scenario match ``match_id``, granted to its player if they won
    it and it is their first win of that scenario; whether a card was granted. Safe to run
    any number of times: the ledger's unique reference writes the grant once."""
    match = (
        Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED)
        .exclude(scenario=None)
        .select_related("winner")
        .first()
    )
    if match is None or match.winner is None:
        return False
    if not match.seats.filter(seat=PLAYER, player=match.winner).exists():
        return False
    scenario = scenario_numbered(match.scenario)
    card = (
        Card.objects.filter(title=scenario.reward, rarity=Rarity.STARTER_OR_REWARD, creator=None)
        .order_by("pk")
        .first()
        if scenario is not None
        else None
    )
    if card is None:
        return False
    try:
        with ledger_operation(
            owners=[match.winner],
            reason=LedgerReason.REWARD,
            reference=scenario_reference(player_id=match.winner.pk, number=scenario.number),
        ) as ledger:
            ledger.cards_change(
                changes=[
                    CardChange(
                        owner=match.winner,
                        card_id=card.pk,
                        delta=1,
                        note=f"Scenario {scenario.number}: {scenario.title}",
                    )
                ]
            )
            want_keep_owned(owner=match.winner, card_id=card.pk)
    except LedgerOperationDone:
        return False
    return True
