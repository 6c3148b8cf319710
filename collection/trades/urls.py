from django.urls import include, path

app_name = "trades"

urlpatterns = [
    path("trades/posted/", include("collection.trades.posted_urls")),
    path("trades/live/", include("collection.trades.live_urls")),
]
