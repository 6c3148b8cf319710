"""The lobbies' sockets: every page's presence socket, and a lobby page's chat socket.

Both are thin: they call the presence and chat services and relay what those send. What a
socket delivers depends on its player (their Ignore List, their Lobby Messages preference, the
lobby their whispers belong to), so the consumer keeps the versions of its groups itself: a
message it drops for its player still counts, and a gap makes it send its page the whole state
again (docs/architecture.md, "Realtime").
"""

import asyncio
import logging
import weakref

from channels.db import database_sync_to_async
from django.conf import settings
from django.dispatch import Signal

from tcgsite.accounts.selectors import ignored_ids
from tcgsite.errors import UserError
from tcgsite.lobbies import fragments
from tcgsite.lobbies.places import Lobby, Place
from tcgsite.lobbies.registry import lobby_panels, sees_panel_message
from tcgsite.lobbies.selectors import (
    lobby_users,
    name_badges,
    recent_messages,
    shows_arrivals,
)
from tcgsite.lobbies.services.chat import chat_submit
from tcgsite.lobbies.services.presence import (
    lobby_group,
    presence_close,
    presence_heartbeats,
    presence_open,
)
from tcgsite.realtime import UNREADABLE, RealtimeConsumer, group_version, user_group

# The pages that open a presence socket; lobby pages open a LobbyConsumer instead.
PAGE_PLACES = frozenset(Place.values) - frozenset(Lobby.values)
CLOSE_NOT_FOUND = 4404

logger = logging.getLogger(__name__)

# Sent, with ``user``, when a page of a logged-in player has opened its socket and made them
# present: a feature above the lobbies answers with HTML for that page alone, or "" (guilds
# show the Guild Message at a member's next login).
page_opened = Signal()


def page_opened_html(*, user) -> str:
    html = []
    for receiver, answer in page_opened.send_robust(sender=None, user=user):
        if isinstance(answer, Exception):
            # A feature's failure must not keep the page's socket from opening.
            logger.error("%s failed on a page opening", receiver, exc_info=answer)
        elif answer:
            html.append(answer)
    return "".join(html)


class Heartbeat:
    """The beat of every presence socket open on one event loop (daphne runs one a process):
    one database call a period keeps them all present, where a beat per socket would give the
    database thread thousands of calls a period."""

    def __init__(self) -> None:
        self.sockets: dict[str, PresenceConsumer] = {}
        self.task: asyncio.Task | None = None

    def add(self, socket: "PresenceConsumer") -> None:
        self.sockets[socket.channel_name] = socket
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def discard(self, socket: "PresenceConsumer") -> None:
        self.sockets.pop(socket.channel_name, None)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def run(self) -> None:
        while self.sockets:
            await asyncio.sleep(settings.LOBBY_HEARTBEAT_SECONDS)
            beats = [
                (socket.scope["user"], channel_name, socket.place)
                for channel_name, socket in list(self.sockets.items())
            ]
            if not beats:
                continue
            try:
                await database_sync_to_async(presence_heartbeats)(sockets=beats)
            except Exception:
                # The next beat tries again; until then the sweep may list these players as
                # gone, and the beat that succeeds brings them back.
                logger.exception("The presence heartbeat of %d sockets failed", len(beats))


_heartbeats: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat]" = (
    weakref.WeakKeyDictionary()
)


def heartbeat_of_this_loop() -> Heartbeat:
    loop = asyncio.get_running_loop()
    if loop not in _heartbeats:
        _heartbeats[loop] = Heartbeat()
    return _heartbeats[loop]


class PresenceConsumer(RealtimeConsumer):
    """The socket of a page that is not a lobby: it keeps its player present at the page's
    place, and shows the pings they receive there."""

    async def connect(self):
        self.user_id = self.scope["user"].pk
        # Accepted before any database work, which waits its turn on the database thread:
        # daphne drops a handshake left waiting 5 s. What the groups send before the socket
        # joins them is in the state read after it has.
        await self.accept()
        if not await self.admit():
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.groups_joined = self.groups_to_join()
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.versions = {group: 0 for group in self.groups_joined}
        self.ignored: set[int] = set()
        await self.send_state()
        await database_sync_to_async(presence_open)(
            user=self.scope["user"], channel_name=self.channel_name, place=self.place
        )
        self.heartbeat = heartbeat_of_this_loop()
        self.heartbeat.add(self)
        if html := await database_sync_to_async(page_opened_html)(user=self.scope["user"]):
            await self.send(text_data=html)

    async def admit(self) -> bool:
        """Whether to open the socket; sets ``self.place``, where it keeps its player."""
        self.place = self.scope["url_route"]["kwargs"]["place"]
        return self.is_known_place()

    def is_known_place(self) -> bool:
        return self.place in PAGE_PLACES

    def groups_to_join(self) -> list[str]:
        return [user_group(self.user_id)]

    async def disconnect(self, code):
        if heartbeat := getattr(self, "heartbeat", None):
            heartbeat.discard(self)
            await database_sync_to_async(presence_close)(channel_name=self.channel_name)
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def send_state(self):
        versions, html, self.ignored = await database_sync_to_async(self.read_state)()
        self.versions.update(versions)
        if html:
            await self.send(text_data=html)

    def read_state(self) -> tuple[dict[str, int], str, set[int]]:
        # The versions first: every message up to them is in what is read after.
        versions = {group: group_version(group) for group in self.groups_joined}
        return versions, "", ignored_ids(user_id=self.user_id)

    async def realtime_relay(self, event):
        message = event["message"]
        group, version = message["group"], message["version"]
        last = self.versions.get(group, 0)
        if version <= last:
            return  # already in the state this socket sent
        self.versions[group] = version
        if version != last + 1:
            await self.send_state()
            return
        if html := await self.deliver(message):
            await self.send(text_data=html)

    async def deliver(self, message: dict) -> str:
        """The HTML this socket's page gets for ``message`` ("": nothing)."""
        if message["type"] == "accounts.ignore_list":
            self.ignored = set(message["ignored"])
            return ""
        if message["type"] == "lobby.chat" and message.get("ping"):
            if message["sender_id"] in self.ignored:
                return ""
            return fragments.toast(message["line"]) + fragments.ping_sound()
        return self.toast(message)

    def toast(self, message: dict) -> str:
        """A feature's word to this player on whatever page they are (a Challenge), unless
        it comes from a player they ignore."""
        if message["type"] != "lobby.toast" or message["sender_id"] in self.ignored:
            return ""
        return fragments.toast(message["html"])


