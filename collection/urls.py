from django.urls import path

from collection.views import binder, openings, store

app_name = "collection"

urlpatterns = [
    path("store/", store.store, name="store"),
    path("store/<int:product_id>/", store.store_product, name="store_product"),
    path("store/confirm/", store.store_confirm, name="store_confirm"),
    path("store/buy/", store.store_buy, name="store_buy"),
    path("collection/", binder.binder, name="binder"),
    path("collection/want/<int:card_id>/", binder.want_change, name="want_change"),
    path("collection/open/", binder.products_open, name="products_open"),
    path("collection/opened/", binder.opening_reveal, name="opening_reveal"),
    path("collection/openings/", openings.opening_list, name="opening_list"),
    path(
        "collection/openings/<int:opening_id>/check/",
        openings.opening_check_result,
        name="opening_check",
    ),
    path(
        "collection/openings/<int:opening_id>.json",
        openings.opening_record,
        name="opening_record",
    ),
]
