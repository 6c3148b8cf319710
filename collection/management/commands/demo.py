from django.conf import settings
from django.core.management.base import BaseCommand

from tcgsite.accounts.models import User
from tcgsite.accounts.services import preferences_for

DEMO_PLAYERS = (
    ("Shochu", "smuggler", "Looking for a Rebel deck to test against."),
    ("Paladon", "jedi_knight", "Jedi main. Happy to trade duplicates."),
    ("Vicki", "bounty_hunter", "Ask me about the Sith quest line."),
    ("Jason", "rebel_pilot", ""),
    ("Tyler", "wookiee", ""),
)


class Command(BaseCommand):
    help = (
        "Create the demo world: a handful of players and, on the embedded default only, "
        "a staff account. Safe to run again."
    )

    def handle(self, *args, **options):
        for username, avatar, message in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(settings.DEMO_PLAYER_PASSWORD)
                user.save()
                preferences = preferences_for(user=user)
                preferences.avatar_choice = avatar
                preferences.personal_message = message
                preferences.save()
            self.stdout.write(f"player {username}: {'created' if created else 'kept'}")
        if settings.EMBEDDED:
            staff, created = User.objects.get_or_create(
                username=settings.DEMO_STAFF_USERNAME,
                defaults={"is_staff": True, "is_superuser": True},
            )
            if created:
                staff.set_password(settings.DEMO_STAFF_PASSWORD)
                staff.save()
            self.stdout.write(f"staff {staff.username}: {'created' if created else 'kept'}")
