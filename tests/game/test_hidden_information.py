"""Hidden information never reaches a browser that may not see it (docs/design.md, "Live play" and
"The rules engine contract"; the issue: "Each seat receives only its own view and observers
only the public view, rendered on the server. Nothing hidden (hands, deck order, the
opponent's quest pile, a card drawn face down) is ever sent to a browser that may not see it,
in HTML, JSON, attributes, ids or timing of messages").

The method. Whole Practice matches are played through the match page's socket, as browsers
play them: both players and an observer are connected with a WebsocketCommunicator, and the
deciding seat's socket sends each decision (``{"type": "act", ...}``), chosen among the legal
ones by a seeded ``random.Random``; the service's deal and game seeds are seeded too, so every
run plays the same games. Every fragment each of the three sockets receives is kept, and so is
the match page each of them would load. After each accepted decision the full state is read
from the database (``Game.state``), and for each viewer (seat 0, seat 1, the observer) the test
works out, without the engine's views or its ``redact``:

- the cards hidden from that viewer now: both decks (contents and order are hidden from their
  owner too), the other seat's hand and quest pile (for an observer: both hands and both quest
  piles); but a player searching his own deck is shown the cards he may take;
- the titles of which every copy in the game is hidden from that viewer and that the viewer
  has not been shown in this game: a title is shown once a copy was where the viewer sees it,
  or when the rules reveal it on its way into a hand (a card searched for, returned from play
  or from a discard pile, created).

Every fragment the viewer received is then searched for the ids of its hidden cards wherever
an id can be (``data-card``, ``data-action-card``, any ``data-*`` attribute or element ``id``,
the action JSON in a button's ``hx-vals``) and for those titles and their faces
(``/cards/<set>/<number>.svg``). The opposite is checked too, so the test cannot pass by
looking in the wrong place: each seat's own hand, and the cards in play, are in its fragments.
Every decision brings each socket exactly one fragment, whatever was drawn. Two self-tests
break the rule on purpose (the observer's socket shows seat 0's view; the game messages name
every card drawn) and the detector must catch each.
"""

import html
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils.html import escapejs

import game.consumers
from game.engine import api as engine
from game.models import Game, Match, MatchSeat, MatchStatus, MatchStructure
from game.selectors import game_state, match_screen
from game.services import matches
from game.services.matches import (
    MatchSettings,
    match_concede,
    match_create,
    match_first_choose,
    match_join,
    match_ready,
)
from tests.channel_layers import IN_MEMORY_LAYER
from tests.factories import UserFactory
from tests.game.conftest import SeededSecrets

