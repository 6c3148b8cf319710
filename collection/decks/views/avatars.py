"""Create Avatar: one question a page, radio buttons on the right, the card on the left.

The answers so far travel in the form as hidden fields; each request reads them again with
``read_choices``, so a page never goes past the first unanswered or unknown answer.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRedirect

from collection.cards.faces import card_face_svg
from collection.decks.avatars import CAREERS, QUESTIONS, read_choices
from collection.decks.deckwizard import ARCHETYPE_LABELS
from collection.decks.services.avatar_creation import (
    MAX_MADE_AVATARS,
    AvatarError,
    avatar_create,
    avatar_preview,
    made_avatars,
)
from tcgsite.inputs import whole_number_or_none

NAME_STEP = len(QUESTIONS)
STEP_TITLES = [question.title for question in QUESTIONS] + ["Name"]
GO_CHOICES = ("next", "back", "create")
UNKNOWN_GO_MESSAGE = "Choose ‹ Back, Next › or Create avatar to go on."


@login_required
@require_GET
def avatar_list(request):
    avatars = made_avatars(owner=request.user)
    return render(
        request,
        "decks/avatar_list.html",
        {
            "avatars": [(card, card_face_svg(card, size="medium")) for card in avatars],
            "max_avatars": MAX_MADE_AVATARS,
            "can_make_more": len(avatars) < MAX_MADE_AVATARS,
        },
    )


@login_required
def avatar_create_page(request):
    if request.method != "POST":
        if len(made_avatars(owner=request.user)) >= MAX_MADE_AVATARS:
            messages.info(
                request, f"You have made {MAX_MADE_AVATARS} avatars, the most a player may make."
            )
            return redirect("decks:avatar_list")
        return _step_page(request, read_choices({}), step=0, name="", error=None)
    reading = read_choices(request.POST)
    answered = len(reading.choices)
    shown = _step_index(request.POST.get("step"))
    go = request.POST.get("go", "next")
    name = request.POST.get("name", "")
    error = None
    if go not in GO_CHOICES:
        return _step_page(
            request, reading, step=min(shown, answered), name=name, error=UNKNOWN_GO_MESSAGE
        )
    if go == "back":
        step = shown - 1
    elif go == "create":
        step = NAME_STEP
    else:
        step = shown + 1
    step = min(max(step, 0), NAME_STEP)
    if step == answered and reading.error:
        error = reading.error
    elif step > answered:
        # Never past the first question without a good answer: that is where to go on.
        step = answered
        error = reading.error or f"Choose your {QUESTIONS[answered].title.lower()} to go on."
    elif go == "create":
        try:
            card = avatar_create(owner=request.user, choices=reading.choices, name=name)
        except AvatarError as failure:
            error = str(failure)
        else:
            messages.success(
                request, f"{card.title} is now a card in your collection, ready for a deck."
            )
            url = f"{reverse('decks:avatar_list')}#avatar-{card.pk}"
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return _step_page(request, reading, step=step, name=name, error=error)


@login_required
@require_GET
def avatar_preview_fragment(request):
    """The live preview: the card as the page's current answers would make it."""
    return render(request, "decks/_avatar_preview.html", _preview_context(request, request.GET))


def _step_page(request, reading, *, step: int, name: str, error: str | None):
    context = _preview_context(request, {**reading.choices, "name": name})
    question = QUESTIONS[step] if step < NAME_STEP else None
    context.update(
        step=step,
        step_number=step + 1,
        step_count=NAME_STEP + 1,
        steps=[
            {"number": index + 1, "title": title, "done": index < step, "current": index == step}
            for index, title in enumerate(STEP_TITLES)
        ],
        question=question,
        option_groups=_option_groups(question, reading.choices) if question else [],
        hidden=[
            (key, value)
            for key, value in reading.choices.items()
            if question is None or key != question.key
        ],
        name=name,
        error=error,
        max_avatars=MAX_MADE_AVATARS,
    )
    if question:
        context["hidden"].append(("name", name))
    else:
        context["made_count"] = len(made_avatars(owner=request.user))
    return render(request, "decks/avatar_create.html", context)


def _preview_context(request, data) -> dict:
    reading = read_choices(data)
    card = avatar_preview(owner=request.user, choices=reading.choices, name=data.get("name", ""))
    return {
        "face": card_face_svg(card, size="large"),
        "answers": [
            (question.title, _answer_label(question.options[reading.choices[question.key]]))
            for question in QUESTIONS
            if question.key in reading.choices
        ],
    }


def _answer_label(answer) -> str:
    # A career reads "Scout" under its archetype's heading, but "Rebel Scout" on its own.
    return getattr(answer, "trait", answer.label)


def _option_groups(question, choices) -> list[dict]:
    """The radio buttons of a question; careers come grouped by the archetype they serve."""
    chosen = choices.get(question.key)

    def option(key, entry):
        return {"value": key, "label": entry.label, "hint": entry.hint, "checked": key == chosen}

    if question.options is CAREERS:
        return [
            {
                "label": label,
                "archetype": archetype,
                "options": [
                    option(key, career)
                    for key, career in CAREERS.items()
                    if career.archetype == archetype
                ],
            }
            for archetype, label in ARCHETYPE_LABELS.items()
        ]
    return [
        {
            "label": "",
            "archetype": "",
            "options": [option(key, entry) for key, entry in question.options.items()],
        }
    ]


def _step_index(value) -> int:
    return whole_number_or_none(value, minimum=0, maximum=NAME_STEP) or 0
