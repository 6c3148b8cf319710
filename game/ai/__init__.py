"""Computer opponents, playing through the rules engine's contract (DESIGN.md, game/ai)."""
