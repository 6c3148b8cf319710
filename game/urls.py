from django.urls import path

from game import match_views, scenario_views, tutorial_views, views

app_name = "game"

urlpatterns = [
    path("game/test-draw/", views.test_draw, name="test_draw"),
    path("casual/create/", match_views.match_create, name="match_create"),
    path("skirmish/", match_views.skirmish_page, name="skirmish"),
    path("tutorials/", tutorial_views.tutorials_page, name="tutorials"),
    path("tutorials/start/", tutorial_views.tutorial_start_view, name="tutorial_start"),
    path("scenarios/", scenario_views.scenarios_page, name="scenarios"),
    path(
        "matches/<int:match_id>/avatars/<int:avatar_number>.svg",
        match_views.match_card_face,
        name="match_card_face",
    ),
    path(
        "raids/<slug:slug>/cards/<int:index>.svg",
        match_views.encounter_card_face,
        name="encounter_card_face",
    ),
    path(
        "matches/<int:match_id>/dialogs/read/",
        tutorial_views.tutorial_dialog_read_view,
        name="tutorial_dialog_read",
    ),
    path(
        "matches/<int:match_id>/raid-dialogs/read/",
        match_views.raid_dialog_read_view,
        name="raid_dialog_read",
    ),
    path(
        "matches/<int:match_id>/dialogs/", tutorial_views.tutorial_dialogs, name="tutorial_dialogs"
    ),
    path(
        "skirmish/<int:match_id>/rematch/",
        match_views.skirmish_rematch,
        name="skirmish_rematch",
    ),
    path("casual/practice/", match_views.practice_create, name="practice_create"),
    path("casual/quick-join/", match_views.quick_join, name="quick_join"),
    path(
        "casual/quick-join/settings/",
        match_views.quick_join_settings,
        name="quick_join_settings",
    ),
    path("matches/<int:match_id>/", match_views.match_page, name="match_page"),
    path("matches/<int:match_id>/join/", match_views.match_join, name="match_join"),
    path("matches/<int:match_id>/info/", match_views.match_info, name="match_info"),
    path("matches/<int:match_id>/ready/", match_views.match_ready, name="match_ready"),
    path(
        "matches/<int:match_id>/computers/",
        match_views.match_fill_with_computers,
        name="match_fill_with_computers",
    ),
    path("matches/<int:match_id>/leave/", match_views.match_leave, name="match_leave"),
    path("matches/<int:match_id>/concede/", match_views.match_concede, name="match_concede"),
    path("matches/<int:match_id>/settings/", match_views.playmat_settings, name="playmat_settings"),
    path("matches/<int:match_id>/offer/", match_views.match_offer, name="match_offer"),
    path(
        "matches/<int:match_id>/first/", match_views.match_first_choose, name="match_first_choose"
    ),
    path(
        "matches/<int:match_id>/offer/answer/",
        match_views.match_offer_answer,
        name="match_offer_answer",
    ),
    path(
        "matches/<int:match_id>/offer/withdraw/",
        match_views.match_offer_withdraw,
        name="match_offer_withdraw",
    ),
    path("matches/<int:match_id>/claim/", match_views.match_claim, name="match_claim"),
    path(
        "matches/<int:match_id>/decline/", match_views.challenge_decline, name="challenge_decline"
    ),
    path("matches/<int:match_id>/resume/", match_views.match_resume, name="match_resume"),
    path("matches/<int:match_id>/delete/", match_views.adjourned_delete, name="adjourned_delete"),
    path("matches/adjourned/", match_views.adjourned_matches, name="adjourned_matches"),
    path("matches/<int:match_id>/replay/", match_views.match_replay, name="match_replay"),
    path("matches/history/", match_views.match_history, name="match_history"),
    path(
        "players/<str:username>/matches/",
        match_views.match_history,
        name="player_match_history",
    ),
]
