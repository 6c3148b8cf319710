"""Earnings (README, "How to earn credits"): every income is one ledger operation with its own
reference, paid exactly once however often it is reported; the guards against farming; quest
progress counted from a real finished match's stored events."""

from datetime import UTC, date, datetime

import pytest
from django.db.models import Sum

from collection.cards.models import Card, Rarity
from collection.earnings.facts import GameFacts, MatchFacts, SeatFacts
from collection.earnings.models import Earning, EarningKind, MatchTally, QuestProgress
from collection.earnings.quests import daily_quests
from collection.earnings.rates import rates
from collection.earnings.services import (
    match_earnings_pay,
    scenario_earnings_pay,
    sprint_medal_earnings_pay,
    tournament_finish_pay,
    tutorial_earnings_pay,
)
from collection.models import CardOwnership, CreditEntry, LedgerOperation
from collection.services.ledger import wallet_for
from game.ai.agents import GreedyAgent
from game.models import GameAction, Match, MatchStatus
from game.selectors import game_state
from game.services.earnings import match_earnings_report
from game.services.matches import computers_play_on
from tests.factories import UserFactory
from tests.game.conftest import start_match

pytestmark = pytest.mark.django_db

WIN = rates().wins
# A day whose quests include "Play 20 units" (collection/earnings/quests.py's rotation).
UNITS_DAY = date(2026, 12, 7)


def balance(player) -> int:
    return wallet_for(owner=player).credits


def earned(player, kind=None) -> int:
    rows = Earning.objects.filter(player=player)
    if kind is not None:
        rows = rows.filter(kind=kind)
    return rows.aggregate(total=Sum("credits"))["total"] or 0


def finished(match_id, *seats, mode="casual", day=UNITS_DAY, turns=12, by_play=True):
    return MatchFacts(
        match_id=match_id,
        day=day,
        mode=mode,
        games=(GameFacts(turns=turns, decided_by_play=by_play),),
        seats=tuple(seats),
    )


def person(player, side, *, won, archetype="jedi", **played):
    return SeatFacts(
        player_id=player.pk, side=side, archetype=archetype, computer_level="", won=won, **played
    )


def computer(player, *, level):
    return SeatFacts(player_id=player.pk, side=1, archetype="sith", computer_level=level, won=False)


@pytest.fixture
def carol_and_bob():
    carol, bob = UserFactory(username="Carol"), UserFactory(username="Bob")
    wallet_for(owner=carol), wallet_for(owner=bob)
    return carol, bob


def test_a_win_is_paid_once_however_often_it_is_reported(carol_and_bob):
    """Every income is one ledger operation with a unique reference: run twice, paid once."""
    carol, bob = carol_and_bob
    before = balance(carol)
    facts = finished(41, person(carol, 0, won=True), person(bob, 1, won=False))

    match_earnings_pay(match=facts)
    match_earnings_pay(match=facts)

    assert balance(carol) == before + WIN.credits
    assert LedgerOperation.objects.filter(reference=f"win:41:{carol.pk}").count() == 1
    earning = Earning.objects.get(player=carol, kind=EarningKind.WIN)
    assert earning.operation.reference == f"win:41:{carol.pk}"
    assert earning.operation.reason == "reward"
    assert MatchTally.objects.filter(match_number=41).count() == 2  # one per player, once
    assert earned(bob, EarningKind.WIN) == 0


def test_wins_beyond_the_daily_cap_pay_nothing(carol_and_bob):
    carol, _ = carol_and_bob
    opponents = [UserFactory() for _ in range(WIN.daily_cap + 1)]

    for number, opponent in enumerate(opponents, start=1):
        match_earnings_pay(
            match=finished(number, person(carol, 0, won=True), person(opponent, 1, won=False))
        )

    assert earned(carol, EarningKind.WIN) == WIN.credits * WIN.daily_cap
    last = MatchTally.objects.get(player=carol, match_number=len(opponents))
    assert not last.win_paid and "paid wins were reached" in last.withheld
    # The next day pays again.
    match_earnings_pay(
        match=finished(
            99,
            person(carol, 0, won=True),
            person(opponents[0], 1, won=False),
            day=date(2026, 12, 8),
        )
    )
    assert earned(carol, EarningKind.WIN) == WIN.credits * (WIN.daily_cap + 1)


