"""How the signed-in player is read at the start of each request and socket.

Every page shows the player's avatar, credits and Tournament Timer; read one by one, they are
four queries on every page, more than some pages' own rows. The apps that own that data add it
to the one query that loads the player (``session_user_register``, called once while Django
starts): the Preferences and the wallet joined, the running tournament as a subquery. Only the
page frame relies on what was read there; what must be current reads afresh.

That query runs on every request and every socket that opens, and it is the same query each
time but for the player's id: it is built and compiled once per database (``SessionUserLoad``),
and only run after that: building it took about 7% of a web process's CPU under a crowd.
"""

from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators

from tcgsite.accounts.models import User

SessionUserAdjustment = Callable[[QuerySet[User]], QuerySet[User]]

_adjustments: list[SessionUserAdjustment] = []
# Stands for the player's id while the query is compiled: no account has a negative id.
USER_ID_STANDIN = -7_654_321


def session_user_register(adjustment: SessionUserAdjustment) -> None:
    _adjustments.append(adjustment)
    _loads.clear()


def session_user_queryset() -> QuerySet[User]:
    """Every player, each with what the apps join to the signed-in player."""
    users = User._default_manager.select_related("preferences")
    for adjustment in _adjustments:
        users = adjustment(users)
    return users


class SessionUserLoad:
    """``session_user_queryset().filter(pk=...).first()`` compiled once for one database:
    its SQL, the place of the player's id among its parameters, and how a row becomes the
    player with what is joined to it, as Django's own ModelIterable makes it."""

    def __init__(self, alias: str):
        users = session_user_queryset().filter(pk=USER_ID_STANDIN)
        users = (users if users.ordered else users.order_by("pk"))[:1]
        self.alias = alias
        self.compiler = users.query.get_compiler(using=alias)
        self.sql, parameters = self.compiler.as_sql()
        self.parameters = list(parameters)
        if self.parameters.count(USER_ID_STANDIN) != 1:
            raise RuntimeError(f"the player's id is not one parameter of {self.sql}")
        self.user_id_at = self.parameters.index(USER_ID_STANDIN)
        select, klass_info = self.compiler.select, self.compiler.klass_info
        fields = klass_info["select_fields"]
        self.user_columns = slice(fields[0], fields[-1] + 1)
        self.attnames = [column[0].target.attname for column in select[self.user_columns]]
        self.joined = get_related_populators(klass_info, select, alias)
        self.annotations = dict(self.compiler.annotation_col_map or {})

    def load(self, user_id: int) -> User | None:
        parameters = list(self.parameters)
        parameters[self.user_id_at] = user_id
        with connections[self.alias].cursor() as cursor:
            cursor.execute(self.sql, parameters)
            row = cursor.fetchone()
        if row is None:
            return None
        [row] = self.compiler.results_iter([[row]])  # the fields' converters
        user = User.from_db(self.alias, self.attnames, row[self.user_columns])
        for joined in self.joined:
            joined.populate(row, user)
        for name, column in self.annotations.items():
            setattr(user, name, row[column])
        return user


_loads: dict[str, SessionUserLoad] = {}


def session_user(user_id) -> User | None:
    """The player signed in as ``user_id``, with what the apps joined to it; None if gone."""
    alias = DEFAULT_DB_ALIAS
    if alias not in _loads:
        _loads[alias] = SessionUserLoad(alias)
    return _loads[alias].load(User._meta.pk.to_python(user_id))
