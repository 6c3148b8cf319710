"""Player Tips (rulebook, "Player Tips"): a tip is a line of text, or a line that also leads
somewhere (``Tip``); templates/_tips.html shows both."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Tip:
    text: str
    # The link's words and its address.
    link: tuple[str, str] | None = None

    def __str__(self) -> str:
        return self.text
