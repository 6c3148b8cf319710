from django.urls import path

from collection.trades.views import live as views

urlpatterns = [
    path("ask/<str:username>/", views.live_request, name="live_request"),
    path("<int:session_id>/answer/", views.live_answer, name="live_answer"),
    path("<int:session_id>/", views.live_screen, {"tab": "theirs"}, name="live_screen"),
    path("<int:session_id>/mine/", views.live_screen, {"tab": "mine"}, name="live_screen_mine"),
    path("<int:session_id>/offer/", views.live_offer_change, name="live_offer_change"),
    path("<int:session_id>/clear/", views.live_clear, name="live_clear"),
    path("<int:session_id>/accept/", views.live_accept, name="live_accept"),
    path("<int:session_id>/confirm/", views.live_confirm, name="live_confirm"),
    path("<int:session_id>/leave/", views.live_leave, name="live_leave"),
]
