"""The turns on the database thread that build a change's screens for a process's sockets of a
match (game.consumers.ChangeScreens)."""

import asyncio

from game.consumers import ChangeScreens


class Socket:
    def __init__(self, name):
        self.name = name

    def render_screen(self, *, full, message):
        return "game", f"{self.name} at {message['version']}", []


def test_a_batch_whose_event_loop_closed_before_its_turn_is_not_kept():
    """A loop that closes with a batch still waiting for its turn (a test that ends as a
    change arrives) leaves it behind; the next batch, on another loop, drops it."""
    screens = ChangeScreens()
    message = {"type": "match.changed", "group": "match.1", "version": 7}

    ended = asyncio.new_event_loop()
    ended.call_soon(screens.screen, Socket("Carol"), message)
    ended.call_soon(ended.stop)  # before the batch's turn starts
    ended.run_forever()
    # As pytest-asyncio ends a test's loop: whatever is pending is cancelled.
    pending = asyncio.all_tasks(ended)
    for task in pending:
        task.cancel()
    ended.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    ended.close()
    assert len(screens.open) == 1

    async def ask(socket):
        return await screens.screen(socket, message)

    assert asyncio.run(ask(Socket("Bob"))) == ("game", "Bob at 7", [])
    assert screens.open == {}
