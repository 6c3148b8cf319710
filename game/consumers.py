"""A match page's socket: it keeps its player present ("starting a game", then "in a game"),
shows the match live (the Match Launch screen, then the playmat and the Chat Log's game
messages) and takes the player's decisions. Thin: it calls the match service and the match
screen's selector, and renders what they return for its own viewer only."""

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation
from django.template.loader import render_to_string

from game import fragments
from game.selectors import (
    MatchMoment,
    NotAllowedToWatch,
    card_warnings_on,
    match_moment,
    match_place,
    match_screen,
    playmat_card_size,
)
from game.services.attendance import match_socket_close, match_socket_open
from game.services.chat import match_chat_submit
from game.services.matches import (
    StalePly,
    game_act,
    game_act_batch,
    match_group,
    match_next_game_check,
    match_time_check,
)
from tcgsite.accounts.selectors import ignored_ids
from tcgsite.errors import UserError
from tcgsite.inputs import json_value, whole_number_or_none
from tcgsite.lobbies.consumers import PresenceConsumer
from tcgsite.lobbies.services.presence import presence_move
from tcgsite.realtime import group_version, user_group

RESYNC_INTERVAL = 1.0
# A decision's ply numbers the stored action after it (GameAction.number, a
# PositiveIntegerField): beyond this, no game has such an action.
MAX_PLY = 2**31 - 2


def _json_sent(value):
    """A message's value sent as JSON text (htmx sends its values as text), or as is."""
    if not isinstance(value, str):
        return value
    try:
        return json_value(value)
    except ValueError:
        return None


class SharedMoments:
    """The match moments this process's sockets were shipped or read, each kept for the other
    sockets of its match that receive the same message: a match's two players and its
    observers cost one unpacking (or read) of the match per change and process, not one
    each. A message's group and version name one commit, so a moment is never kept for a
    later change; the oldest are forgotten (read again if still wanted). Used from the
    consumers' event loop and from the thread that runs their database work."""

    def __init__(self, size: int):
        self.size = size
        self.kept: OrderedDict[Hashable, MatchMoment] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, read: Callable[[], MatchMoment]) -> MatchMoment:
        moment = self.kept.get(key)
        if moment is None:
            moment = read()
            with self.lock:
                self.kept[key] = moment
                if len(self.kept) > self.size:
                    self.kept.popitem(last=False)
        return moment


