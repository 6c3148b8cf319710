"""Raids: the Play Format *Raid* (Creating a Match, "Play Format": "a team of players versus a
computer AI opponent"; "Number of Players": "the options change to show the names of
available Raids"). Four heroes, people or computer teammates, in seats 0 to 3 against the
boss of a heroic encounter in seat 4 (MULTIPLAYER GAMES, "Four-man Heroic Encounter",
"Single-Player Team (the 'boss')")."""

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from game import fragments, tasks
from game.ai.search import LEVELS, SearchAgent
from game.encounters import DIFFICULTIES, ENCOUNTERS
from game.engine import api as engine
from game.models import ComputerOpponent, Match, MatchStatus, MatchStructure
from game.selectors import match_history, match_screen, tutorial_dialogs_read
from game.services import skirmish
from game.services.matches import (
    MatchError,
    MatchGone,
    MatchSettings,
    match_concede,
    match_create,
    match_join,
    match_ready,
)
from game.services.raids import boss_decklist
from game.services.team_matches import match_fill_with_computers, raid_dialog_read
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck
from tests.game.test_team_matches import current, hidden_from, seats_of, shown_ids
from tournaments.services.computer_players import _house_players

pytestmark = pytest.mark.django_db

ENCOUNTER = ENCOUNTERS[0]
RAID = MatchSettings(encounter=ENCOUNTER.slug)
BOSS = 4


def raid_begun(host, *people) -> Match:
    """A Raid of ``host`` and ``people``, its free hero seats filled with computers, begun."""
    match = match_create(host=host, deck=host.deck, settings=RAID)
    for player in people:
        match_join(match_id=match.pk, player=player, deck=player.deck)
    if len(people) < 3:
        match_fill_with_computers(match_id=match.pk, player=host)
    for player in (host, *people):
        match_ready(match_id=match.pk, player=player)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    return match


# Creating a Raid


def test_a_raid_seats_its_boss_at_once_and_waits_for_four_heroes(carol, bob, dave, erin):
    match = match_create(host=carol, deck=carol.deck, settings=RAID)

    assert (match.players, match.encounter, match.status) == (5, ENCOUNTER.slug, "open")
    boss = match.seats.get(seat=BOSS)
    assert boss.ready and boss.deck_name == f"{ENCOUNTER.name}: the boss's deck"
    assert ComputerOpponent.objects.get(player=boss.player).encounter == ENCOUNTER.slug
    assert boss.decklist == boss_decklist(ENCOUNTER)
    for player in (bob, dave):
        match_join(match_id=match.pk, player=player, deck=player.deck)
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN
    match_join(match_id=match.pk, player=erin, deck=erin.deck)

    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    assert seats_of(match) == {
        0: "Carol",
        1: "Bob",
        2: "Dave",
        3: "Erin",
        BOSS: boss.player.username,
    }


def test_each_encounter_has_one_boss_account_that_is_no_house_player(carol, bob):
    first = match_create(host=carol, deck=carol.deck, settings=RAID)
    second = match_create(host=bob, deck=bob.deck, settings=RAID)

    bosses = {match.seats.get(seat=BOSS).player_id for match in (first, second)}
    assert len(bosses) == 1
    boss = ComputerOpponent.objects.get(encounter=ENCOUNTER.slug)
    assert not boss.skirmish and not boss.player.has_usable_password()
    # Named after its avatar, as a username may be spelled.
    assert boss.player.username == "-".join(ENCOUNTER.avatar["title"].split(",")[0].split())
    assert boss.player.username == "Mother-Zhevra"
    assert boss not in _house_players()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (MatchSettings(encounter="no-such-raid"), "Choose one of the raids: "),
        (
            MatchSettings(encounter=ENCOUNTER.slug, structure=MatchStructure.BEST_OF_THREE),
            "A Raid is a Single Game",
        ),
        (MatchSettings(encounter=ENCOUNTER.slug, light_vs_dark=True), "either side"),
    ],
)
def test_a_raid_refuses_what_it_cannot_be(carol, settings, message):
    with pytest.raises(MatchError, match=message):
        match_create(host=carol, deck=carol.deck, settings=settings)
    assert not Match.objects.exists()