OBSERVER = None
VIEWERS = (0, 1, OBSERVER)
# The matches played, one after the other: a Best of Three whose first and third games are
# conceded once each has had CONCEDED_AFTER actions (so new games begin on open sockets) and
# whose second is played out, with Pass When Out of Actions; then two Single Games, without
# and with it. Each decision costs a tenth of a second or more (three sockets' screens), and a
# random game may last 50 decisions or 600: DEAL_SEED (the service's deals, game seeds and
# salts) is one under which these five games take about 420 decisions and meet every kind of
# decision in EVERY_KIND. Another seed, or more matches, plays other games.
MATCHES = (
    (MatchStructure.BEST_OF_THREE, True),
    (MatchStructure.SINGLE_GAME, False),
    (MatchStructure.SINGLE_GAME, True),
)
DEAL_SEED = 1080
CONCEDED_AFTER = 30
# The kinds of decision the matches take, at least: the engine's, searching the deck, and the
# match's own.
EVERY_KIND = frozenset(
    {
        "keep",
        "redraw",
        "attempt_quest",
        "apply_ability",
        "play",
        "raid",
        "done",
        "exert",
        "play_tactic",
        "pass",
        "assign_damage",
        "activate",
        "choose",
        "search",
        "concede",
        "choose who goes first",
    }
)
# A decision other than pass or done, most of the time: the games meet every kind of decision.
BUSY = 0.7
# Where the match page sees the screen it shows, and which game.
PLY = re.compile(r'data-ply="(\d+)"')
GAME_NUMBER = re.compile(r"Match \d+, game (\d+)")
# An attribute as the templates write it: name="value" or name='value'.
ATTRIBUTE = re.compile(r"""([\w:-]+)=(?:"([^"]*)"|'([^']*)')""")
# The attributes that hold card ids, and where in their value: the whole value, or the part a
# pattern's group matches. A button's ``hx-vals`` holds its action's JSON; an element ``id``
# is read as ids throughout. Any other ``data-*`` attribute whose value is a whole number is
# read as a card id too, unless it is one of NOT_CARD_ATTRIBUTES.
CARD_ID_ATTRIBUTES = {
    "data-card": re.compile(r"(\d+)"),
    "data-action-card": re.compile(r"(\d+)"),
    "data-quest": re.compile(r"(\d+)"),
    "data-action-quest": re.compile(r"(\d+)"),
    "data-zone": re.compile(r"units-(\d+)-"),  # a quest's units: units-<quest>-<seat>
    "data-watch": re.compile(r"tokens-(\d+)-"),  # a quest meter: tokens-<quest>-<near/far>
}
# data-copies: how many copies in the deciding player's own hand a Prompt button stands for.
NOT_CARD_ATTRIBUTES = frozenset(
    {
        "data-ply",
        "data-seat",  # a team playmat's mini-map names its players by seat
        "data-clock-ms",
        "data-sender",
        "data-damage",
        "data-exerted",
        "data-copies",
        "data-volume",  # the player's sound and music volumes (templates/_sounds.html)
        "data-music-volume",
        "tabindex",
    }
)
# Keys of an action that hold something other than a card id (``activate``'s "action" is the
# index of the card's activated action).
NOT_CARD_KEYS = frozenset({"action", "attribute", "kind"})
# The engine's events that reveal a card going into a hand.
REVEALING_EVENTS = frozenset({"searched", "returned", "recovered", "card_created"})


@pytest.fixture
def layer(settings):
    """The in-memory layer only: what a socket is sent does not depend on the layer."""
    settings.CHANNEL_LAYERS = IN_MEMORY_LAYER
    return IN_MEMORY_LAYER


@pytest.fixture
def seeded_deals(monkeypatch):
    monkeypatch.setattr(matches, "secrets", SeededSecrets(DEAL_SEED))


# What a fragment names: card ids and titles

SEAT_IN_ID = re.compile(r"seat\d+")


def card_ids(fragment: str) -> set[tuple[str, int]]:
    """Each card id a fragment gives, with the attribute it is in (CARD_ID_ATTRIBUTES)."""
    found = set()
    for name, double_quoted, single_quoted in ATTRIBUTE.findall(fragment):
        value = html.unescape(double_quoted or single_quoted)
        if name in CARD_ID_ATTRIBUTES:
            found |= {(name, int(card)) for card in CARD_ID_ATTRIBUTES[name].findall(value)}
        elif name == "id":
            # A team playmat's rows are named by seat (mat-row-seat1), not by card.
            unseated = SEAT_IN_ID.sub("", value)
            found |= {(name, int(number)) for number in re.findall(r"\d+", unseated)}
        elif name == "hx-vals":
            sent = json.loads(value)
            if "action" in sent:
                found |= {(f"hx-vals {key}", card) for key, card in action_ids(sent["action"])}
        elif name.startswith("data-") and name not in NOT_CARD_ATTRIBUTES and value.isdigit():
            found.add((name, int(value)))
    return found


def action_ids(action: str) -> set[tuple[str, int]]:
    """The card ids of an action as a button sends it (JSON in a string)."""
    found = set()
    for key, value in json.loads(action).items():
        values = value if isinstance(value, list) else [value]
        if key not in NOT_CARD_KEYS:
            found |= {(key, card) for card in values if isinstance(card, int)}
    return found


