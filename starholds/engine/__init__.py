"""Starholds' rules engine: pure, deterministic, thread-safe (no module-level mutable state).

The contract lives in ``starholds.engine.api``; the card vocabulary in
``starholds.engine.vocabulary`` (docs/starholds/vocabulary.md).
"""
