"""The Trade Screen's socket (rulebook, "Trade Screen"): each of the session's two players sees
the other's changes to the offer, the acceptances and the delivery at once. Thin: it reads the
offer as its own player sees it and sends the fragments to swap in; a socket that missed a
message gets the whole offer again (tcgsite/realtime.py)."""

from channels.db import database_sync_to_async

from collection.trades import fragments
from collection.trades.selectors.live import live_offer, live_session_for
from collection.trades.services.live import session_group
from tcgsite.accounts.selectors import ignored_ids
from tcgsite.lobbies.consumers import PresenceConsumer
from tcgsite.lobbies.places import Place
from tcgsite.realtime import group_version, user_group

TRADE_MESSAGES = frozenset({"trade.changed", "trade.swapped", "trade.closed", "trade.failed"})


class TradeSessionConsumer(PresenceConsumer):
    """Admits only the session's two players; keeps its player present (trading, still
    listed in the Trade Lobby) and shows the pop-ups they receive."""

    async def admit(self) -> bool:
        self.session_id = self.scope["url_route"]["kwargs"]["session_id"]
        self.place = Place.TRADING
        session = await database_sync_to_async(live_session_for)(
            session_id=self.session_id, viewer=self.scope["user"]
        )
        return session is not None

    def groups_to_join(self) -> list[str]:
        return [session_group(self.session_id), user_group(self.user_id)]

    def read_state(self):
        versions = {group: group_version(group) for group in self.groups_joined}
        return versions, self.render_offer(), ignored_ids(user_id=self.user_id)

    def render_offer(self, *, delivery: bool = False, error: str = "") -> str:
        offer = live_offer(session_id=self.session_id, viewer=self.scope["user"])
        if offer is None:
            return ""
        html = fragments.offer_panel(offer, oob=True, error=error)
        return html + fragments.delivery_window(offer) if delivery else html

    async def deliver(self, message: dict) -> str:
        kind = message["type"]
        if kind not in TRADE_MESSAGES:
            return await super().deliver(message)
        return await database_sync_to_async(self.render_offer)(
            delivery=kind == "trade.swapped", error=message.get("message", "")
        )
