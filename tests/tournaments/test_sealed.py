"""Sealed tournaments (rulebook, "Sealed Tournaments", "Changing Decks Between Rounds",
"Limited Deck Builder") through their services."""

from collections import Counter

import pytest
from django.db.models import Sum
from django.test import TestCase, override_settings
from django.urls import reverse

from collection.cards.models import Card
from collection.decks.selectors import DeckError
from collection.decks.services.decks import deck_save
from collection.models import CardOwnership, ItemEntry, OwnedProduct, Product, ProductKind
from collection.services.opening import opening_check
from collection.services.store import product_grant
from tests.tournaments.conftest import entrant, on_demand_queue, play_round
from tournaments.models import TournamentKind, TournamentStatus
from tournaments.services import sealed, sealed_building
from tournaments.services.payout import tournament_payout
from tournaments.services.queues import queue_join
from tournaments.services.running import tournament_drop

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog")]
eager = override_settings(CELERY_TASK_ALWAYS_EAGER=True)
ARCHETYPES = ("jedi", "sith", "rebel", "imperial")


def by_name(a, b):
    return max(a, b, key=lambda player: player.username)


def starter(archetype: str) -> Product:
    return Product.objects.get(kind=ProductKind.STARTER_DECK, archetype=archetype)


def sealed_players(booster, count: int = 4) -> list:
    """Players who bring one unopened starter deck and two unopened boosters each."""
    players = []
    for n in range(count):
        player = entrant(f"s{n}", ARCHETYPES[n % 4])
        product_grant(owner=player, product=starter(ARCHETYPES[(n + 1) % 4]), quantity=1)
        product_grant(owner=player, product=booster, quantity=2)
        players.append(player)
    return players


def sealed_start(players, **rules):
    queue = on_demand_queue(
        kind=TournamentKind.SEALED, max_players=len(players), structure="swiss", **rules
    )
    for player in players:
        with TestCase.captureOnCommitCallbacks(execute=True):
            queue_join(queue_id=queue.pk, player=player, deck=None)
    return queue.tournaments.get()


def collection_of(player) -> dict[int, int]:
    return dict(
        CardOwnership.objects.filter(owner=player, quantity__gt=0).values_list(
            "card_id", "quantity"
        )
    )


def pool_of(tournament, player):
    return tournament.participants.select_related("pool__deck").get(player=player).pool


def entry_products(tournament, player):
    """The products used up by the player's entry: event passes, and the opened ones."""
    return OwnedProduct.objects.filter(
        pk__in=ItemEntry.objects.filter(
            operation__reference=f"entry:{tournament.pk}:{player.pk}", delta__lt=0
        ).values("owned_product_id")
    )


def opened_into(tournament, player, archetype: str) -> Counter:
    """The cards of the starter deck of ``archetype`` opened into the player's pool."""
    item = entry_products(tournament, player).get(
        product__kind=ProductKind.STARTER_DECK, product__archetype=archetype
    )
    return Counter(item.opening.card_ids)


def save_from_pool(player, pool, counts, name="Sealed deck"):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return deck_save(owner=player, name=name, counts=counts, pool=pool)


def one_more_card(counts: Counter, pool, archetype: str) -> Counter:
    """``counts`` with one more copy of a card of the pool that keeps the deck valid."""
    pool_counts = {int(card_id): copies for card_id, copies in pool.card_counts.items()}
    for card in Card.objects.filter(pk__in=pool_counts).order_by("pk"):
        fits = card.card_type not in ("avatar", "quest") and card.archetype in ("", archetype)
        if fits and counts[card.pk] < min(4, pool_counts[card.pk]):
            return counts + Counter({card.pk: 1})
    raise AssertionError("The pool holds no card to add.")


def seat_decks(tournament, round_number: int) -> dict[str, str]:
    """Each player's deck name in the matches of a round."""
    names = {}
    for row in tournament.pairings.filter(round=round_number).exclude(match=None):
        for seat in row.match.seats.select_related("player"):
            names[seat.player.username] = seat.deck_name
    return names


def assert_ledger_balances(players) -> None:
    """Every card held is the sum of its ledger rows, and so is every product held."""
    for player in players:
        cards = dict(
            ItemEntry.objects.filter(owner=player, card__isnull=False)
            .values_list("card_id")
            .annotate(total=Sum("delta"))
            .values_list("card_id", "total")
        )
        assert {card: total for card, total in cards.items() if total} == collection_of(player)
        products = dict(
            ItemEntry.objects.filter(owner=player, owned_product__isnull=False)
            .values_list("owned_product_id")
            .annotate(total=Sum("delta"))
            .values_list("owned_product_id", "total")
        )
        held = set(
            OwnedProduct.objects.filter(owner=player, opened=None).values_list("pk", flat=True)
        )
        assert {item for item, total in products.items() if total == 1} == held
        assert all(total in (0, 1) for total in products.values())


