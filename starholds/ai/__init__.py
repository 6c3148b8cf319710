"""Starholds' computer players (random and greedy, for any number of seats) and the arena that
plays whole games between them, every invariant checked after every action."""
