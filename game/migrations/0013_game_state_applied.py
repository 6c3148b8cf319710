from django.db import migrations, models
from django.db.models import F


def snapshots_are_current(apps, schema_editor):
    apps.get_model("game", "Game").objects.update(state_applied=F("applied"))


class Migration(migrations.Migration):
    dependencies = [("game", "0012_computeropponent_skirmish_match_event_and_more")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="state_applied",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(snapshots_are_current, migrations.RunPython.noop),
    ]
