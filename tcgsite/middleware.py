"""Middleware that keeps what no view can handle away from the views."""

from django.http import QueryDict
from django.shortcuts import render

from tcgsite.inputs import NUL, without_nul


class NulCharactersMiddleware:
    """NUL characters out of every query string and form (PostgreSQL refuses them in text,
    and nobody types one, so nothing a player meant is lost); an address holding one is
    answered with a page that says so."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if NUL in request.path:
            return render(request, "400_nul.html", status=400)
        request.GET = _without_nul(request.GET)
        if request.method == "POST":
            request.POST = _without_nul(request.POST)
        return self.get_response(request)


def _without_nul(params: QueryDict) -> QueryDict:
    if not any(NUL in key or NUL in value for key, values in params.lists() for value in values):
        return params
    cleaned = QueryDict(mutable=True)
    for key, values in params.lists():
        cleaned.setlist(without_nul(key), [without_nul(value) for value in values])
    cleaned._mutable = False
    return cleaned
