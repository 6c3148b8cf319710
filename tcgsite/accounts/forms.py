from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES
from tcgsite.accounts.login_throttle import client_address, login_refusal
from tcgsite.accounts.models import Preferences, TipScreen, User


class SignUpForm(UserCreationForm):
    """Django's form already rejects a username that differs from another only in case."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


class ThrottledLoginMixin:
    """A login refused for too many failures says so, and how long to wait, instead of
    "incorrect password" (tcgsite/accounts/login_throttle.py)."""

    def get_invalid_login_error(self):
        refusal = login_refusal(
            username=self.cleaned_data.get("username"), address=client_address(self.request)
        )
        if refusal:
            return ValidationError(refusal, code="throttled")
        return super().get_invalid_login_error()


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class AccountInfoForm(forms.ModelForm):
    home_page = forms.URLField(required=False, assume_scheme="https")

    class Meta:
        model = Preferences
        fields = (
            "personal_message",
            "personal_message_visibility",
            "messenger_handle",
            "messenger_handle_visibility",
            "home_page",
            "home_page_visibility",
        )
        widgets = {"personal_message": forms.Textarea(attrs={"rows": 4})}
        labels = {
            "personal_message_visibility": "Visible to",
            "messenger_handle_visibility": "Visible to",
            "home_page_visibility": "Visible to",
        }


class AvatarForm(forms.ModelForm):
    avatar_choice = forms.ChoiceField(
        label="Your avatar", choices=PLAYER_AVATAR_CHOICES, widget=forms.RadioSelect
    )

    class Meta:
        model = Preferences
        fields = ("avatar_choice",)


class UserInterfaceForm(forms.ModelForm):
    hidden_tips = forms.MultipleChoiceField(
        label="Hide the Player Tips of these screens",
        choices=TipScreen.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Preferences
        fields = (
            "lobby_messages",
            "request_attention",
            "show_only_owned_cards",
            "hidden_tips",
            "hand_display_mode",
            "pass_when_out_of_actions",
            "card_warnings",
            "auto_select_first_action",
            "card_size_collection",
            "card_size_deck",
            "card_size_playmat",
        )
        labels = {
            "show_only_owned_cards": "Show only cards I own",
            "card_size_collection": "Deck Builder collection",
            "card_size_deck": "Deck Builder deck",
            "card_size_playmat": "Playmat",
        }

        help_texts = {
            "lobby_messages": "Show arriving and leaving lobby messages.",
            "request_attention": "Receive pings from other players.",
            "pass_when_out_of_actions": "Pass automatically when you have no available actions.",
            "card_warnings": "Warn before you replace a card that has a restriction.",
            "auto_select_first_action": (
                "Double-clicking a card with several actions picks the first one."
            ),
        }

    # The rulebook's groups on the User Interface screen.
    sections = (
        ("General", ("lobby_messages", "request_attention", "show_only_owned_cards")),
        ("Hide Player Tips", ("hidden_tips",)),
        (
            "Game/Playmat",
            (
                "hand_display_mode",
                "pass_when_out_of_actions",
                "card_warnings",
                "auto_select_first_action",
            ),
        ),
        ("Card Size", ("card_size_collection", "card_size_deck", "card_size_playmat")),
    )


PREFERENCE_PAGES = {
    "account": ("Account Info", AccountInfoForm),
    "avatar": ("Avatar", AvatarForm),
    "interface": ("User Interface", UserInterfaceForm),
}
