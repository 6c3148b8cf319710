"""Which cards a player may see and use: printed ones and the avatars they made."""

import pytest

from collection.cards.models import Card
from tests.factories import CardFactory, UserFactory


@pytest.mark.django_db
def test_a_player_sees_printed_cards_and_their_own_avatars_but_no_one_elses():
    maker, other = UserFactory(), UserFactory()
    printed = CardFactory()
    own = CardFactory(card_set=printed.card_set, creator=maker, card_type="avatar")
    foreign = CardFactory(card_set=printed.card_set, creator=other, card_type="avatar")

    visible = set(Card.objects.visible_to(maker))

    assert printed in visible and own in visible and foreign not in visible
    assert set(Card.objects.printed()) >= {printed}
    assert own not in set(Card.objects.printed())
