"""The Jinja2 environment (settings.TEMPLATES, the "jinja2" engine) of the templates in
templates/jinja2/: the live match screen, which every socket of a match renders anew after
each decision, many times a second on a busy site, where Django's template language costs
several times as much for the same HTML. Its filters are those of Django's that these
templates use."""

from django.urls import reverse
from django.utils.html import escapejs
from django.utils.text import capfirst
from jinja2 import Environment


def environment(**options) -> Environment:
    env = Environment(**options)  # noqa: S701 - the backend turns autoescape on
    env.globals["url"] = url
    env.filters.update(capfirst=capfirst, escapejs=escapejs, yesno=yesno)
    return env


def url(name: str, *args) -> str:
    """``{{ url("app:name", arg) }}``, Django's ``{% url "app:name" arg %}``."""
    return reverse(name, args=args)


def yesno(value, choices: str) -> str:
    """``{{ value|yesno("yes,no") }}``, Django's ``yesno`` filter with two choices."""
    yes, no = choices.split(",")
    return yes if value else no
