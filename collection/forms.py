from django import forms

from collection.models import Product
from collection.services.store import MAX_PURCHASE_QUANTITY

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
    # Handed out by the confirmation page only: the Store buys nothing without it, and buys
    # once per confirmation, however often the confirmed form is sent.
    confirmation = forms.UUIDField(
        required=False,
        error_messages={"invalid": "That confirmation was not given by the Store; buy again."},
    )