def mentions(text: str, title: str, titles: set[str]) -> bool:
    """Whether ``text`` names ``title`` other than inside a longer title that contains it."""
    if title not in text:
        return False
    longer = [other for other in titles if title in other and other != title]
    covered = [match.span() for other in longer for match in re.finditer(re.escape(other), text)]
    return any(
        not any(start <= found.start() and found.end() <= end for start, end in covered)
        for found in re.finditer(re.escape(title), text)
    )


# What each viewer may see, from the full state


def hidden_cards(state, viewer: int | None) -> set[int]:
    """The cards hidden from ``viewer`` (a seat, or None for an observer) now."""
    hidden = set()
    for seat, player in enumerate(state.seats):
        hidden |= set(player.deck)
        if seat != viewer:
            hidden |= set(player.hand) | set(player.quest_pile)
    return hidden - searched(state, viewer)


def searched(state, viewer: int | None) -> set[int]:
    """The cards of his own deck a player may take while an effect has him search it (glossary,
    "search": "Search your deck for a matching card, reveal it, put it in your hand")."""
    decision = engine.legal_actions(state)
    if viewer is None or decision.seat != viewer or decision.kind != "choose":
        return set()
    return set(state.pending[0]["choice"]["candidates"]) & set(state.seats[viewer].deck)


def title_of(state, card: int) -> str:
    return state.definitions[state.cards[card].definition]["title"]


def titles_revealed(state, events: list[dict]) -> set[str]:
    """The titles the rules reveal to everybody on a card's way into a hand: a card searched
    for (glossary, "search": "reveal it"), one returned from play or from a discard pile, one
    created (smuggle)."""
    return {title_of(state, event["card"]) for event in events if event["type"] in REVEALING_EVENTS}


def where(state, card: int) -> str:
    for seat, player in enumerate(state.seats):
        for zone in ("hand", "deck", "quest_pile"):
            if card in getattr(player, zone):
                return f"seat {seat}'s {zone.replace('_', ' ')}"
    return "a public place"


@dataclass
class Finding:
    viewer: int | None
    position: tuple[int, int]  # (game number, decisions applied)
    what: str

    def __str__(self):
        who = "the observer" if self.viewer is None else f"seat {self.viewer}"
        return f"game {self.position[0]}, ply {self.position[1]}, {who} received {self.what}"


@dataclass
class Detector:
    """Holds what each viewer receives against what the full state hides from them."""

    faces: dict[str, list[int]]
    findings: list[Finding] = field(default_factory=list)
    shown: dict = field(default_factory=dict)  # the titles each viewer was shown this game
    fragments: int = 0

    def new_game(self):
        self.shown = {viewer: set() for viewer in VIEWERS}

    def check(self, state, events: list[dict], position, received: dict) -> None:
        """``events``: those since the last check (a new game's setup at its start);
        ``received``: each viewer's fragments since then, the last showing ``state``."""
        every_card = range(len(state.cards))
        titles = {title_of(state, card) for card in every_card}
        revealed = titles_revealed(state, events)
        for viewer in VIEWERS:
            hidden = hidden_cards(state, viewer)
            seen = {title_of(state, card) for card in every_card if card not in hidden}
            self.shown[viewer] |= revealed | seen
            secret = {title_of(state, card) for card in hidden} - self.shown[viewer]
            for fragment in received[viewer]:
                self.fragments += 1
                for what in leaks(state, fragment, hidden, secret, titles, self.faces):
                    self.findings.append(Finding(viewer, position, what))
            for what in missing(state, received[viewer][-1], viewer):
                self.findings.append(Finding(viewer, position, what))


def leaks(state, fragment: str, hidden: set[int], secret: set[str], titles, faces) -> list[str]:
    """What ``fragment`` gives away: the ids of ``hidden`` cards, the ``secret`` titles and
    their faces."""
    found = [
        f"the id {card} of {title_of(state, card)} ({where(state, card)}) in {attribute}"
        for attribute, card in sorted(card_ids(fragment))
        if card in hidden
    ]
    text = html.unescape(fragment)
    for title in sorted(secret):
        face = faces.get(title)
        shown = []
        if mentions(text, title, titles):
            shown.append("the title")
        if face and reverse("cards:card_face", args=face) in text:
            shown.append("the face of")
        if shown:  # where the copies are, worked out only to say so
            copies = ", ".join(
                where(state, card)
                for card in range(len(state.cards))
                if title_of(state, card) == title
            )
            found += [f"{what} {title!r}, every copy hidden ({copies})" for what in shown]
    return found


