from django.contrib.auth.backends import ModelBackend

from tcgsite.accounts.login_throttle import login_refusal
from tcgsite.accounts.models import USERNAME_MAX_LENGTH
from tcgsite.accounts.session_user import session_user
from tcgsite.inputs import client_address


class CaseInsensitiveUsernameBackend(ModelBackend):
    """Log in as "Shochu" or "shochu" alike: usernames are unique ignoring case. Every login
    (the site's and the admin's) passes here, so here is where too many failures stop it."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is not None:
            username = username.strip()
        if login_refusal(username=username, address=client_address(request)):
            return None
        if username is not None and len(username) > USERNAME_MAX_LENGTH:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id):
        user = session_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