def test_a_raids_players_are_all_heroes(carol, bob, dave, erin, catalog):
    match = match_create(host=carol, deck=carol.deck, settings=RAID)
    with pytest.raises(MatchError, match="all heroes"):
        match_join(match_id=match.pk, player=bob, deck=bob.deck, team=1)
    match_join(match_id=match.pk, player=bob, deck=bob.deck, team=0)
    for player in (dave, erin):
        match_join(match_id=match.pk, player=player, deck=player.deck)

    sixth = player_with_deck("Fran", "jedi")
    with pytest.raises(MatchGone, match="is full"):
        match_join(match_id=match.pk, player=sixth, deck=sixth.deck)


def test_the_host_fills_the_free_hero_seats_with_computer_teammates(carol, bob):
    match = match_create(host=carol, deck=carol.deck, settings=RAID)
    match_join(match_id=match.pk, player=bob, deck=bob.deck)

    match_fill_with_computers(match_id=match.pk, player=carol)

    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING
    teammates = list(match.seats.filter(seat__in=[2, 3]).select_related("player"))
    assert all(seat.ready for seat in teammates)
    assert {seat.player.computer_opponent.skirmish for seat in teammates} == {True}
    assert len({seat.player_id for seat in match.seats.all()}) == 5


def test_the_game_begins_with_four_heroes_against_the_boss(carol, bob):
    match = raid_begun(carol, bob)

    game, state = current(match)
    assert [len(side) for side in game.decklists] == [4, 1]
    assert game.decklists[1][0] == match.seats.get(seat=BOSS).decklist
    assert state.teams.sides == [[0, 1, 2, 3], [BOSS]]
    assert state.teams.boss == BOSS
    screen = match_screen(match_id=match.pk, viewer=carol)
    assert [player["seat"] for player in screen.board["near_players"]] == [0, 1, 2, 3]
    assert [player["seat"] for player in screen.board["opponents"]] == [BOSS]


# Dialogs and the Info button (rulebook, "Info Button", "Review Dialogs")


def test_each_hero_reads_the_encounters_dialogs_at_his_own_pace(carol, bob):
    match = raid_begun(carol, bob)
    assert match.dialogs_read >= 1, "the encounter's first dialog is told as the game opens"

    screen = match_screen(match_id=match.pk, viewer=carol)
    assert screen.encounter_dialog["index"] == 0
    assert screen.encounter_dialog["dialog"] == ENCOUNTER.dialogs[0]
    raid_dialog_read(match_id=match.pk, player=carol, dialog=0)
    raid_dialog_read(match_id=match.pk, player=carol, dialog=0)  # a second click

    assert match.seats.get(seat=0).dialogs_read == 1
    assert match.seats.get(seat=1).dialogs_read == 0
    assert tutorial_dialogs_read(match_id=match.pk, viewer=carol) == [ENCOUNTER.dialogs[0]]
    assert tutorial_dialogs_read(match_id=match.pk, viewer=bob) == []
    assert match_screen(match_id=match.pk, viewer=bob).encounter_dialog["index"] == 0


def test_the_boss_avatar_shows_the_encounters_victory_conditions(client, carol, bob):
    match = raid_begun(carol, bob)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    assert 'data-opens-dialog="victory-conditions"' in page
    assert ENCOUNTER.victory.replace("'", "&#x27;") in page or ENCOUNTER.victory in page
    assert "Review Dialogs" in page
    assert ENCOUNTER.dialogs[0].title in page


def test_the_boss_avatar_is_drawn_as_a_card_face_like_every_other(client, carol, bob):
    """The boss's own avatar, in the catalog nowhere, is drawn as the heroes' are: its face,
    with its title, stats and text, at the playmat's size and magnified."""
    match = raid_begun(carol, bob)
    client.force_login(carol)

    page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()

    face = reverse("game:encounter_card_face", args=[ENCOUNTER.slug, 0])
    assert f'<img src="{face}?size=small" alt="{ENCOUNTER.avatar["title"]}"' in page
    assert f'data-zoom="{face}?size=large"' in page
    drawn = client.get(f"{face}?size=large")
    assert drawn["Content-Type"] == "image/svg+xml"
    svg = drawn.content.decode()
    assert svg.startswith("<svg") and 'class="card-face card-face--large"' in svg
    assert f'aria-label="{ENCOUNTER.avatar["title"]}"' in svg
    assert str(ENCOUNTER.avatar["health"]) in svg
    assert f"Heroic encounter: {ENCOUNTER.name}" in svg


@pytest.mark.parametrize(
    ("encounter", "index"),
    [(ENCOUNTER.slug, len(ENCOUNTER.boss_only_cards)), ("no-such-raid", 0)],
)
def test_a_card_of_no_encounter_is_not_found(client, encounter, index):
    face = reverse("game:encounter_card_face", args=[encounter, index])
    assert client.get(face).status_code == 404


