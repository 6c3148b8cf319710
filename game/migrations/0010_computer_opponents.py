"""Skirmish's four computer opponents, one per archetype (rulebook, "Skirmish"), each an account
that cannot log in. A name already taken by a player gets a suffix."""

from django.db import migrations

COMPUTER_OPPONENTS = (
    ("jedi", "Master-Orin", "jedi_knight", "A patient Jedi Master who wins the long game."),
    ("rebel", "Captain-Dessa", "rebel_pilot", "A Rebel captain who strikes wherever you are thin."),
    ("sith", "Darth-Morrak", "sith_lord", "A Sith Lord who hits hard and gives no quarter."),
    ("imperial", "Moff-Krell", "imperial_officer", "An Imperial Moff who grinds you down."),
)


def create_computer_opponents(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Preferences = apps.get_model("accounts", "Preferences")
    ComputerOpponent = apps.get_model("game", "ComputerOpponent")
    for archetype, name, avatar, blurb in COMPUTER_OPPONENTS:
        if ComputerOpponent.objects.filter(archetype=archetype).exists():
            continue
        username = name
        while User.objects.filter(username__iexact=username).exists():
            username = f"{username}-AI"
        # "!" starts an unusable password hash: the account can never log in.
        user = User.objects.create(username=username, password="!computer-opponent")
        Preferences.objects.create(user=user, avatar_choice=avatar)
        ComputerOpponent.objects.create(player=user, archetype=archetype, blurb=blurb)


def remove_computer_opponents(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(computer_opponent__isnull=False).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0009_skirmish"),
        ("accounts", "0005_username_taken_message"),
    ]

    operations = [
        migrations.RunPython(create_computer_opponents, remove_computer_opponents),
    ]
