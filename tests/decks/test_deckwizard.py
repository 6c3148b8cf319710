"""The Deckbuilding Wizard's pure steps: which archetypes can be built, and fill_deck."""

import json
from collections import Counter
from itertools import count
from pathlib import Path

import pytest

from collection.cards.cardrules import MAX_COPIES, validate_deck
from collection.decks.deckwizard import (
    SUGGESTED_MIX,
    OwnedCard,
    WizardError,
    archetype_options,
    avatar_options,
    fill_deck,
    quest_options,
    wizard_read,
)

SET_FILE = (
    Path(__file__).resolve().parents[2] / "collection/cards/sets/01_embers-of-the-outer-rim.json"
)

_ids = count(1)


def card(card_type="unit", *, archetype="", cost=1, owned=4, title=None, level=None):
    card_id = next(_ids)
    return OwnedCard(
        id=card_id,
        title=title or f"{card_type} {card_id}",
        card_type=card_type,
        archetype=archetype,
        owned=owned,
        cost=None if card_type in ("avatar", "quest") else cost,
        level=level,
    )


def quest_pile(archetype=""):
    return [card("quest", archetype=archetype, level=level) for level in (2, 4, 5, 6)]


def many(card_type, number, *, archetype="", cost=1, owned=4):
    return [card(card_type, archetype=archetype, cost=cost, owned=owned) for _ in range(number)]


def by_id(cards):
    return {each.id: each for each in cards}


def test_fill_reaches_the_size_from_fitting_cards_only():
    """DECK BUILDING: deck cards share the avatar's archetype or are generic."""
    jedi = many("unit", 6, archetype="jedi") + many("ability", 4, archetype="jedi")
    generic = many("tactic", 4) + many("item", 3)
    others = many("unit", 10, archetype="sith") + [card("avatar", archetype="jedi")]
    others += quest_pile("jedi")
    fill = fill_deck(jedi + generic + others, archetype="jedi", mix=SUGGESTED_MIX)

    assert fill.total == 50 and fill.missing == 0
    cards = by_id(jedi + generic + others)
    assert {cards[card_id].archetype for card_id in fill.copies} <= {"jedi", ""}
    assert {cards[card_id].card_type for card_id in fill.copies} <= {
        "unit",
        "ability",
        "item",
        "tactic",
    }


def test_fill_never_takes_more_copies_than_owned_nor_more_than_four_of_a_title():
    owned_two = many("unit", 30, owned=2)
    owned_nine = many("unit", 20, owned=9)
    # Two printings of one title share the four-copy limit.
    twins = [card("unit", title="Twin Title", owned=4), card("unit", title="Twin Title", owned=4)]
    cards = owned_two + owned_nine + twins
    fill = fill_deck(cards, archetype="rebel", mix={"unit": 100}, size=60)

    assert fill.total == 60
    for card_id, copies in fill.copies.items():
        assert copies <= min(by_id(cards)[card_id].owned, MAX_COPIES)
    titles = Counter()
    for card_id, copies in fill.copies.items():
        titles[by_id(cards)[card_id].title] += copies
    assert max(titles.values()) <= MAX_COPIES


def test_fill_follows_the_type_shares():
    cards = many("unit", 20) + many("ability", 20) + many("item", 20) + many("tactic", 20)
    fill = fill_deck(
        cards, archetype="sith", mix={"unit": 50, "ability": 30, "item": 0, "tactic": 20}
    )

    per_type = Counter()
    for card_id, copies in fill.copies.items():
        per_type[by_id(cards)[card_id].card_type] += copies
    assert per_type == {"unit": 25, "ability": 15, "tactic": 10}


