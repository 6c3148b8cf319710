from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("game", "0013_game_state_applied")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="computer_due",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
    ]
