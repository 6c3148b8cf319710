"""The Deckbuilding Wizard: archetype, avatar, quests, card mix and name, one page each.

The answers travel in the form as hidden fields. Each request checks the answers of the
steps before the page it shows against the collection (``wizard_read``); an answer of a
later step, kept from before a Back, only pre-selects that step's choice if still valid.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRedirect

from collection.cards import selectors as card_selectors
from collection.cards.cardrules import QUEST_LEVELS
from collection.cards.faces import card_face_svg
from collection.decks.deckwizard import (
    ARCHETYPE_LABELS,
    COST_CURVE,
    MAX_WIZARD_DECK_SIZE,
    STEP_TITLES,
    TYPE_LABELS,
    WizardChoices,
    WizardError,
    archetype_options,
    avatar_options,
    fill_deck,
    quest_options,
    read_mix,
    shortfall_message,
    wizard_read,
)
from collection.decks.selectors import wizard_cards
from collection.decks.services.wizard import MAX_DECK_NAME_LENGTH, deck_from_wizard
from tcgsite.inputs import whole_number_or_none

NAME_STEP = len(STEP_TITLES)
STEP_FIELDS = {
    1: ("archetype",),
    2: ("avatar",),
    3: tuple(f"quest_{level}" for level in QUEST_LEVELS),
    4: (*(f"mix_{card_type}" for card_type in TYPE_LABELS), "size"),
    5: ("name",),
}
MIX_FIELDS = {card_type: f"mix_{card_type}" for card_type in TYPE_LABELS}


@login_required
def deck_wizard(request):
    cards = wizard_cards(owner=request.user)
    if request.method != "POST":
        return _step_page(request, cards, {}, step=1, choices=WizardChoices(), error=None)
    data = request.POST
    go = data.get("go", "next")
    shown = _step_number(data.get("step"))
    step = {"back": shown - 1, "next": shown + 1, "save": NAME_STEP}.get(go, shown)
    step = min(max(step, 1), NAME_STEP)
    error = None
    try:
        choices = wizard_read(cards, data, through=step - 1)
    except WizardError as failure:
        # Back to the first step whose answer is missing or no longer fits the collection.
        step, error = failure.step, str(failure)
        choices = wizard_read(cards, data, through=step - 1)
    if go == "save" and error is None:
        try:
            deck = deck_from_wizard(owner=request.user, choices=choices, name=data.get("name", ""))
        except WizardError as failure:
            step, error = failure.step, str(failure)
        else:
            messages.success(
                request,
                f"The wizard built {deck.name}: an avatar, four quests and "
                f"{_deck_size(deck) - 1 - len(QUEST_LEVELS)} other cards.",
            )
            url = reverse("decks:deck_edit", args=[deck.pk])
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    suggested = go == "suggest"
    return _step_page(
        request, cards, data, step=step, choices=choices, error=error, suggested=suggested
    )


@login_required
@require_GET
def deck_wizard_fill(request):
    """Step 4's live proposal: the deck the wizard fills for the shares on the page."""
    cards = wizard_cards(owner=request.user)
    try:
        choices = wizard_read(cards, request.GET, through=3)
        read_mix(choices, request.GET)
    except WizardError as failure:
        return render(request, "decks/_wizard_fill.html", {"fill_error": str(failure)})
    return render(request, "decks/_wizard_fill.html", _fill_context(cards, choices))


