"""The engine's errors: each carries a message fit to show the player."""


class IllegalAction(ValueError):
    """The action is not one of the legal actions now; the state did not change."""


class InvalidDecklist(ValueError):
    """A decklist breaks the deck rules (docs/starholds/rules.md, "Decks")."""


class GameOver(IllegalAction):
    """The game has ended: no action is legal any more."""
