from django.urls import path

from tcgsite.help import views

app_name = "help"

urlpatterns = [
    path("help/", views.help_home, name="home"),
    path("help/search/", views.search, name="search"),
    path("help/glossary/", views.glossary, name="glossary"),
    path("help/glossary/<slug:term>/", views.term, name="term"),
    path("help/rules/<slug:section>/", views.section, name="section"),
]
