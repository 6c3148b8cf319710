"""Starholds, the platform's second game: a pure library (its rules engine and its first set).

docs/starholds/rules.md summarises the game; nothing here imports Django or a project app.
"""
