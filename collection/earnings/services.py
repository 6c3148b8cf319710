"""Paying what players earn (README, "How to earn credits"; the rates are
collection/earnings/rates.json). Every income is one ledger operation with its own unique
reference, so whatever pays it twice (a task retried, two workers at once) pays once:

- ``win:<match>:<player>``, a match won, up to the daily cap and the cap per pair of people;
- ``quest:<player>:<day>:<quest>``, a daily quest completed;
- ``tutorial:<player>:<slug>`` and ``all-tutorials:<player>``, the tutorials (a promo card
  with the last);
- ``scenario:<player>:<number>``, a scenario's first win;
- ``sprint-medal:<player>:<month>``, a Sprint Winner Medal (with a promo card);
- ``tournament-finish:<tournament>:<player>``, credits by place (a promo card for a top-eight
  finish).

The apps above report the plain facts (collection/earnings/facts.py) once a match or a
tournament has finished; the rules of what counts are collection/earnings/quests.py's.
"""

from dataclasses import asdict
from datetime import date

from django.db import transaction
from django.utils import timezone

from collection.cards.models import Card, Rarity
from collection.earnings.facts import MatchFacts, SeatFacts
from collection.earnings.models import Earning, EarningKind, MatchTally, QuestProgress
from collection.earnings.quests import daily_quests, match_refusal, quest_progress
from collection.earnings.rates import Reward, rates
from collection.models import CardOwnership, LedgerReason
from collection.services.ledger import (
    CardChange,
    LedgerOperationDone,
    ledger_operation,
    owners_lock,
)
from collection.services.wants import want_keep_owned
from tcgsite.accounts.models import User


def utc_today() -> date:
    return timezone.now().date()


def promo_card_for(*, player: User) -> Card | None:
    """The promo card a reward gives ``player``: of the promo cards (rarity P, never in a
    booster), the one they own fewest copies of, the lowest number first, so that rewards
    complete the set before they repeat."""
    promos = Card.objects.filter(rarity=Rarity.PROMO, creator=None)
    promos = list(promos.order_by("card_set__number", "number"))
    owned = dict(
        CardOwnership.objects.filter(owner=player, card__in=promos).values_list(
            "card_id", "quantity"
        )
    )
    return min(promos, key=lambda card: owned.get(card.pk, 0), default=None)


def income_pay(
    *,
    player: User,
    kind: EarningKind,
    reference: str,
    reward: Reward,
    note: str,
    day: date | None = None,
) -> Earning | None:
    """Pay ``reward`` (its credits, and a promo card if it gives one) to ``player`` in one
    ledger operation under ``reference``, with its record; None if it was paid before."""
    try:
        with ledger_operation(
            owners=[player], reason=LedgerReason.REWARD, reference=reference
        ) as ledger:
            ledger.credits_change(owner=player, delta=reward.credits, note=note)
            card = promo_card_for(player=player) if reward.promo else None
            if card is not None:
                ledger.cards_change(
                    changes=[CardChange(owner=player, card_id=card.pk, delta=1, note=note)]
                )
                want_keep_owned(owner=player, card_id=card.pk)
            return Earning.objects.create(
                player=player,
                kind=kind,
                day=day or utc_today(),
                credits=reward.credits,
                card=card,
                operation=ledger.operation,
                note=note[:200],
            )
    except LedgerOperationDone:
        return None


# --- matches ------------------------------------------------------------------------------


def match_earnings_pay(*, match: MatchFacts) -> list[MatchTally]:
    """Count a finished match for each person who played it, once: the win's credits and
    the daily quests' progress (and any quest it completes). The tallies written now; a
    player counted before (the task run again) is skipped."""
    players = User.objects.in_bulk([seat.player_id for seat in match.seats if seat.person])
    tallies = []
    for seat in match.seats:
        if seat.person:
            tally = _match_count(match, seat, players)
            if tally is not None:
                tallies.append(tally)
    return tallies


def _match_count(match: MatchFacts, seat: SeatFacts, players: dict) -> MatchTally | None:
    player = players[seat.player_id]
    opponents = [players[other.player_id] for other in match.opponents(seat) if other.person]
    table = rates()
    with transaction.atomic():
        # The wallets of the player and of the people they met: two wins between the same
        # two people, counted at once, meet here and count against the pair's cap in turn.
        owners_lock(owners=[player, *opponents])
        if MatchTally.objects.filter(player=player, match_number=match.match_id).exists():
            return None
        withheld = match_refusal(match, seat, table)
        tally = MatchTally.objects.create(
            player=player,
            match_number=match.match_id,
            day=match.day,
            won=seat.won,
            withheld=withheld,
            opponents=sorted(opponent.pk for opponent in opponents),
            facts=asdict(seat),
        )
        if withheld:
            return tally
        if seat.won:
            tally.withheld = _win_cap_reached(player, opponents, match.day)
            if not tally.withheld:
                tally.win_paid = (
                    income_pay(
                        player=player,
                        kind=EarningKind.WIN,
                        reference=f"win:{match.match_id}:{player.pk}",
                        reward=Reward(credits=table.wins.credits),
                        note=f"Won match {match.match_id}",
                        day=match.day,
                    )
                    is not None
                )
            tally.save(update_fields=["withheld", "win_paid"])
        _quests_advance(player, match, seat)
    return tally


