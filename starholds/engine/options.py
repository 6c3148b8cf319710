"""The optional rules and variations a match may turn on: none is required by the core game,
and the defaults are the rulebook's standard game plus the stall rule
(docs/starholds/choices.md, "The stall rule")."""

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True, slots=True)
class Options:
    """``round_limit``: after this many complete turns (rounds) the game ends and the player
    whose Sector HQ took the least damage wins (ties: a draw between them). ``hq_strength``: the
    damage that destroys a Sector HQ (Victory Conditions: 25). ``celebration``: the Sector HQ
    damage of one volley that earns a victory celebration draw (6). ``opening_hand``: cards
    drawn at set-up (9)."""

    round_limit: int = 40
    hq_strength: int = 25
    celebration: int = 6
    opening_hand: int = 9

    def __post_init__(self) -> None:
        for option in fields(self):
            value = getattr(self, option.name)
            if type(value) is not int or value < 1:
                raise ValueError(f"option {option.name} must be a positive whole number")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "Options":
        return cls(**(data or {}))