@eager
def test_a_sealed_tournament_opens_the_products_into_pools_and_the_pools_join_the_collections_once(
    booster,
):
    players = sealed_players(booster)
    # s0's older starter deck is the one the event opens; the younger one stays sealed.
    product_grant(owner=players[0], product=starter("rebel"), quantity=1)
    before = {player.pk: collection_of(player) for player in players}

    tournament = sealed_start(
        players, pack_pool=booster, sealed_starters=1, sealed_boosters=2, reward_structure="2-1"
    )

    assert tournament.status == TournamentStatus.DECK_BUILDING and tournament.round == 0
    for n, player in enumerate(players):
        pool = pool_of(tournament, player)
        assert pool.name == f"Tournament {tournament.pk} pool"
        assert pool.deadline == tournament.building_ends
        opened = OwnedProduct.objects.filter(owner=player).exclude(opened=None)
        assert sorted(opened.values_list("product__kind", flat=True)) == [
            "booster_pack",
            "booster_pack",
            "event_pass",
            "starter_deck",  # the starter deck entrant() opened into the collection
            "starter_deck",
        ]
        assert not OwnedProduct.objects.filter(
            owner=player, opened=None, product__kind=ProductKind.BOOSTER_PACK
        ).exists()
        drawn = Counter(
            card_id
            for item in entry_products(tournament, player).exclude(product__kind="event_pass")
            for card_id in item.opening.card_ids
        )
        assert sum(drawn.values()) == 58 + 2 * 15
        assert {int(card): copies for card, copies in pool.card_counts.items()} == drawn
        assert sealed.pool_drawn(tournament.participants.get(player=player)) == drawn
        for item in opened.filter(product=booster):
            assert opening_check(opening=item.opening).genuine is True
        # the pool's cards are not in the collection
        assert collection_of(player) == before[player.pk]
        assert opened_into(tournament, player, ARCHETYPES[(n + 1) % 4])
    assert OwnedProduct.objects.get(owner=players[0], opened=None, product__kind="starter_deck")

    # s0 and s1 save a deck of their pool's starter deck; a card from outside is refused
    decks = {}
    for n in (0, 1):
        player = players[n]
        pool = pool_of(tournament, player)
        decks[n] = opened_into(tournament, player, ARCHETYPES[(n + 1) % 4])
        save_from_pool(player, pool, decks[n])
        assert tournament.participants.get(player=player).ready
    outside = Card.objects.exclude(pk__in=[int(card) for card in pool.card_counts]).first()
    with pytest.raises(DeckError):
        deck_save(
            owner=players[1],
            name="Sealed deck",
            counts=decks[1] + Counter({outside.pk: 1}),
            pool=pool_of(tournament, players[1]),
        )
    assert sealed_building.building_ends_sweep(now=tournament.building_ends.replace(year=2000)) == 0

    # the building time ends: round one begins, once
    assert sealed_building.building_ends_sweep(now=tournament.building_ends) == 1
    assert sealed_building.building_ends_sweep(now=tournament.building_ends) == 0
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PLAYING and tournament.round == 1
    # saved decks are played; without one, the basic starter deck of the pool's starter deck
    assert seat_decks(tournament, 1) == {
        "s0": "Sealed deck",
        "s1": "Sealed deck",
        "s2": "Imperial Starter Deck",
        "s3": "Jedi Starter Deck",
    }
    assert pool_of(tournament, players[2]).deadline > tournament.round_ends

    # between rounds s2 saves a deck from the pool: it is played from round two
    pool = pool_of(tournament, players[2])
    changed = one_more_card(opened_into(tournament, players[2], "imperial"), pool, "imperial")
    save_from_pool(players[2], pool, changed, name="Imperial plus one")
    assert seat_decks(tournament, 1)["s2"] == "Imperial Starter Deck"
    play_round(tournament, by_name)
    assert seat_decks(tournament, 2)["s2"] == "Imperial plus one"
    round_two = tournament.pairings.get(round=2, match__seats__player=players[2]).match
    seat = round_two.seats.get(player=players[2])
    assert len(seat.decklist["deck"]) == sum(changed.values()) - 5
    assert all(collection_of(player) == before[player.pk] for player in players)

    play_round(tournament, by_name)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CONCLUDED and tournament.paid is not None
    for player in players:
        participant = tournament.participants.get(player=player)
        expected = Counter(before[player.pk]) + sealed.pool_drawn(participant)
        assert collection_of(player) == dict(expected)
    assert tournament_payout(tournament_id=tournament.pk) == 0
    assert sealed.pools_release(tournament) == 0
    assert all(
        collection_of(player)
        == dict(
            Counter(before[player.pk])
            + sealed.pool_drawn(tournament.participants.get(player=player))
        )
        for player in players
    )
    assert_ledger_balances(players)
    # the pools are closed for building
    with pytest.raises(DeckError, match="Deck building for"):
        save_from_pool(players[0], pool_of(tournament, players[0]), decks[0])