def missing(state, fragment: str, viewer: int | None) -> list[str]:
    """The opposite check, that the detector looks where the cards are: the viewer's own hand
    (a seat's) and the cards in play (avatars, quests) are in its screen, by id and title."""
    ids = {card for _, card in card_ids(fragment)}
    text = html.unescape(fragment)
    own = [] if viewer is None else state.seats[viewer].hand
    in_play = [player.avatar for player in state.seats] + [quest.card for quest in state.quests]
    return [
        f"no sign of card {card}, {title_of(state, card)} ({where(state, card)}), which it sees"
        for card in own + in_play
        if card not in ids or title_of(state, card) not in text
    ]


# Playing whole matches through the sockets


@database_sync_to_async
def practice_match(number: int, structure: int, autopass: bool):
    """A Practice match of two new players, begun, and a third player to watch it; with
    ``autopass``, both players pass when out of actions (Preferences)."""
    host, guest, watcher = (
        UserFactory(username=f"{name}{number}") for name in ("Host", "Guest", "Watcher")
    )
    for player in (host, guest):
        player.preferences.pass_when_out_of_actions = autopass
        player.preferences.save(update_fields=["pass_when_out_of_actions"])
    settings = MatchSettings(practice=True, structure=structure)
    match = match_create(host=host, deck=None, settings=settings)
    match_join(match_id=match.pk, player=guest, deck=None)
    match_ready(match_id=match.pk, player=host)
    match_ready(match_id=match.pk, player=guest)
    seats = list(match.seats.select_related("player").order_by("seat"))
    faces = {title: face for seat in seats for title, face in seat.faces.items()}
    return match, {0: seats[0].player, 1: seats[1].player, OBSERVER: watcher}, faces


@database_sync_to_async
def match_now(match: Match) -> tuple[Match, Game]:
    """The match as it stands and its current game."""
    match.refresh_from_db()
    return match, match.games.order_by("-number").first()


@database_sync_to_async
def events_after(game: Game, ply: int) -> list[dict]:
    """The events of the game's decisions after the first ``ply``."""
    decisions = game.actions.filter(number__gt=ply).order_by("number")
    return [event for events in decisions.values_list("events", flat=True) for event in events]


@database_sync_to_async
def logged_in(user) -> Client:
    """A browser of ``user``'s (a test client, logged in), to load pages with: one per
    viewer, since a new client sets up the site's middleware again."""
    client = Client()
    client.force_login(user)
    return client


@database_sync_to_async
def match_page(match: Match, client: Client) -> str:
    """The match page as the browser of ``client`` loads it."""
    return client.get(reverse("game:match_page", args=[match.pk])).content.decode()


def position_of(fragment: str) -> tuple[int, int] | None:
    """The (game number, decisions applied) of the screen in ``fragment``, if it has one."""
    ply = PLY.search(fragment)
    if ply is None:
        return None
    number = GAME_NUMBER.search(fragment)
    return (int(number.group(1)) if number else 1, int(ply.group(1)))


async def next_screen(page) -> list[str]:
    """The fragments ``page`` receives up to the next that shows the match's screen (the
    whole screen, with the regions the frame changed swapped in)."""
    received = []
    while True:
        # The time-out is never reached in a passing run: it would cancel the consumer.
        message = await page.communicator.receive_output(timeout=10)
        assert message["type"] == "websocket.send", message
        # A frame of the screen's changed regions, as the page shows it: in the whole screen.
        fragment = page.shown(message["text"])
        assert 'role="alert" hx-swap-oob' not in fragment, fragment  # a refused decision
        received.append(fragment)
        if position_of(fragment) is not None:
            return received


