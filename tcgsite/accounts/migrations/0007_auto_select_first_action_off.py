from django.db import migrations, models


def auto_select_off(apps, schema_editor):
    """Nobody chose it: the setting was on for every player with no screen to change it, and
    put a unit at a quest its player did not pick (issue: a newcomer's first game)."""
    apps.get_model("accounts", "Preferences").objects.update(auto_select_first_action=False)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_user_rating")]

    operations = [
        migrations.AlterField(
            model_name="preferences",
            name="auto_select_first_action",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(auto_select_off, migrations.RunPython.noop),
    ]
