"""The tests' parser of the project's code (tests/python_source.py)."""

import ast

import pytest

from tests import python_source


def test_a_parse_failed_by_the_shared_recursion_count_is_tried_again(monkeypatch):
    failures = [SystemError("AST constructor recursion depth mismatch (before=123, after=90)")]
    parse = ast.parse

    def flaky_parse(source):
        if failures:
            raise failures.pop()
        return parse(source)

    monkeypatch.setattr(python_source.ast, "parse", flaky_parse)
    assert isinstance(python_source.parsed("x = 1").body[0], ast.Assign)


def test_any_other_failure_is_raised():
    with pytest.raises(SyntaxError):
        python_source.parsed("x = (")
