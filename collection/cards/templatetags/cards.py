from django import template
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from collection.cards.faces import FACE_SIZES, game_text_html
from collection.cards.models import Archetype, CardType, Rarity

register = template.Library()

# What the card lists drawn by Jinja (the Card Browser, the binder, the Deck Builder) read of
# every card, worked out once: the choices' labels, and the addresses' prefix (checked against
# ``reverse`` by their tests).
TYPE_LABELS = dict(CardType.choices)
ARCHETYPE_LABELS = dict(Archetype.choices)
RARITY_LABELS = dict(Rarity.choices)


def card_prefix() -> str:
    """The address of a card's page (and face) without its set and number: "/cards/"."""
    return reverse("cards:card_detail", args=[1, 1]).removesuffix("1/1/")


@register.filter
def game_text(text: str) -> str:
    """Render a card's game text with highlighted keywords and timing icons (escaped)."""
    return mark_safe(game_text_html(text))  # noqa: S308 - game_text_html escapes every piece


@register.filter
def face_dimensions(size: str) -> str:
    """A card face's ``width`` and ``height`` attributes at ``size`` (small, medium, large),
    so that its <img> takes its room before the face arrives and nothing below it jumps."""
    face = FACE_SIZES.get(size, FACE_SIZES["medium"])
    return format_html('width="{}" height="{}"', face.width, face.height)


@register.simple_tag
def toggle_dropdowns(toggle_groups: list[dict]) -> SafeString:
    """``{% toggle_dropdowns toggle_groups %}``: the toggle filters' dropdowns (see
    ``collection.cards.filtering.toggle_groups``), drawn by Jinja: with a few hundred options
    they cost a page more than its data through Django's template language."""
    html = get_template("cards/_toggle_dropdowns.html", using="jinja2").render(
        {"toggle_groups": toggle_groups}
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew


@register.simple_tag
def card_rows(cards, view: str, card_size: str = "medium") -> SafeString:
    """``{% card_rows page.object_list filters.view card_size %}``: the Card Browser's cards
    as Table View rows or Graphic View faces, drawn by Jinja (a page of 100 rows through
    Django's template language cost several times what its data did)."""
    html = get_template("cards/_card_rows.html", using="jinja2").render(
        {
            "cards": cards,
            "view": view,
            "card_size": card_size,
            "face_dimensions": face_dimensions(card_size),
            "card_prefix": card_prefix(),
            "type_labels": TYPE_LABELS,
            "archetype_labels": ARCHETYPE_LABELS,
            "rarity_labels": RARITY_LABELS,
        }
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew
