"""Starholds is a pure library (docs/design.md, "How code is written"): it imports nothing of
Django's nor of any app, and keeps no mutable state at module level (it runs on many threads)."""

from tests.pure_libraries import apps_imported, modules_of, mutable_module_state


def test_starholds_imports_nothing_of_django_nor_of_any_app():
    assert modules_of("starholds")
    assert apps_imported("starholds") == []


def test_no_module_keeps_mutable_state():
    assert mutable_module_state("starholds") == []
