"""The rates table (collection/earnings/rates.json) is data, checked when the site starts: a
table that does not hold together is refused with the reason."""

import copy
import json

import pytest

from collection.earnings.rates import RATES_PATH, RatesError, rates, rates_parse


def feats_cut_to_two(quests: list[dict]) -> list[dict]:
    feats = [quest for quest in quests if quest["slot"] == "feats"]
    return [quest for quest in quests if quest["slot"] != "feats"] + feats[:2]


def site_table() -> dict:
    return json.loads(RATES_PATH.read_text(encoding="utf-8"))


def test_the_site_rates_table_holds_together():
    table = rates()

    assert table.wins.lowest_computer_level == "normal"
    assert len(table.quest_slots) == 3
    assert all(len(table.slot_pool(slot)) >= 3 for slot in table.quest_slots)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t["wins"].update(credits=-5), "wins.credits must be a whole number"),
        (lambda t: t["wins"].update(lowest_computer_level="heroic"), "lowest_computer_level"),
        (lambda t: t["quests"][0].update(counts="hugs"), r"quests\[0\].counts"),
        (lambda t: t["quests"][1].update(slug=t["quests"][0]["slug"]), "share a slug"),
        (lambda t: t["quests"][0].update(goal=0), r"quests\[0\].goal"),
        (lambda t: t.update(quest_slots=["victory", "feats"]), "three slots"),
        (lambda t: t.update(quests=feats_cut_to_two(t["quests"])), "feats needs at least three"),
        (lambda t: t["tournament_places"][1].update(credits=500), "pays more than the tier before"),
        (lambda t: t["tournament_places"][1].update(places=[3, 3]), "must begin after"),
        (lambda t: t["sprint_medals"].pop("bronze"), "gold, silver and bronze"),
    ],
)
def test_a_table_that_does_not_hold_together_is_refused_with_the_reason(change, message):
    table = copy.deepcopy(site_table())
    change(table)

    with pytest.raises(RatesError, match=message):
        rates_parse(table)


def test_tournament_credits_go_to_the_top_half_of_the_field_by_place():
    """Rulebook, Tournaments Lobby, "Reward Structure": rewards by place; these credits come
    besides the packs."""
    table = rates()

    assert table.place_credits(place=1, field=8) == 100
    assert table.place_credits(place=4, field=8) == 40
    assert table.place_credits(place=5, field=8) == 0  # the bottom half
    assert table.place_credits(place=2, field=4) == 60
    assert table.place_credits(place=3, field=4) == 0
    assert table.place_credits(place=8, field=16) == 20


def test_a_top_eight_promo_needs_a_field_larger_than_eight():
    table = rates()

    assert table.place_earns_promo(place=8, field=9)
    assert not table.place_earns_promo(place=9, field=32)
    assert not table.place_earns_promo(place=1, field=8)
