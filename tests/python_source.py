"""Python source parsed for the tests that read the project's own code."""

import ast

PARSE_ATTEMPTS = 3


def parsed(source: str) -> ast.Module:
    """``ast.parse(source)``, tried again on CPython 3.11's spurious "AST constructor recursion
    depth mismatch": 3.11 counts that recursion in state its threads share, so another thread
    of the test process (a live server's) building an AST at the same moment can fail a parse
    that is sound (python/cpython#106905)."""
    for _ in range(PARSE_ATTEMPTS - 1):
        try:
            return ast.parse(source)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error):
                raise
    return ast.parse(source)
