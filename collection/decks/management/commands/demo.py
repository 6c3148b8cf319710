from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from collection.models import OwnedProduct, Product, ProductKind
from collection.services.opening import products_open
from collection.services.store import product_purchase
from tcgsite.accounts.models import User
from tcgsite.accounts.services import preferences_for

DEMO_PLAYERS = (
    ("Shochu", "smuggler", "Looking for a Rebel deck to test against.", "rebel"),
    ("Paladon", "jedi_knight", "Jedi main. Happy to trade duplicates.", "jedi"),
    ("Vicki", "bounty_hunter", "Ask me about the Sith quest line.", "sith"),
    ("Jason", "rebel_pilot", "", "imperial"),
    ("Tyler", "wookiee", "", "jedi"),
)
DEMO_BOOSTERS = 2


class Command(BaseCommand):
    help = (
        "Create the demo world: a handful of players and, on the embedded default only, "
        "a staff account. Safe to run again."
    )

    def handle(self, *args, **options):
        for username, avatar, message, archetype in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(settings.DEMO_PLAYER_PASSWORD)
                user.save()
                preferences = preferences_for(user=user)
                preferences.avatar_choice = avatar
                preferences.personal_message = message
                preferences.save()
            self.stdout.write(f"player {username}: {'created' if created else 'kept'}")
            if not OwnedProduct.objects.filter(owner=user).exists():
                self._stock_collection(user, archetype)
        if settings.EMBEDDED:
            staff, created = User.objects.get_or_create(
                username=settings.DEMO_STAFF_USERNAME,
                defaults={"is_staff": True, "is_superuser": True},
            )
            if created:
                staff.set_password(settings.DEMO_STAFF_PASSWORD)
                staff.save()
            self.stdout.write(f"staff {staff.username}: {'created' if created else 'kept'}")
        # The standard tournament queues and the default schedule of scheduled events (named,
        # not imported: tournaments builds on decks).
        call_command("standard_queues", stdout=self.stdout)

    def _stock_collection(self, player, archetype):
        """A first visit's purchases: a starter deck, opened (which saves its deck), and a few
        boosters left unopened in the Collection."""
        starter = Product.objects.filter(kind=ProductKind.STARTER_DECK, archetype=archetype).first()
        booster = Product.objects.filter(kind=ProductKind.BOOSTER_PACK).first()
        if starter is None or booster is None:
            self.stdout.write("  no products yet: run load_cards first")
            return
        (deck_box,) = product_purchase(buyer=player, product=starter)
        # Opening saves the deck, as it does for every player.
        products_open(owner=player, owned_product_ids=[deck_box.pk])
        product_purchase(buyer=player, product=booster, quantity=DEMO_BOOSTERS)
        self.stdout.write(f"  opened {starter.name}, saved its deck, {DEMO_BOOSTERS} boosters")