def test_fill_prefers_cheap_cards_to_expensive_ones():
    """Many 1 to 3 cost cards, fewer of 5 or more."""
    cards = [card("unit", cost=cost) for cost in (1, 2, 3, 4, 5, 6) for _ in range(6)]
    fill = fill_deck(cards, archetype="jedi", mix={"unit": 100})

    per_cost = Counter()
    for card_id, copies in fill.copies.items():
        per_cost[min(by_id(cards)[card_id].cost, 5)] += copies
    assert fill.total == 50
    assert per_cost[1] + per_cost[2] + per_cost[3] >= 35
    assert 0 < per_cost[5] <= 5
    assert per_cost[1] > per_cost[4] > per_cost[5]


def test_fill_prefers_the_archetypes_own_cards_and_full_sets():
    own = many("unit", 13, archetype="imperial")
    generic = many("unit", 13)
    fill = fill_deck(own + generic, archetype="imperial", mix={"unit": 100})

    own_ids = {each.id for each in own}
    assert sum(copies for card_id, copies in fill.copies.items() if card_id in own_ids) == 50
    assert all(copies == 4 for copies in list(fill.copies.values())[:12])


def test_fill_spills_an_empty_type_share_over_to_the_others():
    cards = many("unit", 15) + many("ability", 10)
    fill = fill_deck(cards, archetype="rebel", mix={"unit": 40, "ability": 30, "item": 30})

    assert fill.total == 50
    assert fill.missing == 0


def test_fill_reports_exactly_how_many_cards_are_missing():
    cards = many("unit", 5, owned=3) + many("tactic", 2, owned=1) + many("item", 9)
    fill = fill_deck(cards, archetype="jedi", mix={"unit": 70, "tactic": 30})

    assert fill.total == 17
    assert fill.missing == 33


def test_fill_is_deterministic():
    cards = many("unit", 20, owned=3) + many("ability", 12, cost=2) + many("tactic", 9, cost=0)
    first = fill_deck(cards, archetype="sith", mix=SUGGESTED_MIX, size=55)
    again = fill_deck(list(reversed(cards)), archetype="sith", mix=SUGGESTED_MIX, size=55)
    assert first == again


def test_archetype_needs_an_avatar_and_a_quest_of_each_level():
    cards = [card("avatar", archetype="jedi"), card("avatar", archetype="sith")]
    cards += quest_pile("jedi")
    cards += [card("quest", level=2), card("quest", archetype="sith", level=4)]
    options = {option.archetype: option for option in archetype_options(cards)}

    assert options["jedi"].available
    assert options["sith"].missing == ("no Sith or generic quest of level 5, 6",)
    assert options["rebel"].missing == (
        "no Rebel avatar",
        "no Rebel or generic quest of level 4, 5, 6",
    )


def test_quests_of_the_archetype_are_suggested_before_generic_ones():
    generic = card("quest", level=2, title="A generic quest")
    own = card("quest", archetype="rebel", level=2, title="Z rebel quest")
    other = card("quest", archetype="sith", level=2)
    options = quest_options([generic, own, other], "rebel")
    assert options[2] == [own, generic]


def wizard_collection():
    avatar = card("avatar", archetype="rebel")
    quests = quest_pile("rebel")
    deck_cards = many("unit", 8, archetype="rebel") + many("ability", 5) + many("tactic", 4)
    return avatar, quests, [avatar, *quests, *deck_cards]


def form(avatar_card, quests, **changes):
    data = {
        "archetype": "rebel",
        "avatar": str(avatar_card.id),
        **{f"quest_{quest.level}": str(quest.id) for quest in quests},
        "mix_unit": "50",
        "mix_ability": "30",
        "mix_item": "0",
        "mix_tactic": "20",
        "size": "50",
    }
    data.update(changes)
    return data


def test_wizard_read_checks_every_step_against_the_collection():
    avatar, quests, cards = wizard_collection()
    choices = wizard_read(cards, form(avatar, quests), through=4)
    assert choices.avatar_id == avatar.id
    assert choices.quest_ids == {quest.level: quest.id for quest in quests}
    assert choices.mix == {"unit": 50, "ability": 30, "item": 0, "tactic": 20}


