"""The rulebook's DECK BUILDING rules, format restrictions, statistics and deck lists, on
small inline decks (game/engine/deckrules.py is pure: no database)."""

from game.engine import deckrules
from game.engine.deckrules import (
    ARCHETYPE_RULE,
    AVATAR_RULE,
    BANNED_RULE,
    COPIES_RULE,
    DECK_SIZE_RULE,
    DECK_TYPES_RULE,
    OWNED_RULE,
    POOL_ONLY_RULE,
    POOL_RULE,
    QUEST_RULE,
    RESTRICTED_RULE,
    SETS_RULE,
    CardFacts,
    CardSupply,
    DeckLine,
    DeckList,
    FormatRules,
)

_ids = iter(range(1, 10_000))


def card(title, card_type="unit", archetype="", *, level=None, cost=2, set_number=1, **extra):
    return CardFacts(
        title=title,
        card_type=card_type,
        archetype=archetype,
        level=level,
        cost=None if card_type in ("avatar", "quest") else cost,
        set_number=set_number,
        card_id=next(_ids),
        **extra,
    )


JEDI_AVATAR = card("Ilvara Senn", "avatar", "jedi")
SITH_AVATAR = card("Vorsa Kel", "avatar", "sith")
QUESTS = {level: card(f"Quest {level}", "quest", "jedi", level=level) for level in (2, 4, 5, 6)}
GENERIC_QUEST_5 = card("Generic Quest 5", "quest", level=5)
UNITS = [card(f"Trooper {n}", "unit", cost=n % 5) for n in range(13)]
JEDI_ABILITY = card("Force Push", "ability", "jedi", cost=1)
SITH_TACTIC = card("Vanish into Shadow", "tactic", "sith", cost=2)


def lines(*pairs) -> list[DeckLine]:
    return [DeckLine(facts, copies) for facts, copies in pairs]


def legal_deck(*extra) -> DeckList:
    """A legal 52-card Jedi deck: 13 generic units × 4, plus ``extra`` lines."""
    return DeckList.by_type(
        lines(
            (JEDI_AVATAR, 1),
            *((quest, 1) for quest in QUESTS.values()),
            *((unit, 4) for unit in UNITS),
            *extra,
        )
    )


def verdicts(deck, rules=None, supply=None) -> dict[str, deckrules.RuleCheck]:
    return {check.rule: check for check in deckrules.check_deck(deck, rules, supply=supply)}


def failing(deck, rules=None, supply=None) -> set[str]:
    return {rule for rule, check in verdicts(deck, rules, supply).items() if not check.ok}


# Avatar ---------------------------------------------------------------------------------


def test_a_legal_deck_keeps_every_rule():
    checks = deckrules.check_deck(legal_deck())
    assert [check.rule for check in checks] == [
        AVATAR_RULE,
        QUEST_RULE,
        DECK_SIZE_RULE,
        COPIES_RULE,
        DECK_TYPES_RULE,
        ARCHETYPE_RULE,
    ]
    assert all(check.ok for check in checks)


def test_choose_one_avatar_card():
    no_avatar = DeckList(quests=legal_deck().quests, deck=legal_deck().deck)
    assert failing(no_avatar) >= {AVATAR_RULE}
    assert "no avatar" in verdicts(no_avatar)[AVATAR_RULE].explanation

    two = legal_deck((SITH_AVATAR, 1))
    check = verdicts(two)[AVATAR_RULE]
    assert not check.ok
    assert set(check.offending) == {"Ilvara Senn", "Vorsa Kel"}
    assert "2 avatar cards" in check.explanation


def test_two_copies_of_the_avatar_are_not_one_avatar():
    deck = DeckList.by_type([*legal_deck().lines[1:], DeckLine(JEDI_AVATAR, 2)])
    assert AVATAR_RULE in failing(deck)


# Quest pile -----------------------------------------------------------------------------


