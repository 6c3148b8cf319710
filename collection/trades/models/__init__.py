"""Trades: live one-on-one sessions (live.py) and posted trades (posted.py)."""

from collection.trades.models.live import (  # noqa: F401
    TradeSession,
    TradeSessionLine,
    TradeSessionStatus,
    TradeSessionSwap,
)
from collection.trades.models.posted import (  # noqa: F401
    PostedTrade,
    PostedTradeLine,
    PostedTradeStatus,
    TradeSide,
)
