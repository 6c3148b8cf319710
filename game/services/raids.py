"""Raids (Creating a Match, "Play Format": *Raid*, "a team of players versus a computer AI
opponent"; MULTIPLAYER GAMES, "Four-man Heroic Encounter"): four heroes, people or computer
teammates the host seats, against the boss of a heroic encounter (game.encounters), a
computer in the last seat that plays the encounter's deck by the boss rules ("Single-Player
Team").

Each encounter's boss is one computer account of its own, made the first time the encounter
is raided, so that the User List, the match's seats and its history name the boss as any
player; it never logs in and plays nothing else.
"""

from django.db import IntegrityError, transaction

from game.encounters import ENCOUNTERS, Encounter, encounter_named
from game.engine import api as engine
from game.engine.state import State
from game.models import ComputerOpponent, Match, MatchSeat
from game.selectors import card_faces, encounter_faces, side_of, tutorial_cards
from tcgsite.accounts.models import User

RAID_HEROES = 4
# The heroes' seats, then the boss's: the engine seats a side of four against a side of one.
RAID_PLAYERS = RAID_HEROES + 1


def raid_refusal(slug: str) -> str | None:
    """Why no Raid of ``slug`` can be created: it names no heroic encounter."""
    if any(encounter.slug == slug for encounter in ENCOUNTERS):
        return None
    return f"Choose one of the raids: {', '.join(each.name for each in ENCOUNTERS)}."


def boss_decklist(encounter: Encounter) -> dict:
    return encounter.boss_decklist(tutorial_cards())


def seat_boss(match: Match) -> MatchSeat:
    """The encounter's boss takes the Raid's last seat, ready from the start."""
    encounter = encounter_named(match.encounter)
    decklist = boss_decklist(encounter)
    archetype = decklist["avatar"].get("archetype") or ""
    titles = {
        card["title"]
        for card in (decklist["avatar"], *decklist["quests"], *decklist["deck"])
        + tuple(decklist.get("created", ()))
    }
    return MatchSeat.objects.create(
        match=match,
        seat=match.boss_seat,
        player=_boss_account(encounter, _account_name(decklist["avatar"]["title"]), archetype),
        deck_name=f"{encounter.name}: the boss's deck",
        side=side_of(archetype),
        archetype=archetype,
        decklist=decklist,
        faces={**card_faces(titles=titles), **encounter_faces(encounter)},
        ready=True,
    )


def _account_name(title: str) -> str:
    """A boss's account name from its avatar's title, as a username may be spelled:
    "Mother Zhevra, Singing Mountain Elder" plays as Mother-Zhevra."""
    return "-".join(title.split(",")[0].split())[:150]


def _boss_account(encounter: Encounter, name: str, archetype: str) -> User:
    boss = (
        ComputerOpponent.objects.select_related("player").filter(encounter=encounter.slug).first()
    )
    if boss is not None:
        return boss.player
    try:
        with transaction.atomic():
            while User.objects.filter(username__iexact=name).exists():
                name = f"{name}-AI"
            player = User(username=name)
            player.set_unusable_password()  # a computer player never logs in
            player.save()
            ComputerOpponent.objects.create(
                player=player,
                archetype=archetype,
                blurb=encounter.summary[:200],
                skirmish=False,
                encounter=encounter.slug,
            )
    except IntegrityError:
        # Two raids of a new encounter began at once; the other made the boss's account.
        return ComputerOpponent.objects.get(encounter=encounter.slug).player
    return player


def encounter_dialogs_told(match: Match, state: State) -> int:
    """How many of the encounter's scripted dialogs have been told once the game reached
    ``state``: each in order, when its moment comes on the public view, so that every hero
    is told the same."""
    dialogs = encounter_named(match.encounter).dialogs
    told = match.dialogs_read
    if told >= len(dialogs):
        return told
    view = engine.view(state, None)
    while told < len(dialogs) and dialogs[told].due(view):
        told += 1
    return told
