from django.urls import path

from collection.trades.views import posted as views

urlpatterns = [
    path("", views.posted_board, name="posted_board"),
    path("mine/", views.posted_mine, name="posted_mine"),
    path("create/", views.posted_create, name="posted_create"),
    path("create/binder/", views.posted_binder, name="posted_binder"),
    path("<int:trade_id>/", views.posted_detail, name="posted_detail"),
    path("<int:trade_id>/accept/", views.posted_accept, name="posted_accept"),
    path("<int:trade_id>/delivery/", views.posted_delivery, name="posted_delivery"),
    path("<int:trade_id>/withdraw/", views.posted_withdraw, name="posted_withdraw"),
]
