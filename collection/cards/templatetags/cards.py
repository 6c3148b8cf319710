from django import template
from django.utils.safestring import mark_safe

from collection.cards.faces import game_text_html

register = template.Library()


@register.filter
def game_text(text: str) -> str:
    """Render a card's game text with highlighted keywords and timing icons (escaped)."""
    return mark_safe(game_text_html(text))  # noqa: S308 - game_text_html escapes every piece
