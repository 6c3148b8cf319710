"""The Online Store (rulebook, The Main Lobby: "Store ... where you can purchase starter decks,
booster packs, event passes"), registration (Registering for tournaments) and staff grants."""

import re
import uuid

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.urls import reverse

from collection.models import (
    CreditEntry,
    ItemEntry,
    LedgerReason,
    Opening,
    OwnedProduct,
    Product,
    ProductKind,
    Wallet,
)
from collection.services.ledger import wallet_for
from collection.services.opening import products_open
from collection.services.store import MAX_CREDITS, MAX_PURCHASE_QUANTITY, product_purchase
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

STORE = reverse("collection:store")
BUY = reverse("collection:store_buy")
CONFIRM = reverse("collection:store_confirm")


@pytest.fixture
def staff(client):
    user = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def buy(client, product, quantity=1, confirmation=None):
    """Buy as the confirmation page does, with the confirmation it hands out."""
    return client.post(
        BUY,
        {"product": product.pk, "quantity": quantity, "confirmation": confirmation or uuid.uuid4()},
        follow=True,
    )


def test_new_player_sees_the_starting_balance_and_the_products_for_sale(
    client, player, booster, starter, event_pass
):
    """Given a new player, when they open the Store, they see their starting balance and
    every product for sale with its name, kind, description and price."""
    Product.objects.filter(pk=starter.pk).update(for_sale=False)

    response = client.get(STORE)

    page = response.content.decode()
    assert f">{settings.STARTING_CREDITS}<" in page
    shown = [entry.product for entry in response.context["products"]]
    assert booster in shown and event_pass in shown and starter not in shown
    assert booster.description in page and f">{booster.price}<" in page
    assert "Not registered" in page
    assert CreditEntry.objects.get(owner=player).reason == LedgerReason.STARTING_BALANCE


def test_store_shelves_starter_decks_then_boosters_then_event_passes(
    client, player, booster, event_pass
):
    """The rulebook's order: "starter decks, booster packs, event passes"."""
    kinds = [entry.product.kind for entry in client.get(STORE).context["products"]]

    shelves = [kind for index, kind in enumerate(kinds) if kind not in kinds[:index]]
    assert shelves == [ProductKind.STARTER_DECK, ProductKind.BOOSTER_PACK, ProductKind.EVENT_PASS]


def test_buying_boosters_takes_credits_and_adds_unopened_products_with_ledger_rows(
    client, player, booster
):
    response = buy(client, booster, quantity=3)

    assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS - 3 * booster.price
    purchase = CreditEntry.objects.get(owner=player, reason=LedgerReason.PURCHASE)
    assert purchase.delta == -3 * booster.price
    assert purchase.balance_after == settings.STARTING_CREDITS - 3 * booster.price
    items = OwnedProduct.objects.filter(owner=player, product=booster, opened__isnull=True)
    assert items.count() == 3
    assert ItemEntry.objects.filter(
        owner=player, owned_product__in=items, delta=1, reason=LedgerReason.PURCHASE
    ).count() == (3)
    page = response.content.decode()
    assert f"Bought 3 × {booster.name}." in page
    assert f'href="{reverse("collection:binder")}"' in page
    assert "3 unopened in your Collection" in page


def test_not_enough_credits_shows_a_message_and_changes_nothing(client, player, starter):
    """Given 1000 credits, when a player buys three 400-credit starter decks, then the Store
    says what it costs and what they have, and nothing is bought."""
    response = buy(client, starter, quantity=3)

    assert messages_of(response) == [
        f"3 × {starter.name} costs 1200 credits; you have {settings.STARTING_CREDITS}."
    ]
    assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS
    assert not OwnedProduct.objects.filter(owner=player).exists()
    assert not CreditEntry.objects.filter(owner=player, reason=LedgerReason.PURCHASE).exists()


def test_product_not_for_sale_can_not_be_bought(client, player, booster):
    Product.objects.filter(pk=booster.pk).update(for_sale=False)

    response = buy(client, booster)

    assert messages_of(response) == [f"{booster.name} is not for sale."]
    assert not OwnedProduct.objects.filter(owner=player).exists()


def test_each_message_has_the_role_of_its_level_so_a_screen_reader_reads_it(
    client, player, booster
):
    """Given a refusal (an error) and a purchase (a success), the page that shows each
    message marks it for screen readers: an error as an alert, a success as a status."""
    Product.objects.filter(pk=booster.pk).update(for_sale=False)
    refused = buy(client, booster).content.decode()
    Product.objects.filter(pk=booster.pk).update(for_sale=True)
    bought = buy(client, booster).content.decode()

    assert re.search(r'class="message message--error" role="alert">[^<]* is not for sale', refused)
    assert re.search(r'class="message message--success" role="status">Bought 1', bought)