class ChangeScreens:
    """The screens that one change of a match (its ``match.changed`` message) shows on the
    sockets this process holds of the match. A change that ships its moment (a decision) is
    shown from it on the event loop, each screen as its socket asks. Each other one, and each
    screen that needs a read, is built in one turn on the database thread. Each
    turn costs two hand-overs between the event loop's thread and the database thread, which
    wait for each other's hold on the interpreter's lock: a match's players and observers on
    one process cost one turn a change, not one each.

    The first socket to ask for its screen sends the turn on its way; every socket that asks
    before the database thread takes it up (the message reaches them all at once, but a
    player's socket may still be finishing their decision) joins it. A socket that asks later
    starts a turn of its own. Shared by the event loop, which asks, and the database
    thread."""

    def __init__(self):
        self.open: dict[Hashable, list[tuple[MatchConsumer, asyncio.Future]]] = {}
        self.lock = threading.Lock()
        # The loop keeps only weak references to its tasks.
        self.building: set[asyncio.Task] = set()

    def screen(self, consumer: "MatchConsumer", message: dict) -> asyncio.Future:
        """The future of ``consumer``'s ``render_screen`` for ``message``."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if message.get("moment"):
            # Built from the shipped moment, a screen usually needs no read, and no turn on
            # the database thread. One that does (a socket behind the moment's recent
            # actions, a game state this process no longer keeps) is refused it by Django
            # here, and goes to the thread.
            try:
                future.set_result(consumer.render_screen(full=False, message=message))
            except SynchronousOnlyOperation:
                pass
            except Exception as error:  # handed to that socket alone
                future.set_exception(error)
                return future
            else:
                return future
        key = (loop, message["group"], message["version"])
        with self.lock:
            batch = self.open.get(key)
            first = batch is None
            if first:
                # A batch whose loop closed before its turn started (a test's end) goes.
                for closed in [each for each in self.open if each[0].is_closed()]:
                    del self.open[closed]
                batch = self.open[key] = []
            batch.append((consumer, future))
        if first:
            task = loop.create_task(self.build(key, batch, message))
            self.building.add(task)
            task.add_done_callback(self.building.discard)
        return future

    def close(self, key: Hashable) -> None:
        with self.lock:
            self.open.pop(key, None)

    async def build(self, key: Hashable, batch: list, message: dict) -> None:
        try:
            outcomes = await database_sync_to_async(self.screens_of)(key, batch, message)
        except Exception as error:
            self.close(key)
            outcomes = [error] * len(batch)
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue  # its socket closed meanwhile
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    def screens_of(self, key: Hashable, batch: list, message: dict) -> list:
        """Each socket's screen of the closed batch, or the error building it raised; in
        the database thread."""
        self.close(key)
        outcomes = []
        for consumer, _ in batch:
            try:
                outcomes.append(consumer.render_screen(full=False, message=message))
            except Exception as error:  # handed to that socket alone
                outcomes.append(error)
        return outcomes


class MatchConsumer(PresenceConsumer):
    moments = SharedMoments(size=128)
    change_screens = ChangeScreens()

    async def admit(self) -> bool:
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.logged = None
        # The screen's regions as last sent (fragments.match_screen_update): a change sends
        # only the regions it changed.
        self.shown: dict[str, str] | None = None
        self.resynced_at = -RESYNC_INTERVAL
        place = await database_sync_to_async(self.read_admission)()
        if place is None:
            return False
        self.place = place
        return True

    def read_admission(self) -> str | None:
        viewer = self.scope["user"]
        place = match_place(match_id=self.match_id, viewer=viewer)
        if place is not None:
            # Preferences: a page opened after changing them (the playmat's Settings… draw
            # the page anew) shows the new size and asks as Card Warnings now says.
            self.card_size = playmat_card_size(viewer=viewer)
            self.card_warnings = card_warnings_on(viewer=viewer)
        return place

    def groups_to_join(self) -> list[str]:
        return [match_group(self.match_id), user_group(self.user_id)]

    async def connect(self):
        await super().connect()
        if getattr(self, "heartbeat", None):
            await database_sync_to_async(match_socket_open)(
                match_id=self.match_id, player=self.scope["user"], channel_name=self.channel_name
            )

    async def disconnect(self, code):
        if getattr(self, "heartbeat", None):
            await database_sync_to_async(match_socket_close)(
                match_id=self.match_id, player=self.scope["user"], channel_name=self.channel_name
            )
        await super().disconnect(code)

    def read_state(self):
        versions = {group: group_version(group) for group in self.groups_joined}
        ignored = ignored_ids(user_id=self.user_id)
        _, html, _ = self.render_screen(full=True)
        return versions, html, ignored

    def render_screen(
        self, *, full: bool, message: dict | None = None
    ) -> tuple[str, str, list[str]]:
        """The screen and the game messages since the last sent, as fragments; for a
        ``message`` announcing a change, from the match as it shipped (its moment) or as read
        for it by any socket of this process."""
        moment = None
        if message is not None:
            packed = message.get("moment")
            moment = self.moments.get(
                (message["group"], message["version"]),
                lambda: (
                    MatchMoment.unpack(packed)
                    if packed
                    else match_moment(match_id=self.match_id, with_recent_actions=True)
                ),
            )
        screen = match_screen(
            match_id=self.match_id,
            viewer=self.scope["user"],
            logged=None if full else self.logged,
            moment=moment,
            card_size=self.card_size,
            card_warnings=self.card_warnings,
        )
        new_game = full or self.logged is None or screen.logged[0] != self.logged[0]
        self.logged = screen.logged
        html, self.shown = fragments.match_screen_update(
            screen,
            replace_log=new_game,
            clear_error=not full,
            shown=None if full else self.shown,
        )
        return screen.place, html, screen.log

    async def deliver(self, message: dict) -> str:
        if message["type"] == "match.chat":
            if message["match_id"] != self.match_id or message["sender_id"] in self.ignored:
                return ""
            return fragments.appended(message["line"])
        if message["type"] == "guild.chat":
            # Guild Chat (/g) from any chat window, in this match's Chat Log too.
            if message["sender_id"] in self.ignored:
                return ""
            return fragments.appended(message["log_line"])
        if message["type"] != "match.changed":
            return await super().deliver(message)
        try:
            place, html, _ = await self.change_screens.screen(self, message)
        except NotAllowedToWatch:
            return ""
        if place != self.place:
            self.place = place
            await database_sync_to_async(presence_move)(
                user=self.scope["user"], channel_name=self.channel_name, place=place
            )
        return html

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "chat":
            try:
                lines = await database_sync_to_async(match_chat_submit)(
                    match_id=self.match_id, user=self.scope["user"], text=content.get("text", "")
                )
            except UserError as refusal:
                lines, error = [refusal.message], True
            else:
                error = False
            if lines:
                notices = [fragments.notice_line(line, error=error) for line in lines]
                await self.send(text_data="".join(notices))
            return
        if kind == "clock":
            # The page's countdown reached zero: a flag fell, or a pause between games is over.
            await database_sync_to_async(match_time_check)(match_id=self.match_id)
            await database_sync_to_async(match_next_game_check)(match_id=self.match_id)
            return
        if kind not in ("act", "act_batch"):
            raise UserError("That message could not be read.")
        ply = whole_number_or_none(content.get("ply"), minimum=0, maximum=MAX_PLY)
        sent = _json_sent(content.get("action" if kind == "act" else "actions"))
        if ply is None or not isinstance(sent, dict if kind == "act" else list):
            raise UserError("That action could not be read.")
        player = self.scope["user"]
        try:
            if kind == "act":
                await database_sync_to_async(game_act)(
                    match_id=self.match_id, player=player, ply=ply, action=sent
                )
            else:
                await database_sync_to_async(game_act_batch)(
                    match_id=self.match_id, player=player, ply=ply, actions=sent
                )
        except StalePly as behind:
            await self.send_user_error(behind.message)
            # The page is behind: show it the match as it stands, at most once a second,
            # however often a page (or a script) sends stale decisions.
            now = time.monotonic()
            if now - self.resynced_at >= RESYNC_INTERVAL:
                self.resynced_at = now
                await self.send_state()

    async def send_user_error(self, message: str):
        await self.send(text_data=render_to_string("game/_match_error.html", {"message": message}))
