import pytest
from django.test import TestCase
from django.utils import timezone

from collection.models import Product, ProductKind
from collection.services.store import product_grant
from game.models import MatchStatus
from game.services.matches import match_concede
from tests.factories import UserFactory
from tests.game.conftest import starter_deck
from tournaments.models import TournamentQueue

ARCHETYPES = ("jedi", "sith", "rebel", "imperial")


def entrant(name: str, archetype: str = "jedi", *, passes: int = 1):
    """A registered player with an opened starter deck (``player.deck``) and event passes."""
    player = UserFactory(username=name)
    player.deck = starter_deck(player, archetype)
    if passes:
        event_pass = Product.objects.get(kind=ProductKind.EVENT_PASS)
        product_grant(owner=player, product=event_pass, quantity=passes)
    player.registered_at = timezone.now()
    player.save(update_fields=["registered_at"])
    return player


def entrants(count: int, prefix: str = "p") -> list:
    return [entrant(f"{prefix}{n}", ARCHETYPES[n % 4]) for n in range(count)]


@pytest.fixture
def booster(catalog):
    return Product.objects.filter(kind=ProductKind.BOOSTER_PACK).order_by("pk").first()


def on_demand_queue(**rules) -> TournamentQueue:
    defaults = {"title": "Daily", "max_players": 8, "reward_structure": "", "entry_passes": 1}
    return TournamentQueue.objects.create(**{**defaults, **rules})


def play_round(tournament, loses) -> None:
    """Each match of the round being played ends with a concession by the player for whom
    ``loses(player_a, player_b)`` names the loser; what runs after each commit (the result's
    record, the next round) runs as it would outside a test's transaction."""
    tournament.refresh_from_db()
    for row in tournament.pairings.filter(round=tournament.round, decided=None).select_related(
        "first__player", "second__player", "match"
    ):
        loser = loses(row.first.player, row.second.player)
        while True:
            row.match.refresh_from_db()
            if row.match.status != MatchStatus.PLAYING:
                break
            with TestCase.captureOnCommitCallbacks(execute=True):
                match_concede(match_id=row.match_id, player=loser)
            game = row.match.games.order_by("-number").first()
            from game.services.matches import match_next_game_check

            if game.ended is not None:
                row.match.refresh_from_db()
                if row.match.next_game_at is not None:
                    from game.models import Match

                    Match.objects.filter(pk=row.match_id).update(next_game_at=timezone.now())
                    match_next_game_check(match_id=row.match_id)