def test_wins_between_the_same_two_people_are_capped_each_day_either_way(carol_and_bob):
    carol, bob = carol_and_bob
    results = [(carol, bob), (bob, carol), (carol, bob), (bob, carol)]

    for number, (winner, loser) in enumerate(results, start=1):
        match_earnings_pay(
            match=finished(number, person(winner, 0, won=True), person(loser, 1, won=False))
        )

    paid = MatchTally.objects.filter(win_paid=True).count()
    assert paid == WIN.pair_daily_cap
    refused = MatchTally.objects.filter(won=True, win_paid=False).first()
    assert "between" in refused.withheld
    # Against someone else the day's wins go on.
    match_earnings_pay(
        match=finished(9, person(carol, 0, won=True), person(UserFactory(), 1, won=False))
    )
    assert MatchTally.objects.get(match_number=9, player=carol).win_paid


def test_a_win_over_the_computer_at_easy_pays_nothing_and_counts_for_no_quest(carol_and_bob):
    """Rulebook, "Skirmish": against the computer at Easy, a player practises."""
    carol, _ = carol_and_bob
    house = UserFactory(username="House")

    match_earnings_pay(
        match=finished(
            1,
            person(carol, 0, won=True, units_played=25),
            computer(house, level="easy"),
            mode="skirmish",
        )
    )

    assert earned(carol) == 0
    assert not QuestProgress.objects.filter(player=carol).exists()
    assert "below Normal" in MatchTally.objects.get(player=carol).withheld
    match_earnings_pay(
        match=finished(
            2, person(carol, 0, won=True), computer(house, level="normal"), mode="skirmish"
        )
    )
    assert earned(carol, EarningKind.WIN) == WIN.credits


def test_a_match_conceded_in_its_first_turns_pays_nobody(carol_and_bob):
    carol, bob = carol_and_bob
    facts = finished(
        1,
        person(carol, 0, won=True, units_played=3),
        person(bob, 1, won=False, units_played=2),
        turns=WIN.early_concession_turns - 1,
        by_play=False,
    )

    match_earnings_pay(match=facts)

    assert earned(carol) == earned(bob) == 0
    assert not QuestProgress.objects.exists()
    assert all("concession" in tally.withheld for tally in MatchTally.objects.all())


def test_a_quest_completed_pays_its_reward_once(carol_and_bob):
    carol, bob = carol_and_bob
    units = rates().quest("units-twenty")
    assert units in [offered.quest for offered in daily_quests(UNITS_DAY, rates())]

    match_earnings_pay(
        match=finished(1, person(carol, 0, won=False, units_played=12), person(bob, 1, won=True))
    )
    progress = QuestProgress.objects.get(player=carol, quest=units.slug)
    assert (progress.progress, progress.completed) == (12, None)
    match_earnings_pay(
        match=finished(2, person(carol, 0, won=False, units_played=12), person(bob, 1, won=True))
    )
    match_earnings_pay(
        match=finished(3, person(carol, 0, won=False, units_played=12), person(bob, 1, won=True))
    )

    progress.refresh_from_db()
    assert progress.progress == units.goal and progress.completed is not None
    quest_income = Earning.objects.get(
        player=carol, kind=EarningKind.QUEST, note__contains=units.title
    )
    assert quest_income.credits == units.credits
    assert quest_income.operation.reference == f"quest:{carol.pk}:{UNITS_DAY}:{units.slug}"


