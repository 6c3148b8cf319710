"""The Online Store: starter decks, booster packs and event passes for credits."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from collection.models import CreditEntry, OwnedProduct, Product, ProductKind
from collection.services.ledger import wallet_for
from collection.services.store import MAX_PURCHASE_QUANTITY, StoreError, product_purchase

RECENT_LEDGER_ENTRIES = 5
# The rulebook's order: "starter decks, booster packs, event passes".
SHELF_ORDER = (ProductKind.STARTER_DECK, ProductKind.BOOSTER_PACK, ProductKind.EVENT_PASS)
QUANTITY_MESSAGE = f"Quantity must be a whole number from 1 to {MAX_PURCHASE_QUANTITY}."


class PurchaseForm(forms.Form):
    product = forms.ModelChoiceField(
        queryset=Product.objects.all(),
        error_messages={
            "required": "Choose a product to buy.",
            "invalid_choice": "That product is not in the Store.",
        },
    )
    # The range is the service's to check; the form only reads a whole number.
    quantity = forms.IntegerField(
        error_messages={"required": QUANTITY_MESSAGE, "invalid": QUANTITY_MESSAGE}
    )


@login_required
@require_GET
def store(request):
    wallet = wallet_for(owner=request.user)
    unopened = dict(
        OwnedProduct.objects.filter(owner=request.user, opened__isnull=True)
        .values_list("product")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for_sale = Product.objects.filter(for_sale=True).select_related("card_set")
    products = [
        {"product": product, "unopened": unopened.get(product.pk, 0)}
        for product in sorted(for_sale, key=lambda product: SHELF_ORDER.index(product.kind))
    ]
    return render(
        request,
        "collection/store.html",
        {
            "wallet": wallet,
            "products": products,
            "max_quantity": MAX_PURCHASE_QUANTITY,
            "recent_entries": CreditEntry.objects.filter(owner=request.user)[
                :RECENT_LEDGER_ENTRIES
            ],
        },
    )


@login_required
@require_POST
def store_buy(request):
    form = PurchaseForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, errors[0])
        return redirect("collection:store")
    product, quantity = form.cleaned_data["product"], form.cleaned_data["quantity"]
    was_registered = request.user.is_registered
    try:
        product_purchase(buyer=request.user, product=product, quantity=quantity)
    except StoreError as error:
        messages.error(request, str(error))
        return redirect("collection:store")
    follow_up = "Open it in your Collection" if product.opens else "See it in your Collection"
    if product.opens and quantity > 1:
        follow_up = "Open them in your Collection"
    messages.success(
        request,
        format_html(
            'Bought {} × {}. <a href="{}">{}</a>',
            quantity,
            product.name,
            reverse("collection:binder"),
            follow_up,
        ),
    )
    request.user.refresh_from_db(fields=["registered_at"])
    if not was_registered and request.user.is_registered:
        messages.success(request, "Your account is now registered: tournaments are open to you.")
    return redirect("collection:store")
