"""The rules engine: pure Python that imports nothing from Django (DESIGN.md, "The rules
engine contract"). State is plain data, randomness comes from a seed, so a seed and the
applied actions reproduce a game exactly."""
