"""What the engine raises at a client's mistake: an illegal action, a decklist it can't seat.

These derive from ``ValueError``, which compiled modules can't subclass (``make engine``), so
they live in a module of their own that stays Python.
"""


class InvalidDecklist(ValueError):
    """A decklist the engine can't seat: not an avatar, no quests, a quest in the deck, ..."""


class IllegalAction(ValueError):
    """An action the rules don't allow now; the state is left unchanged."""


class GameOver(IllegalAction):
    """The game has ended; no action is possible."""


class UnknownAction(IllegalAction):
    """Not an action of the vocabulary (not a dict, or an unknown kind)."""


class NotNow(IllegalAction):
    """A kind of action the pending decision doesn't take (a raid during combat, ...)."""


class NotAllowed(IllegalAction):
    """The right kind of action, but not one of the legal choices (a card that costs too much,
    a card not in hand, a quest already raided from, ...)."""


class InvalidPosition(ValueError):
    """A position the rules don't allow (``game.engine.positions``): what is wrong, in words."""
