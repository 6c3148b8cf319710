"""Database lookups the whole site relies on."""

from django.core.exceptions import EmptyResultSet
from django.db.models import IntegerField
from django.db.models.lookups import In


@IntegerField.register_lookup
class IntegerFieldIn(In):
    """``in`` over an integer column leaves out numbers the column can't hold: no row has
    them, and SQLite raises OverflowError on them. Django guards ``exact``, ``gt`` and the
    like this way (IntegerFieldOverflow) but not ``in``, which the admin's multiple choices
    (players to grant, a format's sets, selected rows) use with ids from the request."""

    def process_rhs(self, compiler, connection):
        if self.rhs_is_direct_value():
            internal_type = self.lhs.output_field.get_internal_type()
            low, high = connection.ops.integer_field_range(internal_type)
            self.rhs = [
                value
                for value in self.rhs
                if not isinstance(value, int)
                or ((low is None or value >= low) and (high is None or value <= high))
            ]
            if not self.rhs:
                raise EmptyResultSet
        return super().process_rhs(compiler, connection)