def test_quest_pile_is_one_quest_of_each_level_2_4_5_and_6():
    three = DeckList.by_type(line for line in legal_deck().lines if line.card != QUESTS[6])
    check = verdicts(three)[QUEST_RULE]
    assert not check.ok
    assert "3 quest cards" in check.explanation and "Missing level 6" in check.explanation


def test_two_quests_of_one_level_are_named():
    deck = DeckList.by_type(
        [line for line in legal_deck().lines if line.card != QUESTS[6]]
        + lines((card("Other Quest 2", "quest", "jedi", level=2), 1))
    )
    check = verdicts(deck)[QUEST_RULE]
    assert not check.ok
    assert set(check.offending) == {"Quest 2", "Other Quest 2"}
    assert "Missing level 6" in check.explanation


def test_generic_quests_are_usable_by_all_avatars():
    deck = DeckList.by_type(
        [line for line in legal_deck().lines if line.card != QUESTS[5]]
        + lines((GENERIC_QUEST_5, 1))
    )
    assert failing(deck) == set()


def test_a_quest_pile_card_that_is_not_a_quest_fails():
    deck = DeckList(
        avatar=legal_deck().avatar,
        quests=(*legal_deck().quests[:3], DeckLine(UNITS[0], 1)),
        deck=legal_deck().deck,
    )
    check = verdicts(deck)[QUEST_RULE]
    assert not check.ok and check.offending == ("Trooper 0",)


# Deck -----------------------------------------------------------------------------------


def test_deck_must_have_at_least_50_cards():
    small = DeckList.by_type(legal_deck().lines[:-1])  # 48 cards
    check = verdicts(small)[DECK_SIZE_RULE]
    assert not check.ok
    assert "48 cards" in check.explanation and "2 more" in check.explanation
    assert verdicts(legal_deck())[DECK_SIZE_RULE].explanation == "52 cards."


def test_there_is_no_maximum_deck_size():
    huge = legal_deck(*((card(f"Extra {n}"), 4) for n in range(40)))
    assert huge.deck_size == 212
    assert failing(huge) == set()


def test_no_more_than_four_copies_of_a_single_card_title():
    deck = legal_deck((card("Trooper 0", cost=3, set_number=2), 1))  # a reprint, same title
    check = verdicts(deck)[COPIES_RULE]
    assert not check.ok
    assert check.offending == ("Trooper 0",)
    assert "5 copies of 'Trooper 0'" in check.explanation


def test_the_avatar_and_quests_do_not_count_towards_the_deck():
    deck = legal_deck()
    assert deck.deck_size == 52
    assert sum(line.copies for line in deck.lines) == 57


def test_deck_cant_contain_avatar_or_quest_cards():
    deck = DeckList(
        avatar=legal_deck().avatar,
        quests=legal_deck().quests,
        deck=(*legal_deck().deck, DeckLine(GENERIC_QUEST_5, 1)),
    )
    check = verdicts(deck)[DECK_TYPES_RULE]
    assert not check.ok
    assert "'Generic Quest 5' is a quest" in check.explanation


def test_cards_with_an_archetype_match_the_avatars_archetype():
    deck = legal_deck((JEDI_ABILITY, 2), (SITH_TACTIC, 1))
    check = verdicts(deck)[ARCHETYPE_RULE]
    assert not check.ok
    assert check.offending == ("Vanish into Shadow",)
    assert "'Vanish into Shadow' is sith, not jedi like the avatar 'Ilvara Senn'" in (
        check.explanation
    )


def test_quests_with_an_archetype_match_the_avatar_too():
    deck = DeckList.by_type(
        [line for line in legal_deck().lines if line.card != JEDI_AVATAR] + lines((SITH_AVATAR, 1))
    )
    check = verdicts(deck)[ARCHETYPE_RULE]
    assert not check.ok
    assert set(check.offending) == {"Quest 2", "Quest 4", "Quest 5", "Quest 6"}


