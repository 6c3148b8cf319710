import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models
from django.db.models.functions import Lower

DECK_NAME_MAX_LENGTH = 60


def rename_decks_sharing_a_name(apps, schema_editor):
    """Decks of one owner whose names differ only in case: the oldest keeps its name, each
    other becomes "Name (2)", "Name (3)"... so that the constraint below can be added."""
    Deck = apps.get_model("decks", "Deck")
    decks = Deck.objects.annotate(lowered=Lower("name")).order_by("owner_id", "lowered", "pk")
    seen = set()
    for deck in decks:
        key = (deck.owner_id, deck.lowered)
        if key not in seen:
            seen.add(key)
            continue
        number = 2
        while True:
            suffix = f" ({number})"
            candidate = deck.name[: DECK_NAME_MAX_LENGTH - len(suffix)] + suffix
            taken = Deck.objects.filter(owner_id=deck.owner_id, name__iexact=candidate)
            if not taken.exists():
                break
            number += 1
        deck.name = candidate
        deck.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(rename_decks_sharing_a_name, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="deck",
            name="deck_name_per_owner",
        ),
        migrations.AddConstraint(
            model_name="deck",
            constraint=models.UniqueConstraint(
                models.F("owner"),
                django.db.models.functions.text.Lower("name"),
                name="deck_name_per_owner_ignoring_case",
            ),
        ),
    ]