def _win_cap_reached(player: User, opponents: list[User], day: date) -> str:
    """Why a win on ``day`` is not paid (the day's cap, or the pair's), or ""."""
    caps = rates().wins
    paid = MatchTally.objects.filter(day=day, win_paid=True)
    if paid.filter(player=player).count() >= caps.daily_cap:
        return f"the day's {caps.daily_cap} paid wins were reached"
    for opponent in opponents:
        between = sum(
            other.pk in tally_opponents
            for owner, other in ((player, opponent), (opponent, player))
            for tally_opponents in paid.filter(player=owner).values_list("opponents", flat=True)
        )
        if between >= caps.pair_daily_cap:
            return (
                f"{caps.pair_daily_cap} wins between {player.username} and "
                f"{opponent.username} were paid that day"
            )
    return ""


def _quests_advance(player: User, match: MatchFacts, seat: SeatFacts) -> None:
    """Add what the match counts to the player's quests of its day; pay those it completes.
    Inside the caller's transaction, which holds the player's wallet lock."""
    for offered in daily_quests(match.day, rates()):
        quest = offered.quest
        gained = quest_progress(quest, match, seat)
        if not gained:
            continue
        progress, _ = QuestProgress.objects.get_or_create(
            player=player, day=match.day, quest=quest.slug, defaults={"goal": quest.goal}
        )
        if progress.completed is not None:
            continue
        progress.progress = min(progress.goal, progress.progress + gained)
        if progress.progress >= progress.goal:
            progress.completed = timezone.now()
            income_pay(
                player=player,
                kind=EarningKind.QUEST,
                reference=f"quest:{player.pk}:{match.day.isoformat()}:{quest.slug}",
                reward=Reward(credits=quest.credits),
                note=f"Daily quest: {quest.title}",
                day=match.day,
            )
        progress.save(update_fields=["progress", "completed"])


# --- tutorials and scenarios --------------------------------------------------------------


def tutorial_earnings_pay(
    *, player: User, slug: str, title: str, all_completed: bool
) -> list[Earning]:
    """A tutorial completed: its credits the first time, and once every tutorial is, the
    credits and promo card for completing them all. What was paid now."""
    table = rates()
    paid = [
        income_pay(
            player=player,
            kind=EarningKind.TUTORIAL,
            reference=f"tutorial:{player.pk}:{slug}",
            reward=table.tutorial,
            note=f"Tutorial completed: {title}",
        )
    ]
    if all_completed:
        paid.append(
            income_pay(
                player=player,
                kind=EarningKind.ALL_TUTORIALS,
                reference=f"all-tutorials:{player.pk}",
                reward=table.all_tutorials,
                note="Every tutorial completed",
            )
        )
    return [earning for earning in paid if earning is not None]


def scenario_earnings_pay(*, player: User, number: int, title: str) -> Earning | None:
    """A scenario's first win: its credits (the game app grants its reward card)."""
    return income_pay(
        player=player,
        kind=EarningKind.SCENARIO,
        reference=f"scenario:{player.pk}:{number}",
        reward=rates().scenario,
        note=f"Scenario {number} won: {title}",
    )


# --- tournaments --------------------------------------------------------------------------


def sprint_medal_earnings_pay(*, player: User, month: date, color: str) -> Earning | None:
    """A Sprint Winner Medal of ``month``: its credits and a promo card, once per month."""
    return income_pay(
        player=player,
        kind=EarningKind.SPRINT_MEDAL,
        reference=f"sprint-medal:{player.pk}:{month:%Y-%m}",
        reward=rates().sprint_medals[color],
        note=f"{color.capitalize()} Sprint Winner Medal, {month:%B %Y}",
    )


def tournament_finish_pay(
    *, player: User, tournament_number: int, place: int, field: int
) -> Earning | None:
    """Credits for finishing ``place`` of ``field`` players, and a promo card for a top-eight
    finish of a large enough field; nothing for a place neither pays."""
    table = rates()
    reward = Reward(
        credits=table.place_credits(place=place, field=field),
        promo=table.place_earns_promo(place=place, field=field),
    )
    if not reward.credits and not reward.promo:
        return None
    return income_pay(
        player=player,
        kind=EarningKind.TOURNAMENT_FINISH,
        reference=f"tournament-finish:{tournament_number}:{player.pk}",
        reward=reward,
        note=f"Place {place} of {field} in tournament {tournament_number}",
    )
