"""Pure helpers both games share, Star Wars Galaxies (``game/engine``, ``game/ai``) and
Starholds (``starholds/``): nothing of Django's, no app, no module state."""
