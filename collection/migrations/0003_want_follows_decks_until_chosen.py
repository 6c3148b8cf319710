from django.db import migrations, models


def wants_set_were_chosen(apps, schema_editor):
    """Only the player ever set a Want above the default 0: those were chosen."""
    CardOwnership = apps.get_model("collection", "CardOwnership")
    CardOwnership.objects.filter(want__gt=0).update(want_chosen=True)


class Migration(migrations.Migration):
    dependencies = [
        ("collection", "0002_openings_record_their_booster_recipe"),
    ]

    operations = [
        migrations.AddField(
            model_name="cardownership",
            name="want_chosen",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(wants_set_were_chosen, migrations.RunPython.noop),
    ]
