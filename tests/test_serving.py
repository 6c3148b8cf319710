"""The web process's interpreter, tuned to serve many live sockets (tcgsite/serving.py)."""

import gc
import importlib

from tcgsite.serving import (
    FULL_COLLECTION_EVERY,
    MIDDLE_COLLECTION_EVERY,
    YOUNG_COLLECTION_ALLOCATIONS,
    interpreter_tune_for_serving,
)

CPYTHON_DEFAULTS = (700, 10, 10)
TUNED = (YOUNG_COLLECTION_ALLOCATIONS, MIDDLE_COLLECTION_EVERY, FULL_COLLECTION_EVERY)


def watched_by_the_collector(value) -> bool:
    # gc.get_objects() lists the three generations a collection walks, not the frozen ones.
    return any(each is value for each in gc.get_objects())


def test_start_up_objects_are_frozen_and_collections_are_rarer(interpreter_restored):
    gc.unfreeze()
    made_at_start_up = [[] for _ in range(3)]
    assert watched_by_the_collector(made_at_start_up)

    interpreter_tune_for_serving()

    assert not watched_by_the_collector(made_at_start_up)
    assert gc.get_threshold() == TUNED
    assert all(tuned > default for tuned, default in zip(TUNED, CPYTHON_DEFAULTS, strict=True))


def test_the_site_s_asgi_application_tunes_its_process(settings, interpreter_restored):
    settings.EMBEDDED_BEAT = False
    gc.unfreeze()
    gc.set_threshold(*CPYTHON_DEFAULTS)

    importlib.reload(importlib.import_module("tcgsite.asgi"))

    assert gc.get_threshold() == TUNED
    assert gc.get_freeze_count() > 0
