"""The one base of every error a player (or a staff member) can cause.

A service raises a subclass with the message to show; every edge (a view, an htmx fragment, a
websocket consumer, an admin action) catches ``UserError`` and shows that message, never a 500.
Errors that are the code's fault stay ordinary exceptions.
"""


class UserError(Exception):
    """Something the user asked for that can't be done; ``message`` says why, for them."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