def test_without_an_avatar_cards_with_an_archetype_match_nothing():
    deck = DeckList.by_type(line for line in legal_deck((JEDI_ABILITY, 1)).lines[1:])
    check = verdicts(deck)[ARCHETYPE_RULE]
    assert not check.ok and "Force Push" in check.offending


def test_by_type_sorts_lines_into_the_three_parts():
    deck = DeckList.by_type(lines((UNITS[0], 2), (QUESTS[2], 1), (JEDI_AVATAR, 1), (UNITS[1], 0)))
    assert [line.card for line in deck.avatar] == [JEDI_AVATAR]
    assert [line.card for line in deck.quests] == [QUESTS[2]]
    assert [line.card for line in deck.deck] == [UNITS[0]]


# Play formats ---------------------------------------------------------------------------


def test_a_format_allows_only_its_sets_but_always_player_made_avatars():
    made = card("My Own Avatar", "avatar", "jedi", set_number=0, player_made=True)
    deck = DeckList.by_type(
        [line for line in legal_deck().lines if line.card != JEDI_AVATAR]
        + lines((made, 1), (card("From Set Two", set_number=2), 1))
    )
    rules = FormatRules("Set One", allowed_sets={1: "Embers of the Outer Rim"})
    check = verdicts(deck, rules)[SETS_RULE]
    assert not check.ok
    assert check.offending == ("From Set Two",)
    assert "1. Embers of the Outer Rim" in check.explanation


def test_banned_titles_are_refused_whatever_their_case():
    rules = FormatRules("No troopers", banned_titles=frozenset({"trooper 3"}))
    check = verdicts(legal_deck(), rules)[BANNED_RULE]
    assert not check.ok and check.offending == ("Trooper 3",)


def test_a_restricted_title_allows_one_copy():
    rules = FormatRules("Restricted", restricted_titles=frozenset({"Trooper 4", "Force Push"}))
    assert not verdicts(legal_deck(), rules)[RESTRICTED_RULE].ok
    one_copy = DeckList.by_type(
        [line for line in legal_deck().lines if line.card.title != "Trooper 4"]
        + lines((UNITS[4], 1), (JEDI_ABILITY, 1))
    )
    assert verdicts(one_copy, rules)[RESTRICTED_RULE].ok


def test_a_format_without_restrictions_adds_no_rule_rows():
    assert set(verdicts(legal_deck(), FormatRules("Standard"))) == set(verdicts(legal_deck()))


def test_limited_decks_come_from_a_card_pool():
    rules = FormatRules("Limited", limited=True)
    assert POOL_ONLY_RULE in failing(legal_deck(), rules)
    counts = {line.card.card_id: line.copies for line in legal_deck().lines}
    assert failing(legal_deck(), rules, CardSupply(counts, pool=True)) == set()


def test_only_cards_the_player_owns_up_to_the_copies_owned():
    counts = {line.card.card_id: line.copies for line in legal_deck().lines}
    counts[UNITS[0].card_id] = 3
    check = verdicts(legal_deck(), supply=CardSupply(counts))[OWNED_RULE]
    assert not check.ok
    assert check.explanation == "4 copies of 'Trooper 0', you own 3."
    pool_check = verdicts(legal_deck(), supply=CardSupply(counts, pool=True))[POOL_RULE]
    assert "the pool has 3" in pool_check.explanation


# Statistics -----------------------------------------------------------------------------


def test_statistics_leave_out_the_avatar_and_quests():
    deck = DeckList.by_type(
        lines(
            (JEDI_AVATAR, 1),
            (QUESTS[2], 1),
            (card("Unit A", cost=1), 3),
            (card("Ability A", "ability", cost=1), 1),
            (card("Item A", "item", cost=3), 2),
            (card("Tactic A", "tactic", cost=0), 2),
        )
    )
    statistics = deckrules.deck_statistics(deck)
    assert statistics.total == 8
    shares = {share.card_type: (share.count, share.percent) for share in statistics.types}
    assert shares == {
        "unit": (3, 37.5),
        "ability": (1, 12.5),
        "item": (2, 25.0),
        "tactic": (2, 25.0),
    }
    assert [row.cost for row in statistics.costs] == [0, 1, 2, 3]
    by_cost = {row.cost: row for row in statistics.costs}
    assert by_cost[1].counts == {"unit": 3, "ability": 1, "item": 0, "tactic": 0}
    assert (by_cost[1].total, by_cost[1].percent) == (4, 50.0)
    assert (by_cost[2].total, by_cost[2].percent) == (0, 0.0)


