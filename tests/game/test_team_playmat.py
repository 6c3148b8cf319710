"""The playmat of a 2-versus-2 team game (rulebook, MULTIPLAYER GAMES), as each of its four
players and an observer see it: the viewer and his teammate at the bottom, the two opponents
at the top; at each quest the units of all four grouped by side, each player's level tokens,
the quests in the viewer's reach marked ("Quests"); the mini-map of the four players
("Mini-Map"); the teammate's units the viewer commands in his raid ("Commanders"). Nobody
is shown another player's hand."""

import re

import pytest
from django.utils import timezone

from game import fragments
from game.engine import api as engine
from game.engine.positions import Placed, Position, SeatSetup, build
from game.models import Game, Match, MatchSeat, MatchStatus
from game.selectors import deck_decklist, deck_faces, match_screen, seed_commitment, side_of
from tests.factories import UserFactory
from tests.game.conftest import player_with_deck

pytestmark = pytest.mark.django_db

# Seats in turn order alternate sides: Carol and Dora against Bob and Evan.
PLAYERS = (("Carol", "jedi"), ("Bob", "sith"), ("Dora", "rebel"), ("Evan", "imperial"))
CAROL, BOB, DORA, EVAN = range(4)
# Whose units stand at each quest location (0, 1 and 2: Carol's, Bob's and Dora's quests;
# Evan, the fourth player, has his level 2 quest removed), by seat.
UNITS_AT = {CAROL: (0, 1), BOB: (0,), DORA: (1, 1), EVAN: (2,)}
POWER = {CAROL: 7, BOB: 3, DORA: 4, EVAN: 2}
HAND = 5


def team_match(*, units_at=UNITS_AT, turn=1) -> Match:
    """A 2-versus-2 match of Carol, Bob, Dora and Evan (engine seats 0 to 3, Carol and Dora
    on one side), its game in the Main Phase of ``turn`` (the first: Carol's; the second:
    Bob's): each player with units at the quests of ``units_at``, the power of ``POWER`` and
    five cards in hand. Built from the players' own starter decks, so each card has its
    face."""
    players = [player_with_deck(name, archetype) for name, archetype in PLAYERS]
    match = Match.objects.create(
        title="Two versus two",
        host=players[0],
        status=MatchStatus.PLAYING,
        started=timezone.now(),
    )
    seats = [
        MatchSeat.objects.create(
            match=match,
            seat=number,
            player=player,
            deck=player.deck,
            deck_name=player.deck.name,
            side=side_of(archetype),
            archetype=archetype,
            decklist=deck_decklist(deck=player.deck),
            faces=deck_faces(deck=player.deck),
        )
        for number, (player, (_, archetype)) in enumerate(zip(players, PLAYERS, strict=True))
    ]
    state = build(
        Position(
            seats=tuple(
                _seat_setup(seat.decklist, seat.seat, units_at[seat.seat]) for seat in seats
            ),
            first=CAROL,
            turn=turn,
        )
    )
    decklists = [seat.decklist for seat in seats]
    Game.objects.create(
        match=match,
        number=1,
        seed=1,
        seed_salt="salt",
        seed_hash=seed_commitment(1, "salt"),
        decklists=[decklists[0::2], decklists[1::2]],
        state=engine.to_json(state),
    )
    return match


def _seat_setup(decklist: dict, seat: int, units_at: tuple[int, ...]) -> SeatSetup:
    deck = list(decklist["deck"])
    units = []
    for quest in units_at:
        unit = next(
            card
            for card in deck
            if card["type"] == "unit"
            and card["title"] not in {each.card["title"] for each in units}
        )
        deck.remove(unit)
        units.append(Placed(unit, quest=quest))
    return SeatSetup(
        avatar=decklist["avatar"],
        quests=decklist["quests"],
        hand=deck[:HAND],
        playmat=tuple(units),
        deck=deck[HAND:],
        power=POWER[seat],
        created=decklist["created"],
    )