def choose(chooser: random.Random, actions: list[dict]) -> dict:
    busy = [action for action in actions if action["kind"] not in ("pass", "done")]
    return chooser.choice(busy if busy and chooser.random() < BUSY else actions)


@dataclass
class Played:
    detector: Detector
    games: int = 0
    decisions: int = 0
    pages: int = 0
    kinds: Counter = field(default_factory=Counter)  # the kinds of decision taken
    fragments_per_decision: set = field(default_factory=set)


async def play_match(open_page, number: int, structure: int, autopass: bool, limit=None):
    """Play a Practice match to its end (or ``limit`` decisions), checking what each viewer
    receives after every decision, and the page each would load every 50 decisions.

    A decision is a legal action sent by the deciding seat's socket; in a Best of Three, a
    concession once the first or third game has had CONCEDED_AFTER actions; between two
    games, the loser's choice of who goes first."""
    match, viewers, faces = await practice_match(number, structure, autopass)
    path = f"/ws/match/{match.pk}/"
    pages = {viewer: await open_page(user, path) for viewer, user in viewers.items()}
    browsers = {viewer: await logged_in(user) for viewer, user in viewers.items()}
    played = Played(detector=Detector(faces=faces))
    chooser = random.Random(number)
    received = {viewer: await next_screen(pages[viewer]) for viewer in VIEWERS}
    while True:
        match, game = await match_now(match)
        for viewer in VIEWERS:
            assert position_of(received[viewer][-1]) == (game.number, game.applied)
        if played.games < game.number:
            played.games, seen = game.number, 0
            played.detector.new_game()
            events = list(game.opening_events)
        else:
            events = await events_after(game, seen)
        seen = game.applied
        state = await database_sync_to_async(game_state)(game)
        over = match.status != MatchStatus.PLAYING or played.decisions == limit
        if over or played.decisions % 50 == 0:
            for viewer, browser in browsers.items():
                received[viewer].append(await match_page(match, browser))
                played.pages += 1
        played.detector.check(state, events, (game.number, game.applied), received)
        if over:
            return played
        decision = engine.legal_actions(state)
        if match.next_game_at is not None:
            await database_sync_to_async(match_first_choose)(
                match_id=match.pk,
                player=viewers[match.first_chooser],
                go_first=chooser.random() < 0.5,
            )
            played.kinds["choose who goes first"] += 1
        elif (
            structure != MatchStructure.SINGLE_GAME and game.number != 2 and seen >= CONCEDED_AFTER
        ):
            await database_sync_to_async(match_concede)(
                match_id=match.pk, player=viewers[decision.seat]
            )
            played.kinds["concede"] += 1
        else:
            action = choose(chooser, decision.actions)
            played.kinds["search" if searched(state, decision.seat) else action["kind"]] += 1
            await pages[decision.seat].communicator.send_json_to(
                {"type": "act", "ply": str(game.applied), "action": json.dumps(action)}
            )
        played.decisions += 1
        received = {viewer: await next_screen(pages[viewer]) for viewer in VIEWERS}
        played.fragments_per_decision |= {len(fragments) for fragments in received.values()}


# The tests


def button(action: dict) -> str:
    """A decision's button, as the playmat writes it."""
    sent = escapejs(json.dumps(action))
    return f"""<button hx-vals='{{"type": "act", "ply": "3", "action": "{sent}"}}'>"""