def play_to_the_end(match: Match) -> Match:
    """Both seats play the greedy agent through the match service, as house players do, each
    decision checked and logged, until the match ends."""
    agents = {0: GreedyAgent(), 1: GreedyAgent()}
    for _ in range(200):
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            return match
        game = match.games.order_by("-number").first()
        computers_play_on(
            match_id=match.pk, game_number=game.number, ply=game.applied, agents=agents
        )
    raise AssertionError("the match never ended")


def test_quest_progress_counts_the_units_a_real_finished_match_stored(catalog):
    """The units played are counted from the match's stored events, not from any browser:
    each "card_played" event of a unit, by seat."""
    from tests.game.conftest import player_with_deck

    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = play_to_the_end(start_match(carol, bob))
    # Counted toward a day whose quests include "Play 20 units".
    Match.objects.filter(pk=match.pk).update(ended=datetime(2026, 12, 7, 15, tzinfo=UTC))
    game = match.games.get()
    state = game_state(game)
    units_by_seat = {0: 0, 1: 0}
    for events in GameAction.objects.filter(game=game).values_list("events", flat=True):
        for event in events:
            if event["type"] == "card_played":
                if state.definitions[state.cards[event["card"]].definition]["type"] == "unit":
                    units_by_seat[event["seat"]] += 1
    assert units_by_seat[0] > 0

    assert match_earnings_report(match_id=match.pk) == 2
    assert match_earnings_report(match_id=match.pk) == 0  # the task run again

    winner = match.winner
    for seat, player in ((0, carol), (1, bob)):
        tally = MatchTally.objects.get(player=player, match_number=match.pk)
        assert tally.facts["units_played"] == units_by_seat[seat]
        assert tally.won == (player == winner)
        progress = QuestProgress.objects.get(player=player, day=UNITS_DAY, quest="units-twenty")
        assert progress.progress == min(20, units_by_seat[seat])
    assert earned(winner, EarningKind.WIN) == WIN.credits
    assert CreditEntry.objects.filter(owner=winner, note=f"Won match {match.pk}").count() == 1


def test_the_match_finishing_task_pays_the_match(catalog):
    """game/tasks.py's match_finished, queued when a match's end commits, pays its earnings
    beside a scenario's reward card."""
    from game.tasks import match_finished
    from tests.game.conftest import player_with_deck

    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = play_to_the_end(start_match(carol, bob))

    assert match_finished(match.pk) == {"scenario_reward": False, "earnings": 2}
    assert match_finished(match.pk) == {"scenario_reward": False, "earnings": 0}
    assert earned(match.winner, EarningKind.WIN) == WIN.credits


def promos() -> list[Card]:
    return list(Card.objects.filter(rarity=Rarity.PROMO, creator=None).order_by("number"))


def test_tutorials_pay_once_each_and_a_promo_card_once_all_are_completed(catalog):
    """Rulebook, "Tutorials/Scenarios": single-player content earns rewards."""
    carol = UserFactory()
    before = balance(carol)

    tutorial_earnings_pay(player=carol, slug="power", title="Power", all_completed=False)
    tutorial_earnings_pay(player=carol, slug="power", title="Power", all_completed=False)
    tutorial_earnings_pay(player=carol, slug="winning", title="Winning", all_completed=True)
    tutorial_earnings_pay(player=carol, slug="winning", title="Winning", all_completed=True)

    table = rates()
    assert balance(carol) == before + 2 * table.tutorial.credits + table.all_tutorials.credits
    (promo,) = Earning.objects.filter(player=carol, kind=EarningKind.ALL_TUTORIALS)
    assert promo.card == promos()[0]
    assert CardOwnership.objects.get(owner=carol, card=promo.card).quantity == 1


