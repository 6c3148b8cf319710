"""The posted-trade services (rulebook, "Trade Lobby": "Posted Trades", "Guild-Only Trades"):
posting, accepting, withdrawing, and every refusal."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.db.models import Sum

from collection.models import CardOwnership, ItemEntry, LedgerOperation, LedgerReason, OwnedProduct
from collection.trades.models import PostedTrade, PostedTradeStatus, TradeSide
from collection.trades.services.posted import (
    MAX_OPEN_TRADES,
    MAX_WANTED_COPIES,
    PostedTradeClosed,
    PostedTradeError,
    posted_trade_accept,
    posted_trade_create,
    posted_trade_withdraw,
)
from guilds.models import Guild, GuildMembership
from tcgsite.realtime import user_group
from tests.factories import CardFactory, UserFactory
from tests.trades.posted_helpers import (
    booster,
    card_item,
    cards,
    give_cards,
    give_products,
    product_item,
)

pytestmark = pytest.mark.django_db


def copies(owner, card) -> int:
    row = CardOwnership.objects.filter(owner=owner, card=card).first()
    return row.quantity if row else 0


def unopened(owner, product) -> int:
    return OwnedProduct.objects.filter(owner=owner, product=product, opened__isnull=True).count()


@pytest.fixture
def swap(catalog):
    """Han offers 2 copies of one card and a booster for 3 copies of another card."""
    han, leia = UserFactory(username="Han"), UserFactory(username="Leia")
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 2})
    give_products(han, booster(), 1)
    give_cards(leia, {wanted.pk: 3})
    trade = posted_trade_create(
        poster=han,
        offer=[card_item(offered, 2), product_item(booster(), 1)],
        want=[card_item(wanted, 3)],
    )
    return han, leia, offered, wanted, trade


def test_posting_stores_both_sides_and_moves_nothing(swap):
    """Posted Trades: the player "specifies the exact trade he is looking for (both what he
    wants and what he is offering in exchange)"; nothing leaves their collection yet."""
    han, _leia, offered, wanted, trade = swap
    assert trade.status == PostedTradeStatus.OPEN
    sides = {
        (line.side, line.card_id, line.product_id, line.quantity) for line in trade.lines.all()
    }
    assert sides == {
        (TradeSide.OFFER, offered.pk, None, 2),
        (TradeSide.OFFER, None, booster().pk, 1),
        (TradeSide.WANT, wanted.pk, None, 3),
    }
    assert copies(han, offered) == 2 and unopened(han, booster()) == 1


def test_accepting_swaps_both_sides_in_one_trade_operation(swap):
    """Posted Trades: "the server will first confirm that both parties still own the items in
    question, then automatically complete the trade"."""
    han, leia, offered, wanted, trade = swap

    outcome = posted_trade_accept(trade_id=trade.pk, taker=leia)

    assert [line.item_name for line in outcome.taker_received] == [
        line.item_name for line in trade.offered_lines()
    ]
    assert (copies(han, offered), copies(leia, offered)) == (0, 2)
    assert (copies(han, wanted), copies(leia, wanted)) == (3, 0)
    assert (unopened(han, booster()), unopened(leia, booster())) == (0, 1)
    trade.refresh_from_db()
    assert trade.status == PostedTradeStatus.ACCEPTED
    assert trade.accepted_by == leia and trade.closed_at is not None
    operation = LedgerOperation.objects.get(reference=f"ptrade:{trade.pk}")
    assert operation.reason == LedgerReason.TRADE
    entries = ItemEntry.objects.filter(operation=operation)
    assert entries.aggregate(total=Sum("delta"))["total"] == 0
    assert entries.count() == 6  # each card to and from, and the booster to and from


def test_posting_needs_both_sides(catalog):
    han = UserFactory()
    (card,) = cards(1)
    give_cards(han, {card.pk: 1})
    with pytest.raises(PostedTradeError, match="both sides"):
        posted_trade_create(poster=han, offer=[card_item(card, 1)], want=[])
    with pytest.raises(PostedTradeError, match="both sides"):
        posted_trade_create(poster=han, offer=[], want=[card_item(card, 1)])


