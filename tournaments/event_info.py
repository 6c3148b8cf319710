"""What the Events Calendar says about a scheduled event, in words (rulebook, "Understanding the
Tournament Information": "You can always reference the Events Calendar for more details"): its
facts, column by column. The calendar page and its iCalendar feed both read them from here, so
the two never disagree.

Nothing here queries the database: ``event_facts`` reads a queue's fields, loaded with its Pack
Pool and play format.
"""

from datetime import datetime, timedelta

from tournaments import pairing
from tournaments.models import EventRules, TournamentKind, TournamentQueue, TournamentStructure


def counted(number: int, noun: str) -> str:
    """``number`` of ``noun``: 1 starter deck, 3 starter decks, 2 event passes."""
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}{'es' if noun.endswith('ss') else 's'}"


def clock(moment: datetime) -> str:
    """A time of day as the calendar writes it, in UTC (the site's time zone)."""
    return f"{moment:%H:%M} UTC"


def entry_fee(queue: TournamentQueue) -> str:
    """The event passes, and a Sealed event's unopened products, each player brings."""
    parts = [counted(queue.entry_passes, "event pass")] if queue.entry_passes else []
    if queue.kind == TournamentKind.SEALED:
        if queue.sealed_starters:
            parts.append(counted(queue.sealed_starters, "starter deck"))
        if queue.sealed_boosters:
            pack = queue.pack_pool.name if queue.pack_pool else "booster pack"
            parts.append(f"{queue.sealed_boosters} × {pack}")
    if not parts:
        return "Free"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def style_text(rules: EventRules) -> str:
    """The style with its game clock; combined styles, each with its own."""
    if rules.styles_combined:
        return (
            f"{rules.swiss_style_label} in the Swiss rounds, a {rules.clock_minutes}-minute game "
            f"clock; {rules.bracket_style_label} in the top 8, a {rules.bracket_clock_minutes}-"
            "minute game clock"
        )
    return f"{rules.style_label}, a {rules.clock_minutes}-minute game clock"


def round_time_text(rules: EventRules) -> str:
    if rules.bracket_round_minutes != rules.swiss_round_minutes:
        return (
            f"{rules.swiss_round_minutes} minutes a Swiss round, "
            f"{rules.bracket_round_minutes} a top-8 round"
        )
    return f"{rules.swiss_round_minutes} minutes"


def event_facts(
    queue: TournamentQueue, *, rounds: int, ends_at: datetime
) -> tuple[tuple[str, str], ...]:
    """The facts of a scheduled queue as (label, value) pairs, in the lobby's column order,
    after its start (the page and the feed show that apart).
    ``rounds`` are those of a field of ``max_players``: a scheduled event has no cap, and
    unless staff set a Swiss's rounds, more players play more rounds."""
    rounds_text = str(rounds)
    if queue.structure == TournamentStructure.CUT_TO_TOP_8 and queue.rounds:
        cut = rounds - queue.rounds
        rounds_text = (
            f"{queue.rounds} Swiss rounds, then a top 8 of {cut} (fewer with fewer players)"
        )
    elif queue.rounds is None or queue.structure != TournamentStructure.SWISS:
        rounds_text += f" with {queue.max_players} players (more players, more rounds)"
    facts = [
        ("Queue opens", clock(queue.opens_at)),
        ("Ends by", f"{clock(ends_at)} at the latest"),
        ("Type", queue.type_label),
        ("Structure", queue.get_structure_display()),
        ("Style", style_text(queue)),
        ("Entry fee", entry_fee(queue)),
        ("Players", "Any number: it starts on time however many have joined"),
        ("Rounds", rounds_text),
        ("Time per round", round_time_text(queue)),
        ("K", str(queue.k)),
        ("Pack Pool", queue.pack_pool.name if queue.pack_pool else "None"),
        ("Reward Structure", queue.reward_structure or "None"),
    ]
    if queue.kind == TournamentKind.SEALED:
        facts.insert(4, ("Deck building", f"{queue.sealed_minutes} minutes before round 1"))
    return tuple(facts)


def event_end(queue: TournamentQueue, *, rounds: int) -> datetime:
    """When a scheduled event is over at the latest (rulebook, "Time": the total "may be as
    long as this length multiplied by the number of rounds"), after a Sealed event's deck
    building."""
    building = queue.sealed_minutes if queue.kind == TournamentKind.SEALED else 0
    bracket_rounds = (
        pairing.swiss_round_count(min(queue.max_players, pairing.CUT_SIZE))
        if queue.structure == TournamentStructure.CUT_TO_TOP_8
        else 0
    )
    return (
        queue.starts_at
        + timedelta(minutes=building)
        + (rounds - bracket_rounds) * queue.round_length
        + bracket_rounds * queue.bracket_round_length
    )


def feed_description(queue: TournamentQueue, facts, tiers) -> str:
    """The feed's DESCRIPTION: the facts a line each, then what a field of ``max_players`` is
    paid (``tiers``: tournaments.selectors.reward_tiers) and the Sprint marker."""
    lines = [f"{label}: {value}" for label, value in facts]
    if tiers:
        paid = ", ".join(
            f"{tier.places} {counted(tier.packs, 'pack')}{' each' if tier.starred else ''}"
            for tier in tiers
        )
        lines.append(f"Rewards with {queue.max_players} players: {paid}")
    if queue.sprint:
        lines.append("Sprint tournament: entrants earn Sprint points.")
    return "\n".join(lines)
