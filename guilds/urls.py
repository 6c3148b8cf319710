app_name = "guilds"

urlpatterns = []
