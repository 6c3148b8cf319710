"""The Jinja2 environment (settings.TEMPLATES, the "jinja2" engine) of the templates in
templates/jinja2/: the live match screen, which every socket of a match renders anew after
each decision, many times a second on a busy site, where Django's template language costs
several times as much for the same HTML. Its filters are those of Django's that these
templates use."""

from functools import lru_cache

import jinja2
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import escapejs
from django.utils.module_loading import import_string
from django.utils.text import capfirst


class Environment(jinja2.Environment):
    """Jinja's environment, except that ``a.b`` reads a dict's key ``b`` before any attribute
    of that name: the match screen's data are dicts, and Jinja first tries the attribute,
    whose failure (an exception raised and caught) came with every field shown. So
    ``player.items`` is the player's key "items", not the dict's method."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(*, filters: dict[str, str] | None = None, **options) -> Environment:
    """The environment, with ``filters`` (name: dotted path, the settings' OPTIONS) added to
    Django's that these templates use."""
    # Django's backend leaves a missing value visible ("{{ no such element }}") when DEBUG is
    # on; the screen shows what production shows, whichever setting built the environment.
    options["undefined"] = jinja2.Undefined
    env = Environment(**options)  # noqa: S701 - the backend turns autoescape on
    env.globals["url"] = url
    env.filters.update(capfirst=capfirst, escapejs=escapejs, yesno=yesno)
    env.filters.update({name: import_string(path) for name, path in (filters or {}).items()})
    return env


def url(name: str, *args) -> str:
    """``{{ url("app:name", arg) }}``, Django's ``{% url "app:name" arg %}``."""
    return _reversed(name, args, get_urlconf(), get_script_prefix())


# The screens ask for the same few addresses of the same matches over and over.
@lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple, urlconf: str | None, script_prefix: str) -> str:
    return reverse(name, args=args, urlconf=urlconf)


def yesno(value, choices: str) -> str:
    """``{{ value|yesno("yes,no") }}``, Django's ``yesno`` filter with two choices."""
    yes, no = choices.split(",")
    return yes if value else no
