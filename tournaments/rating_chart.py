"""The small line chart of a player's rating on their rating history page, laid out here and drawn
by the template as SVG (no script: the Content-Security-Policy allows none inline, and a
server-drawn chart needs none).

The horizontal axis counts rated matches, oldest first, from the rating before the first one:
a tournament plays several matches within an hour and then none for days, and a time axis
would squeeze each tournament into a vertical line.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH = 640
HEIGHT = 220
# Room for the rating labels on the left and the dates below.
LEFT, RIGHT, TOP, BOTTOM = 60, 12, 14, 30
# Round steps for the rating axis: the first that needs at most MAX_TICKS lines is used.
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_TICKS = 5
# Past this many matches the dots would touch: the line alone reads better.
MAX_DOTS = 80


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Tick:
    y: float
    rating: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # an SVG polyline's points
    area: str  # the polygon under the line
    dots: tuple[Dot, ...]
    ticks: tuple[Tick, ...]
    left: int
    right: float
    bottom: float
    first_date: str
    last_date: str


@dataclass(frozen=True)
class Point:
    """A rated match: when, and the rating before and after it."""

    when: datetime
    before: int
    after: int


def rating_chart(points: Sequence[Point]) -> Chart | None:
    """The chart of ``points`` (oldest first), or None without any."""
    if not points:
        return None
    ratings = [points[0].before, *(point.after for point in points)]
    step = next(
        (step for step in STEPS if max(ratings) // step - min(ratings) // step + 2 <= MAX_TICKS),
        STEPS[-1],
    )
    low = min(ratings) // step * step
    high = (max(ratings) // step + 1) * step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + (right - LEFT) * index / (len(ratings) - 1), 1)

    def y(rating: int) -> float:
        return round(bottom - (bottom - TOP) * (rating - low) / (high - low), 1)

    corners = [(x(index), y(rating)) for index, rating in enumerate(ratings)]
    line = " ".join(f"{cx},{cy}" for cx, cy in corners)
    dots = ()
    if len(points) <= MAX_DOTS:
        dots = tuple(
            Dot(
                x=corners[number][0],
                y=corners[number][1],
                label=f"{point.when:%Y-%m-%d}: {point.before} → {point.after} "
                f"({point.after - point.before:+d})",
            )
            for number, point in enumerate(points, start=1)
        )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        line=line,
        area=f"{LEFT},{bottom} {line} {right},{bottom}",
        dots=dots,
        ticks=tuple(Tick(y=y(rating), rating=rating) for rating in range(low, high + 1, step)),
        left=LEFT,
        right=right,
        bottom=bottom,
        first_date=f"{points[0].when:%Y-%m-%d}",
        last_date=f"{points[-1].when:%Y-%m-%d}",
    )
