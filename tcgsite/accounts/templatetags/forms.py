from django import template

register = template.Library()


@register.filter
def field(form, name: str):
    """The bound field ``name`` of ``form``, for templates that lay fields out in groups."""
    return form[name]