def raid_with_doras_units(match: Match):
    """The ``team_match`` game with Carol raiding location 1 against Bob's avatar, Dora's
    units there under her command, until she may exert a combatant; its state then. (The
    game's log is left empty: not replayable.)"""
    game = Game.objects.get(match=match)
    state = engine.from_json(game.state)
    quest = state.quests[1].card
    raid = next(
        action
        for action in engine.legal_actions(state).actions
        if action["kind"] == "raid"
        and action["quest"] == quest
        and action.get("avatar") == state.seats[BOB].avatar
    )
    engine.apply(state, raid)
    while engine.legal_actions(state).seat != CAROL or not any(
        action["kind"] == "exert" for action in engine.legal_actions(state).actions
    ):
        engine.apply(state, engine.legal_actions(state).actions[-1])
    # Stored as its snapshot, with no log: the match's next action is its number applied + 1.
    game.state, game.state_applied, game.applied = (
        engine.to_json(state),
        state.applied,
        state.applied,
    )
    game.save(update_fields=["state", "state_applied", "applied"])
    return state


# Players' names as long as people choose them: the playmat shows them whole.
LONG_NAMES = ("Ayla1129Kestrel", "Brannock_Tulsar", "Dorabella1984", "Evander_Quill77")
# A late moment of a long game, location by location: how many units each seat has there. In
# a 2-versus-2 game Carol (seat 0) has eight at her quest, facing four of Bob's; in a Raid the
# first hero has eight at location 0 and the boss (seat 4) some everywhere.
CROWDED_UNITS = {
    4: ({0: 8}, {0: 4, 2: 1}, {1: 3}, {2: 3}),
    5: ({0: 8}, {1: 2}, {1: 2}, {2: 3}, {0: 4, 1: 2, 2: 2}),
}


def crowded_team_game(match: Match):
    """The first game of the team game or Raid ``match`` set up, through the position
    builder, as it stands late in a long game: each player's units of ``CROWDED_UNITS`` (of
    distinct titles while the deck has them, every third card placed exerted), three abilities
    and up to three items (one of each restriction) beside each avatar, and seat 0 to play in
    his Main Phase; five cards in each hand. The cards are the seats' own, so each has its
    face. Its state. (The game's log is emptied: not replayable.)"""
    decklists = [seat.decklist for seat in match.seats.order_by("seat")]
    units_at = CROWDED_UNITS[len(decklists)]

    def setup(decklist: dict, seat: int) -> SeatSetup:
        deck, placed = list(decklist["deck"]), []
        for kind, wanted in (("ability", 3), ("item", 3)):
            kept: set = set()
            for card in [card for card in deck if card["type"] == kind]:
                key = card.get("restriction") or card["title"]
                if len(kept) < wanted and key not in kept:
                    kept.add(key)
                    deck.remove(card)
                    placed.append(Placed(card))
        for quest, count in units_at[seat].items():
            units = [card for card in deck if card["type"] == "unit"]
            titles = {each.card["title"] for each in placed}
            units.sort(key=lambda card: card["title"] in titles)
            for card in units[:count]:
                deck.remove(card)
                placed.append(Placed(card, quest=quest, exerted=len(placed) % 3 == 2))
        return SeatSetup(
            avatar=decklist["avatar"],
            quests=decklist["quests"],
            hand=deck[:HAND],
            playmat=tuple(placed),
            deck=deck[HAND:],
            tokens=(1, 2, 1) if seat < 4 else (),
            power=9 if seat == 0 else None,
            created=decklist["created"],
        )

    seats = len(decklists)
    state = build(
        Position(
            seats=tuple(setup(decklist, seat) for seat, decklist in enumerate(decklists)),
            first=0,
            turn=2 * seats + 1,
        )
    )
    game = Game.objects.filter(match=match).latest("number")
    game.state, game.state_applied, game.applied = engine.to_json(state), 0, 0
    game.opening_events = []
    game.save(update_fields=["state", "state_applied", "applied", "opening_events"])
    return state


def latest_state(match: Match):
    game = Game.objects.filter(match=match).latest("number")
    return engine.from_json(game.state)


def screen_html(match: Match, viewer) -> str:
    return fragments.match_screen(match_screen(match_id=match.pk, viewer=viewer))


def seat_player(match: Match, seat: int):
    return match.seats.get(seat=seat).player


def card_ids(html: str, selector_html: str | None = None) -> set[int]:
    return {int(card) for card in re.findall(r'data-card="(\d+)"', selector_html or html)}


def element(html: str, pattern: str) -> str:
    """The HTML from the first tag matching ``pattern`` up to its region's end or the next
    element of the same kind (enough for the assertions here)."""
    found = re.search(pattern, html, re.DOTALL)
    assert found, pattern
    return found.group(0)


def mini_map_player(html: str, seat: int) -> str:
    following = r'</li>\s*(?=<li class="mini-map__player|</ul>)'
    return element(html, rf'<li class="mini-map__player[^"]*" data-seat="{seat}">.*?{following}')


