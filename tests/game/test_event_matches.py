"""Tournament matches (rulebook, "Tournaments Lobby": "The Game Clock", "Disconnecting"):
opened with both players seated and the style's clock, no draw or adjourn, and the ten-minute
rule for a player who stays away."""

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from game.models import MatchSeat, MatchStatus
from game.selectors import deck_decklist, game_state
from game.services.attendance import match_socket_open
from game.services.event_matches import (
    EventSeat,
    event_forfeits_sweep,
    event_match_open,
    match_award,
)
from game.services.matches import MatchError, match_next_game_check
from game.services.offers import match_claim, match_offer
from game.signals import match_finished
from tests.game.conftest import player_with_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(catalog):
    return player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")


def open_event(carol, bob, structure=1):
    return event_match_open(
        title="Tournament 1, round 1",
        seats=[
            EventSeat(player=carol, decklist=deck_decklist(deck=carol.deck), deck_name="Jedi"),
            EventSeat(player=bob, decklist=deck_decklist(deck=bob.deck), deck_name="Sith"),
        ],
        structure=structure,
        time_limit=30 * 60,
        computer_level="easy",
    )


def test_a_tournament_match_begins_at_once_with_half_the_clock_each(players):
    carol, bob = players
    match = open_event(carol, bob)
    assert match.status == MatchStatus.PLAYING and match.event and not match.computer_level
    assert match.games.count() == 1
    assert set(match.seats.values_list("clock_left_ms", flat=True)) == {15 * 60 * 1000}
    # nobody has opened the match's page yet: both are away until they do
    assert match.seats.filter(away_since=None).count() == 0


def test_a_tournament_match_cannot_be_drawn_adjourned_or_claimed(players):
    carol, bob = players
    match = open_event(carol, bob)
    with pytest.raises(MatchError, match="can't be drawn or adjourned"):
        match_offer(match_id=match.pk, player=carol, offer="draw")
    with pytest.raises(MatchError, match="clock runs while they are away"):
        match_claim(match_id=match.pk, player=carol)


def test_a_player_away_ten_minutes_forfeits_the_game_and_each_later_one(players, settings):
    carol, bob = players
    match = open_event(carol, bob, structure=3)
    match_socket_open(match_id=match.pk, player=carol, channel_name="carol-page")
    assert event_forfeits_sweep() == 0  # Bob is away, but not for ten minutes yet
    long_ago = timezone.now() - timedelta(seconds=settings.MATCH_EVENT_FORFEIT_SECONDS + 1)
    MatchSeat.objects.filter(match=match, player=bob).update(away_since=long_ago)
    finished = []

    def heard(sender, match_id, **kwargs):
        finished.append(match_id)

    match_finished.connect(heard)
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert event_forfeits_sweep() == 1
            assert event_forfeits_sweep() == 0  # between games: nothing to forfeit yet
        match.refresh_from_db()
        assert match.games.get(number=1).winner_seat == 0
        match.next_game_at = timezone.now()
        match.save(update_fields=["next_game_at"])
        match_next_game_check(match_id=match.pk)
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert event_forfeits_sweep() == 1  # the next game is forfeited as it starts
    finally:
        match_finished.disconnect(heard)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.winner == carol
    assert finished == [match.pk]


def test_a_player_back_in_time_has_lost_only_clock_time(players, settings):
    carol, bob = players
    match = open_event(carol, bob)
    nearly = timezone.now() - timedelta(seconds=settings.MATCH_EVENT_FORFEIT_SECONDS - 5)
    MatchSeat.objects.filter(match=match).update(away_since=nearly)
    match_socket_open(match_id=match.pk, player=bob, channel_name="bob-page")
    match_socket_open(match_id=match.pk, player=carol, channel_name="carol-page")
    assert event_forfeits_sweep() == 0
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.games.get().ended is None


def test_the_tournament_can_award_a_match_and_an_ended_one_stays_as_it_ended(players):
    carol, bob = players
    match = open_event(carol, bob)
    with TestCase.captureOnCommitCallbacks(execute=True):
        match_award(match_id=match.pk, winner=bob, reason="Carol dropped from the tournament")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.winner == bob
    assert match.games.get().winner_seat == 1
    match_award(match_id=match.pk, winner=carol, reason="too late")
    match.refresh_from_db()
    assert match.winner == bob


def test_a_match_of_two_computer_players_plays_itself_to_the_end(catalog, settings):
    """House players' games run in batches of decisions, each checked and logged like any
    action: the log replays to the stored state."""
    from game.engine import api as engine
    from game.models import ComputerOpponent, GameAction
    from game.services.skirmish import computer_move
    from tests.factories import UserFactory

    settings.COMPUTER_RUN_ACTIONS = 40
    players = []
    for name, archetype in (("House-Jedi", "jedi"), ("House-Sith", "sith")):
        player = player_with_deck(name, archetype)
        ComputerOpponent.objects.create(
            player=player, archetype=archetype, blurb="", skirmish=False
        )
        players.append(player)
    match = event_match_open(
        title="House match",
        seats=[
            EventSeat(
                player=p, decklist=deck_decklist(deck=p.deck), deck_name=p.deck.name, computer=True
            )
            for p in players
        ],
        structure=1,
        time_limit=30 * 60,
        computer_level="easy",
    )
    assert match.computer_level == "easy"
    runs = 0
    while True:
        match.refresh_from_db()
        game = match.games.get()
        if game.ended is not None:
            break
        assert computer_move(match_id=match.pk, game_number=1, ply=game.applied)
        assert not computer_move(match_id=match.pk, game_number=1, ply=0) or game.applied == 0
        runs += 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.winner in players
    actions = list(GameAction.objects.filter(game=game).order_by("number"))
    assert [a.number for a in actions] == list(range(1, game.applied + 1))
    assert runs < game.applied  # decisions were applied in runs, not one task each
    replayed = engine.new_game(game.decklists, game.seed, [], first=game.first_seat)
    for logged in actions:
        engine.apply(replayed, logged.action)
    assert engine.to_json(replayed) == engine.to_json(game_state(game))
    del UserFactory
