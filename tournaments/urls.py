from tournaments.views import calendar, lobby, ratings, sealed, sprints

app_name = "tournaments"

# Each page module lists its own routes.
urlpatterns = [
    *lobby.urlpatterns,
    *calendar.urlpatterns,
    *ratings.urlpatterns,
    *sprints.urlpatterns,
    *sealed.urlpatterns,
]
