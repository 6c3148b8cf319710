"""Computer opponents, playing through the rules engine's contract (docs/design.md, game/ai)."""