def test_winning_every_tutorial_pays_each_once_and_the_promo_card_with_the_last(catalog):
    """Rulebook, "Tutorials": each guided game won, through its match's finishing task."""
    from game.services.tutorials import tutorial_start
    from game.tutorials import TUTORIALS
    from tests.game.test_tutorials import play_lesson

    nell = UserFactory(username="Nell")
    before = balance(nell)
    for tutorial in TUTORIALS:
        match = tutorial_start(player=nell, slug=tutorial.slug)
        play_lesson(match, nell)
        match.refresh_from_db()
        assert match.winner == nell
        match_earnings_report(match_id=match.pk)
        match_earnings_report(match_id=match.pk)

    table = rates()
    paid = len(TUTORIALS) * table.tutorial.credits + table.all_tutorials.credits
    assert balance(nell) == before + paid
    assert Earning.objects.filter(player=nell, kind=EarningKind.TUTORIAL).count() == len(TUTORIALS)
    (all_done,) = Earning.objects.filter(player=nell, kind=EarningKind.ALL_TUTORIALS)
    assert all_done.card.rarity == Rarity.PROMO
    assert earned(nell, EarningKind.WIN) == 0  # against the computer at Easy


def test_a_scenario_pays_its_credits_once(catalog):
    carol = UserFactory()
    before = balance(carol)

    scenario_earnings_pay(player=carol, number=3, title="Three")
    scenario_earnings_pay(player=carol, number=3, title="Three")

    assert balance(carol) == before + rates().scenario.credits


def test_promo_rewards_go_round_the_promo_cards_before_repeating(catalog):
    """Rulebook, "Tournaments Lobby", Sprint Tournaments: medal winners are rewarded; each
    reward gives the promo card the player holds fewest copies of."""
    carol = UserFactory()
    cards = promos()
    months = [date(2026, month, 1) for month in range(1, len(cards) + 2)]

    for month in months:
        sprint_medal_earnings_pay(player=carol, month=month, color="gold")
        sprint_medal_earnings_pay(player=carol, month=month, color="gold")  # paid once

    given = [earning.card for earning in Earning.objects.filter(player=carol).order_by("day", "pk")]
    assert len(given) == len(months)
    assert sorted(given[: len(cards)], key=lambda card: card.number) == cards
    assert earned(carol) == rates().sprint_medals["gold"].credits * len(months)


def test_a_tournament_finish_pays_credits_by_place_and_a_top_eight_promo_once(catalog):
    winner, ninth, runner_up = UserFactory(), UserFactory(), UserFactory()
    before = balance(winner)

    for _ in range(2):
        tournament_finish_pay(player=winner, tournament_number=5, place=1, field=16)
        tournament_finish_pay(player=runner_up, tournament_number=5, place=2, field=16)
        tournament_finish_pay(player=ninth, tournament_number=5, place=9, field=16)

    assert balance(winner) == before + 100
    assert Earning.objects.get(player=winner).card in promos()
    assert Earning.objects.get(player=runner_up).credits == 60
    assert not Earning.objects.filter(player=ninth).exists()  # bottom half, out of the eight


def test_a_match_staff_ended_earns_nobody_anything(catalog):
    from game.services.matches import match_end_by_staff
    from tests.game.conftest import player_with_deck

    carol, bob = player_with_deck("Carol", "jedi"), player_with_deck("Bob", "sith")
    match = start_match(carol, bob)
    match_end_by_staff(match_id=match.pk, staff=UserFactory(is_staff=True), reason="stuck")

    assert match_earnings_report(match_id=match.pk) == 0
    assert not MatchTally.objects.exists()


def test_a_skirmish_at_normal_is_told_as_the_computer_at_normal(catalog):
    """The facts read from a real Skirmish: its mode, the computer's level, its games."""
    from game.services.earnings import match_facts
    from game.services.skirmish import skirmish_start
    from tests.game.conftest import player_with_deck

    carol = player_with_deck("Carol", "jedi")
    match = play_to_the_end(
        skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="normal")
    )

    facts = match_facts(match)
    person, machine = facts.seats
    assert facts.mode == "skirmish" and facts.match_id == match.pk
    assert (person.computer_level, machine.computer_level) == ("", "normal")
    assert person.archetype == "jedi" and person.won == (match.winner == carol)
    (game,) = facts.games
    assert game.decided_by_play and game.turns == game_state(match.games.get()).turn