@pytest.mark.parametrize(
    ("quantity", "message"),
    [
        (0, f"Buy between 1 and {MAX_PURCHASE_QUANTITY} at a time."),
        (MAX_PURCHASE_QUANTITY + 1, f"Buy between 1 and {MAX_PURCHASE_QUANTITY} at a time."),
        ("two", f"Quantity must be a whole number from 1 to {MAX_PURCHASE_QUANTITY}."),
        ("", f"Quantity must be a whole number from 1 to {MAX_PURCHASE_QUANTITY}."),
    ],
)
def test_quantity_out_of_range_or_not_a_number_gets_a_message(
    client, player, booster, quantity, message
):
    response = buy(client, booster, quantity=quantity)

    assert response.status_code == 200
    assert messages_of(response) == [message]
    assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS


@pytest.mark.parametrize("product_id", ["999999", "abc", "", "99999999999999999999999"])
def test_unknown_product_gets_a_message_not_an_error(client, player, catalog, product_id):
    response = client.post(BUY, {"product": product_id, "quantity": 1}, follow=True)

    assert response.status_code == 200
    assert messages_of(response) in (
        ["That product is not in the Store."],
        ["Choose a product to buy."],
    )


def test_first_booster_purchase_registers_the_account(client, player, booster):
    """Rulebook, Registering for tournaments: "Any purchase that includes at least a booster
    pack or starter deck will enable that account to enjoy ... tournaments"."""
    response = buy(client, booster)

    player.refresh_from_db()
    assert player.is_registered
    assert "Your account is now registered: tournaments are open to you." in messages_of(response)
    assert "✓ Registered player" in client.get(STORE).content.decode()


def test_first_starter_deck_purchase_registers_the_account_once(client, player, starter):
    buy(client, starter)
    player.refresh_from_db()
    registered_at = player.registered_at

    second = buy(client, starter)

    player.refresh_from_db()
    assert registered_at is not None and player.registered_at == registered_at
    assert not any("now registered" in message for message in messages_of(second))


def test_event_pass_purchase_does_not_register(client, player, event_pass):
    response = buy(client, event_pass, quantity=2)

    player.refresh_from_db()
    assert not player.is_registered
    assert OwnedProduct.objects.filter(owner=player, product=event_pass).count() == 2
    assert "See it in your Collection" in response.content.decode()


def test_store_needs_a_logged_in_player_and_buying_needs_post(client, booster):
    assert client.get(STORE).status_code == 302
    client.force_login(UserFactory())
    assert client.get(BUY).status_code == 405
    client.logout()
    assert client.get(CONFIRM, {"product": booster.pk, "quantity": 1}).status_code == 302


# Confirming a purchase, what a starter deck holds, what can't be afforded, credits in the header


def test_buy_without_confirmation_only_shows_the_confirmation_page(client, player, starter):
    """A replayed Buy, or a form that skips the confirmation, spends nothing."""
    response = client.post(BUY, {"product": starter.pk, "quantity": 1}, follow=True)

    assert response.redirect_chain[-1][0] == f"{CONFIRM}?product={starter.pk}&quantity=1"
    assert not OwnedProduct.objects.filter(owner=player).exists()
    assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS
    page = response.content.decode()
    assert "Confirm your purchase" in page
    assert f"Confirm: spend {starter.price} credits" in page
    assert f"{settings.STARTING_CREDITS - starter.price}</dd>" in page


def test_a_confirmation_buys_once_however_often_it_is_sent(client, player, booster):
    page = client.get(CONFIRM, {"product": booster.pk, "quantity": 2}).content.decode()
    confirmation = re.search(r'name="confirmation" value="([0-9a-f-]{36})"', page)[1]

    buy(client, booster, quantity=2, confirmation=confirmation)
    again = buy(client, booster, quantity=2, confirmation=confirmation)

    assert OwnedProduct.objects.filter(owner=player, product=booster).count() == 2
    assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS - 2 * booster.price
    assert messages_of(again) == ["That purchase was made already; nothing was bought again."]


def test_a_confirmation_the_store_did_not_give_is_refused(client, player, booster):
    response = client.post(
        BUY, {"product": booster.pk, "quantity": 1, "confirmation": "yes"}, follow=True
    )

    assert messages_of(response) == ["That confirmation was not given by the Store; buy again."]
    assert not OwnedProduct.objects.filter(owner=player).exists()


