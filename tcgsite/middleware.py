"""Middleware that keeps what no view can handle away from the views."""

from django.conf import settings
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


# What only Django's debug page for a missing page says.
DEBUG_NOT_FOUND_MARK = b"because you have <code>DEBUG = True</code>"


class SiteNotFoundPageMiddleware:
    """With DEBUG on (the embedded default), Django answers a missing page with its debug page,
    whose inline styles the site's Content-Security-Policy refuses and which lists the site's
    addresses: players get the site's own "Nothing here" page instead."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code == 404
            and settings.DEBUG
            and not getattr(response, "streaming", False)
            and DEBUG_NOT_FOUND_MARK in response.content
        ):
            return render(request, "404.html", status=404)
        return response
