from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES
from tcgsite.accounts.login_throttle import login_refusal
from tcgsite.accounts.models import Preferences, TipScreen, User
from tcgsite.inputs import client_address


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


# The screens that show Player Tips today; the others join the form when they are built.
SCREENS_WITH_TIPS = (TipScreen.MAIN, TipScreen.COLLECTION, TipScreen.DECK_BUILDER)


class UserInterfaceForm(forms.ModelForm):
    """The rulebook's User Interface settings that something reads today. The others (the
    playmat's) stay on the model and join this form with the features that use them."""

    hidden_tips = forms.MultipleChoiceField(
        label="Hide the Player Tips of these screens",
        choices=[(screen.value, screen.label) for screen in SCREENS_WITH_TIPS],
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
            "card_size_collection",
            "card_size_deck",
        )
        labels = {
            "lobby_messages": "Lobby messages",
            "request_attention": "Request attention",
            "show_only_owned_cards": "Show only cards I own",
            "card_size_collection": "Deck Builder collection",
            "card_size_deck": "Deck Builder deck",
        }
        help_texts = {
            "lobby_messages": "Show players arriving in and leaving the lobby in its chat.",
            "request_attention": "Receive pings (/ping) from other players.",
            "show_only_owned_cards": "Off: the Collection also shows, dimmed, the cards you lack.",
            "card_size_collection": "Also the Collection and the Card Browser.",
        }

    # The rulebook's groups on the User Interface screen.
    sections = (
        ("General", ("lobby_messages", "request_attention", "show_only_owned_cards")),
        ("Hide Player Tips", ("hidden_tips",)),
        ("Card Size", ("card_size_collection", "card_size_deck")),
    )

    def clean_hidden_tips(self):
        # Screens not offered yet keep what the player chose for them.
        offered = {screen for screen, _label in self.fields["hidden_tips"].choices}
        kept = [tip for tip in self.instance.hidden_tips if tip not in offered]
        return [*self.cleaned_data["hidden_tips"], *kept]


class PlaymatSettingsForm(forms.ModelForm):
    """The rulebook's Game/Playmat settings that the playmat honours, as its Menu offers them
    (Settings). Hand Display Mode stays on the model: the playmat has one way to show a
    hand."""

    class Meta:
        model = Preferences
        fields = (
            "pass_when_out_of_actions",
            "card_warnings",
            "auto_select_first_action",
            "card_size_playmat",
        )
        labels = {
            "pass_when_out_of_actions": "Pass When Out of Actions",
            "card_warnings": "Card Warnings",
            "auto_select_first_action": "Auto-Select First Action",
            "card_size_playmat": "Playmat card size",
        }
        help_texts = {
            "pass_when_out_of_actions": (
                "The game passes for you whenever Pass is all you can do, in combat too."
            ),
            "card_warnings": (
                "Ask before you play an item whose restriction would destroy one you have in"
                " play (a second weapon, armor, starship, vehicle or droid)."
            ),
            "auto_select_first_action": (
                "A double-clicked card (or Enter) does its first action at once. Where its"
                " actions differ in where they go (a unit's quests) you still choose."
            ),
        }

    sections = (
        (
            "Game/Playmat",
            ("pass_when_out_of_actions", "card_warnings", "auto_select_first_action"),
        ),
        ("Card Size", ("card_size_playmat",)),
    )


class GamePlaymatForm(PlaymatSettingsForm):
    """The Preferences page's Game/Playmat: the playmat's settings and Foil Effects, which
    draws foil copies where a player's own copies are shown (the Collection, the Deck Builder,
    a trade), never on the playmat, where a card is a card of a deck."""

    class Meta(PlaymatSettingsForm.Meta):
        fields = ("foil_effects", *PlaymatSettingsForm.Meta.fields)
        labels = {**PlaymatSettingsForm.Meta.labels, "foil_effects": "Foil Effects"}
        help_texts = {
            **PlaymatSettingsForm.Meta.help_texts,
            "foil_effects": (
                "A band of light sweeps across your foil cards in the Collection, the Deck"
                " Builder and trades. Off: a small Foil badge marks them."
            ),
        }

    sections = (
        (
            "Game/Playmat",
            (
                "foil_effects",
                "pass_when_out_of_actions",
                "card_warnings",
                "auto_select_first_action",
            ),
        ),
        ("Card Size", ("card_size_playmat",)),
    )


PREFERENCE_PAGES = {
    "account": ("Account Info", AccountInfoForm),
    "avatar": ("Avatar", AvatarForm),
    "interface": ("User Interface", UserInterfaceForm),
    "game": ("Game/Playmat", GamePlaymatForm),
}
