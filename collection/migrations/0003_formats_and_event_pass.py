from django.db import migrations

FORMATS = [
    {
        "slug": "standard",
        "name": "Standard",
        "kind": "constructed",
        "position": 0,
        "description": (
            "Constructed play with any card of any set: one avatar, a quest pile of four "
            "quests (levels 2, 4, 5 and 6) and a deck of at least 50 other cards, at most four "
            "copies of a title, every card with an archetype matching the avatar's."
        ),
    },
    {
        "slug": "limited",
        "name": "Limited",
        "kind": "limited",
        "position": 1,
        "description": (
            "Sealed tournaments: decks are built in the Limited Deck Builder from the card pool "
            "opened at the start of the tournament, and follow the Constructed deck rules."
        ),
    },
]


def create(apps, schema_editor):
    PlayFormat = apps.get_model("collection", "PlayFormat")
    Product = apps.get_model("collection", "Product")
    for values in FORMATS:
        PlayFormat.objects.get_or_create(slug=values["slug"], defaults=values)
    Product.objects.get_or_create(
        name="Event Pass",
        defaults={
            "kind": "event_pass",
            "price": 100,
            "description": "A ticket into tournament events; tournaments say how many they take.",
            "booster_slots": [],
        },
    )


def remove(apps, schema_editor):
    apps.get_model("collection", "PlayFormat").objects.filter(
        slug__in=[values["slug"] for values in FORMATS]
    ).delete()
    apps.get_model("collection", "Product").objects.filter(name="Event Pass").delete()


class Migration(migrations.Migration):
    dependencies = [("collection", "0002_store_ownership_decks")]

    operations = [migrations.RunPython(create, remove)]
