from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from tcgsite.accounts.avatars import PLAYER_AVATAR_CHOICES
from tcgsite.accounts.login_throttle import login_refusal
from tcgsite.accounts.models import MAX_VOLUME, Preferences, TipScreen, User
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


class RangeInput(forms.NumberInput):
    """A slider; templates/accounts/_field.html shows its value beside it (static/js/site.js
    follows it as it moves)."""

    input_type = "range"


class SoundForm(forms.ModelForm):
    """Rulebook, Sound: "Adjust volume of sound and music separately or mute all sound."
    Muted, a page loads no sound at all (templates/_sounds.html)."""

    class Meta:
        model = Preferences
        fields = ("mute_sounds", "sound_volume", "music_volume")
        labels = {
            "mute_sounds": "Mute all sound",
            "sound_volume": "Sound volume",
            "music_volume": "Music volume",
        }
        help_texts = {
            "mute_sounds": "Muted, pages load no sound at all.",
            "sound_volume": (
                "Your turn, a raid against you, a whisper, the end of a game and a ping."
            ),
            "music_volume": "A short ambient loop on the game screen; 0 plays none.",
        }
        widgets = {
            name: RangeInput(attrs={"min": 0, "max": MAX_VOLUME, "step": 5})
            for name in ("sound_volume", "music_volume")
        }

    sections = (("Volume", ("sound_volume", "music_volume")), ("Mute", ("mute_sounds",)))


class UserInterfaceForm(forms.ModelForm):
    """The rulebook's User Interface settings (the Game/Playmat ones have their own page)."""

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
            "left_navigator_pulse",
            "show_only_owned_cards",
            "hidden_tips",
            "card_size_collection",
            "card_size_deck",
        )
        labels = {
            "lobby_messages": "Lobby messages",
            "request_attention": "Request attention",
            "left_navigator_pulse": "Left Navigator Pulse",
            "show_only_owned_cards": "Show only cards I own",
            "card_size_collection": "Deck Builder collection",
            "card_size_deck": "Deck Builder deck",
        }
        help_texts = {
            "lobby_messages": "Show players arriving in and leaving the lobby in its chat.",
            "request_attention": "Receive pings (/ping) from other players.",
            "left_navigator_pulse": (
                "The Navigator's edge glows a few times as a page opens, to remind you it slides"
                " out. Never when your system asks for reduced motion."
            ),
            "hidden_tips": "Clear a screen's box to see its tips again.",
            "show_only_owned_cards": "Off: the Collection also shows, dimmed, the cards you lack.",
            "card_size_collection": "Also the Collection and the Card Browser.",
        }

    # The rulebook's groups on the User Interface screen.
    sections = (
        (
            "General",
            (
                "lobby_messages",
                "request_attention",
                "left_navigator_pulse",
                "show_only_owned_cards",
            ),
        ),
        ("Hide Player Tips", ("hidden_tips",)),
        ("Card Size", ("card_size_collection", "card_size_deck")),
    )


class PlaymatSettingsForm(forms.ModelForm):
    """The rulebook's Game/Playmat settings that the playmat honours, as its Menu offers them
    (Settings)."""

    class Meta:
        model = Preferences
        fields = (
            "hand_display_mode",
            "pass_when_out_of_actions",
            "card_warnings",
            "auto_select_first_action",
            "card_size_playmat",
        )
        labels = {
            "hand_display_mode": "Hand Display Mode",
            "pass_when_out_of_actions": "Pass When Out of Actions",
            "card_warnings": "Card Warnings",
            "auto_select_first_action": "Auto-Select First Action",
            "card_size_playmat": "Playmat card size",
        }
        help_texts = {
            "hand_display_mode": (
                "Popup: the card you point at pops up, enlarged. Fish-eye: it swells and its"
                " neighbours a little, like a lens sliding along your hand. Full Card: your"
                " hand's cards are drawn larger, whole, and nothing pops up."
            ),
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
            (
                "hand_display_mode",
                "pass_when_out_of_actions",
                "card_warnings",
                "auto_select_first_action",
            ),
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
        # The page has room for the three modes side by side; the playmat's Settings window
        # keeps a dropdown.
        widgets = {"hand_display_mode": forms.RadioSelect}
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
                "hand_display_mode",
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
    "sound": ("Sound", SoundForm),
    "interface": ("User Interface", UserInterfaceForm),
    "game": ("Game/Playmat", GamePlaymatForm),
}
