"""The channel layers the socket tests run on: in memory always, Redis (the production mode's
pub/sub layer) when REDIS_URL is set (CI's production-mode run)."""

import pytest
from django.conf import settings

IN_MEMORY_LAYER = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
REDIS_LAYER = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [settings.REDIS_URL],
            "prefix": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "asgi"),
        },
    }
}
BOTH_LAYERS = [
    pytest.param(IN_MEMORY_LAYER, id="in-memory"),
    pytest.param(
        REDIS_LAYER,
        id="redis",
        marks=pytest.mark.skipif(
            not settings.REDIS_URL,
            reason="the Redis channel layer needs REDIS_URL (CI sets it in production mode)",
        ),
    ),
]
SITE_ORIGIN = (b"origin", b"http://testserver")
