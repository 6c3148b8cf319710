"""The Events Calendar (rulebook, "Types of Tournament Queues": "You can find a list of upcoming
scheduled tournaments in the Events Calendar") and its iCalendar feed.

Both are public: the scheduled events are no secret, and a calendar application that
subscribes to the feed cannot log in.
"""

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone

from tournaments import ical, selectors

FEED_PRODUCT = "-//Galaxies TCG//Events Calendar//EN"
FEED_NAME = "Galaxies TCG Events Calendar"
FEED_FILE = "galaxies-tcg-events.ics"


def calendar_page(request):
    return render(
        request,
        "tournaments/calendar.html",
        {
            "events": selectors.calendar_events(now=timezone.now()),
            "feed_url": request.build_absolute_uri(reverse("tournaments:calendar_feed")),
        },
    )


def calendar_feed(request):
    page = request.build_absolute_uri(reverse("tournaments:calendar"))
    # The queue's number makes the UID; the host keeps it unique beyond this site (RFC 5545,
    # 3.8.4.7).
    events = [
        ical.Event(
            uid=f"queue-{event.queue.pk}@{request.get_host()}",
            stamp=event.queue.created,
            start=event.queue.starts_at,
            end=event.ends_at,
            summary=event.queue.full_title,
            description=event.description,
            url=f"{page}#queue-{event.queue.pk}",
        )
        for event in selectors.calendar_events(now=timezone.now())
    ]
    response = HttpResponse(
        ical.calendar(events, product=FEED_PRODUCT, name=FEED_NAME),
        content_type="text/calendar; charset=utf-8",
    )
    # A browser saves the file under this name (Chromium never shows a calendar inline); a
    # calendar application subscribed to the address reads it all the same.
    response["Content-Disposition"] = f'attachment; filename="{FEED_FILE}"'
    return response


urlpatterns = [
    path("events/", calendar_page, name="calendar"),
    path("events/calendar.ics", calendar_feed, name="calendar_feed"),
]