def test_every_card_of_a_bosss_own_has_a_face(client):
    for encounter in ENCOUNTERS:
        for index, card in enumerate(encounter.boss_only_cards):
            face = reverse("game:encounter_card_face", args=[encounter.slug, index])
            drawn = client.get(face)
            assert drawn.status_code == 200, (encounter.slug, card["title"])
            assert f'aria-label="{card["title"]}"' in drawn.content.decode()


def test_no_hero_sees_another_players_hand(carol, bob):
    match = raid_begun(carol, bob)
    _, state = current(match)

    for seat, viewer in ((0, carol), (1, bob), (None, None)):
        if viewer is None:
            viewer = UserFactory(username="Olive")
        screen = match_screen(match_id=match.pk, viewer=viewer)
        shown = shown_ids(_render(screen))
        assert not shown & hidden_from(state, seat)
        # Each hero's own hand is drawn, and every avatar, the boss's among them.
        assert {player.avatar for player in state.seats} <= shown
        if seat is not None:
            assert set(state.seats[seat].hand) <= shown


def _render(screen) -> str:
    return render_to_string("game/_playmat.html", {"screen": screen, "match": screen.match})


# The whole game


@pytest.mark.parametrize("difficulty", DIFFICULTIES, ids=lambda difficulty: difficulty.slug)
def test_the_boss_plays_at_its_difficultys_level_and_the_heroes_at_the_team_level(
    carol, difficulty
):
    """Every computer seat is the search agent from its own view: the boss at the level of
    the Raid's difficulty, the computer heroes at the team games' level; each knows the
    boss's decklist behind its avatar."""
    match = match_create(
        host=carol,
        deck=carol.deck,
        settings=MatchSettings(encounter=ENCOUNTER.slug, difficulty=difficulty.slug),
    )
    match_fill_with_computers(match_id=match.pk, player=carol)
    match_ready(match_id=match.pk, player=carol)
    game = match.games.get()
    seats = {seat.seat: seat for seat in match.seats.all()}
    boss = boss_decklist(ENCOUNTER)

    agents = {number: skirmish.seat_agent(match, game, seats[number]) for number in (1, BOSS)}

    assert all(isinstance(agent, SearchAgent) for agent in agents.values())
    assert agents[BOSS].settings == LEVELS[difficulty.boss_level]
    assert agents[1].settings == LEVELS[skirmish.TEAM_LEVEL]
    for agent in agents.values():
        assert agent.pool.prior_of(boss["avatar"])["deck"] == boss["deck"]
    assert agents[1].seed != agents[BOSS].seed


def test_a_raid_its_people_left_is_played_to_its_end_by_the_computers_and_replays(
    carol, monkeypatch
):
    """Carol leaves at once: her three computer teammates play on against the boss, each
    run of their turns and the boss's as the task runs it, to the game's end; the stored log
    replays to the same game, and the match history names the boss. The computers think at
    the easiest level, to keep the test short."""
    monkeypatch.setattr(skirmish, "TEAM_LEVEL", "easy")
    match = raid_begun(carol)
    match_concede(match_id=match.pk, player=carol)
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        game = match.games.get()
        assert tasks.computer_move(match_id=match.pk, game_number=1, ply=game.applied)

    assert match.status == MatchStatus.FINISHED
    game, state = current(match)
    assert game.winner_seat == state.winner
    assert {seat for (seat,) in game.actions.values_list("seat")} == {0, 1, 2, 3, BOSS}
    winners = [seat.player.username for seat in match.seats.select_related("player")]
    winners = winners[BOSS:] if game.winner_seat == BOSS else winners[:BOSS]
    named = ", ".join(winners[:-1]) + f" and {winners[-1]}" if len(winners) > 1 else winners[0]
    assert match.end_reason.startswith(f"{named} won by ")
    actions = game.actions.order_by("number").values_list("action", flat=True)
    replayed = engine.replay(game.decklists, game.seed, actions, first=game.first_seat)
    assert engine.to_json(replayed) == game.state
    (entry,) = match_history(player=carol, viewer=carol)
    assert entry.result == ("Left (team won)" if match.team_of(game.winner_seat) == 0 else "Lost")
    assert [seat.player for seat in entry.opponents] == [match.seats.get(seat=BOSS).player]


