from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from collection.cards.faces import FACE_SIZES, game_text_html

register = template.Library()


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