@pytest.mark.parametrize("viewer_seat", [CAROL, BOB, DORA, EVAN])
def test_each_player_sees_four_players_his_side_at_the_bottom_and_only_his_own_hand(
    catalog, viewer_seat
):
    """MULTIPLAYER GAMES, "Teammates": a two-sided contest; the viewer and his teammate at
    the bottom, the two opponents at the top. The viewer's hand is shown, nobody else's:
    no id or title of a card in another player's hand reaches his page."""
    match = team_match()
    viewer = seat_player(match, viewer_seat)
    teammate = (viewer_seat + 2) % 4
    html = screen_html(match, viewer)
    state = latest_state(match)
    view = engine.view(state, viewer_seat)

    assert 'class="playmat playmat--team"' in html
    near = element(html, r'<div class="mat-pair mat-pair--near[^"]*">.*?<!--/region--></div>')
    far = element(html, r'<div class="mat-pair mat-pair--far[^"]*">.*?<!--/region--></div>')
    assert near.index(f'id="mat-row-seat{viewer_seat}"') < near.index(
        f'id="mat-row-seat{teammate}"'
    )
    assert {int(seat) for seat in re.findall(r'id="mat-row-seat(\d)"', far)} == {
        (viewer_seat + 1) % 4,
        (viewer_seat + 3) % 4,
    }
    for seat in range(4):
        assert f'data-zone="avatar-{seat}"' in html
        assert f'data-seat="{seat}"' in html  # on the mini-map

    hand = element(html, r'<ul class="mat-hand".*?</ul>')
    assert card_ids(html, hand) == set(state.seats[viewer_seat].hand)
    visible_titles = {card["title"] for card in _visible_cards(view)}
    shown = card_ids(html)
    for other in set(range(4)) - {viewer_seat}:
        for card in state.seats[other].hand:
            assert card not in shown
            title = state.definitions[state.cards[card].definition]["title"]
            if title not in visible_titles:
                assert title not in html, (other, title)


def _visible_cards(view: dict):
    for player in view["players"]:
        yield player["avatar"]
        for zone in ("hand", "discard", "quest_pile", "items", "abilities", "completed"):
            yield from player[zone] or ()
    for quest in view["quests"]:
        yield quest["card"]
        for units in quest["units"]:
            yield from units


def test_a_teammates_units_at_a_quest_are_shown_on_the_friendly_side(catalog):
    """Dora's units at Bob's quest (location 1) are on Carol's side of the quest meters'
    line on Carol's screen, beside Carol's own; Bob's and Evan's units on the other."""
    match = team_match()
    state = latest_state(match)
    quest = state.quests[1].card
    html = screen_html(match, seat_player(match, CAROL))

    block = element(
        html,
        rf'<div class="mat-quest mat-quest--team[^"]*" id="mat-quest-{quest}".*?quest-meter',
    )
    near = element(block, r'<div class="mat-side mat-side--near".*?</ul></div>')
    far = element(block, r'<div class="mat-side mat-side--far".*?</ul></div>')
    assert card_ids(html, near) == {*state.quests[1].units[CAROL], *state.quests[1].units[DORA]}
    assert "Dora's units at" in near and "Carol's units at" in near
    assert card_ids(html, far) == set()
    assert "Bob's units at" in far and "Evan's units at" in far
    assert len(state.quests[1].units[DORA]) == 2


def test_the_quests_in_the_viewers_reach_are_marked(catalog):
    """MULTIPLAYER GAMES, "Quests": Carol and Bob have locations 0 and 1 in reach, Dora and
    Evan 1 and 2."""
    match = team_match()
    state = latest_state(match)

    for seat, reach in ((CAROL, {0, 1}), (DORA, {1, 2}), (EVAN, {1, 2})):
        html = screen_html(match, seat_player(match, seat))
        marked = {int(card) for card in re.findall(r'mat-quest--reach" id="mat-quest-(\d+)"', html)}
        assert marked == {state.quests[index].card for index in reach}, seat
        assert html.count('class="reach-mark"') == 2
    html = screen_html(match, seat_player(match, CAROL))
    assert "in reach of Carol, Bob" in html and "in reach of Dora, Evan" in html


