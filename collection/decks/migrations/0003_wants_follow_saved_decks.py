from django.db import migrations
from django.db.models import Max


def wants_follow_saved_decks(apps, schema_editor):
    """The Want the player has not set becomes the most copies of the card a saved deck of
    theirs uses (collection.services.wants.wants_follow_deck, for the decks saved before)."""
    CardOwnership = apps.get_model("collection", "CardOwnership")
    DeckCard = apps.get_model("decks", "DeckCard")
    used = (
        DeckCard.objects.filter(deck__limited_pool__isnull=True)
        .values("deck__owner_id", "card_id")
        .annotate(copies=Max("quantity"))
    )
    copies = {(row["deck__owner_id"], row["card_id"]): row["copies"] for row in used}
    raised = []
    for ownership in CardOwnership.objects.filter(want_chosen=False).iterator():
        wanted = copies.get((ownership.owner_id, ownership.card_id), 0)
        if ownership.want < wanted:
            ownership.want = wanted
            raised.append(ownership)
    CardOwnership.objects.bulk_update(raised, ["want"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0002_deck_names_unique_ignoring_case"),
        ("collection", "0003_want_follows_decks_until_chosen"),
    ]

    operations = [
        migrations.RunPython(wants_follow_saved_decks, migrations.RunPython.noop),
    ]
