"""The posted trades board's rows (``{% posted_board_results %}``), drawn by one Jinja2
template (templates/jinja2/trades/_posted_board_results.html): fifty rows through Django's
template language cost many times what their data did."""

from django import template
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince

register = template.Library()


def detail_prefix() -> str:
    """The address of a listing without its number: "/trades/posted/"."""
    return reverse("trades:posted_detail", args=[1]).removesuffix("1/")


@register.simple_tag(takes_context=True)
def posted_board_results(context) -> SafeString:
    """``{% posted_board_results %}``: the page's ``page`` of trades, with its ``search`` and
    ``only_acceptable`` carried by the pager's links."""
    page = context["page"]
    now = timezone.now()
    html = get_template("trades/_posted_board_results.html", using="jinja2").render(
        {
            "page": page,
            "search": context.get("search", ""),
            "only_acceptable": context.get("only_acceptable", False),
            "ages": {trade.pk: timesince(trade.created_at, now) for trade in page.object_list},
            "detail_prefix": detail_prefix(),
            "board_url": reverse("trades:posted_board"),
        },
        context.get("request"),
    )
    return mark_safe(html)  # noqa: S308 - Jinja escaped every value it drew