def test_the_mini_map_shows_whose_turn_who_decides_power_health_and_hand(catalog):
    """MULTIPLAYER GAMES, "Mini-Map": each player by his archetype icon, a highlight on the
    player performing an action, his power and health; and each player's cards in hand.
    Each player and each quest location is a button that recenters the playmat on it."""
    match = team_match()
    state = latest_state(match)
    html = screen_html(match, seat_player(match, BOB))

    carol = mini_map_player(html, CAROL)
    assert "is-deciding" in carol and "is-active" in carol
    assert ">Turn<" in carol and ">Deciding<" in carol
    assert 'data-zoom-to="mat-row-seat0"' in carol
    assert "archetype-icon--jedi" in carol
    for seat in range(4):
        shown = mini_map_player(html, seat)
        player = state.seats[seat]
        assert f'title="Power {POWER[seat]}"' in shown
        assert f"<b>{POWER[seat]}</b>" in shown
        health = engine.view(state, None)["players"][seat]["health"]
        assert f"Health {health} of" in shown
        assert f"Hand <b>{len(player.hand)}</b>" in shown
        if seat != CAROL:
            assert "is-deciding" not in shown and ">Turn<" not in shown
    for quest in state.quests:
        assert f'data-zoom-to="mat-quest-{quest.card}"' in html
        assert f'id="mat-quest-{quest.card}"' in html
    assert "data-zoom-out" in html


def test_the_mini_maps_quest_meter_lights_a_gem_a_quest_and_never_more_than_four(catalog):
    """MULTIPLAYER GAMES: "The quest meter only has four gems to mark completion, even in a
    multiplayer game in which sometimes a player can complete more than four quests." """
    match = team_match()
    game = Game.objects.get(match=match)
    state = engine.from_json(game.state)
    for seat, quests in ((DORA, 2), (BOB, 5)):
        player = state.seats[seat]
        player.completed, player.deck = player.deck[:quests], player.deck[quests:]
    game.state = engine.to_json(state)
    game.save(update_fields=["state"])

    html = screen_html(match, seat_player(match, CAROL))

    for seat, lit, said in ((CAROL, 0, "0 quests"), (DORA, 2, "2 quests"), (BOB, 4, "5 quests")):
        gems = element(mini_map_player(html, seat), r'<span class="quest-gems".*?</span>')
        assert (gems.count("<i"), gems.count('class="lit"')) == (4, lit)
        assert f'aria-label="{said} completed"' in gems
    assert "the quest meter has four gems" in mini_map_player(html, BOB)


def test_a_player_who_left_is_shown_as_left(catalog):
    """MULTIPLAYER GAMES, "Leaving the Game": his cards are gone; his teammates play on. The
    mini-map and his place on the playmat say he left."""
    match = team_match()
    game = Game.objects.get(match=match)
    state = engine.from_json(game.state)
    engine.apply(state, engine.leave(EVAN))
    game.state = engine.to_json(state)
    game.save(update_fields=["state"])

    html = screen_html(match, seat_player(match, CAROL))

    evan = mini_map_player(html, EVAN)
    assert "has-left" in evan and ">Left<" in evan
    assert "mat-row--left" in element(html, r'<div class="mat-row[^"]*" id="mat-row-seat3">')
    assert "Left the game" in html


def test_raiding_with_a_teammates_units_names_the_avatar_and_makes_his_units_clickable(catalog):
    """MULTIPLAYER GAMES, "Attacking Raid Commander": Carol raids location 1, where Dora's
    units are and no opposing ones, and chooses which avatar in reach to attack (Bob's or
    Evan's): one button each, naming him. In the raid she commands Dora's units: their exerts
    are on Dora's cards, which take a double-click on Carol's screen, on nobody else's. The
    Phase Meter names the two commanders."""
    match = team_match()
    state = latest_state(match)
    quest = state.quests[1].card
    carol = seat_player(match, CAROL)
    html = screen_html(match, carol)

    prompt = element(html, r'<section id="mat-prompt".*?</section>')
    assert f"Raid {_title(state, quest)}, attacking Bob" in prompt
    assert f"Raid {_title(state, quest)}, attacking Evan" in prompt
    for seat in (BOB, DORA, EVAN):
        theirs = screen_html(match, seat_player(match, seat))
        assert "attacking" not in element(theirs, r'<section id="mat-prompt".*?</section>')

    state = raid_with_doras_units(match)
    exerted = {
        action["card"]
        for action in engine.legal_actions(state).actions
        if action["kind"] == "exert"
    }
    doras = set(state.quests[1].units[DORA])
    assert doras <= exerted

    html = screen_html(match, carol)
    for card in doras:
        tag = element(html, rf'<figure [^>]*data-card="{card}"[^>]*>')
        assert "mat-card--actionable" in tag and 'role="button"' in tag
    assert "<b>Carol</b> attacks, <b>Bob</b> defends" in html
    dora_html = screen_html(match, seat_player(match, DORA))
    for card in doras:
        assert "mat-card--actionable" not in element(
            dora_html, rf'<figure [^>]*data-card="{card}"[^>]*>'
        )
    assert "<b>Carol</b> attacks, <b>Bob</b> defends" in dora_html


