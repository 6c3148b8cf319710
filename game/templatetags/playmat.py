"""The playmat's cards, drawn by ``game.fragments.mat_card``: a page shows dozens of them and a
live match redraws its page after every action, too often for a template include per card."""

from django import template

from game import fragments

register = template.Library()


@register.simple_tag(takes_context=True)
def mat_card(context, card: dict) -> str:
    """``{% mat_card card %}``: the card as the page's viewer sees it; while they decide (and
    the match is not over), a card with an action takes a double-click, Enter or a drag."""
    board, match = context["board"], context["match"]
    interactive = bool(board["my_decision"]) and match.status != "finished"
    return fragments.mat_card(card, interactive=interactive)
