"""The rulebook's glossary keywords and terms, as shown on card faces and in tooltips.

The card faces and their tooltips read it, and Help (tcgsite/help) has an entry for each term.
The keywords are part of the rules vocabulary (``game.engine.vocabulary.KEYWORDS``); definitions
follow the rulebook's GLOSSARY.
"""

from django.urls import reverse

from game.engine.vocabulary import KEYWORDS

# Other glossary terms that game text uses; highlighted on faces like keywords.
TERMS: dict[str, str] = {
    "for each": (
        "Counts only cards on the playmat; cards in a hand, discard pile or deck are not counted."
    ),
    "joins": (
        'A card that joins a combat doesn\'t trigger "begins attacking", "begins '
        'defending" or "combat begins involving" text.'
    ),
    "link": "An ongoing effect that lasts until either linked card leaves play.",
    "permanently": (
        "The change stays even if the card that caused it leaves play; it ends when the "
        "changed card itself leaves play."
    ),
    "search": "Look through your deck for a card, reveal it, then shuffle your deck.",
    "target": (
        "An ongoing effect between two cards that lasts until either leaves play; often pays "
        "off when the targeted card is destroyed."
    ),
    "withdraw": (
        "When all the combatants on one side withdraw, the combat ends with no winner and "
        "no damage."
    ),
    "exert": "Use a ready card; it becomes dimmed. Only a ready card can be exerted.",
    "ready": "Make an exerted card able to be exerted again.",
    "apply": (
        "Create level tokens equal to this ability's level at a quest, then destroy the ability."
    ),
    "raid": (
        "All your ready units at one quest attack the opposing units there, or the opposing "
        "avatar if there are none."
    ),
}

GLOSSARY: dict[str, str] = {**KEYWORDS, **TERMS}


def glossary_slug(term: str) -> str:
    """The address of a glossary term's Help entry: ``/help/glossary/<slug>/`` ("for each" is
    ``for-each``)."""
    return "-".join(term.lower().split())


def glossary_url(term: str) -> str:
    return reverse("help:term", args=[glossary_slug(term)])