def test_the_confirmation_page_says_when_credits_are_short(client, player, starter):
    page = client.get(CONFIRM, {"product": starter.pk, "quantity": 3}).content.decode()

    assert f"You have {settings.STARTING_CREDITS} credits: 3 × {starter.name} costs 1200." in page
    assert 'name="confirmation"' not in page


def test_products_the_player_can_not_afford_have_a_disabled_buy_with_the_reason(
    client, player, booster, starter
):
    """Given 300 credits, a 400-credit starter deck can't be bought, a 150-credit booster can."""
    wallet_for(owner=player)
    Wallet.objects.filter(owner=player).update(credits=300)

    page = client.get(STORE).content.decode()

    starter_button = re.search(rf'<button[^>]*aria-label="Buy {starter.name}"[^>]*>', page)[0]
    booster_button = re.search(rf'<button[^>]*aria-label="Buy {booster.name}"[^>]*>', page)[0]
    assert "disabled" in starter_button
    assert "disabled" not in booster_button
    assert f'id="why-not-{starter.pk}">You have 300 credits: it costs {starter.price}.' in page


def test_a_starter_decks_page_shows_its_avatar_deck_list_and_how_it_plays(client, player, catalog):
    starter = Product.objects.get(kind=ProductKind.STARTER_DECK, archetype="sith")
    lines = {line.card.title: line for line in starter.starter_cards.select_related("card")}
    avatar = next(line.card for line in lines.values() if line.card.card_type == "avatar")

    response = client.get(reverse("collection:store_product", args=[starter.pk]))

    page = response.content.decode()
    assert f'Avatar: <a href="{avatar.get_absolute_url()}">{avatar.title}</a>' in page
    assert "58 cards" in page
    assert "<h3>Abilities</h3>" in page
    assert "Vorsa Kel grows stronger with every wound" in page
    for line in lines.values():
        if line.card.card_type not in ("avatar", "quest"):
            assert f'{line.quantity}×</span> <a href="{line.card.get_absolute_url()}">' in page
    assert f'aria-label="Buy {starter.name}"' in page


def test_the_store_links_each_starter_deck_to_its_page(client, player, starter):
    page = client.get(STORE).content.decode()

    assert reverse("collection:store_product", args=[starter.pk]) in page


def test_a_product_not_for_sale_has_no_page(client, player, booster):
    Product.objects.filter(pk=booster.pk).update(for_sale=False)

    assert client.get(reverse("collection:store_product", args=[booster.pk])).status_code == 404


def test_the_page_header_shows_the_players_credits(client, player, booster):
    buy(client, booster)

    page = client.get(reverse("lobby")).content.decode()

    balance = settings.STARTING_CREDITS - booster.price
    assert re.search(rf'class="topbar__credits"[^>]*><strong>{balance}</strong> credits', page)


def test_no_credits_in_the_header_for_a_visitor(client, catalog):
    assert "topbar__credits" not in client.get(reverse("accounts:login")).content.decode()


# Staff: the admin grants credits and products through the services, never by editing.

GRANT = reverse("admin:collection_wallet_grant")


def test_admin_action_on_selected_wallets_opens_the_grant_form_with_those_players(staff, client):
    players = [UserFactory(), UserFactory()]
    wallets = [wallet_for(owner=player) for player in players]

    response = client.post(
        reverse("admin:collection_wallet_changelist"),
        {"action": "grant_to_selected", "_selected_action": [wallet.pk for wallet in wallets]},
    )

    assert response.status_code == 302
    form = client.get(response.url).context["form"]
    assert sorted(int(pk) for pk in form.initial["players"]) == sorted(p.pk for p in players)


def test_staff_grant_credits_and_products_with_ledger_rows_and_no_registration(
    staff, client, booster
):
    players = [UserFactory(), UserFactory()]

    response = client.post(
        GRANT,
        {
            "players": [player.pk for player in players],
            "credits": 250,
            "product": booster.pk,
            "quantity": 2,
            "note": "Release party",
        },
        follow=True,
    )

    assert response.status_code == 200
    for player in players:
        assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS + 250
        grant = CreditEntry.objects.get(owner=player, reason=LedgerReason.GRANT)
        assert (grant.delta, grant.note) == (250, "Release party")
        items = OwnedProduct.objects.filter(owner=player, product=booster)
        assert items.count() == 2
        assert ItemEntry.objects.filter(
            owned_product__in=items, reason=LedgerReason.GRANT, delta=1
        ).count() == (2)
        player.refresh_from_db()
        assert not player.is_registered
    assert any("Granted +250 credits and 2 ×" in message for message in messages_of(response))


