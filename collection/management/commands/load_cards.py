from django.core.management.base import BaseCommand, CommandError

from collection.cards.services import CatalogError, set_files
from collection.services.products import set_load


class Command(BaseCommand):
    help = "Load every card set file under collection/cards/sets/ (safe to run again)."

    def handle(self, *args, **options):
        paths = set_files()
        if not paths:
            raise CommandError("No set files found under collection/cards/sets/.")
        for path in paths:
            try:
                report, products_created = set_load(path=path)
            except CatalogError as error:
                raise CommandError(str(error)) from error
            self.stdout.write(f"{report}; {products_created} products created")