@pytest.mark.parametrize(
    ("changes", "step", "message"),
    [
        ({"archetype": "droid"}, 1, "Choose one of the four archetypes."),
        ({"archetype": "sith"}, 1, "A Sith deck can't be built yet: no Sith avatar"),
        ({"avatar": "999999"}, 2, "Choose an avatar from your collection."),
        ({"avatar": "1; DROP TABLE"}, 2, "Choose an avatar from your collection."),
        ({"quest_5": ""}, 3, "Choose a level 5 quest from your collection."),
        ({"mix_unit": "-5"}, 4, "Units: give a whole percentage from 0 to 100."),
        ({"mix_unit": "45"}, 4, "The shares add up to 95%; make them add up to 100%."),
        ({"size": "49"}, 4, "The wizard builds decks of 50 to 60 cards."),
    ],
)
def test_wizard_read_names_the_step_and_the_problem(changes, step, message):
    avatar, quests, cards = wizard_collection()
    with pytest.raises(WizardError) as raised:
        wizard_read(cards, form(avatar, quests, **changes), through=4)
    assert raised.value.step == step
    assert str(raised.value).startswith(message)


def test_wizard_read_refuses_a_quest_of_another_level_or_archetype():
    avatar, quests, cards = wizard_collection()
    sith_quest = card("quest", archetype="sith", level=4)
    cards.append(sith_quest)
    with pytest.raises(WizardError, match="is a level 2 quest, not 4"):
        wizard_read(cards, form(avatar, quests, quest_4=str(quests[0].id)), through=3)
    with pytest.raises(WizardError, match="is not a Rebel or generic quest"):
        wizard_read(cards, form(avatar, quests, quest_4=str(sith_quest.id)), through=3)


def test_wizard_read_of_a_short_collection_names_the_missing_count():
    avatar, quests, cards = wizard_collection()
    cards = [each for each in cards if each.card_type != "unit"]
    with pytest.raises(WizardError) as raised:
        wizard_read(cards, form(avatar, quests), through=4)
    assert raised.value.step == 4
    assert "only 36 Rebel or generic cards" in str(raised.value)
    assert "14 more are missing" in str(raised.value)


@pytest.mark.parametrize("archetype", ["jedi", "rebel", "imperial", "sith"])
def test_a_starter_decks_cards_fill_a_deck_that_keeps_the_deck_building_rules(archetype):
    """The rulebook's DECK BUILDING rules, checked by the set validator's validate_deck."""
    data = json.loads(SET_FILE.read_text(encoding="utf-8"))
    by_title = {entry["title"]: entry for entry in data["cards"]}
    starter = data["starter_decks"][archetype]
    lines = {starter["avatar"]: 1, **dict.fromkeys(starter["quests"], 1), **starter["deck"]}
    cards = [
        OwnedCard(
            id=by_title[title]["number"],
            title=title,
            card_type=by_title[title]["type"],
            archetype=by_title[title]["archetype"],
            owned=copies,
            cost=by_title[title]["cost"],
            level=by_title[title]["level"],
        )
        for title, copies in lines.items()
    ]
    avatar = avatar_options(cards, archetype)[0]
    quests = {level: options[0] for level, options in quest_options(cards, archetype).items()}
    fill = fill_deck(cards, archetype=archetype, mix=SUGGESTED_MIX)

    titles = {each.id: each.title for each in cards}
    deck = {
        "avatar": avatar.title,
        "quests": [quest.title for quest in quests.values()],
        "deck": {titles[card_id]: copies for card_id, copies in fill.copies.items()},
    }
    assert fill.total == 50
    assert validate_deck(deck, by_title) == []


def test_messages_name_the_archetype_with_the_right_article():
    avatar, quests, cards = wizard_collection()
    with pytest.raises(WizardError, match="^An Imperial deck can't be built yet: no Imperial"):
        wizard_read(cards, form(avatar, quests, archetype="imperial"), through=1)
