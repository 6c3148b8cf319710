"""Two games a seat cannot tell apart: the same view, other hidden cards.

``redealt`` pokes a copy of a real state on purpose: it is the one thing a test of hidden
information needs, a state that differs from another *only* in what one seat cannot see.
``hidden_pair`` builds such a pair through the position builder instead, with other cards
altogether in the opponent's hand, deck and quest pile.
"""

import random

from game.engine import api
from game.engine.positions import Placed, Position, SeatSetup, build
from game.engine.state import State
from tests.game.ai.conftest import CARDS


def redealt(state: State, seat: int, generator: random.Random) -> State:
    """A copy of ``state`` whose hidden cards, for ``seat``, are dealt again: every other
    seat's hand and deck (opponents' and teammates' alike) shuffled together and split anew
    (other cards in its hand), its quest pile and ``seat``'s deck in another order, and
    another seed for the random numbers."""
    other = api.from_json(api.to_json(state))
    for index, player in enumerate(other.seats):
        if index == seat:
            continue
        cards = player.hand + player.deck
        generator.shuffle(cards)
        player.hand, player.deck = cards[: len(player.hand)], cards[len(player.hand) :]
        generator.shuffle(player.quest_pile)
    mine = other.seats[seat]
    searching = other.pending[0]["choice"]["zone"] == "deck" if other.step == "choose" else False
    if not searching:  # a search shows the seat its deck (not its order, which changes anyway)
        generator.shuffle(mine.deck)
    other.rng = generator.getrandbits(64)
    return other


def _cards(*titles: str) -> list[dict]:
    return [CARDS[title] for title in titles]


def hidden_pair(own_deck_reordered: bool = True) -> tuple[State, State]:
    """Seat 0 (Jedi) in its Main Phase against seat 1 (Sith), built twice: the same playmat,
    discard piles and seat 0's hand, but another hand, deck and quest pile for seat 1,
    another seed, and (``own_deck_reordered``) seat 0's deck in another order."""
    jedi_deck = _cards(
        "Enclave Guardian Droid",
        "Breath of the Enclave",
        "Deflect the Bolt",
        "Kinetic Ward",
        "Bonded Thornback",
        "Trance of Mending",
        "Enclave Watcher",
        "Think Fast",
        "Padawan Pathfinder",
        "Enclave Robes",
    )

    def jedi(deck: list[dict]) -> SeatSetup:
        return SeatSetup(
            avatar=CARDS["Ilvara Senn"],
            quests=_cards(
                "Vigil at the Broken Enclave",
                "Recover the Veiled Holocron",
                "Shelter the Dantooine Refugees",
                "Face the Fallen Master",
            ),
            hand=_cards(
                "Padawan Twins of Rori",
                "Foreseen Strike",
                "Deflect the Bolt",
                "Training Lightsaber",
                "Crystal Cave Pilgrim",
            ),
            playmat=(
                Placed(CARDS["Enclave Initiate"], quest=1),
                Placed(CARDS["Bonded Thornback"], quest=1),
                Placed(CARDS["Survival Instincts"]),
            ),
            discard=_cards("Enclave Watcher"),
            deck=deck,
            tokens=(0, 2),
        )

    def sith(quests: list[dict], hand: list[dict], deck: list[dict]) -> SeatSetup:
        return SeatSetup(
            avatar=CARDS["Vorsa Kel"],
            quests=[CARDS["Whispers in the Tomb of Ashes"], *quests],
            hand=hand,
            playmat=(
                Placed(CARDS["Sith Loyalist Guard"], quest=0),
                Placed(CARDS["Serrated Vibroblade"]),
            ),
            discard=_cards("Shadow Cultist"),
            deck=deck,
            tokens=(1, 0),
            avatar_damage=3,
        )

    one = build(
        Position(
            seats=(
                jedi(jedi_deck),
                sith(
                    _cards(
                        "Desecrate the Enclave Ruins",
                        "Corrupt the Dathomir Coven",
                        "Claim the Holocron of Shadows",
                    ),
                    _cards("Unleashed Fury", "Fear Incarnate", "Tomb Initiate", "Blood Rite"),
                    _cards(
                        "Hollow-Eyed Zealot",
                        "Rage of the Fallen",
                        "Duskfang Hound",
                        "Dark Channeling",
                        "Strangling Will",
                        "Aqualish Brawler",
                        "Forbidden Lore",
                        "Talisman of Ashes",
                        "Jawa Scrap Haulers",
                        "Soul-Bound Thrall",
                        "Shadowweave Robes",
                        "Hatred Unbound",
                    ),
                ),
            ),
            turn=5,
            seed=1,
        )
    )
    other = build(
        Position(
            seats=(
                jedi(list(reversed(jedi_deck)) if own_deck_reordered else jedi_deck),
                sith(
                    _cards(
                        "Escape the Kessel Mines",
                        "Hunt the Canyon Beast",
                        "Broker the Spice Deal on Nar Shaddaa",
                    ),
                    _cards(
                        "Corrupted Enforcer Droid",
                        "Dark Channeling",
                        "Strangling Will",
                        "Street-Smart Reflexes",
                    ),
                    _cards(
                        "Tomb Initiate",
                        "Unleashed Fury",
                        "Blood Rite",
                        "Fear Incarnate",
                        "Survival Instincts",
                        "Duskfang Hound",
                        "Hollow-Eyed Zealot",
                        "Unleashed Fury",
                        "Rage of the Fallen",
                        "Sith Loyalist Guard",
                        "Aqualish Brawler",
                        "Tomb Initiate",
                    ),
                ),
            ),
            turn=5,
            seed=2,
        )
    )
    return one, other
