"""Two runs of a scenario match's finishing task at once (a retried task meeting the first):
the ledger's unique reference ``scenario-reward:<player>:<scenario>`` lets exactly one grant
the reward card. Races on PostgreSQL only; SQLite serialises writers instead."""

import pytest
from django.conf import settings

from collection.cards.models import Card
from collection.models import CardOwnership, LedgerOperation
from game.scenarios import scenario_numbered
from game.services.scenarios import scenario_reference, scenario_reward_grant, scenario_start
from tests.concurrency import race
from tests.factories import UserFactory
from tests.game.conftest import starter_deck
from tests.game.test_scenarios import play_scenario, storming_move

RACERS = 4

pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="races need PostgreSQL; SQLite serialises writers instead",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_finishing_tasks_racing_grant_the_reward_card_once(catalog):
    player = UserFactory(username="Rhen")
    deck = starter_deck(player, "rebel")
    match = play_scenario(
        scenario_start(player=player, number=1, deck_id=deck.pk), player, storming_move
    )
    reward = Card.objects.get(title=scenario_numbered(1).reward, creator=None)
    # In production mode the match's end queued the task for a worker, which no test runs.
    assert not CardOwnership.objects.filter(owner=player, card=reward).exists()

    results = race(*[lambda: scenario_reward_grant(match_id=match.pk)] * RACERS)

    assert sorted(results, key=str) == [False] * (RACERS - 1) + [True]
    assert CardOwnership.objects.get(owner=player, card=reward).quantity == 1
    assert (
        LedgerOperation.objects.filter(
            reference=scenario_reference(player_id=player.pk, number=1)
        ).count()
        == 1
    )
