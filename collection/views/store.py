"""The Online Store: starter decks, booster packs and event passes for credits.

Buying takes two steps: Buy opens a confirmation page, which hands out a one-time
confirmation; only a purchase carrying one spends credits, and only once per confirmation.
"""

import uuid
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from collection import selectors
from collection.forms import PurchaseForm
from collection.models import ProductKind
from collection.services.ledger import LedgerOperationDone
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
@require_GET
def store_product(request, product_id):
    """A product's page: for a starter deck, its avatar, its deck list and how it plays."""
    product = selectors.store_product(product_id=product_id)
    if product is None:
        raise Http404("The Store has no such product for sale.")
    contents = None
    if product.kind == ProductKind.STARTER_DECK:
        contents = selectors.starter_contents(product=product)
    return render(
        request,
        "collection/store_product.html",
        {
            "product": product,
            "contents": contents,
            "credits": selectors.credits_balance(owner=request.user),
            "max_quantity": MAX_PURCHASE_QUANTITY,
        },
    )


@login_required
@require_GET
def store_confirm(request):
    """What a purchase costs and leaves, with the one-time confirmation that makes it."""
    form = PurchaseForm(request.GET)
    if not form.is_valid():
        return _refused(request, form)
    product, quantity = form.cleaned_data["product"], form.cleaned_data["quantity"]
    if not product.for_sale:
        messages.error(request, f"{product.name} is not for sale.")
        return redirect("collection:store")
    if not 1 <= quantity <= MAX_PURCHASE_QUANTITY:
        messages.error(request, f"Buy between 1 and {MAX_PURCHASE_QUANTITY} at a time.")
        return redirect("collection:store")
    credits = selectors.credits_balance(owner=request.user)
    cost = product.price * quantity
    return render(
        request,
        "collection/store_confirm.html",
        {
            "product": product,
            "quantity": quantity,
            "cost": cost,
            "credits": credits,
            "credits_after": credits - cost,
            "confirmation": uuid.uuid4(),
        },
    )


@login_required
@require_POST
def store_buy(request):
    form = PurchaseForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    product, quantity = form.cleaned_data["product"], form.cleaned_data["quantity"]
    confirmation = form.cleaned_data["confirmation"]
    if confirmation is None:
        query = urlencode({"product": product.pk, "quantity": quantity})
        return redirect(f"{reverse('collection:store_confirm')}?{query}")
    was_registered = request.user.is_registered
    try:
        product_purchase(
            buyer=request.user,
            product=product,
            quantity=quantity,
            reference=f"purchase:{request.user.pk}:{confirmation}",
        )
    except LedgerOperationDone:
        messages.info(request, "That purchase was made already; nothing was bought again.")
        return redirect("collection:store")
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


def _refused(request, form):
    for errors in form.errors.values():
        messages.error(request, errors[0])
    return redirect("collection:store")
