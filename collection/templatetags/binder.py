"""The binder's cards in its Django pages (``{% binder_cards %}``), drawn by one Jinja2
template (templates/jinja2/collection/_binder_cards.html): a page of 100 rows through
Django's template language cost several times what its data did."""

from django import template
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from collection.cards.templatetags.cards import (
    ARCHETYPE_LABELS,
    RARITY_LABELS,
    TYPE_LABELS,
    card_prefix,
    face_dimensions,
)

register = template.Library()


@register.simple_tag(takes_context=True)
def binder_cards(context, cards, view: str, **extra) -> SafeString:
    """``{% binder_cards page "table" %}``: the cards as Table View rows, Graphic View cards
    ("graphic") or their numbers alone ("numbers"), with the page's ``binder_url``,
    ``max_want``, ``card_size``, ``want_error`` and ``foil_effects`` (or those given as
    ``extra``)."""
    values = {
        name: context.get(name, "")
        for name in ("binder_url", "max_want", "card_size", "want_error", "foil_effects")
    }
    values.update(extra)
    return render_binder_cards(context.get("request"), cards, view, **values)


@register.simple_tag(takes_context=True)
def binder_numbers(context, card, **extra) -> SafeString:
    """``{% binder_numbers card %}``: one card's Quantity, Want and Trade or Need."""
    return binder_cards(context, [card], "numbers", **extra)


# The Want forms' address prefix, checked against ``reverse`` by the binder's tests.
def want_prefix() -> str:
    return reverse("collection:want_change", args=[1]).removesuffix("1/")


def render_binder_cards(request, cards, view: str, **values) -> SafeString:
    card_size = values.pop("card_size", "") or "medium"
    html = get_template("collection/_binder_cards.html", using="jinja2").render(
        {
            "cards": cards,
            "view": view,
            "card_size": card_size,
            "face_dimensions": face_dimensions(card_size),
            "card_prefix": card_prefix(),
            "want_prefix": want_prefix(),
            "type_labels": TYPE_LABELS,
            "archetype_labels": ARCHETYPE_LABELS,
            "rarity_labels": RARITY_LABELS,
            # One token field for every Want form of the page, not one masked token each.
            "csrf_field": format_html(
                '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
            ),
            **values,
        },
        request,
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew
