"""Card effects: activated actions, tactics and triggers, resolved one step at a time.

Whatever a card's text does is put on ``State.pending`` as a *frame*: the card it comes from,
its controller, what "this quest" and "that unit" mean, and the steps to carry out (the costs,
then the effects, of docs/card-rules.md's vocabulary). The automatic step ``resolve`` carries
out one step at a time; a step that needs a player's choice (a target, cards to discard, a
card to search for, a "you may") stops and asks for it, so every choice is a legal action like
any other. Triggers met while resolving are queued behind the current frame, oldest card
first (glossary, "timestamp"). Once nothing is pending the game goes back to the step it was
at.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import cast

from game.engine import actions, continuous, rng, rules, select, wording
from game.engine.printed import has_printed_keyword, timed_actions
from game.engine.rules import DecisionRules, Events, Step
from game.engine.select import Context
from game.engine.state import (
    ATTACKING,
    DEFENDING,
    Card,
    Combat,
    CombatSide,
    State,
    card_type,
    definition,
    in_game,
    opponent,
    reach,
)

ABILITY_LIMIT = 3
INTEL_COST = 4  # playing another card that costs this much or more spends Intel


def frame(
    state: State,
    source: int | None,
    controller: int,
    costs: list[dict],
    effects: list[dict],
    *,
    at: int | None = None,
    event_card: int | None = None,
    optional: bool = False,
) -> dict:
    steps = [{"kind": "cost", "primitive": cost, "times": 1} for cost in costs]
    steps += [{"kind": "effect", "primitive": effect, "times": 1} for effect in effects]
    return {
        "source": source,
        "controller": controller,
        "at": at,
        "event_card": event_card,
        "chosen": [],
        "steps": steps,
        "optional": optional,
        "choice": None,
    }


def start(state: State, pending: dict, resume_step: str, resume_seat: int | None) -> None:
    """Resolve ``pending`` now, then go on with ``resume_step`` (decided by ``resume_seat``)."""
    state.pending.append(pending)
    state.resume = [resume_step, resume_seat]
    state.step = "resolve"
    state.deciding = None


def queue(state: State, pending: dict) -> None:
    """Resolve ``pending`` after what is resolving now, or before the game goes on."""
    state.pending.append(pending)
    if state.resume is None:
        state.resume = [state.step, state.deciding]
        state.step = "resolve"
        state.deciding = None


def context(pending: dict) -> Context:
    return Context(
        pending["source"],
        pending["controller"],
        pending["at"],
        pending["event_card"],
        pending["chosen"],
    )


# Resolving


def _resolve(state: State, events: Events) -> None:
    """Carry out the next step of the oldest pending frame; back to the game when none is
    left."""
    if not state.pending:
        state.step, state.deciding = cast(list, state.resume)
        state.resume = None
        return
    pending = state.pending[0]
    if state.teams is not None and not in_game(state, pending["controller"]):
        state.pending.pop(0)  # the text of a player who left the game (MULTIPLAYER GAMES)
        return
    if pending["optional"]:
        rules.ask(state, "optional", pending["controller"])
        return
    if not pending["steps"]:
        state.pending.pop(0)
        return
    step = pending["steps"][0]
    handler = (COSTS if step["kind"] == "cost" else EFFECTS)[step["primitive"]["primitive"]]
    if handler(state, pending, step["primitive"], step["times"], events) is False:
        return  # waiting for a choice
    pending["choice"] = None
    if pending["steps"] and pending["steps"][0] is step:
        pending["steps"].pop(0)


def _choose(
    state: State,
    pending: dict,
    candidates: list[int],
    needed: int | str,
    chooser: int,
    zone: str = "playmat",
) -> list[int] | None:
    """The cards chosen among ``candidates``: all of them when there are no more than
    needed (or ``"all"``); otherwise the chooser is asked, one card at a time, and None is
    returned until he has chosen."""
    choice = pending["choice"]
    if choice is not None and choice["done"]:
        return choice["picked"]
    if not isinstance(needed, int) or len(candidates) <= needed:
        return list(candidates)
    pending["choice"] = {
        "chooser": chooser,
        "candidates": list(candidates),
        "needed": needed,
        "picked": [],
        "done": False,
        "zone": zone,
    }
    rules.ask(state, "choose", chooser)
    return None


def _targets(state: State, pending: dict, step: dict) -> list[int] | None:
    """The cards the ``target`` selector of a cost or effect names: references and
    ``"count": "all"`` name every matching card; otherwise the controller chooses among
    those it can act on (``ACTS_ON``). The named cards become the frame's chosen ones ("it",
    "they"); returns those it can act on, or None while waiting for the choice."""
    selector = step["target"]
    useful = ACTS_ON.get(step["primitive"])
    found = select.matching(state, selector, context(pending), affecting=True)
    needed = selector.get("count", 1) if "types" in selector else "all"
    if needed != "all" and useful is not None:
        found = [card for card in found if useful(state, card)]
    chosen = _choose(state, pending, found, needed, pending["controller"])
    if chosen is None:
        return None
    pending["chosen"] = chosen
    return [card for card in chosen if useful is None or useful(state, card)]


def _legal_choices(state: State) -> list[actions.Action]:
    choice = state.pending[0]["choice"]
    return [actions.choose(card) for card in choice["candidates"] if card not in choice["picked"]]


def _choose_card(state: State, action: actions.Action, events: Events) -> None:
    choice = state.pending[0]["choice"]
    choice["picked"].append(action["card"])
    if len(choice["picked"]) == choice["needed"]:
        choice["done"] = True
        state.step = "resolve"
        state.deciding = None


def _choice_prompt(state: State) -> str:
    pending = state.pending[0]
    choice = pending["choice"]
    step = pending["steps"][0]["primitive"]
    left = choice["needed"] - len(choice["picked"])
    cards = "a card" if left == 1 else f"{left} cards"
    return f"{_source_title(state, pending)}: choose {cards} {PROMPTS[step['primitive']]}."


def _source_title(state: State, pending: dict) -> str:
    if pending["source"] is None:
        return "Tactic"
    return definition(state, pending["source"])["title"]


def _optional_prompt(state: State) -> str:
    """Names what the "you may" would do, so the player can answer without looking the card
    up: "Scavenger: draw a card? (optional)"."""
    pending = state.pending[0]
    effects = [step["primitive"] for step in pending["steps"] if step["kind"] == "effect"]
    return f"{_source_title(state, pending)}: {wording.effects_phrase(effects)}? (optional)"


def _accept(state: State, action: actions.Action, events: Events) -> None:
    state.pending[0]["optional"] = False
    state.step = "resolve"
    state.deciding = None


def _decline(state: State, action: actions.Action, events: Events) -> None:
    pending = state.pending.pop(0)
    events.append({"type": "declined", "seat": pending["controller"], "card": pending["source"]})
    state.step = "resolve"
    state.deciding = None


# What a chosen card is for, in a choice's prompt ("choose a card to damage").
PROMPTS = MappingProxyType(
    {
        "exert": "to exert",
        "destroy": "to destroy",
        "discard": "to discard",
        "deal_damage": "to damage",
        "heal": "to heal",
        "shield": "to shield",
        "modify": "to change",
        "ready": "to ready",
        "return_to_hand": "to return to its owner's hand",
        "move_unit": "to move to the other quest",
        "withdraw": "to withdraw",
        "join_combat": "to join the combat",
        "grant_keyword": "to gain the keyword",
        "remove_keyword": "to lose the keyword",
        "prohibit": "to stop",
        "search": "to take from your deck",
        "recover": "to return from your discard pile to your hand",
        "add_level_tokens": "(the quest for the level tokens)",
        "move_level_tokens": "(the quest the level tokens move from)",
        "raid_again": "(the quest you may raid from a second time)",
        "begin_avatar_combat": "(the quest your avatar fights the opposing avatar at)",
        "target": "to target",
        "link": "to link to",
    }
)


# Costs (docs/card-rules.md, "Costs"): each returns False while waiting for a choice.


def _pay_power(state, pending, cost, times, events):
    player = state.seats[pending["controller"]]
    player.power -= cost["amount"]
    events.append({"type": "power_paid", "seat": pending["controller"], "amount": cost["amount"]})


def _pay_exert_self(state, pending, cost, times, events):
    rules.exert(state, pending["source"], events, "cost")
    events.append({"type": "exerted_for_cost", "card": pending["source"]})


def _pay_exert(state, pending, cost, times, events):
    chosen = _targets(state, pending, cost)
    if chosen is None:
        return False
    for card in chosen:
        rules.exert(state, card, events, "cost")
        events.append({"type": "exerted_for_cost", "card": card})


def _pay_destroy_self(state, pending, cost, times, events):
    rules.destroy(state, pending["source"], events)


def _pay_destroy(state, pending, cost, times, events):
    chosen = _targets(state, pending, cost)
    if chosen is None:
        return False
    for card in chosen:
        rules.destroy(state, card, events)


def _pay_discard(state, pending, cost, times, events):
    seat = pending["controller"]
    chosen = _choose(state, pending, state.seats[seat].hand, cost["amount"], seat, "hand")
    if chosen is None:
        return False
    for card in chosen:
        rules.discard(state, seat, card, events)


def _pay_damage_self(state, pending, cost, times, events):
    rules.deal_damage(state, pending["source"], cost["amount"], events, [pending["source"]])
    rules.destroy_defeated(state, [pending["source"]], events)


def _pay_damage_avatar(state, pending, cost, times, events):
    avatar = state.seats[pending["controller"]].avatar
    rules.deal_damage(state, avatar, cost["amount"], events, [pending["source"]])
    rules.destroy_defeated(state, [], events)


def _pay_remove_keyword_self(state, pending, cost, times, events):
    state.cards[pending["source"]].removed.append(cost["keyword"])
    events.append({"type": "keyword_lost", "card": pending["source"], "keyword": cost["keyword"]})


def _pay_remove_level_tokens(state, pending, cost, times, events):
    state.cards[pending["source"]].tokens -= cost["amount"]
    events.append(
        {"type": "unit_tokens_removed", "card": pending["source"], "amount": cost["amount"]}
    )


COSTS = MappingProxyType(
    {
        "power": _pay_power,
        "exert_self": _pay_exert_self,
        "exert": _pay_exert,
        "destroy_self": _pay_destroy_self,
        "destroy": _pay_destroy,
        "discard": _pay_discard,
        "damage_self": _pay_damage_self,
        "damage_avatar": _pay_damage_avatar,
        "remove_keyword_self": _pay_remove_keyword_self,
        "remove_level_tokens": _pay_remove_level_tokens,
    }
)


def can_pay(state: State, cost: dict, where: Context) -> bool:
    """Whether a cost can be paid now (all costs are paid before the effect)."""
    name = cost["primitive"]
    source = cast(int, where.source)  # costs are always paid by a card's own text
    if name == "power":
        return state.seats[where.controller].power >= cost["amount"]
    if name == "exert_self":
        return rules.can_exert(state, source)
    if name in ("exert", "destroy"):
        return select.any_matching(state, cost["target"], where, ACTS_ON[name], affecting=True)
    if name == "destroy_self":
        return rules.can_leave_play(state, source)
    if name == "discard":
        return len(state.seats[where.controller].hand) >= cost["amount"]
    if name in ("damage_self", "damage_avatar"):
        return True
    if name == "remove_keyword_self":
        return rules.has_keyword(state, source, cost["keyword"])
    if name == "remove_level_tokens":
        return state.cards[source].tokens >= cost["amount"]
    raise ValueError(f"unknown cost {name!r}")


# Effects (docs/card-rules.md, "Effects"): each returns False while waiting for a choice.


def _gain_power(state, pending, effect, times, events):
    amount = effect["amount"] * times
    state.seats[pending["controller"]].power += amount
    events.append({"type": "power_gained", "seat": pending["controller"], "amount": amount})


def _draw(state, pending, effect, times, events):
    seat = select.seat_of(state, context(pending), effect["player"])
    rules.draw(state, seat, events, effect["amount"] * times)


def _discard(state, pending, effect, times, events):
    seat = select.seat_of(state, context(pending), effect["player"])
    hand = state.seats[seat].hand
    chosen = _choose(state, pending, hand, effect["amount"] * times, seat, "hand")
    if chosen is None:
        return False
    for card in chosen:
        rules.discard(state, seat, card, events)


def _deal_damage(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    by = [] if pending["source"] is None else [pending["source"]]
    for card in chosen:
        rules.deal_damage(state, card, effect["amount"] * times, events, by)
    rules.destroy_defeated(state, chosen, events)


def _damaged(state: State, card: int) -> bool:
    return state.cards[card].damage > 0


def _heal(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        rules.heal(state, card, effect["amount"] * times, events)


def _shield(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        state.cards[card].shield += effect["amount"] * times
        events.append({"type": "shielded", "card": card, "amount": effect["amount"] * times})


def _lasting(modifier_of):
    """An effect that changes each target for a duration (modify, grant_keyword,
    remove_keyword, prohibit)."""

    def carry_out(state, pending, effect, times, events):
        chosen = _targets(state, pending, effect)
        if chosen is None:
            return False
        modifier = modifier_of(effect, times)
        for card in chosen:
            continuous.add_lasting(state, card, pending["source"], effect["duration"], modifier)
            events.append(
                {"type": "changed", "card": card, "duration": effect["duration"], **modifier}
            )

    return carry_out


_modify = _lasting(
    lambda effect, times: {
        "primitive": "modify",
        "stat": effect["stat"],
        "amount": effect["amount"] * times,
    }
)
_grant_keyword = _lasting(
    lambda effect, times: {"primitive": "grant_keyword", "keyword": effect["keyword"]}
)
_remove_keyword = _lasting(
    lambda effect, times: {"primitive": "remove_keyword", "keyword": effect["keyword"]}
)
_prohibit = _lasting(lambda effect, times: {"primitive": "prohibit", "action": effect["action"]})


def _combat_side(state: State, seat: int):
    """The side of the combat ``seat`` commands or, in a team game, his team fights on."""
    if state.combat is None:
        return None
    for side in state.combat.sides:
        if side.seat == seat:
            return side
    if state.teams is not None:
        for side in state.combat.sides:
            if select.friendly(state, side.seat, seat):
                return side
    return None


def _add_total(state, pending, effect, times, events):
    seat = select.seat_of(state, context(pending), effect["player"])
    side = _combat_side(state, seat)
    if side is not None:
        side.total += effect["amount"] * times
        events.append(
            {
                "type": "total_added",
                "seat": seat,
                "amount": effect["amount"] * times,
                "total": side.total,
            }
        )


def _add_damage(state, pending, effect, times, events):
    seat = select.seat_of(state, context(pending), effect["player"])
    side = _combat_side(state, seat)
    if side is not None:
        side.extra_damage += effect["amount"] * times
        events.append({"type": "damage_added", "seat": seat, "amount": effect["amount"] * times})


def _exert(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        rules.exert(state, card, events, "effect")
        events.append({"type": "exerted_by_effect", "card": card})


def _ready(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        rules.ready(state, card)
        events.append({"type": "readied", "seat": state.cards[card].controller, "cards": [card]})


def _removable(state: State, card: int) -> bool:
    """On the playmat, not an avatar, and free to leave play (durable)."""
    return (
        select.is_in_play(state, card)
        and card_type(state, card) != "avatar"
        and rules.can_leave_play(state, card)
    )


def _destroy(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        rules.destroy(state, card, events)


def _return_to_hand(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        rules.leave_play(state, card, "returned", events)


def _movable(state: State, card: int) -> bool:
    return select.location(state, card) is not None and card_type(state, card) == "unit"


def _move_unit(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        move_unit(state, card, events)


def move_unit(state: State, card: int, events: Events) -> None:
    """Move a unit to the other quest (a combatant leaves the combat)."""
    at = cast(int, select.location(state, card))  # only units move, and a unit is at a quest
    seat = state.cards[card].controller
    destination = other_quest(state, seat, at)
    state.quests[at].units[seat].remove(card)
    state.quests[destination].units[seat].append(card)
    if state.combat is not None:
        for side in state.combat.sides:
            if card in side.combatants:
                side.combatants.remove(card)
    events.append({"type": "moved", "card": card, "quest": state.quests[destination].card})


def other_quest(state: State, seat: int, at: int) -> int:
    """ "The other quest" than the one of index ``at``: of a two-player game's two; in a team
    game the next one in ``seat``'s reach (MULTIPLAYER GAMES, "Quests")."""
    if state.teams is None:
        return (at + 1) % len(state.quests)
    within = list(reach(state, seat))
    if at not in within:
        return within[0]
    place = within.index(at)
    following = within[place + 1 :] + within[:place]
    return following[0] if following else at


def _is_combatant(state: State, card: int) -> bool:
    return card in select.combatants(state)


def _withdraw(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    combat = rules.current_combat(state)
    for card in chosen:
        for side in combat.sides:
            if card in side.combatants:
                side.combatants.remove(card)
                events.append({"type": "withdrew", "card": card})
    if any(not side.combatants for side in combat.sides):
        end_combat(state, events, withdrawn=True)
        if combat.suspended is None:
            state.resume = [combat.resume, None]
    return None


class CombatInProgress(Exception):
    """A new combat can't begin while one is already in progress (COMBAT)."""


def begin_combat(
    state: State,
    events: Events,
    *,
    kind: str,
    at: int,
    attackers: tuple[int, list[int]],
    defenders: tuple[int, list[int]],
    resume: str,
) -> None:
    """Begin a combat at the quest of index ``at`` between the attacking seat's combatants and
    the defending seat's; once it is over the turn goes on with the step ``resume``. A quest
    attempt, a raid and a card effect (``begin_avatar_combat``) all begin theirs here."""
    if state.combat is not None:
        raise CombatInProgress("a combat is already in progress")
    state.combat = Combat(
        kind=kind,
        quest=at,
        sides=[CombatSide(seat, list(cards)) for seat, cards in (attackers, defenders)],
        resume=resume,
    )
    events.append(
        {
            "type": "combat_began",
            "kind": kind,
            "quest": state.quests[at].card,
            "attacker": attackers[0],
            "attackers": list(attackers[1]),
            "defender": defenders[0],
            "defenders": list(defenders[1]),
        }
    )
    _keywords_at_combat_start(state, events)
    rules.ask(state, "combat_action", attackers[0])


# Keywords that act as a combat begins: what joins it, and the totals' first points.
_TOTAL_KEYWORDS = ((ATTACKING, "striketrough"), (DEFENDING, "evasion"))


def _keywords_at_combat_start(state: State, events: Events) -> None:
    """Sentry units join when their avatar is attacked, operative units when their avatar
    begins combat against another avatar; striketrough and evasion give +1 total attack and
    +1 total defense (glossary)."""
    combat = rules.current_combat(state)
    avatars = {player.avatar for player in state.seats}
    begun = [list(side.combatants) for side in combat.sides]
    for index, side in enumerate(combat.sides):
        avatar = state.seats[side.seat].avatar
        if avatar not in side.combatants:
            continue
        other = combat.sides[1 - index].combatants
        joining = []
        if index == DEFENDING:
            joining.append("sentry")
        if any(card in avatars for card in other):
            joining.append("operative")
        for quest in state.quests:
            for unit in quest.units[side.seat]:
                if (
                    unit not in side.combatants
                    and not state.cards[unit].exerted
                    and any(rules.has_keyword(state, unit, name) for name in joining)
                ):
                    join_combat(state, unit, events)
    for index, keyword in _TOTAL_KEYWORDS:
        side = combat.sides[index]
        if any(rules.has_keyword(state, card, keyword) for card in begun[index]):
            side.total += 1
            events.append(
                {
                    "type": "total_added",
                    "seat": side.seat,
                    "amount": 1,
                    "total": side.total,
                    "keyword": keyword,
                }
            )


def end_combat(state: State, events: Events, *, withdrawn: bool = False) -> None:
    """The combat is over: effects lasting until its end stop; wins and losses are told."""
    combat = rules.current_combat(state)
    ended = {"type": "combat_ended", "quest": state.quests[combat.quest].card}
    if withdrawn:
        ended["withdrawn"] = True
    elif combat.winner is not None:
        ended["winner"] = combat.sides[combat.winner].seat
        ended["winners"] = list(combat.sides[combat.winner].combatants)
        ended["losers"] = list(combat.sides[1 - combat.winner].combatants)
    events.append(ended)
    state.combat = None
    continuous.end_of(state, ("combat",))
    if combat.suspended is not None:
        # The card text that began this combat goes on where it stopped.
        state.pending += combat.suspended["pending"]
        state.resume = combat.suspended["resume"]


def _no_combat_in_progress(state: State, quest: int) -> bool:
    """A new combat can't begin while one is already in progress (COMBAT)."""
    return state.combat is None


def _begin_avatar_combat(state, pending, effect, times, events):
    """The controller's avatar begins combat against the opposing avatar at the quest: "as
    the result of a card effect" (COMBAT), and the player who causes a combat attacks. It is
    an ordinary combat from there (combat actions, damage, "begins" and damage triggers);
    ready operative units join it (glossary, "operative"). Inside another combat it does
    nothing. The rest of the card text, and any text queued behind it, waits for the
    combat's end (``end_combat``)."""
    if state.combat is not None:
        return None
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    if not chosen:
        return None
    seat = pending["controller"]
    defending = opponent(state, seat)
    suspended = {"pending": state.pending, "resume": state.resume}
    state.pending = []
    state.resume = None
    begin_combat(
        state,
        events,
        kind="effect",
        at=rules.quest_index(state, chosen[0]),
        attackers=(seat, [state.seats[seat].avatar]),
        defenders=(defending, [state.seats[defending].avatar]),
        resume="resolve",
    )
    rules.current_combat(state).suspended = suspended
    return None


def _can_join(state: State, card: int) -> bool:
    return (
        state.combat is not None
        and card_type(state, card) == "unit"
        and not _is_combatant(state, card)
        and _combat_side(state, state.cards[card].controller) is not None
    )


def _join_combat(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for card in chosen:
        join_combat(state, card, events)


def join_combat(state: State, card: int, events: Events) -> None:
    """The card joins the combat on its controller's side; it begins nothing (glossary,
    "joining combat")."""
    _combat_side(state, state.cards[card].controller).combatants.append(card)
    events.append({"type": "joined_combat", "card": card})


def _card_filter_matches(state: State, card_filter: dict, card: int) -> bool:
    printed = definition(state, card)
    return (
        printed["type"] in card_filter["types"]
        and ("trait" not in card_filter or card_filter["trait"] in printed["traits"])
        and ("max_cost" not in card_filter or (printed["cost"] or 0) <= card_filter["max_cost"])
    )


def _take_to_hand(state, pending, card_filter: dict, zone: str, taken: str, events: Events):
    """The controller takes a card matching ``card_filter`` from his ``deck`` or ``discard``
    pile into his hand, revealing it (event ``taken``); returns the cards taken, or None
    while he chooses."""
    seat = pending["controller"]
    player = state.seats[seat]
    pile = getattr(player, zone)
    found = [card for card in pile if _card_filter_matches(state, card_filter, card)]
    chosen = _choose(state, pending, found, 1, seat, zone)
    if chosen is None:
        return None
    for card in chosen:
        pile.remove(card)
        player.hand.append(card)
        events.append({"type": taken, "seat": seat, "card": card, "title": _title(state, card)})
    return chosen


def _search(state, pending, effect, times, events):
    """Search: reveal the card found, put it in hand, then shuffle the deck (glossary)."""
    chosen = _take_to_hand(state, pending, effect["card"], "deck", "searched", events)
    if chosen is None:
        return False
    seat = pending["controller"]
    if not chosen:
        events.append({"type": "search_failed", "seat": seat})
    state.seats[seat].deck = rng.shuffle(state, state.seats[seat].deck)
    events.append({"type": "deck_shuffled", "seat": seat})


def _recover(state, pending, effect, times, events):
    if _take_to_hand(state, pending, effect["card"], "discard", "recovered", events) is None:
        return False


def _create_card(state, pending, effect, times, events):
    for _ in range(times):
        create_card(state, pending["controller"], effect["card"], events)


def create_card(state: State, seat: int, title: str, events: Events) -> None:
    """A new copy of the card titled ``title`` in the seat's hand (glossary, "smuggle")."""
    definition_number = next(
        index for index, printed in enumerate(state.definitions) if printed["title"] == title
    )
    state.cards.append(Card(definition=definition_number, owner=seat, controller=seat))
    card = len(state.cards) - 1
    state.seats[seat].hand.append(card)
    events.append({"type": "card_created", "seat": seat, "card": card, "title": title})


def _title(state: State, card: int) -> str:
    return definition(state, card)["title"]


def _add_level_tokens(state, pending, effect, times, events):
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for quest_card in chosen:
        place_level_tokens(
            state,
            pending["controller"],
            rules.quest_index(state, quest_card),
            effect["amount"] * times,
            events,
        )


def place_level_tokens(state: State, seat: int, at: int, amount: int, events: Events) -> None:
    """Create the seat's level tokens at a quest; its versatile units there get as many on
    themselves (glossary, "versatile")."""
    quest = state.quests[at]
    quest.tokens[seat] += amount
    events.append({"type": "tokens_placed", "seat": seat, "quest": quest.card, "amount": amount})
    for unit in quest.units[seat]:
        if rules.has_keyword(state, unit, "versatile"):
            state.cards[unit].tokens += amount
            events.append({"type": "unit_tokens_placed", "card": unit, "amount": amount})


def _move_level_tokens(state, pending, effect, times, events):
    seat = select.seat_of(state, context(pending), effect["player"])
    found = [quest.card for quest in state.quests if quest.tokens[seat] > 0]
    chosen = _choose(state, pending, found, 1, pending["controller"])
    if chosen is None:
        return False
    for quest_card in chosen:
        at = rules.quest_index(state, quest_card)
        destination = other_quest(state, seat, at)
        moved = min(effect["amount"] * times, state.quests[at].tokens[seat])
        state.quests[at].tokens[seat] -= moved
        state.quests[destination].tokens[seat] += moved
        events.append(
            {
                "type": "tokens_moved",
                "seat": seat,
                "quest": quest_card,
                "to": state.quests[destination].card,
                "amount": moved,
            }
        )


RAIDS_AT_MOST = 2


def _raid_again(state, pending, effect, times, events):
    """Only the player taking the turn raids, so the allowance is his alone: raid_again in
    another player's turn does nothing."""
    if pending["controller"] != state.active:
        return None
    chosen = _targets(state, pending, effect)
    if chosen is None:
        return False
    for quest_card in chosen:
        state.quests[rules.quest_index(state, quest_card)].raids_allowed = RAIDS_AT_MOST
        events.append({"type": "raid_again", "seat": pending["controller"], "quest": quest_card})


def _may_raid_again(state: State, quest_card: int) -> bool:
    return state.quests[rules.quest_index(state, quest_card)].raids_allowed < RAIDS_AT_MOST


def _mark(kind: str, modifiers_key: str):
    def carry_out(state, pending, effect, times, events):
        chosen = _targets(state, pending, effect)
        if chosen is None:
            return False
        for card in chosen:
            continuous.add_mark(
                state,
                {
                    "kind": kind,
                    "source": pending["source"],
                    "card": card,
                    "controller": pending["controller"],
                    "modifiers": effect.get(modifiers_key, []),
                    "when_destroyed": effect.get("when_destroyed", []),
                },
            )
            events.append({"type": f"{kind}ed", "card": pending["source"], "target": card})

    return carry_out


def _for_each(state, pending, effect, times, events):
    """Count once, then carry out the inner effects that many times over."""
    counted = select.count(state, effect["counted"], context(pending))
    inner = [
        {"kind": "effect", "primitive": each, "times": times * counted} for each in effect["effect"]
    ]
    pending["steps"][1:1] = inner if counted else []


def _win_game(state, pending, effect, times, events):
    """The side of the player the text names wins: how a heroic encounter's boss avatar
    states its own victory conditions (MULTIPLAYER GAMES, "Winning the Game": "Some special
    scenarios and heroic encounters ... will provide other ways to win")."""
    seat = select.seat_of(state, context(pending), effect["player"])
    rules.win(state, seat, "victory_condition", events)


EFFECTS = MappingProxyType(
    {
        "gain_power": _gain_power,
        "draw": _draw,
        "discard": _discard,
        "deal_damage": _deal_damage,
        "heal": _heal,
        "shield": _shield,
        "modify": _modify,
        "add_total": _add_total,
        "add_damage": _add_damage,
        "exert": _exert,
        "ready": _ready,
        "destroy": _destroy,
        "return_to_hand": _return_to_hand,
        "move_unit": _move_unit,
        "withdraw": _withdraw,
        "join_combat": _join_combat,
        "grant_keyword": _grant_keyword,
        "remove_keyword": _remove_keyword,
        "prohibit": _prohibit,
        "search": _search,
        "recover": _recover,
        "create_card": _create_card,
        "add_level_tokens": _add_level_tokens,
        "move_level_tokens": _move_level_tokens,
        "raid_again": _raid_again,
        "begin_avatar_combat": _begin_avatar_combat,
        "target": _mark("target", "while_targeted"),
        "link": _mark("link", "while_linked"),
        "for_each": _for_each,
        "win_game": _win_game,
    }
)

# The cards (or quests) each cost or effect with a target can act on: what a player chooses
# among, what "all" acts on, and what "can any part of it happen?" looks for.
ACTS_ON = MappingProxyType(
    {
        "deal_damage": select.damageable,
        "heal": _damaged,
        "shield": select.damageable,
        "exert": rules.can_exert,
        "ready": rules.can_ready,
        "destroy": _removable,
        "return_to_hand": _removable,
        "move_unit": _movable,
        "withdraw": _is_combatant,
        "join_combat": _can_join,
        "modify": select.is_in_play,
        "grant_keyword": select.is_in_play,
        "remove_keyword": select.is_in_play,
        "prohibit": select.is_in_play,
        "target": select.is_in_play,
        "link": select.is_in_play,
        "raid_again": _may_raid_again,
        "begin_avatar_combat": _no_combat_in_progress,
    }
)


def possible(state: State, effect: dict, where: Context, *, source_gone: bool = False) -> bool:
    """Whether any part of the effect can happen now: an activated action or a tactic whose
    effect can't happen at all can't be used (rulebook, MAIN PHASE, activated actions).
    ``source_gone``: paying the costs takes the card with the text off the playmat, so
    nothing "this card" does can happen."""
    name = effect["primitive"]
    if name == "raid_again":
        return where.controller == state.active and select.any_matching(
            state, effect["target"], where, _may_raid_again
        )
    if "target" in effect and name != "add_level_tokens":
        if source_gone and "self" in effect["target"]:
            return False
        if "chosen" in effect["target"]:
            # "It" acts only on what an earlier effect of the list named; that effect is
            # checked on its own.
            return False
        return select.any_matching(
            state, effect["target"], where, ACTS_ON.get(name), affecting=True
        )
    if name in ("add_total", "add_damage"):
        return state.combat is not None
    if name == "discard":
        return bool(state.seats[select.seat_of(state, where, effect["player"])].hand)
    if name == "search":
        return bool(state.seats[where.controller].deck)
    if name == "recover":
        return any(
            _card_filter_matches(state, effect["card"], card)
            for card in state.seats[where.controller].discard
        )
    if name == "move_level_tokens":
        seat = select.seat_of(state, where, effect["player"])
        return any(quest.tokens[seat] for quest in state.quests)
    if name == "for_each":
        return select.count(state, effect["counted"], where) > 0 and any(
            possible(state, inner, where) for inner in effect["effect"]
        )
    return True


# Activated actions and tactics


def usable_actions(state: State, seat: int, timing: str) -> list[actions.Action]:
    """The activated actions the seat may use now with ``timing`` (glossary, "activated
    action"): costs payable and some part of the effect possible. In combat, only those of
    combatants, and of items and abilities while the avatar is a combatant."""
    player = state.seats[seat]
    cards = rules.controlled(state, seat)
    if state.combat is not None:
        side = _combat_side(state, seat)
        if side is None:
            return []
        if side.seat != seat:
            return []  # only the commanders act in a combat (MULTIPLAYER GAMES, "Teammates")
        with_gear = player.avatar in side.combatants
        cards = [
            card
            for card in cards
            if card in side.combatants
            or (with_gear and card_type(state, card) in ("item", "ability"))
        ]
        if state.teams is not None:
            # The teammates' units he commands: their activated actions are his to use.
            cards += [card for card in side.combatants if state.cards[card].controller != seat]
    usable = []
    for card in cards:
        card_actions = timed_actions(state, card, timing)
        if not card_actions:
            continue
        where = Context(card, seat, select.location(state, card))
        for index, action in card_actions:
            if not all(can_pay(state, cost, where) for cost in action["cost"]):
                continue
            gone = _costs_remove(state, card, action["cost"])
            if any(possible(state, effect, where, source_gone=gone) for effect in action["effect"]):
                usable.append(actions.activate(card, index))
    return usable


def _costs_remove(state: State, card: int, costs: list[dict]) -> bool:
    """Whether paying the costs takes the card itself off the playmat."""
    for cost in costs:
        if cost["primitive"] == "destroy_self":
            return True
        if cost["primitive"] == "damage_self":
            room = rules.damage_room(state, card)
            if room is not None and cost["amount"] >= room:
                return True
    return False


def activate(state: State, card: int, index: int, resume: tuple[str, int | None]) -> None:
    """Use the card's activated action of ``index``: its costs, then its effect."""
    action = definition(state, card)["rules"]["actions"][index]
    where = select.context_of(state, card)
    start(
        state,
        frame(state, card, where.controller, action["cost"], action["effect"], at=where.at),
        *resume,
    )


def tactic_playable(state: State, seat: int, card: int, role: int) -> bool:
    play = definition(state, card)["rules"].get("play")
    if play is None or ("attack", "defend")[role] not in play["timing"]:
        return False
    where = Context(None, seat)
    return select.holds(state, play["condition"], where) and any(
        possible(state, effect, where) for effect in play["effect"]
    )


def play_tactic(state: State, seat: int, card: int, resume: tuple[str, int | None]) -> None:
    """Carry out a tactic's effect (its cost is paid and it is in the discard pile)."""
    play = definition(state, card)["rules"]["play"]
    start(state, frame(state, None, seat, [], play["effect"]), *resume)


# Playing cards


def unique_titles(state: State, seat: int) -> set[str]:
    """The titles the seat can't play: those of his unique cards on the playmat."""
    return {
        definition(state, card)["title"]
        for card in rules.controlled(state, seat)
        if has_printed_keyword(state, card, "unique")
    }


def may_play(state: State, seat: int, card: int, unique: set[str] | None = None) -> bool:
    """Cost, unique and the ability limit allow playing the card from hand (MAIN PHASE,
    "Playing Cards"). ``unique``: the seat's ``unique_titles``, if known already."""
    player = state.seats[seat]
    if rules.value(state, card, "cost") > player.power:
        return False
    if unique is None:
        unique = unique_titles(state, seat)
    if definition(state, card)["title"] in unique:
        return False
    if card_type(state, card) == "ability":
        owner = ability_controller(state, seat, card)
        return len(state.seats[owner].abilities) < ABILITY_LIMIT
    return True


def ability_controller(state: State, seat: int, card: int) -> int:
    """Who controls the seat's ability once played: the opponent, if it has entanglement."""
    if rules.has_keyword(state, card, "entanglement"):
        return opponent(state, seat)
    return seat


def play_card(state: State, seat: int, card: int, quest: int | None, events: Events) -> None:
    """Pay the card's cost and put it on the playmat: a unit at the quest of index
    ``quest``, an item or an ability beside the avatar; an entangled ability exerted, under
    the opponent's control. Then Intel, agility and the restriction apply."""
    player = state.seats[seat]
    cost = rules.value(state, card, "cost")
    player.power -= cost
    player.hand.remove(card)
    kind = card_type(state, card)
    played = {"type": "card_played", "seat": seat, "card": card, "cost": cost}
    if kind == "unit":
        rules.enter_play(state, card, seat)
        at = cast(int, quest)  # a unit is played to a quest
        state.quests[at].units[seat].append(card)
        played["quest"] = state.quests[at].card
    elif kind == "item":
        rules.enter_play(state, card, seat)
        player.items.append(card)
    else:
        controller = ability_controller(state, seat, card)
        rules.enter_play(state, card, controller)
        state.seats[controller].abilities.append(card)
        if controller != seat:
            state.cards[card].exerted = True
            state.cards[card].exerted_for = "entangled"
            played["entangled"] = controller
    events.append(played)
    if kind == "item":
        _enforce_restriction(state, seat, card, events)
    spend_intel(state, seat, card, events)
    if kind == "unit":
        _agility(state, seat, card, cast(int, quest), events)


def _enforce_restriction(state: State, seat: int, card: int, events: Events) -> None:
    """One card for each restriction on the playmat: the card already there is destroyed and
    the player draws a card (TYPES OF CARDS, "Restrictions")."""
    replaced = replaced_by_restriction(state, seat, card)
    if replaced is not None:
        rules.destroy(state, replaced, events)
        rules.draw(state, seat, events)


def replaced_by_restriction(state: State, seat: int, card: int) -> int | None:
    """The card in play that the seat's playing ``card`` would destroy, having the same
    restriction (TYPES OF CARDS, "Restrictions"); None if it would destroy none. What the
    Card Warnings preference warns of before the card is played."""
    restriction = definition(state, card)["restriction"]
    if not restriction:
        return None
    for other in state.seats[seat].items:
        if other != card and definition(state, other)["restriction"] == restriction:
            return other
    return None


def spend_intel(state: State, seat: int, played: int, events: Events) -> None:
    """Playing a card that costs 4 or more: each other card of the player with Intel loses it,
    and he gains 1 power for each (glossary, "intel")."""
    if definition(state, played)["cost"] is None or rules.value(state, played, "cost") < INTEL_COST:
        return
    for card in rules.controlled(state, seat):
        if card != played and rules.has_keyword(state, card, "intel"):
            state.cards[card].removed.append("intel")
            state.seats[seat].power += 1
            events.append({"type": "keyword_lost", "card": card, "keyword": "intel"})
            events.append({"type": "power_gained", "seat": seat, "amount": 1})


def _agility(state: State, seat: int, card: int, at: int, events: Events) -> None:
    """Opposing units with agility at the quest are readied (glossary, "agility")."""
    for other_seat, units in enumerate(state.quests[at].units):
        if other_seat == seat:
            continue
        for unit in units:
            if rules.has_keyword(state, unit, "agility") and rules.can_ready(state, unit):
                rules.ready(state, unit)
                events.append({"type": "readied", "seat": other_seat, "cards": [unit]})


STEPS: Mapping[str, Step] = MappingProxyType({"resolve": _resolve})

DECISIONS: Mapping[str, DecisionRules] = MappingProxyType(
    {
        "choose": DecisionRules(
            prompt=_choice_prompt,
            legal=_legal_choices,
            handlers={"choose": _choose_card},
        ),
        "optional": DecisionRules(
            prompt=_optional_prompt,
            legal=lambda state: [actions.accept(), actions.decline()],
            handlers={"accept": _accept, "decline": _decline},
        ),
    }
)
