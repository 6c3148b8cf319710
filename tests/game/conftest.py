import random

import pytest

from collection.decks.models import Deck
from collection.models import Product, ProductKind
from collection.services.opening import products_open
from collection.services.store import product_grant
from game.engine import api as engine
from game.models import Game, MatchStatus
from game.selectors import game_state
from game.services.matches import (
    MatchSettings,
    game_act,
    match_create,
    match_join,
    match_ready,
)
from game.services.skirmish import computer_move
from tcgsite import jobs
from tests.factories import UserFactory

# The socket fixtures of the lobbies' tests: a match page's socket is driven the same way.
from tests.lobbies.conftest import (  # noqa: F401
    _close_the_orm_threads_connections,
    _fresh_cache,
    application,
    layer,
    open_page,
)


def play_at_random(match, moves: int, seed: int = 3) -> None:
    """Up to ``moves`` legal actions of the match's current game, each chosen at random (seeded)
    and sent by the deciding seat's player through the match service."""
    chooser = random.Random(seed)
    for _ in range(moves):
        game = Game.objects.filter(match=match).latest("number")
        decision = engine.legal_actions(game_state(game))
        if decision.seat is None:
            return
        player = match.seats.get(seat=decision.seat).player
        game_act(
            match_id=match.pk,
            player=player,
            ply=game.applied,
            action=chooser.choice(decision.actions),
        )


class SeededSecrets:
    """The match service's ``secrets`` (which deck each player is dealt, each game's seed and
    salt), seeded: a failing game can be played again."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)

    def randbelow(self, bound: int) -> int:
        return self.random.randrange(bound)

    def randbits(self, bits: int) -> int:
        return self.random.getrandbits(bits)

    def token_hex(self, size: int = 32) -> str:
        return self.random.randbytes(size).hex()


def starter_deck(owner, archetype: str) -> Deck:
    """The saved deck of an opened starter deck of ``archetype``."""
    product = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)
    (item,) = product_grant(owner=owner, product=product, quantity=1)
    products_open(owner=owner, owned_product_ids=[item.pk])
    return owner.decks.latest("created")


def player_with_deck(name: str, archetype: str):
    player = UserFactory(username=name)
    player.deck = starter_deck(player, archetype)
    return player


@pytest.fixture
def carol(catalog):
    return player_with_deck("Carol", "jedi")


@pytest.fixture
def bob(catalog):
    return player_with_deck("Bob", "sith")


# The third and fourth players of a team game or a Raid.
@pytest.fixture
def dave(catalog):
    return player_with_deck("Dave", "rebel")


@pytest.fixture
def erin(catalog):
    return player_with_deck("Erin", "imperial")


def start_match(carol, bob, **settings):
    """A match of ``carol`` (seat 0) and ``bob`` (seat 1), both ready: its first game begun."""
    match = match_create(host=carol, deck=carol.deck, settings=MatchSettings(**settings))
    match_join(match_id=match.pk, player=bob, deck=bob.deck)
    match_ready(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=bob)
    match.refresh_from_db()
    return match


@pytest.fixture
def thinking_threads():
    """The web process's threads that play the computer's turns on the embedded default
    (tcgsite/jobs.py), opened as tcgsite/asgi.py opens them; closed when the test ends."""
    jobs.background_start()
    yield
    jobs.background_stop()


def computer_takes_a_turn(match, player) -> bool:
    """In a game of ``player`` (seat 0) against the computer, the player ends each step as
    soon as they may, until the computer has decided and the decision is the player's again,
    or the game has ended; whether the computer decided."""
    computer_moved = False
    for _ in range(200):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return computer_moved
        game = match.games.get()
        decision = engine.legal_actions(game_state(game))
        if decision.seat != 0:
            assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
            computer_moved = True
        elif computer_moved:
            return True
        else:
            ending = next((a for a in decision.actions if a["kind"] in ("done", "pass")), None)
            action = ending or decision.actions[0]
            game_act(match_id=match.pk, player=player, ply=game.applied, action=action)
    raise AssertionError("the computer never played")
