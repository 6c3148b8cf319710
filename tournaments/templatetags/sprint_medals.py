"""The Sprint Winner Medals drawn on pages, as the lobbies draw them beside names."""

from django import template

from tournaments.sprint_badges import medal_icon, medal_icons

register = template.Library()


@register.simple_tag
def sprint_medal(color: str, count: int = 1) -> str:
    return medal_icon(color, count)


@register.simple_tag
def sprint_medals(counts: dict[str, int]) -> str:
    return medal_icons(counts)