def _title(state, card: int) -> str:
    return state.definitions[state.cards[card].definition]["title"]


def test_an_observer_sees_the_public_view_from_seat_0s_side(catalog):
    """An observer sees no hand, and the playmat laid out as Carol (seat 0) sees it: Carol
    and Dora at the bottom, Bob and Evan at the top."""
    match = team_match()
    state = latest_state(match)
    observer = UserFactory(username="Olga")

    html = screen_html(match, observer)

    assert 'class="mat-hand"' not in html
    shown = card_ids(html)
    for player in state.seats:
        assert not shown & set(player.hand)
    near = element(html, r'<div class="mat-pair mat-pair--near[^"]*">.*?<!--/region--></div>')
    assert near.index('id="mat-row-seat0"') < near.index('id="mat-row-seat2"')
    assert "You are observing" in html
    assert 'class="reach-mark"' not in html


def test_the_attacker_chooses_the_defending_commander_on_a_tie_and_only_he_sees_the_choice(
    catalog,
):
    """MULTIPLAYER GAMES, "Defending Raid Commander": Bob raids location 1, where Carol and
    Dora defend with two units each: a tie, so Bob decides who defends. The buttons name
    them, on Bob's screen alone; the others wait for him."""
    match = team_match(units_at={CAROL: (0, 1, 1), BOB: (1,), DORA: (1, 1), EVAN: (2,)}, turn=2)
    game = Game.objects.get(match=match)
    state = engine.from_json(game.state)
    quest = state.quests[1].card
    raid = next(
        action
        for action in engine.legal_actions(state).actions
        if action["kind"] == "raid" and action["quest"] == quest
    )
    engine.apply(state, raid)
    assert engine.legal_actions(state).kind == "choose_commander"
    game.state = engine.to_json(state)
    game.save(update_fields=["state"])

    bobs = element(
        screen_html(match, seat_player(match, BOB)), r'<section id="mat-prompt".*?</section>'
    )
    assert "Carol commands the defense" in bobs and "Dora commands the defense" in bobs
    for seat in (CAROL, DORA, EVAN):
        prompt = element(
            screen_html(match, seat_player(match, seat)), r'<section id="mat-prompt".*?</section>'
        )
        assert "commands the defense" not in prompt
        assert "Waiting for Bob to decide" in prompt


def test_a_change_sends_only_the_regions_of_the_team_screen_it_changed(catalog):
    """The socket's updates cut the team game's screen into regions as the two-player one:
    Carol ending her Main Phase changes the Prompt and the mini-map (who decides), not the
    opponents' rows."""
    match = team_match()
    carol = seat_player(match, CAROL)
    screen = match_screen(match_id=match.pk, viewer=carol)
    whole, shown = fragments.match_screen_update(screen, replace_log=True, clear_error=False)
    assert {"mat-minimap", "mat-prompt", "mat-quests", "mat-hand"} <= set(shown)
    assert {f"mat-row-seat{seat}" for seat in range(4)} <= set(shown)

    game = Game.objects.get(match=match)
    state = engine.from_json(game.state)
    engine.apply(state, {"kind": "done"})
    game.state = engine.to_json(state)
    game.save(update_fields=["state"])
    after = match_screen(match_id=match.pk, viewer=carol)
    update, regions = fragments.match_screen_update(
        after, replace_log=False, clear_error=True, shown=shown
    )

    assert 'id="match-screen"' not in update
    changed = set(
        re.findall(r'<!--region--><[\w-]+ hx-swap-oob="true"[^>]*?\sid="([\w-]+)"', update)
    )
    assert {"mat-prompt", "mat-minimap"} <= changed
    assert not {f"mat-row-seat{BOB}", f"mat-row-seat{EVAN}"} & changed
    assert changed == {name for name in regions if regions[name] != shown[name]}
