from django.contrib.auth.models import AbstractUser, UserManager
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse

DEFAULT_RATING = 1500


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username):
        return self.get(username__iexact=username)


class User(AbstractUser):
    friends = models.ManyToManyField(
        "self", symmetrical=False, related_name="friend_of", blank=True
    )
    # The rulebook's Ignore List: the server never delivers these players' chat, whispers or
    # pings to this one, and they can't ask them to trade or join their casual games.
    ignored = models.ManyToManyField(
        "self", symmetrical=False, related_name="ignored_by", blank=True
    )

    # Set by the first purchase of a starter deck or booster (rulebook: registering for
    # tournaments).
    registered_at = models.DateTimeField(null=True, blank=True)
    # The Player Rating (Elo). Tournaments move it and keep its history; guilds rank by the
    # sum of their members' ratings, so it lives here, below both.
    rating = models.IntegerField(default=DEFAULT_RATING, db_index=True)

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            # The sign-up form checks the name first; this message is what the loser of a
            # race between that check and another sign-up's commit reads.
            models.UniqueConstraint(
                Lower("username"),
                name="username_unique_ignoring_case",
                violation_error_message="A user with that username already exists.",
            ),
        ]

    def __str__(self):
        return self.username

    def get_absolute_url(self):
        return reverse("accounts:player_info", args=[self.username])

    @property
    def is_registered(self) -> bool:
        return self.registered_at is not None


class Visibility(models.TextChoices):
    EVERYONE = "everyone", "Everyone"
    FRIENDS = "friends", "Friends only"
    NOBODY = "nobody", "No one"


class HandDisplayMode(models.TextChoices):
    POPUP = "popup", "Popup"
    FISH_EYE = "fish_eye", "Fish-eye"
    FULL_CARD = "full_card", "Full Card"


class CardSize(models.TextChoices):
    SMALL = "small", "Small"
    MEDIUM = "medium", "Medium"
    LARGE = "large", "Large"


class TipScreen(models.TextChoices):
    """The screens whose Player Tips can be hidden (rulebook, PREFERENCES, Hide Player Tips)."""

    MAIN = "main", "Main Screen"
    COLLECTION = "collection", "Collection"
    DECK_BUILDER = "deck_builder", "Deck Builder"
    TRADE = "trade", "Trade"
    TRADE_LOBBY = "trade_lobby", "Trade Lobby"
    CASUAL_LOBBY = "casual_lobby", "Casual Lobby"
    EXCESSIVE_ATTACK = "excessive_attack", "Excessive Attack"
    QUEST_FILLED = "quest_filled", "Quest Filled"


MAX_VOLUME = 100


class Preferences(models.Model):
    """One player's Preferences: Account Info, Avatar, Sound, User Interface and
    Game/Playmat."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="preferences")

    personal_message = models.TextField(max_length=500, blank=True)
    personal_message_visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.EVERYONE
    )
    messenger_handle = models.CharField("instant messenger", max_length=80, blank=True)
    messenger_handle_visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.FRIENDS
    )
    home_page = models.URLField(blank=True)
    home_page_visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.EVERYONE
    )

    avatar_choice = models.CharField(max_length=30, default="smuggler")

    # Rulebook, Sound: "Adjust volume of sound and music separately or mute all sound." A
    # volume is a percentage; a muted page loads no sound at all.
    sound_volume = models.PositiveSmallIntegerField(
        default=70, validators=[MaxValueValidator(MAX_VOLUME)]
    )
    music_volume = models.PositiveSmallIntegerField(
        default=30, validators=[MaxValueValidator(MAX_VOLUME)]
    )
    mute_sounds = models.BooleanField("mute all sound", default=False)

    lobby_messages = models.BooleanField(default=True)
    request_attention = models.BooleanField(default=True)
    # Rulebook, User Interface, General: the slide-out Navigator flashes to draw the eye.
    left_navigator_pulse = models.BooleanField(default=True)
    show_only_owned_cards = models.BooleanField(default=False)
    hidden_tips = models.JSONField(default=list, blank=True)
    hand_display_mode = models.CharField(
        max_length=10, choices=HandDisplayMode.choices, default=HandDisplayMode.POPUP
    )
    # Rulebook, Game/Playmat: foils shimmer when on; off, a small static "Foil" badge marks them.
    foil_effects = models.BooleanField(default=True)
    pass_when_out_of_actions = models.BooleanField(default=False)
    card_warnings = models.BooleanField(default=True)
    auto_select_first_action = models.BooleanField(default=False)
    card_size_collection = models.CharField(
        "card size: Deck Builder collection",
        max_length=6,
        choices=CardSize.choices,
        default=CardSize.MEDIUM,
    )
    card_size_deck = models.CharField(
        "card size: Deck Builder deck",
        max_length=6,
        choices=CardSize.choices,
        default=CardSize.SMALL,
    )
    card_size_playmat = models.CharField(
        "card size: playmat", max_length=6, choices=CardSize.choices, default=CardSize.MEDIUM
    )

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self):
        return f"Preferences of {self.user}"

    def hides_tips_on(self, screen: str) -> bool:
        return screen in self.hidden_tips


# No account's name is longer: a longer name typed anywhere names nobody, and is not looked up
# (SQLite refuses to compare a text over 50,000 bytes ignoring case: a 500).
USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length
