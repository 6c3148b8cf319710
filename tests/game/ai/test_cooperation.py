"""Teammates that cooperate: in a 2-versus-2 game the search agent judges its whole side, so
it helps its teammate where the greedy agent looks after itself alone (MULTIPLAYER GAMES).

Seats 0 and 2 (Rebel and Jedi) play against seats 1 and 3 (Sith and Imperial); the quests
at the three locations are seats 0, 1 and 2's; seats 0 and 1 reach quests 0 and 1, seats 2
and 3 quests 1 and 2.
"""

from game.ai.playout import playout_action
from game.ai.search import SearchAgent, Settings
from game.engine import api
from game.engine.positions import Placed, Position, SeatSetup, build, card_ids
from tests.game.ai.conftest import CARDS, DECKS

THINKING = Settings(playouts=24, candidates=8, horizon=2)


def _cards(*titles: str) -> list[dict]:
    return [CARDS[title] for title in titles]


def _seat(archetype: str, **setup) -> SeatSetup:
    deck = DECKS[archetype]
    return SeatSetup(
        avatar=deck["avatar"],
        quests=deck["quests"],
        deck=setup.pop("deck", deck["deck"][:12]),
        **setup,
    )


def _team_position(rebel: SeatSetup, sith: SeatSetup, jedi: SeatSetup, phase: str):
    return build(
        Position(
            seats=(rebel, sith, jedi, _seat("imperial")),
            first=0,
            turn=1,
            phase=phase,
            seed=3,
        )
    )


def test_a_computer_teammate_defends_the_quest_where_its_teammate_is_attacked():
    """The Sith player's raiders at quest 1 will raid next turn; with no defender there
    they may attack either avatar in reach, and the Jedi teammate has 2 health left. The
    greedy agent plays its unit where no opposing unit stands (quest 0); the search agent
    plays it at quest 1, to defend its teammate."""
    state = _team_position(
        _seat("rebel", hand=_cards("Cell Lookout"), power=3),
        _seat(
            "sith",
            playmat=(
                Placed(CARDS["Aqualish Brawler"], quest=1),
                Placed(CARDS["Hollow-Eyed Zealot"], quest=1),
            ),
        ),
        _seat("jedi", avatar_damage=18),
        "main",
    )
    decision = api.legal_actions(state)
    lookout = card_ids(state, 0, "Cell Lookout")[0]
    quest_0, quest_1 = (quest.card for quest in state.quests[:2])
    assert playout_action(state, decision) == {"kind": "play", "card": lookout, "quest": quest_0}

    chosen = SearchAgent(5, THINKING, priors=DECKS).choose(state, decision)

    assert chosen == {"kind": "play", "card": lookout, "quest": quest_1}


def test_a_computer_teammate_leaves_a_quest_its_teammate_is_about_to_complete():
    """Both quests in reach are the Rebel's to complete with its ability; the Jedi teammate
    holds a token at quest 1 and an ability to complete it next turn. Completing quest 1
    would replace it and take the teammate's tokens with it: the greedy agent goes there
    (it has a token there too), the search agent completes quest 0."""
    state = _team_position(
        _seat("rebel", playmat=(Placed(CARDS["Covering Orders"]),), tokens=(0, 1, 0)),
        _seat("sith"),
        _seat("jedi", playmat=(Placed(CARDS["Survival Instincts"]),), tokens=(0, 1, 0)),
        "quest",
    )
    decision = api.legal_actions(state)
    quest_0, quest_1 = (quest.card for quest in state.quests[:2])
    assert playout_action(state, decision) == {"kind": "attempt_quest", "quest": quest_1}

    chosen = SearchAgent(5, THINKING, priors=DECKS).choose(state, decision)

    assert chosen == {"kind": "attempt_quest", "quest": quest_0}
