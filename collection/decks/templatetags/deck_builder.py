"""The Deck Builder's cards in its Django pages (``{% builder_cards %}``), drawn by one Jinja2
template (templates/jinja2/decks/_builder_cards.html): the collection container's 100 rows
and the deck's lines through Django's template language, an include per row, cost several
times what their data did."""

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from collection.cards.templatetags.cards import (
    ARCHETYPE_LABELS,
    TYPE_LABELS,
    card_prefix,
    face_dimensions,
)

register = template.Library()


@register.simple_tag(takes_context=True)
def builder_cards(context, cards, what: str, view: str = "graphic") -> SafeString:
    """``{% builder_cards page.object_list "collection" filters.view %}``: the collection
    container's cards (with ``in_deck``, ``left`` and ``owned``) as tiles or Table View rows;
    ``"deck"`` a part's lines in the deck container's view; ``"list"`` the compact deck
    list's lines. The page's ``pool``, ``change_url`` and ``foil_effects`` come from the
    context."""
    html = get_template("decks/_builder_cards.html", using="jinja2").render(
        {
            "cards": cards,
            "what": what,
            "view": view,
            "pool": context.get("pool"),
            "foil_effects": context.get("foil_effects", False),
            "change_url": context["change_url"],
            "card_prefix": card_prefix(),
            "small_dimensions": face_dimensions("small"),
            "type_labels": TYPE_LABELS,
            "archetype_labels": ARCHETYPE_LABELS,
        }
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew
