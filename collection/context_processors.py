from django.utils.functional import SimpleLazyObject

from collection import selectors


def header_credits(request):
    """The player's credits for the page header; read only on a page that shows them."""
    if not request.user.is_authenticated:
        return {}
    return {
        "header_credits": SimpleLazyObject(lambda: selectors.header_credits(player=request.user))
    }
