from django.core.management.base import BaseCommand, CommandError

from collection.catalog import CatalogError, catalog_load_set, set_files


class Command(BaseCommand):
    help = "Load every card set file under collection/sets/ (safe to run again)."

    def handle(self, *args, **options):
        paths = set_files()
        if not paths:
            raise CommandError("No set files found under collection/sets/.")
        for path in paths:
            try:
                report = catalog_load_set(path=path)
            except CatalogError as error:
                raise CommandError(str(error)) from error
            self.stdout.write(str(report))