def test_statistics_of_an_empty_deck():
    statistics = deckrules.deck_statistics(DeckList())
    assert statistics.total == 0 and statistics.costs == ()
    assert all(share.percent == 0 for share in statistics.types)


# Deck lists -----------------------------------------------------------------------------


def test_export_writes_sections_and_import_reads_them_back():
    deck = legal_deck((JEDI_ABILITY, 2))
    text = deckrules.export_text(deck, name="Temple Guard")
    assert text.startswith("# Temple Guard\n\nAvatar\n1 Ilvara Senn\n\nQuests\n1 Quest 2\n")
    assert "\nDeck\n4 Trooper 0\n" in text and "2 Force Push\n" in text
    known = {line.card.title: line.card for line in deck.lines}
    parsed = deckrules.parse_text(text, known)
    assert parsed.problems == ()
    assert DeckList.by_type(parsed.lines) == deck


def test_import_takes_the_deck_name_from_the_header_line():
    deck = legal_deck()
    known = {line.card.title: line.card for line in deck.lines}
    exported = deckrules.export_text(deck, name="Temple  Guard")
    assert deckrules.parse_text(exported, known).name == "Temple Guard"
    assert deckrules.parse_text("\n  #   Dune Sea Raiders \nAvatar\n", known).name == (
        "Dune Sea Raiders"
    )
    # Without a header, or with a comment further down, the deck keeps its own name.
    assert deckrules.parse_text("Avatar\n1 Ilvara Senn\n# a note\n", known).name == ""


def test_import_reports_unknown_titles_and_bad_lines_and_keeps_the_rest():
    known = {"Ilvara Senn": JEDI_AVATAR, "Trooper 0": UNITS[0], "Force Push": JEDI_ABILITY}
    text = "Avatar\n1 ilvara  senn\n\nDeck (6)\n4x Trooper 0\n2 Unknown Card\n0 Force Push\n"
    text += "Force Push\n# a comment\n"
    parsed = deckrules.parse_text(text, known)
    assert {line.card.title: line.copies for line in parsed.lines} == {
        "Ilvara Senn": 1,
        "Trooper 0": 4,
        "Force Push": 1,
    }
    assert [(problem.number, problem.message) for problem in parsed.problems] == [
        (6, "no card has this title."),
        (7, "copies must be from 1 to 99."),
    ]
    assert str(parsed.problems[0]) == "Line 6 \u201c2 Unknown Card\u201d: no card has this title."


def test_import_keeps_copies_within_the_supply():
    known = {"Trooper 0": UNITS[0], "Trooper 1": UNITS[1]}
    supply = CardSupply({UNITS[0].card_id: 3})
    parsed = deckrules.parse_text("4 Trooper 0\n1 Trooper 0\n2 Trooper 1\n", known, supply=supply)
    assert [(line.card.title, line.copies) for line in parsed.lines] == [("Trooper 0", 3)]
    assert [problem.message for problem in parsed.problems] == [
        "you own only 3; 3 imported.",
        "you own no more copies; none imported.",
        "you own no copies; none imported.",
    ]


def test_import_of_garbage_gives_a_problem_per_line():
    parsed = deckrules.parse_text("\x00\x01 garbage\n999999 Trooper\n" + "x\n" * 500, {})
    assert parsed.lines == ()
    assert len(parsed.problems) == deckrules.MAX_IMPORT_LINES + 1
    assert "at most 400 lines" in parsed.problems[-1].message