def test_the_detector_reads_card_ids_and_titles_wherever_the_markup_puts_them():
    fragment = (
        '<figure title="Enclave Watcher" data-card="12" data-damage="2" data-exerted="1">'
        '<div id="card-40"></div><p data-ply="99" data-clock-ms="77"></p>'
        '<ul data-zone="units-61-1"></ul><dd data-watch="hand-1"></dd>'
        '<b data-watch="tokens-62-far"></b>'
        '<div data-quest="63" data-target="64" data-zone="quest-2"></div>'
        + button({"kind": "play", "card": 7, "quest": 5})
        + '<i data-action-card="7" data-action-quest="5"></i>'
        + button({"kind": "activate", "card": 8, "action": 1})
        + button({"kind": "exert", "card": 9, "attribute": "attack"})
    )

    assert card_ids(fragment) == {
        ("data-card", 12),
        ("id", 40),
        ("data-zone", 61),
        ("data-watch", 62),
        ("data-quest", 63),
        ("data-target", 64),
        ("hx-vals card", 7),
        ("hx-vals quest", 5),
        ("data-action-card", 7),
        ("data-action-quest", 5),
        ("hx-vals card", 8),
        ("hx-vals card", 9),
    }
    titles = {"Enclave Watcher", "Enclave", "Watcher"}
    assert mentions("Play Enclave Watcher", "Enclave Watcher", titles)
    assert not mentions("Play Enclave Watcher", "Watcher", titles)
    assert mentions("Enclave Watcher and Watcher", "Watcher", titles)


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_seat_receives_only_its_own_view_and_observers_only_the_public_view(
    open_page, seeded_deals
):
    """Whole Practice games through the sockets: no card hidden from a seat or an observer
    reaches it by id, title or face, and each decision brings each socket one message."""
    played = [
        await play_match(open_page, number, structure, autopass)
        for number, (structure, autopass) in enumerate(MATCHES)
    ]

    findings = [finding for each in played for finding in each.detector.findings]
    assert not findings, "\n".join(str(finding) for finding in findings[:40])
    # What was played and looked at: whole games, with every kind of decision, searches too.
    decisions = sum(each.decisions for each in played)
    kinds = sum((each.kinds for each in played), Counter())
    assert sum(each.games for each in played) > len(MATCHES) and decisions > 300
    assert set(kinds) >= EVERY_KIND, f"no {EVERY_KIND - set(kinds)}: choose another DEAL_SEED"
    fragments = sum(each.detector.fragments for each in played)
    assert fragments == 3 * (decisions + len(MATCHES)) + sum(each.pages for each in played)
    # "timing of messages": each decision, one message to each socket, whatever was drawn.
    assert set().union(*(each.fragments_per_decision for each in played)) == {1}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_detector_catches_a_socket_that_shows_the_observer_seat_0s_view(
    open_page, seeded_deals, monkeypatch
):
    """The self-test: a socket rendering seat 0's view (its hand, its quest pile, "You draw
    ...") for the observer is caught, by ids and by titles, and only for the observer."""

    def seat_0s_screen(*, match_id, viewer, **kwargs):
        screen = match_screen(match_id=match_id, viewer=viewer, **kwargs)
        if screen.seat is not None:
            return screen
        seat_0 = MatchSeat.objects.get(match_id=match_id, seat=0).player
        return match_screen(match_id=match_id, viewer=seat_0, **kwargs)

    monkeypatch.setattr(game.consumers, "match_screen", seat_0s_screen)

    played = await play_match(open_page, 100, MatchStructure.SINGLE_GAME, False, limit=20)

    findings = played.detector.findings
    assert {finding.viewer for finding in findings} == {OBSERVER}
    assert any("seat 0's hand) in data-card" in finding.what for finding in findings)
    assert any(finding.what.startswith("the title") for finding in findings)
    assert any(finding.what.startswith("the face") for finding in findings)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_detector_catches_a_chat_log_that_names_the_card_a_player_draws(
    open_page, seeded_deals, monkeypatch
):
    """The self-test of the titles: game messages that say "Bob draws Blood Rite." to
    everybody (as if a draw were not redacted) are caught for the opponent and the observer."""
    render_parts = engine.render_parts

    def naming_draws(event, viewer, names, titles):
        if event["type"] == "draw":
            return [(f"* {names[event['seat']]} draws {titles[event['card']]}.", False)]
        return render_parts(event, viewer, names, titles)

    monkeypatch.setattr(engine, "render_parts", naming_draws)

    played = await play_match(open_page, 100, MatchStructure.SINGLE_GAME, False, limit=10)

    findings = played.detector.findings
    assert {finding.viewer for finding in findings} == set(VIEWERS)
    assert all(finding.what.startswith("the title") for finding in findings)