def test_posting_refuses_an_offer_the_poster_does_not_hold(catalog):
    """The poster's offered items are checked at posting."""
    han = UserFactory()
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 1})
    with pytest.raises(PostedTradeError, match="You don't have everything you offer"):
        posted_trade_create(poster=han, offer=[card_item(offered, 2)], want=[card_item(wanted, 1)])
    with pytest.raises(PostedTradeError, match="You don't have everything you offer"):
        posted_trade_create(
            poster=han, offer=[product_item(booster(), 1)], want=[card_item(wanted, 1)]
        )
    assert not PostedTrade.objects.exists()


def test_posting_asks_for_at_most_four_copies(catalog):
    """The Their tab "will display a collection of 4 copies of every card"."""
    han = UserFactory()
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 1})
    with pytest.raises(PostedTradeError, match=f"at most {MAX_WANTED_COPIES}"):
        posted_trade_create(
            poster=han,
            offer=[card_item(offered, 1)],
            want=[card_item(wanted, MAX_WANTED_COPIES + 1)],
        )


def test_another_players_avatar_cannot_be_traded(catalog):
    han = UserFactory()
    (offered,) = cards(1)
    give_cards(han, {offered.pk: 1})
    avatar = CardFactory(creator=UserFactory())
    with pytest.raises(PostedTradeError, match="can't be traded"):
        posted_trade_create(poster=han, offer=[card_item(offered, 1)], want=[card_item(avatar, 1)])


def test_a_player_has_a_limited_number_of_open_trades(catalog):
    han = UserFactory()
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 1})
    for _ in range(MAX_OPEN_TRADES):
        posted_trade_create(poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)])
    with pytest.raises(PostedTradeError, match="withdraw one"):
        posted_trade_create(poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)])


def test_guild_only_needs_a_guild(catalog):
    """Guild-Only Trades: "When creating a Posted Trade, you have the ability to set it so
    that only members of your Guild can accept the trade"."""
    han = UserFactory()
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 1})
    with pytest.raises(PostedTradeError, match="guild"):
        posted_trade_create(
            poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)], guild_only=True
        )
    guild = Guild.objects.create(name="Rebels", leader=han)
    GuildMembership.objects.create(guild=guild, user=han)
    trade = posted_trade_create(
        poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)], guild_only=True
    )
    assert trade.guild == guild


def test_only_the_posters_guildmates_accept_a_guild_only_trade(catalog):
    """Guild-Only Trades: only members of the poster's guild can accept it."""
    han, leia, lando = UserFactory(), UserFactory(), UserFactory()
    guild = Guild.objects.create(name="Rebels", leader=han)
    GuildMembership.objects.create(guild=guild, user=han)
    GuildMembership.objects.create(guild=guild, user=leia)
    offered, wanted = cards(2)
    give_cards(han, {offered.pk: 1})
    give_cards(leia, {wanted.pk: 1})
    give_cards(lando, {wanted.pk: 1})
    trade = posted_trade_create(
        poster=han, offer=[card_item(offered, 1)], want=[card_item(wanted, 1)], guild_only=True
    )
    with pytest.raises(PostedTradeError, match="guild only"):
        posted_trade_accept(trade_id=trade.pk, taker=lando)
    posted_trade_accept(trade_id=trade.pk, taker=leia)
    assert copies(leia, offered) == 1


def test_a_player_cannot_accept_their_own_trade(swap):
    han, _leia, _offered, _wanted, trade = swap
    with pytest.raises(PostedTradeError, match="your own trade"):
        posted_trade_accept(trade_id=trade.pk, taker=han)


def test_a_player_the_poster_ignores_cannot_accept(swap):
    han, leia, _offered, _wanted, trade = swap
    han.ignored.add(leia)
    with pytest.raises(PostedTradeError, match="not trading with you"):
        posted_trade_accept(trade_id=trade.pk, taker=leia)
    assert PostedTrade.objects.get(pk=trade.pk).status == PostedTradeStatus.OPEN


def test_a_player_who_ignores_the_poster_cannot_accept(swap):
    han, leia, _offered, _wanted, trade = swap
    leia.ignored.add(han)
    with pytest.raises(PostedTradeError, match="You ignore Han"):
        posted_trade_accept(trade_id=trade.pk, taker=leia)


def test_accepting_without_what_the_trade_wants_moves_nothing(swap):
    han, _leia, offered, wanted, trade = swap
    poor = UserFactory()
    give_cards(poor, {wanted.pk: 2})
    with pytest.raises(PostedTradeError, match="You don't have what the trade asks"):
        posted_trade_accept(trade_id=trade.pk, taker=poor)
    assert copies(han, offered) == 2 and copies(poor, wanted) == 2
    assert PostedTrade.objects.get(pk=trade.pk).status == PostedTradeStatus.OPEN
    assert not LedgerOperation.objects.filter(reference=f"ptrade:{trade.pk}").exists()