def _step_page(request, cards, data, *, step, choices, error, suggested=False):
    archetype = choices.archetype if step > 1 else ""
    context = {
        "step": step,
        "step_count": NAME_STEP,
        "steps": [
            {"number": number, "title": title, "done": number < step, "current": number == step}
            for number, title in STEP_TITLES.items()
        ],
        "error": error,
        "archetype_label": ARCHETYPE_LABELS.get(archetype, ""),
        "archetype": archetype,
        "hidden": [
            (name, data[name])
            for number, names in STEP_FIELDS.items()
            if number != step
            for name in names
            if data.get(name)
        ],
    }
    if step > 2:
        avatar = card_selectors.cards_by_id(card_ids=[choices.avatar_id])[choices.avatar_id]
        context["avatar_face"] = card_face_svg(avatar, size="medium")
    if step > 3:
        by_id = {card.id: card for card in cards}
        context["quests"] = [(level, by_id[choices.quest_ids[level]]) for level in QUEST_LEVELS]
    if step == 1:
        options = archetype_options(cards)
        available = [option.archetype for option in options if option.available]
        context["archetypes"] = options
        context["selected"] = _carried(data.get("archetype"), available)
    elif step == 2:
        avatars = avatar_options(cards, archetype)
        faces = card_selectors.cards_by_id(card_ids=[card.id for card in avatars])
        context["avatars"] = [
            (card, card_face_svg(faces[card.id], size="small")) for card in avatars
        ]
        context["selected"] = _carried(data.get("avatar"), [str(card.id) for card in avatars])
    elif step == 3:
        context["quest_levels"] = [
            (level, options, _carried(data.get(f"quest_{level}"), [str(c.id) for c in options]))
            for level, options in quest_options(cards, archetype).items()
        ]
    elif step == 4:
        context.update(_mix_step(cards, data, choices, error=error, suggested=suggested))
    else:
        context["name"] = data.get("name", "")
        context["max_name_length"] = MAX_DECK_NAME_LENGTH
        context.update(_fill_context(cards, choices))
    return render(request, "decks/wizard.html", context)


def _mix_step(cards, data, choices, *, error, suggested) -> dict:
    """Step 4 shows the shares and the deck they make, or why they can't make one.

    Shares kept from an earlier visit that don't read well are replaced by the suggested
    mix; shares the player just sent that don't read well stay, beside the error.
    """
    shown_as_sent = not suggested
    if not suggested:
        try:
            read_mix(choices, data)
        except WizardError:
            shown_as_sent = error is not None
            if shown_as_sent:
                return {**_mix_fields(data, choices, as_sent=True), "fill": None}
    return {**_mix_fields(data, choices, as_sent=shown_as_sent), **_fill_context(cards, choices)}


def _fill_context(cards, choices: WizardChoices) -> dict:
    fill = fill_deck(cards, archetype=choices.archetype, mix=choices.mix, size=choices.size)
    by_id = {card.id: card for card in cards}
    groups = []
    for card_type, label in TYPE_LABELS.items():
        rows = sorted(
            (
                (by_id[card_id], copies)
                for card_id, copies in fill.copies.items()
                if by_id[card_id].card_type == card_type
            ),
            key=lambda row: (row[0].cost or 0, row[0].title),
        )
        wanted = round(choices.size * choices.mix[card_type] / 100)
        placed = sum(copies for _card, copies in rows)
        if rows or wanted:
            groups.append(
                {
                    "label": label,
                    "count": placed,
                    "short_of": wanted if placed < wanted else 0,
                    "rows": rows,
                }
            )
    per_cost = dict.fromkeys(COST_CURVE, 0)
    for card_id, copies in fill.copies.items():
        per_cost[by_id[card_id].cost_bucket] += copies
    tallest = max(per_cost.values()) or 1
    last = max(COST_CURVE)
    return {
        "fill": fill,
        "groups": groups,
        "curve": [
            (f"{cost}+" if cost == last else str(cost), count, round(100 * count / tallest))
            for cost, count in per_cost.items()
        ],
        "shortfall": shortfall_message(fill, ARCHETYPE_LABELS[choices.archetype])
        if fill.missing
        else "",
    }


def _mix_fields(data, choices: WizardChoices, *, as_sent: bool) -> dict:
    """The share and size fields, holding what the player sent or what the wizard uses."""
    return {
        "mix": [
            {
                "name": name,
                "label": TYPE_LABELS[card_type],
                "value": data.get(name, "") if as_sent else str(choices.mix[card_type]),
            }
            for card_type, name in MIX_FIELDS.items()
        ],
        "size": data.get("size", "") if as_sent else str(choices.size),
        "max_size": MAX_WIZARD_DECK_SIZE,
    }


def _carried(value, allowed: list[str]) -> str:
    """A kept answer if it is still one of the choices, else the first (suggested) one."""
    if value in allowed:
        return value
    return allowed[0] if allowed else ""


def _step_number(value) -> int:
    return whole_number_or_none(value, minimum=1, maximum=NAME_STEP) or 1


def _deck_size(deck) -> int:
    return sum(deck.entries.values_list("quantity", flat=True))
