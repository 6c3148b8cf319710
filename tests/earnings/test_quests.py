"""The daily quests' rotation and what a match counts toward them (rulebook, "The Main
Lobby": the lobby shows them; README, "How to earn credits"). Pure rules, no database."""

from datetime import date, timedelta

from collection.earnings.facts import GameFacts, MatchFacts, SeatFacts
from collection.earnings.quests import daily_quests, match_refusal, quest_progress
from collection.earnings.rates import rates

START = date(2026, 1, 1)
DAYS = [START + timedelta(days=offset) for offset in range(400)]


def slugs(day: date) -> list[str]:
    return [offered.quest.slug for offered in daily_quests(day, rates())]


def test_the_same_day_gives_the_same_three_quests_one_per_slot():
    for day in DAYS[:30]:
        offered = daily_quests(day, rates())
        assert slugs(day) == slugs(date.fromordinal(day.toordinal()))
        assert [each.quest.slot for each in offered] == list(rates().quest_slots)
        assert len(set(slugs(day))) == 3


def test_exactly_one_quest_is_replaced_each_day_by_another():
    for day, next_day in zip(DAYS, DAYS[1:], strict=False):
        changed = [a != b for a, b in zip(slugs(day), slugs(next_day), strict=True)]
        assert changed.count(True) == 1, (day, slugs(day), slugs(next_day))


def test_each_quest_is_offered_three_days_and_every_quest_comes_round():
    for day in DAYS[:30]:
        for offered in daily_quests(day, rates()):
            assert offered.since <= day <= offered.until
            assert (offered.until - offered.since).days == 2
    seen = {slug for day in DAYS for slug in slugs(day)}
    assert seen == {quest.slug for quest in rates().quests}


def seat(player_id=1, side=0, *, won=False, archetype="jedi", level="", **played):
    return SeatFacts(
        player_id=player_id,
        side=side,
        archetype=archetype,
        computer_level=level,
        won=won,
        **played,
    )


PLAYED_OUT = (GameFacts(turns=12, decided_by_play=True),)


def match(*seats, mode="casual", games=PLAYED_OUT):
    return MatchFacts(match_id=1, day=START, mode=mode, games=games, seats=seats)


def test_a_game_against_the_computer_at_easy_counts_for_nothing():
    """Rulebook, "Skirmish": the computer at Easy is for practice; it pays nothing."""
    me = seat(won=True)
    for level, refused in (("easy", True), ("normal", False), ("hard", False)):
        played = match(me, seat(2, 1, level=level), mode="skirmish")
        assert bool(match_refusal(played, me, rates())) is refused


def test_a_game_conceded_before_the_sixth_turn_counts_for_nobody():
    me, them = seat(won=True), seat(2, 1)
    early = match(me, them, games=(GameFacts(turns=5, decided_by_play=False),))
    late = match(me, them, games=(GameFacts(turns=6, decided_by_play=False),))
    quick_but_won_by_the_rules = match(me, them, games=(GameFacts(turns=4, decided_by_play=True),))

    assert "concession before turn 6" in match_refusal(early, me, rates())
    assert "concession" in match_refusal(early, them, rates())
    assert match_refusal(late, me, rates()) == ""
    assert match_refusal(quick_but_won_by_the_rules, me, rates()) == ""


def test_a_tutorial_counts_only_through_its_own_reward():
    me = seat(won=True)
    assert match_refusal(match(me, seat(2, 1, level="easy"), mode="tutorial"), me, rates())


def test_a_quest_counts_only_what_its_conditions_allow():
    table = rates()
    jedi_win = table.quest("win-jedi")
    skirmish_win = table.quest("win-skirmish-normal")
    units = table.quest("units-twenty")
    person = table.quest("person-one")
    me = seat(won=True, archetype="jedi", units_played=7)
    sith = seat(won=True, archetype="sith", units_played=7)
    normal = match(me, seat(2, 1, level="normal"), mode="skirmish")
    casual = match(me, seat(2, 1))

    assert quest_progress(jedi_win, normal, me) == 1
    assert quest_progress(jedi_win, normal, sith) == 0
    assert quest_progress(skirmish_win, normal, me) == 1
    assert quest_progress(skirmish_win, casual, me) == 0
    assert quest_progress(units, casual, me) == 7
    assert quest_progress(person, casual, me) == 1
    assert quest_progress(person, normal, me) == 0
    assert quest_progress(jedi_win, casual, seat(archetype="jedi")) == 0  # lost
