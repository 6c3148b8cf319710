"""House computer players for tournaments: accounts that never log in, each with the saved
starter deck of its archetype, that staff enter in a queue to fill it. Their matches play
themselves: a seat whose player is a computer opponent decides through the match service off
the request path (tcgsite/jobs.py), at ``settings.TOURNAMENT_COMPUTER_LEVEL``.

A house player is a ``ComputerOpponent`` with ``skirmish=False``, so Skirmish never offers it.
Its deck comes the way a player's does, a starter deck put in its collection and opened
through collection's services, and its entry fee is paid like anyone's: the event passes are
given through the ledger, then taken when the tournament begins.
"""

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from collection.decks.models import Deck
from collection.models import Product, ProductKind
from collection.services.opening import products_open
from collection.services.store import product_grant
from game.models import ComputerOpponent
from tcgsite.accounts.models import User
from tcgsite.accounts.services import account_register
from tcgsite.errors import UserError
from tournaments.models import Participant, QueueEntry, TournamentKind, TournamentQueue
from tournaments.selectors import RUNNING, queue_is_open
from tournaments.services.entry import unopened
from tournaments.services.queues import queue_join

# The starter decks' archetypes, taken in turn: a field of house players mixes all four.
ARCHETYPES = ("jedi", "sith", "rebel", "imperial")
AVATARS = {
    "jedi": "jedi_knight",
    "sith": "sith_lord",
    "rebel": "rebel_pilot",
    "imperial": "imperial_officer",
}
MAX_HOUSE_PLAYERS = 4096


class ComputerPlayersError(UserError):
    pass


def computer_players_make(*, count: int) -> list[ComputerOpponent]:
    """Make sure there are ``count`` house players, each registered and holding a saved
    starter deck; the house players, oldest first. Safe to run again: it makes only those
    missing, and finishes any a crash left without their deck."""
    if not 0 <= count <= MAX_HOUSE_PLAYERS:
        raise ComputerPlayersError(f"Ask for between 0 and {MAX_HOUSE_PLAYERS} house players.")
    house = list(_house_players().order_by("pk"))
    for index in range(len(house), count):
        house.append(_house_player_create(index))
    for opponent in house:
        _house_player_equip(opponent)
    return house


def computer_players_enter(*, queue_id: int, count: int) -> list[User]:
    """Staff top up a Constructed queue with ``count`` free house players (waiting in no queue,
    playing in no tournament): each is given the event passes it lacks, then joins with its
    deck. The join that fills an on-demand queue starts the tournament, as anyone's does."""
    queue = TournamentQueue.objects.filter(pk=queue_id).first()
    if queue is None or not queue_is_open(queue, timezone.now()):
        raise ComputerPlayersError("That tournament queue is not open.")
    if queue.kind != TournamentKind.CONSTRUCTED:
        raise ComputerPlayersError(
            "House players enter Constructed tournaments only: they bring no sealed product."
        )
    room = queue.max_players - queue.entries.count() if queue.on_demand else count
    if not 1 <= count <= room:
        raise ComputerPlayersError(f"Enter between 1 and {room} house players in this queue.")
    free = list(_free_house_players().select_related("player").order_by("pk")[:count])
    if len(free) < count:
        raise ComputerPlayersError(
            f"Only {len(free)} house players are free: make more with "
            "`manage.py computer_players N`."
        )
    event_pass = Product.objects.filter(kind=ProductKind.EVENT_PASS).order_by("pk").first()
    if event_pass is None and queue.entry_passes:
        raise ComputerPlayersError("The catalog has no event pass: load the cards first.")
    entered = []
    for opponent in free:
        player = opponent.player
        deck = _house_deck(player)
        if deck is None:
            raise ComputerPlayersError(
                f"{player.username} has no deck: run `manage.py computer_players` again."
            )
        # One transaction per player: a join refused (the queue filled meanwhile) takes back
        # the passes given for it.
        with transaction.atomic():
            lacking = queue.entry_passes - unopened(player, ProductKind.EVENT_PASS).count()
            if lacking > 0:
                product_grant(
                    owner=player,
                    product=event_pass,
                    quantity=lacking,
                    note=f"House player's entry to queue {queue.pk}",
                )
            queue_join(queue_id=queue.pk, player=player, deck=deck)
        entered.append(player)
    return entered


def _house_players():
    return ComputerOpponent.objects.filter(skirmish=False, encounter="")


def _free_house_players():
    waiting = QueueEntry.objects.filter(player=OuterRef("player"))
    playing = Participant.objects.filter(
        player=OuterRef("player"),
        tournament__status__in=RUNNING,
        dropped=None,
        eliminated_round=None,
    )
    return _house_players().filter(~Exists(waiting), ~Exists(playing))


def _house_player_create(index: int) -> ComputerOpponent:
    archetype = ARCHETYPES[index % len(ARCHETYPES)]
    username = f"House-{archetype.capitalize()}-{index + 1}"
    with transaction.atomic():
        while User.objects.filter(username__iexact=username).exists():
            username = f"{username}-AI"
        player = User(username=username)
        player.set_unusable_password()  # a computer player never logs in
        player.save()
        player.preferences.avatar_choice = AVATARS[archetype]
        # Nothing to think about when passing is all it can do: the match service passes
        # for it at once, as it does for a person who asked for it.
        player.preferences.pass_when_out_of_actions = True
        player.preferences.save(update_fields=["avatar_choice", "pass_when_out_of_actions"])
        return ComputerOpponent.objects.create(
            player=player,
            archetype=archetype,
            blurb=f"A house player with the {archetype.capitalize()} starter deck.",
            skirmish=False,
        )


def _house_player_equip(opponent: ComputerOpponent) -> None:
    """Give the house player its starter deck, opened into a saved deck, and register it:
    staff register house players, who buy nothing in the Store."""
    player = opponent.player
    if _house_deck(player) is None:
        starter = Product.objects.filter(
            kind=ProductKind.STARTER_DECK, archetype=opponent.archetype
        ).first()
        if starter is None:
            raise ComputerPlayersError(
                f"The catalog has no {opponent.archetype} starter deck: load the cards first."
            )
        # One given by an earlier run that stopped before opening it is opened now.
        held = list(unopened(player, ProductKind.STARTER_DECK, product_id=starter.pk)[:1])
        if not held:
            held = product_grant(
                owner=player, product=starter, quantity=1, note="A house player's deck"
            )
        products_open(owner=player, owned_product_ids=[held[0].pk])
    account_register(user=player)


def _house_deck(player: User) -> Deck | None:
    return Deck.objects.filter(owner=player).order_by("-created", "-pk").first()
