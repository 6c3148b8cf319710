"""The match screen in the site's pages (the match page, the replay), drawn by its Jinja2
templates (``game.fragments.match_screen``), which the live match renders after every
decision."""

from django import template

from game import fragments

register = template.Library()


@register.simple_tag
def match_screen(screen) -> str:
    """``{% match_screen screen %}``: the Match Launch screen or the playmat, as the page's
    viewer sees it."""
    return fragments.match_screen(screen)
