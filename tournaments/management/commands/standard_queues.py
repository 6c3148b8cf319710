from django.core.management.base import BaseCommand, CommandError

from tournaments.services.queues import NoCatalog, standard_queues_open


class Command(BaseCommand):
    help = (
        "Open the standard on-demand tournament queues if the site has no on-demand queue (a "
        "fresh site). Safe to run again: `make run` and `make start` run it."
    )

    def handle(self, *args, **options):
        try:
            opened = standard_queues_open()
        except NoCatalog as error:
            raise CommandError(str(error)) from error
        if not opened:
            self.stdout.write("On-demand queues: the site has its own, none added.")
        for queue in opened:
            self.stdout.write(f"On-demand queue {queue.pk} opened: {queue.full_title}.")