def test_a_lost_raids_pages_show_for_its_heroes(client, carol, bob, dave, erin):
    """Every hero concedes: the boss's side wins, and the match page, its replay and the
    match history say so, of the boss alone: "Mother-Zhevra wins the game"."""
    match = raid_begun(carol, bob, dave, erin)
    for player in (carol, bob, dave, erin):
        match_concede(match_id=match.pk, player=player)

    match.refresh_from_db()
    game = match.games.get()
    assert (match.status, game.winner_seat) == (MatchStatus.FINISHED, BOSS)
    boss = match.seats.get(seat=BOSS).player.username
    assert match.end_reason.startswith(f"{boss} won by ")
    for player in (carol, erin):
        client.force_login(player)
        page = client.get(reverse("game:match_page", args=[match.pk])).content.decode()
        assert "Defeat" in page
        assert f"{boss} wins the game" in page and f"{boss} win the game" not in page
        for url in (reverse("game:match_replay", args=[match.pk]), reverse("game:match_history")):
            assert client.get(url).status_code == 200, (player, url)


def test_concede_in_a_raid_names_the_heroes_still_in_the_game(carol, bob, dave, erin):
    """A hero who concedes leaves; the others play on, named as long as they are in it."""
    match = raid_begun(carol, bob, dave, erin)

    def asked() -> str:
        return match_screen(match_id=match.pk, viewer=carol).concede_question

    ask = "Concede and leave this game? You lose and leave it;"
    assert asked() == f"{ask} your teammates Bob, Dave and Erin play on."
    match_concede(match_id=match.pk, player=bob)
    assert asked() == f"{ask} your teammates Dave and Erin play on."
    match_concede(match_id=match.pk, player=dave)
    assert asked() == f"{ask} your teammate Erin plays on."
    match_concede(match_id=match.pk, player=erin)
    assert (
        asked()
        == "Concede and leave this game? Your teammates have left already: your team loses it."
    )


# The Create window


def test_the_create_window_lists_the_raids_by_name(client, carol):
    client.force_login(carol)

    page = client.get(reverse("game:match_create")).content.decode()

    assert 'name="play_format"' in page and 'value="raid"' in page
    for encounter in ENCOUNTERS:
        assert f'value="{encounter.slug}"' in page and encounter.name in page


def test_the_create_window_creates_a_raid(client, carol):
    client.force_login(carol)

    answer = client.post(
        reverse("game:match_create"),
        {
            "deck": carol.deck.pk,
            "structure": 1,
            "players": 2,
            "play_format": "raid",
            "encounter": ENCOUNTER.slug,
            "light_vs_dark": "on",
        },
    )

    assert answer.status_code == 302
    match = Match.objects.get()
    assert (match.encounter, match.players) == (ENCOUNTER.slug, 5)
    # Light vs. Dark is hidden for a Raid: a box ticked before switching is not sent on.
    assert not match.light_vs_dark


def test_the_create_window_offers_each_difficulty_and_creates_a_heroic_raid(client, carol):
    client.force_login(carol)
    page = client.get(reverse("game:match_create")).content.decode()
    for difficulty in DIFFICULTIES:
        assert f'value="{difficulty.slug}"' in page and difficulty.summary in page

    answer = client.post(
        reverse("game:match_create"),
        {
            "deck": carol.deck.pk,
            "structure": 1,
            "play_format": "raid",
            "encounter": ENCOUNTER.slug,
            "difficulty": "heroic",
        },
    )

    assert answer.status_code == 302
    match = Match.objects.get()
    assert (match.difficulty, match.raid_difficulty) == ("heroic", "Heroic")
    match.seat_count = 1
    medallion = fragments.medallions([match])
    assert f"Raid · {ENCOUNTER.name} · Heroic" in medallion


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"play_format": "sealed"}, "Choose the Standard or the Raid play format."),
        (
            {"play_format": "raid", "encounter": ENCOUNTERS[0].slug, "difficulty": "nightmare"},
            "Choose the Raid&#x27;s difficulty: Normal or Heroic.",
        ),
        ({"play_format": "raid", "encounter": ""}, "Choose which raid to play."),
        ({"play_format": "raid", "encounter": "x" * 300}, "Choose one of the raids: "),
    ],
)
def test_the_create_window_refuses_a_bad_raid_in_words(client, carol, form, message):
    client.force_login(carol)

    answer = client.post(
        reverse("game:match_create"), {"deck": carol.deck.pk, "structure": 1, **form}
    )

    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Match.objects.exists()
