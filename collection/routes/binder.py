from django.urls import path

from collection.views import binder

urlpatterns = [
    path("", binder.binder, name="binder"),
    path("want/<int:card_id>/", binder.want_change, name="want_change"),
    path("open/", binder.products_open, name="products_open"),
    path("opened/", binder.opening_reveal, name="opening_reveal"),
]
