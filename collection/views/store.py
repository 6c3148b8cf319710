"""The Online Store: starter decks, booster packs and event passes for credits."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from collection import selectors
from collection.forms import PurchaseForm
from collection.services.store import (
    MAX_PURCHASE_QUANTITY,
    StoreError,
    product_purchase,
)

RECENT_LEDGER_ENTRIES = 5


@login_required
@require_GET
def store(request):
    return render(
        request,
        "collection/store.html",
        {
            "credits": selectors.credits_balance(owner=request.user),
            "products": selectors.store_shelf(owner=request.user),
            "max_quantity": MAX_PURCHASE_QUANTITY,
            "recent_entries": selectors.recent_credit_entries(
                owner=request.user, count=RECENT_LEDGER_ENTRIES
            ),
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