def test_staff_taking_back_more_credits_than_a_player_has_is_reported_per_player(staff, client):
    poor, rich = UserFactory(username="Poor"), UserFactory(username="Rich")
    client.post(GRANT, {"players": [rich.pk], "credits": 4000})

    response = client.post(GRANT, {"players": [poor.pk, rich.pk], "credits": -2000}, follow=True)

    assert f"Poor has only {settings.STARTING_CREDITS} credits to take back." in " ".join(
        messages_of(response)
    )
    assert Wallet.objects.get(owner=poor).credits == settings.STARTING_CREDITS
    assert Wallet.objects.get(owner=rich).credits == 3000


@pytest.mark.parametrize("credits", [str(2**31), str(-(2**31)), "99999999999999999999"])
def test_granting_more_credits_than_a_wallet_holds_gets_a_message(staff, client, credits):
    player = UserFactory()

    response = client.post(GRANT, {"players": [player.pk], "credits": credits})

    assert response.status_code == 200
    assert f"{MAX_CREDITS}" in response.content.decode().replace(",", "")
    assert not CreditEntry.objects.filter(owner=player, reason=LedgerReason.GRANT).exists()


def test_a_grant_that_would_overflow_a_balance_is_reported_and_changes_nothing(staff, client):
    player = UserFactory(username="Hoarder")

    response = client.post(GRANT, {"players": [player.pk], "credits": MAX_CREDITS}, follow=True)

    room = MAX_CREDITS - settings.STARTING_CREDITS
    assert f"a wallet holds at most {MAX_CREDITS:,}, so grant at most {room:,}." in " ".join(
        messages_of(response)
    )
    assert Wallet.objects.get(owner=player).credits == settings.STARTING_CREDITS


def test_grant_form_needs_credits_or_a_product(staff, client):
    response = client.post(GRANT, {"players": [UserFactory().pk], "credits": "", "quantity": 1})

    assert response.status_code == 200
    assert "Grant some credits, a product, or both." in response.content.decode()


def test_grant_form_is_for_staff_with_permission_only(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get(GRANT).status_code == 403


def test_wallet_balance_is_read_only_in_the_admin(staff, client):
    wallet = wallet_for(owner=UserFactory())

    form = client.get(reverse("admin:collection_wallet_change", args=[wallet.pk]))
    client.post(reverse("admin:collection_wallet_change", args=[wallet.pk]), {"credits": 999999})

    assert "credits" not in form.context["adminform"].form.fields
    assert Wallet.objects.get(pk=wallet.pk).credits == settings.STARTING_CREDITS


def test_product_admin_rejects_booster_slots_the_set_can_not_fill(staff, client, booster):
    url = reverse("admin:collection_product_change", args=[booster.pk])
    data = {
        "kind": ProductKind.BOOSTER_PACK,
        "name": booster.name,
        "description": booster.description,
        "price": booster.price,
        "for_sale": "on",
        "card_set": booster.card_set_id,
        "archetype": "",
        "starter_cards-TOTAL_FORMS": 0,
        "starter_cards-INITIAL_FORMS": 0,
    }

    malformed = client.post(url, {**data, "booster_slots": '[{"rarity": "X", "count": 1}]'})
    too_many = client.post(url, {**data, "booster_slots": '[{"rarity": "R", "count": 500}]'})
    fine = client.post(url, {**data, "booster_slots": '[{"rarity": "R", "count": 2}]'})

    assert "rarity must be one of R, U, C, F, P" in malformed.content.decode()
    assert "too few for a slot of 500" in too_many.content.decode()
    assert fine.status_code == 302
    booster.refresh_from_db()
    assert booster.booster_slots == [{"rarity": "R", "count": 2}]


def test_admin_ledgers_and_ownership_lists_render_read_only(staff, client, booster):
    buyer = UserFactory()
    (item,) = product_purchase(buyer=buyer, product=booster)
    products_open(owner=buyer, owned_product_ids=[item.pk])

    for model in ("creditentry", "itementry", "ownedproduct", "opening", "cardownership"):
        listing = client.get(reverse(f"admin:collection_{model}_changelist"), {"q": buyer.username})
        assert listing.status_code == 200, model
        assert reverse(f"admin:collection_{model}_add") not in listing.content.decode()
    openings = client.get(reverse("admin:collection_opening_changelist"))
    assert 'alt="True"' in openings.content.decode()  # the "audited" column
    opening = Opening.objects.get(owned_product=item)
    detail = client.get(reverse("admin:collection_opening_change", args=[opening.pk]))
    assert str(opening.seed) in detail.content.decode()