class LobbyConsumer(PresenceConsumer):
    """A lobby page's socket: the lobby's chat window and User List, live."""

    def is_known_place(self) -> bool:
        self.lobby = self.place
        return self.place in Lobby.values

    def groups_to_join(self) -> list[str]:
        return [lobby_group(self.lobby), user_group(self.user_id)]

    async def connect(self):
        self.listed: set[int] = set()
        await super().connect()

    def read_state(self) -> tuple[dict[str, int], str, set[int]]:
        versions = {group: group_version(group) for group in self.groups_joined}
        ignored = ignored_ids(user_id=self.user_id)
        self.show_arrivals = shows_arrivals(user_id=self.user_id)
        users = lobby_users(lobby=self.lobby)
        self.listed = {user.pk for user, _status, _place in users}
        messages = recent_messages(lobby=self.lobby, viewer_id=self.user_id, ignored=ignored)
        named = set(self.listed)
        for message in messages:
            named |= fragments.chat_line_players(message)
        badges = name_badges(user_ids=named)
        lines = [
            fragments.chat_line(message, viewer_id=self.user_id, badges=badges)
            for message in messages
        ]
        panels = [panel.render(self.scope["user"]) for panel in lobby_panels(self.lobby)]
        state = fragments.chat_log(lines) + fragments.user_list(users, badges) + "".join(panels)
        return versions, state, ignored

    async def receive_json(self, content, **kwargs):
        if not isinstance(content, dict):
            raise UserError(UNREADABLE)
        lines = await database_sync_to_async(chat_submit)(
            user=self.scope["user"], lobby=self.lobby, text=content.get("text", "")
        )
        if lines:
            await self.send(
                text_data=fragments.appended([fragments.answer_line(line) for line in lines])
            )

    async def send_user_error(self, message: str):
        await self.send(text_data=fragments.appended([fragments.notice_line(message, error=True)]))

    async def deliver(self, message: dict) -> str:
        kind = message["type"]
        if kind == "accounts.ignore_list":
            self.ignored = set(message["ignored"])
            # What the newly ignored player said disappears from the window too.
            await self.send_state()
            return ""
        if kind == "lobby.presence":
            return self.presence_change(message)
        if kind == "lobby.panel":
            return message["html"] if sees_panel_message(message, self.user_id) else ""
        if kind == "lobby.toast":
            return self.toast(message)
        if kind == "guild.chat":
            # Guild Chat (/g), sent to each member's own group: in every chat window.
            if message["sender_id"] in self.ignored:
                return ""
            return fragments.appended([message["line"]])
        if kind != "lobby.chat" or message["sender_id"] in self.ignored:
            return ""
        if message.get("ping"):
            return fragments.appended([message["line"]]) + fragments.ping_sound()
        if message.get("lobby", self.lobby) != self.lobby:
            return ""  # a whisper said in another lobby's window
        return fragments.appended([message["line"]])

    def presence_change(self, message: dict) -> str:
        user_id = message["user_id"]
        html = []
        if message["left"]:
            if user_id in self.listed:
                self.listed.discard(user_id)
                html.append(fragments.user_removed(user_id))
        elif user_id in self.listed:
            html.append(fragments.user_replaced(message["row"]))
        else:
            self.listed.add(user_id)
            html.append(fragments.user_added(message["row"]))
        if self.show_arrivals and user_id != self.user_id:
            name = message["username"]
            if message["arrived"]:
                html.append(
                    fragments.appended([fragments.notice_line(f"{name} has entered the lobby.")])
                )
            elif message["left"]:
                html.append(
                    fragments.appended([fragments.notice_line(f"{name} has left the lobby.")])
                )
        return "".join(html)
