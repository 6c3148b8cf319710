from django.utils.functional import SimpleLazyObject

from tournaments import selectors


def tournament_timer(request):
    """The Tournament Timer of every page (templates/tournaments/_timer.html); read only on a
    page that shows it."""
    if not request.user.is_authenticated:
        return {}
    return {
        "tournament_timer": SimpleLazyObject(
            lambda: selectors.tournament_timer(player=request.user)
        )
    }