@eager
def test_round_one_begins_as_soon_as_every_player_is_ready(booster):
    players = sealed_players(booster)
    tournament = sealed_start(players, pack_pool=booster, sealed_starters=1, sealed_boosters=2)
    for n, player in enumerate(players):
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.DECK_BUILDING
        pool = pool_of(tournament, player)
        save_from_pool(player, pool, opened_into(tournament, player, ARCHETYPES[(n + 1) % 4]))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PLAYING and tournament.round == 1
    assert set(seat_decks(tournament, 1).values()) == {"Sealed deck"}
    assert sealed_building.building_ends_sweep(now=tournament.building_ends) == 0


@eager
def test_a_passes_only_sealed_event_gives_a_starter_deck_and_boosters(booster):
    players = [entrant(f"e{n}", ARCHETYPES[n]) for n in range(4)]
    before = {player.pk: collection_of(player) for player in players}
    tournament = sealed_start(players, pack_pool=booster)
    for player in players:
        participant = tournament.participants.get(player=player)
        given = entry_products(tournament, player).exclude(product__kind="event_pass")
        kinds = Counter(given.values_list("product__kind", flat=True))
        assert kinds == {ProductKind.STARTER_DECK: 1, ProductKind.BOOSTER_PACK: 3}
        assert not OwnedProduct.objects.filter(
            owner=player, opened=None, product__kind__in=["starter_deck", "booster_pack"]
        ).exists()
        assert sum(participant.pool.card_counts.values()) == 58 + 3 * 15
        assert sealed.pool_drawn(participant) == Counter(
            {int(card): copies for card, copies in participant.pool.card_counts.items()}
        )
        archetype = given.get(product__kind=ProductKind.STARTER_DECK).product.archetype
        # the basic starter deck is the archetype of the starter deck the event gave
        _decklist, name = sealed.round_decklist(participant)
        assert name == f"{archetype.capitalize()} Starter Deck"
        assert collection_of(player) == before[player.pk]
    assert_ledger_balances(players)


@eager
def test_the_normal_deck_builder_sends_a_sealed_player_to_the_pool_until_they_drop(booster, client):
    players = sealed_players(booster)
    tournament = sealed_start(players, pack_pool=booster, sealed_starters=1, sealed_boosters=2)
    player = players[3]
    pool = pool_of(tournament, player)
    before = collection_of(player)
    client.force_login(player)

    response = client.get(reverse("decks:deck_builder"), follow=True)
    assert response.redirect_chain == [(reverse("decks:limited_builder", args=[pool.pk]), 302)]
    assert "until it concludes or you drop" in response.content.decode()
    response = client.get(reverse("decks:deck_edit", args=[player.deck.pk]))
    assert response.url == reverse("decks:limited_builder", args=[pool.pk])

    # the three others are ready: once the last player drops, the sweep begins round one
    for n in range(3):
        other = pool_of(tournament, players[n])
        save_from_pool(players[n], other, opened_into(tournament, players[n], ARCHETYPES[n + 1]))
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_drop(player=player)
    assert sealed_building.building_ends_sweep() == 1
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.PLAYING and tournament.round == 1
    assert "s3" not in seat_decks(tournament, 1)

    assert client.get(reverse("decks:deck_builder")).status_code == 200
    participant = tournament.participants.get(player=player)
    assert collection_of(player) == dict(Counter(before) + sealed.pool_drawn(participant))
    # a release of every pool (as at the conclusion) adds nothing to s3's again
    assert sealed.pools_release(tournament) == 3
    assert collection_of(player) == dict(Counter(before) + sealed.pool_drawn(participant))
    with pytest.raises(DeckError, match="Deck building for"):
        save_from_pool(player, pool, opened_into(tournament, player, "jedi"))
    assert_ledger_balances(players)
