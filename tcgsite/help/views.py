from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tcgsite.help import selectors


@require_GET
def help_home(request):
    return render(request, "help/home.html", {"sections": selectors.help_sections()})


@require_GET
def section(request, section):
    page = selectors.help_section_page(section)
    if page is None:
        raise Http404("No Help section by that name.")
    return render(
        request,
        "help/section.html",
        {"page": page, "sections": selectors.help_sections(), "current_section": section},
    )


@require_GET
def glossary(request):
    return render(
        request,
        "help/glossary.html",
        {
            "entries": selectors.glossary_entries(),
            "sections": selectors.help_sections(),
            "current_section": "glossary",
        },
    )


@require_GET
def term(request, term):
    found = selectors.glossary_entry_page(term)
    if found is None:
        raise Http404("No glossary term by that name.")
    entry, explained_in, see = found
    return render(
        request,
        "help/term.html",
        {
            "entry": entry,
            "explained_in": explained_in,
            "see": see,
            "sections": selectors.help_sections(),
            "current_section": "glossary",
        },
    )


@require_GET
def search(request):
    result = selectors.help_search(request.GET.get("q", ""))
    return render(
        request,
        "help/search.html",
        {"result": result, "query": result.query, "sections": selectors.help_sections()},
    )
