"""The Playmat menu's page side (rulebook, THE GAME SCREEN, "The Playmat"): its buttons, the
offer and absence notes each viewer sees, refusals that say why, and the /resume window."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from game.models import MatchStatus
from game.services.offers import match_offer, match_offer_answer
from tcgsite.lobbies.models import Presence
from tcgsite.lobbies.places import Lobby
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(client, match) -> str:
    return client.get(reverse("game:match_page", args=[match.pk])).content.decode()


def test_a_player_has_the_playmat_menu_and_an_observer_stop_observing(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)

    mine = page(client, match)

    assert "data-playmat-menu" in mine
    for label in ("Concede", "Offer a draw", "Offer to adjourn"):
        assert label in mine
    client.force_login(UserFactory(username="Watcher"))
    watching = page(client, match)
    assert "Stop Observing" in watching and "Offer a draw" not in watching


def test_an_offer_made_on_the_page_is_answered_on_the_opponents(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)

    response = client.post(reverse("game:match_offer", args=[match.pk]), {"offer": "draw"}, **HTMX)

    assert response.status_code == 204
    assert "You offered a draw." in page(client, match)
    client.force_login(bob)
    theirs = page(client, match)
    assert "Carol offers a draw." in theirs
    assert reverse("game:match_offer_answer", args=[match.pk]) in theirs
    client.post(reverse("game:match_offer_answer", args=[match.pk]), {"accept": "1"}, **HTMX)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED


@pytest.mark.parametrize(
    ("url", "data", "message"),
    [
        ("game:match_offer", {"offer": "surrender"}, "Offer a draw, or to adjourn."),
        ("game:match_offer_answer", {"accept": "1"}, "There is no offer of your opponent's"),
        ("game:match_offer_withdraw", {}, "You have no offer to withdraw."),
        ("game:match_claim", {}, "You may claim the match once Bob has been away"),
    ],
)
def test_a_refused_button_says_why(client, carol, bob, url, data, message):
    match = start_match(carol, bob)
    client.force_login(carol)

    response = client.post(reverse(url, args=[match.pk]), data, **HTMX)

    assert response.status_code == 409
    assert message in response.content.decode()


def test_the_player_who_stayed_sees_the_absence_and_then_the_claim(client, carol, bob):
    match = start_match(carol, bob)
    client.force_login(carol)
    match.seats.filter(player=bob).update(away_since=timezone.now() - timedelta(seconds=30))

    assert "Bob is away" in page(client, match)
    assert "you may claim the win or adjourn in 3 min" in page(client, match)
    match.seats.filter(player=bob).update(away_since=timezone.now() - timedelta(minutes=4))
    assert "Claim the win" in page(client, match)


def test_the_resume_window_lists_resumable_games_with_resume_and_delete(client, carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    client.force_login(carol)
    assert "The match is adjourned." in page(client, match)
    window = reverse("game:adjourned_matches") + "?lobby=casual"
    assert "None of your adjourned games" in client.get(window, **HTMX).content.decode()
    Presence.objects.create(user=bob, room=Lobby.CASUAL, place=Lobby.CASUAL)

    listed = client.get(window, **HTMX).content.decode()

    assert reverse("game:match_resume", args=[match.pk]) in listed
    assert reverse("game:adjourned_delete", args=[match.pk]) in listed
    response = client.post(
        reverse("game:match_resume", args=[match.pk]), {"lobby": "casual"}, **HTMX
    )
    assert response["HX-Redirect"] == reverse("game:match_page", args=[match.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.LAUNCHING


def test_deleting_from_the_resume_window_shows_the_window_again(client, carol, bob):
    match = start_match(carol, bob)
    match_offer(match_id=match.pk, player=carol, offer="adjourn")
    match_offer_answer(match_id=match.pk, player=bob, accept=True)
    client.force_login(carol)

    response = client.post(
        reverse("game:adjourned_delete", args=[match.pk]), {"lobby": "casual"}, **HTMX
    )

    assert "Adjourned games" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    again = client.post(reverse("game:adjourned_delete", args=[match.pk]), **HTMX)
    assert again.status_code == 409 and "is not adjourned" in again.content.decode()
