"""A whole Skirmish played over the match page's socket (the issue: "A consumer or browser test
plays a whole Skirmish through the pages to its end"): the person's decisions go through the
socket, the computer's run on the background threads off the request path, and each reaches the
page."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from game.engine import api as engine
from game.models import Game, Match, MatchStatus
from game.selectors import game_state, match_history, skirmish_record
from game.services import matches
from game.services.skirmish import skirmish_start
from tests.game.conftest import SeededSecrets, player_with_deck

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# The game's seed and salt come from this one (the match service's ``secrets``, seeded): a
# game in which the person takes the first legal action every time (keep, play, exert, raid,
# attempt a quest, activate...) ends after 195 decisions on PostgreSQL, 94 of them the
# computer's, and 236 on SQLite (the order of the legal actions follows the stored state's).
# A random seed plays some 800 decisions, and anywhere from 170 to 1,100.
DEAL_SEED = 61


@database_sync_to_async
def start():
    carol = player_with_deck("Carol", "jedi")
    return carol, skirmish_start(player=carol, deck=carol.deck, archetype="sith", level="easy")


@database_sync_to_async
def standing(match):
    """The match's status, and its current game's ply and deciding seat."""
    status = Match.objects.get(pk=match.pk).status
    game = Game.objects.filter(match=match).order_by("-number").first()
    return status, game.applied, engine.legal_actions(game_state(game))


@pytest.mark.slow
async def test_a_whole_skirmish_through_the_socket(
    open_page, settings, thinking_threads, monkeypatch
):
    # The background threads of the embedded default, whatever the mode the suite runs in: no
    # Celery worker runs beside the tests.
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.COMPUTER_PAUSE_SECONDS = 0
    monkeypatch.setattr(matches, "secrets", SeededSecrets(DEAL_SEED))
    carol, match = await start()
    page = await open_page(carol, f"/ws/match/{match.pk}/")
    await page.until("playmat")
    computer_moves = 0

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 240
    while loop.time() < deadline:
        status, ply, decision = await standing(match)
        if status != MatchStatus.PLAYING:
            break
        if decision.seat == 0:
            await page.communicator.send_json_to(
                {"type": "act", "ply": str(ply), "action": json.dumps(decision.actions[0])}
            )
        else:
            computer_moves += 1
        # Each decision, the person's or the computer's, reaches the page as the next ply.
        last = await page.until(rf'data-ply="(?!{ply}")\d+"', timeout=10)

    assert status == MatchStatus.FINISHED
    assert computer_moves
    # The computer may have played on to the end after the last view awaited: the page then
    # has the final screen still to come.
    if "wins the match" not in last:
        await page.until("wins the match", timeout=10)
    await stored_like_any_match(match, carol)


@database_sync_to_async
def stored_like_any_match(match, carol):
    """Its log replays to its result, and it is on the player's match history."""
    game = Game.objects.get(match=match)
    assert game.actions.filter(seat=1).exists()
    log = list(game.actions.order_by("number").values_list("action", flat=True))
    assert engine.to_json(engine.replay(game.decklists, game.seed, log)) == engine.to_json(
        game_state(game)
    )
    (past,) = match_history(player=carol, viewer=carol)
    assert past.skirmish == "Easy"
    assert sum(skirmish_record(player=carol).values()) == 1
