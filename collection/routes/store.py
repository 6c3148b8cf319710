from django.urls import path

from collection.views import store

urlpatterns = [
    path("", store.store, name="store"),
    path("buy/", store.store_buy, name="store_buy"),
]
