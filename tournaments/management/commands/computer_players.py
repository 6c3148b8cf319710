from django.core.management.base import BaseCommand, CommandError

from tcgsite.errors import UserError
from tournaments.services.computer_players import computer_players_enter, computer_players_make


class Command(BaseCommand):
    help = (
        "Make sure there are N house computer players for tournaments, each with a saved "
        "starter deck (safe to run again); with --queue and --enter K, also enter K of the "
        "free ones in that queue."
    )

    def add_arguments(self, parser):
        parser.add_argument("count", type=int)
        parser.add_argument("--queue", type=int, help="The queue to top up with them.")
        parser.add_argument("--enter", type=int, help="How many to enter in the queue.")

    def handle(self, *args, count, queue, enter, **options):
        if (queue is None) != (enter is None):
            raise CommandError("Give --queue and --enter together.")
        try:
            house = computer_players_make(count=count)
            self.stdout.write(f"{len(house)} house computer players ready.")
            if queue is not None:
                entered = computer_players_enter(queue_id=queue, count=enter)
                self.stdout.write(f"{len(entered)} entered in queue {queue}.")
        except UserError as error:
            raise CommandError(str(error)) from error
