"""The end of a match on its page: Victory, Defeat or Draw for each player (the winner's name
for an observer), how it ended, the last game's seed against the hash committed before it, and
the ways on, with Rematch for a Skirmish (same opponent, level and time limit)."""

import pytest
from django.urls import reverse

from collection.decks.services.decks import deck_delete
from game.models import Game, Match, MatchStatus
from game.selectors import skirmish_record
from game.services.matches import MatchError, match_concede
from game.services.offers import match_offer
from game.services.scenarios import scenario_start
from game.services.skirmish import skirmish_rematch, skirmish_start
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def page_of(client, user, match) -> str:
    client.force_login(user)
    return client.get(reverse("game:match_page", args=[match.pk])).content.decode()


def test_each_player_reads_victory_or_defeat_and_an_observer_the_winner(client, carol, bob):
    match = start_match(carol, bob)
    match_concede(match_id=match.pk, player=bob)

    carols, bobs = page_of(client, carol, match), page_of(client, bob, match)
    watching = page_of(client, UserFactory(username="Watcher"), match)

    assert "match-result--victory" in carols and ">Victory</h2>" in carols
    assert "match-result--defeat" in bobs and ">Defeat</h2>" in bobs
    assert ">Carol wins</h2>" in watching
    for page in (carols, bobs, watching):
        assert "Carol wins the match: Bob conceded" in page
        assert "✓ The seed matches the hash committed before the game" in page
        assert "Rematch" not in page  # a casual match: the lobby is the way on
        assert "Back to the Casual Lobby" in page
    game = Game.objects.get(match=match)
    assert game.seed_hash in carols and str(game.seed) in carols and game.seed_salt in carols


def test_an_agreed_draw_reads_draw(client, carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=carol, offer="draw")
    match_offer(match_id=match.pk, player=bob, offer="draw")

    page = page_of(client, carol, match)

    assert "match-result--draw" in page and ">Draw</h2>" in page


def test_a_seed_that_does_not_match_its_commitment_is_said(client, carol, bob):
    match = start_match(carol, bob)
    match_concede(match_id=match.pk, player=bob)
    Game.objects.filter(match=match).update(seed_hash="0" * 64)

    assert "✗ The seed does not match its committed hash" in page_of(client, carol, match)


def test_a_match_in_progress_shows_no_result(client, carol, bob):
    match = start_match(carol, bob)

    assert "match-result" not in page_of(client, carol, match)


def skirmish_lost(carol, **settings):
    match = skirmish_start(
        player=carol, deck=carol.deck, archetype="sith", level="hard", **settings
    )
    match_concede(match_id=match.pk, player=carol)
    return match


def test_rematch_plays_the_same_skirmish_again(client, carol):
    lost = skirmish_lost(carol, time_limit=20 * 60)
    page = page_of(client, carol, lost)
    assert "Rematch" in page and ">Defeat</h2>" in page

    answer = client.post(reverse("game:skirmish_rematch", args=[lost.pk]), **HTMX)

    again = Match.objects.exclude(pk=lost.pk).get()
    assert answer["HX-Redirect"] == reverse("game:match_page", args=[again.pk])
    assert again.status == MatchStatus.PLAYING
    assert (again.computer_level, again.time_limit) == ("hard", 20 * 60)
    mine, theirs = again.seats.order_by("seat")
    assert (mine.player, mine.deck) == (carol, carol.deck)
    assert theirs.archetype == "sith" and theirs.player == lost.seats.get(seat=1).player


def test_rematch_is_refused_with_a_reason(client, carol, bob):
    playing = skirmish_start(player=carol, deck=carol.deck, archetype="jedi", level="easy")
    with pytest.raises(MatchError, match="not over yet"):
        skirmish_rematch(player=carol, match_id=playing.pk)
    with pytest.raises(MatchError, match="no Skirmish of yours"):
        skirmish_rematch(player=bob, match_id=playing.pk)
    match_concede(match_id=playing.pk, player=carol)
    casual = start_match(carol, bob)
    with pytest.raises(MatchError, match="no Skirmish of yours"):
        skirmish_rematch(player=carol, match_id=casual.pk)

    deck_delete(owner=carol, deck_id=carol.deck.pk)
    client.force_login(carol)
    answer = client.post(reverse("game:skirmish_rematch", args=[playing.pk]), **HTMX)

    assert answer.status_code == 409
    assert "no longer among your decks" in answer.content.decode()
    assert Match.objects.filter(computer_level="easy").count() == 1


def test_a_rematch_is_offered_for_a_skirmish_alone_never_for_a_scenario(client, carol):
    """A scenario seats a computer opponent at a level as a Skirmish does, but its Rematch
    would start a Skirmish against that computer and count in the Skirmish record."""
    lost = scenario_start(player=carol, number=1, deck_id=carol.deck.pk)
    match_concede(match_id=lost.pk, player=carol)

    assert "Rematch" not in page_of(client, carol, lost)
    answer = client.post(reverse("game:skirmish_rematch", args=[lost.pk]), **HTMX)

    assert answer.status_code == 409
    assert "no Skirmish of yours" in answer.content.decode()
    assert list(Match.objects.all()) == [lost]
    assert skirmish_record(player=carol) == {"won": 0, "lost": 0}
