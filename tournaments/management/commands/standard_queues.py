from django.core.management.base import BaseCommand, CommandError

from tournaments.services.defaults import NoCatalog, standard_events_open


class Command(BaseCommand):
    help = (
        "Create the standard on-demand tournament queues and the default schedule of "
        "scheduled events (a Constructed event every evening, a Sealed event on weekends, a "
        "Sprint on weeknights) that the site does not have yet, and the scheduled queues of "
        "the next two weeks. Safe to run again: it never duplicates nor changes what staff "
        "edited. `make run` and `make start` run it."
    )

    def handle(self, *args, **options):
        try:
            queues, schedules = standard_events_open()
        except NoCatalog as error:
            raise CommandError(str(error)) from error
        for queue in queues:
            self.stdout.write(f"On-demand queue {queue.pk} opened: {queue.full_title}.")
        for schedule in schedules:
            self.stdout.write(f"Event schedule added: {schedule}.")
        if not queues and not schedules:
            self.stdout.write("Standard queues and default schedule: all there, none added.")
