"""How a web process's interpreter is set up to serve thousands of live sockets.

CPython's cyclic garbage collector stops the process while it runs, and a full collection
walks every object the process holds: with a few hundred live matches that is tens of
milliseconds, and the default thresholds run one every few seconds under load, each one a
stall for every socket of the process. So once the site is loaded:

- ``gc.freeze()`` moves everything made at start-up (modules, settings, URL patterns,
  templates' code) out of the collector's sight for good: none of it becomes garbage.
- The thresholds let far more objects be made between young collections (a request's
  objects are gone by then, rather than promoted to the older generations) and make full
  collections rare.

The code on the hot path leaves little for the collector anyway: the engine's message
rendering and the playmat's selectors make no reference cycles (a test keeps them so), and
everything else is freed by reference counting the moment it is last used.
"""

import gc

YOUNG_COLLECTION_ALLOCATIONS = 10_000
MIDDLE_COLLECTION_EVERY = 50  # young collections
FULL_COLLECTION_EVERY = 100  # middle collections


def interpreter_tune_for_serving() -> None:
    """Call once, after the site is loaded and before it serves."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, MIDDLE_COLLECTION_EVERY, FULL_COLLECTION_EVERY)
