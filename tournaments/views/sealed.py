"""sealed pages of the tournaments (to be filled)."""

urlpatterns: list = []
