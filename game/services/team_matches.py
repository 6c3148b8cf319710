"""The computer players of a 2-versus-2 team game or a Raid (Creating a Match, "Number of
Players"; MULTIPLAYER GAMES): its host may fill the seats nobody took with them; and a Raid's
dialogs as each hero reads them. Each is one of the
computer opponents' accounts, playing its archetype's starter deck, and plays its seat as
Skirmish's computer does, through the match service, off the request path
(game/services/skirmish.py, ``computer_move``), with the search agent from its own view.
"""

from django.db import transaction

from game.models import ComputerOpponent, Match, MatchSeat, MatchStatus
from game.selectors import card_faces, side_of, starter_decklist_of
from game.services.matches import (
    ACTIVE_STATUSES,
    TEAM_SIDES,
    TEAMS,
    MatchError,
    announce,
    announce_medallion,
    decklist_titles,
    locked_match,
    seat_of,
)
from game.services.skirmish import SKIRMISH_DECK
from tcgsite.accounts.models import User


def match_fill_with_computers(*, match_id: int, player: User) -> Match:
    """The host fills every free seat of his open team game with a computer player, ready at
    once: a different account for each seat, of an archetype of the seat's team's side in a
    light versus dark game, and otherwise the archetypes not yet brought first. The match
    moves to its Match Launch screen."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.host_id != player.pk:
            raise MatchError("Only the match's host may seat computer players.")
        if not match.team_game:
            raise MatchError(
                "Computer players fill the seats of a 2-versus-2 team game or a Raid: to play "
                "the computer one on one, start a Skirmish."
            )
        if match.status != MatchStatus.OPEN:
            raise MatchError(
                "Every seat is taken already."
                if match.status == MatchStatus.LAUNCHING
                else "The match has begun."
            )
        seats = list(match.seats.all())
        taken = {seat.seat for seat in seats}
        brought = {seat.archetype for seat in seats}
        seated = {seat.player_id for seat in seats}
        available = sorted(
            (
                opponent
                for opponent in ComputerOpponent.objects.filter(skirmish=True).select_related(
                    "player"
                )
                if opponent.player_id not in seated
            ),
            key=lambda opponent: (opponent.archetype in brought, opponent.archetype),
        )
        for seat in range(match.players):
            if seat in taken:
                continue
            side = TEAM_SIDES[seat % TEAMS] if match.light_vs_dark else None
            opponent = next(
                (each for each in available if side in (None, side_of(each.archetype))), None
            )
            if opponent is None:
                raise MatchError("There are not enough computer players to fill every seat.")
            available.remove(opponent)
            _computer_seat(match, seat, opponent)
        match.status = MatchStatus.LAUNCHING
        match.save(update_fields=["status"])
        announce(match)
        announce_medallion(match)
    return match


def _computer_seat(match: Match, seat: int, opponent: ComputerOpponent) -> MatchSeat:
    decklist = starter_decklist_of(opponent.archetype)
    return MatchSeat.objects.create(
        match=match,
        seat=seat,
        player=opponent.player,
        deck_name=SKIRMISH_DECK.format(archetype=opponent.archetype.capitalize()),
        side=side_of(opponent.archetype),
        archetype=opponent.archetype,
        decklist=decklist,
        faces=card_faces(titles=decklist_titles(decklist)),
        ready=True,
    )


def raid_dialog_read(*, match_id: int, player: User, dialog: int) -> Match:
    """A hero of a Raid has read the encounter's dialog of index ``dialog``, the one his
    playmat showed: the next one told, if any, shows. Reading one already read changes
    nothing (a second click)."""
    with transaction.atomic():
        match = locked_match(match_id)
        if not match.raid or match.status not in ACTIVE_STATUSES:
            raise MatchError("This game has no dialog to read.")
        seat = seat_of(match, player)
        if seat.seat == match.boss_seat:
            raise MatchError("The encounter's dialogs are its heroes'.")
        if dialog == seat.dialogs_read < match.dialogs_read:
            seat.dialogs_read += 1
            seat.save(update_fields=["dialogs_read"])
            announce(match)
    return match
