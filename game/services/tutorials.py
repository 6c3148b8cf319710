"""Tutorials (rulebook, "Tutorials"): a guided game against the computer, begun from the
tutorial's position (game/tutorials.py), and its dialogs read one after the other."""

from django.db import transaction
from django.utils import timezone

from game.models import ComputerOpponent, Match, MatchSeat, MatchStatus
from game.selectors import card_faces, side_of, tutorial_cards
from game.services.matches import (
    ACTIVE_STATUSES,
    MatchError,
    announce,
    decklist_titles,
    locked_match,
    match_concede,
    refuse_if_busy,
    seat_of,
    start_first_game,
)
from game.tutorials import OPPONENT_ARCHETYPE, OPPONENT_LEVEL, PLAYER, tutorial_named
from tcgsite.accounts.models import User

TUTORIAL_DECK = "Tutorial deck"


def tutorial_start(*, player: User, slug: str) -> Match:
    """A game of the tutorial ``slug`` for ``player``, begun at once. A tutorial of theirs
    left unfinished is conceded first: the map lets them play any other, in any order."""
    tutorial = tutorial_named(slug)
    if tutorial is None:
        raise MatchError("Choose one of the tutorials on the map.")
    opponent = (
        ComputerOpponent.objects.select_related("player")
        .filter(archetype=OPPONENT_ARCHETYPE)
        .first()
    )
    if opponent is None:
        raise MatchError("The tutorials' computer opponent is not set up on this site yet.")
    for unfinished in Match.objects.filter(
        seats__player=player, status=MatchStatus.PLAYING
    ).exclude(tutorial=""):
        match_concede(match_id=unfinished.pk, player=player)
    decklists = tutorial.decklists(tutorial_cards())
    with transaction.atomic():
        User.objects.select_for_update().get(pk=player.pk)
        refuse_if_busy(player)
        match = Match.objects.create(
            title=f"Tutorial: {tutorial.title}",
            host=player,
            status=MatchStatus.PLAYING,
            started=timezone.now(),
            computer_level=OPPONENT_LEVEL,
            tutorial=tutorial.slug,
            allow_observers=False,
        )
        computer = tutorial.opponent_name
        for seat, (who, playing_as, deck_name) in enumerate(
            ((player, "", TUTORIAL_DECK), (opponent.player, computer, f"{computer}'s cards"))
        ):
            archetype = decklists[seat]["avatar"]["archetype"]
            MatchSeat.objects.create(
                match=match,
                seat=seat,
                player=who,
                playing_as=playing_as,
                deck_name=deck_name,
                side=side_of(archetype),
                archetype=archetype,
                decklist=decklists[seat],
                faces=card_faces(titles=decklist_titles(decklists[seat])),
                ready=True,
            )
        start_first_game(match)
        announce(match)
    return match


def tutorial_dialog_read(*, match_id: int, player: User, dialog: int) -> Match:
    """The player has read the tutorial's (or scenario's) dialog of index ``dialog``, the one
    it showed: the next one may come. Reading one already read changes nothing (a second click)."""
    with transaction.atomic():
        match = locked_match(match_id)
        guided = bool(match.tutorial) or match.scenario is not None
        if not guided or match.status not in ACTIVE_STATUSES:
            raise MatchError("This game has no dialog to read.")
        if seat_of(match, player).seat != PLAYER:
            raise MatchError("The tutorial's dialogs are its player's.")
        if dialog == match.dialogs_read:
            match.dialogs_read += 1
            match.save(update_fields=["dialogs_read"])
            announce(match)
    return match
