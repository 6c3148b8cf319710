from django.contrib.auth.backends import ModelBackend


class CaseInsensitiveUsernameBackend(ModelBackend):
    """Log in as "Shochu" or "shochu" alike: usernames are unique ignoring case."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is not None:
            username = username.strip()
        return super().authenticate(request, username=username, password=password, **kwargs)