def test_an_offer_traded_away_since_posting_is_checked_again_at_acceptance(swap):
    """The poster's offered items are checked again at acceptance."""
    han, leia, offered, wanted, trade = swap
    elsewhere = posted_trade_create(
        poster=han, offer=[card_item(offered, 2)], want=[card_item(wanted, 1)]
    )
    chewie = UserFactory()
    give_cards(chewie, {wanted.pk: 1})
    posted_trade_accept(trade_id=elsewhere.pk, taker=chewie)

    with pytest.raises(PostedTradeError, match="Han no longer has everything offered"):
        posted_trade_accept(trade_id=trade.pk, taker=leia)
    assert copies(leia, wanted) == 3 and copies(leia, offered) == 0
    assert PostedTrade.objects.get(pk=trade.pk).status == PostedTradeStatus.OPEN


def test_an_accepted_trade_cannot_be_accepted_again(swap):
    _han, leia, _offered, wanted, trade = swap
    posted_trade_accept(trade_id=trade.pk, taker=leia)
    other = UserFactory()
    give_cards(other, {wanted.pk: 3})
    with pytest.raises(
        PostedTradeClosed, match=f"Posted trade {trade.pk} was just accepted by another player"
    ):
        posted_trade_accept(trade_id=trade.pk, taker=other)
    assert copies(other, wanted) == 3


def test_the_taker_accepting_again_is_told_they_took_it_not_another_player(swap):
    """A second click on Accept (or a resent request) by the player who won the trade."""
    _han, leia, offered, _wanted, trade = swap
    posted_trade_accept(trade_id=trade.pk, taker=leia)

    with pytest.raises(PostedTradeClosed) as again:
        posted_trade_accept(trade_id=trade.pk, taker=leia)

    assert again.value.message == f"You have accepted posted trade {trade.pk} already."
    assert copies(leia, offered) == 2
    assert LedgerOperation.objects.filter(reference=f"ptrade:{trade.pk}").count() == 1


def test_the_poster_withdraws_an_open_trade_and_nobody_can_accept_it(swap):
    han, leia, _offered, _wanted, trade = swap
    posted_trade_withdraw(trade_id=trade.pk, poster=han)
    trade.refresh_from_db()
    assert trade.status == PostedTradeStatus.WITHDRAWN and trade.closed_at is not None
    with pytest.raises(PostedTradeClosed, match="was just withdrawn by its poster"):
        posted_trade_accept(trade_id=trade.pk, taker=leia)
    with pytest.raises(PostedTradeClosed, match="You have withdrawn posted trade .* already"):
        posted_trade_withdraw(trade_id=trade.pk, poster=han)


def test_only_the_poster_withdraws_and_not_once_accepted(swap):
    han, leia, _offered, _wanted, trade = swap
    with pytest.raises(PostedTradeError, match="no such posted trade"):
        posted_trade_withdraw(trade_id=trade.pk, poster=leia)
    posted_trade_accept(trade_id=trade.pk, taker=leia)
    with pytest.raises(PostedTradeClosed, match=f"{leia} accepted posted trade .* before you"):
        posted_trade_withdraw(trade_id=trade.pk, poster=han)


def test_a_missing_trade_is_refused_clearly(catalog):
    with pytest.raises(PostedTradeError, match="no longer exists"):
        posted_trade_accept(trade_id=987654, taker=UserFactory())


def test_the_poster_is_told_when_their_trade_is_accepted(swap, django_capture_on_commit_callbacks):
    """After an accepted trade the poster, if online, sees a pop-up on whatever page: a
    ``lobby.toast`` to their own group, sent once the trade is committed."""
    han, leia, _offered, _wanted, trade = swap

    def accept():
        with django_capture_on_commit_callbacks(execute=True):
            posted_trade_accept(trade_id=trade.pk, taker=leia)

    async def listen_while_accepting():
        # One event loop for the listening channel: the Redis layer's channels live in it.
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(user_group(han.pk), channel)
        await sync_to_async(accept)()
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    message = async_to_sync(listen_while_accepting)()["message"]

    assert message["type"] == "lobby.toast"
    assert message["sender_id"] == leia.pk
    assert "accepted your posted trade" in message["html"]
