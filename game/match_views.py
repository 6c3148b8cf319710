"""The pages of casual matches: the Create and Join windows, Match Info, and the match page
(its Match Launch screen, then its playmat), which its socket keeps live
(game/consumers.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from collection.cards.views import face_response, face_size
from collection.decks.models import Deck
from game import selectors
from game.cues import game_screen_tips
from game.encounters import DEFAULT_DIFFICULTY, DIFFICULTIES
from game.models import ComputerLevel, MatchStructure
from game.services import matches as services
from game.services import offers, skirmish, team_matches
from tcgsite.accounts.forms import PlaymatSettingsForm
from tcgsite.accounts.selectors import player_by_name
from tcgsite.accounts.services import preferences_for
from tcgsite.inputs import MAX_ID, object_id, whole_number_or_none
from tcgsite.lobbies.places import Lobby


def _dialog(request, template: str, context: dict, status: int = 200):
    """A window of the Casual Lobby: a fragment for htmx, a page of its own otherwise."""
    if request.htmx:
        # htmx swaps only successful answers: a refused form comes back with its message.
        return render(request, template, context)
    return render(
        request, "game/dialog_page.html", {**context, "fragment": template}, status=status
    )


def _chosen_deck(request) -> Deck | None:
    deck_id = object_id(request.POST.get("deck"))
    return request.user.decks.filter(pk=deck_id).first() if deck_id else None


def _done(request, match_id: int):
    url = reverse("game:match_page", args=[match_id])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
def match_create(request):
    decks = selectors.player_decks(player=request.user)
    values = {
        "title": "",
        "structure": MatchStructure.SINGLE_GAME,
        "deck": decks[0][0].pk if decks else None,
        "allow_observers": True,
        "friends_only": False,
        "guild_only": False,
        "light_vs_dark": False,
        "time_limit": 0,
        "players": services.SEATS,
        "play_format": STANDARD,
        "encounter": "",
        "difficulty": DEFAULT_DIFFICULTY,
    }
    error = None
    # A Challenge (the User List's menu) is a match only the challenged player may join.
    challenge = (request.POST.get("challenge") or request.GET.get("challenge") or "")[:150]
    challenged = player_by_name(username=challenge) if challenge else None
    if request.method == "POST":
        values = {
            "title": request.POST.get("title", "")[:200],
            "structure": whole_number_or_none(request.POST.get("structure"), minimum=1, maximum=9)
            or 0,
            "deck": object_id(request.POST.get("deck")),
            "allow_observers": bool(request.POST.get("allow_observers")),
            "friends_only": bool(request.POST.get("friends_only")),
            "guild_only": bool(request.POST.get("guild_only")),
            "light_vs_dark": bool(request.POST.get("light_vs_dark")),
            "time_limit": whole_number_or_none(
                request.POST.get("time_limit", "0"), minimum=0, maximum=services.MAX_TIME_LIMIT
            ),
            # "Number of Players": anything but 2 or 4 is refused by the service, in words.
            "players": whole_number_or_none(
                request.POST.get("players", str(services.SEATS)), minimum=0, maximum=9
            )
            or 0,
            "play_format": request.POST.get("play_format", STANDARD)[:20],
            "encounter": request.POST.get("encounter", "")[:40],
            "difficulty": request.POST.get("difficulty", DEFAULT_DIFFICULTY)[:10],
        }
        raid = values["play_format"] == RAID
        deck = _chosen_deck(request)
        try:
            if deck is None:
                raise services.MatchError("Choose one of your decks.")
            if challenge and challenged is None:
                raise services.MatchError(f"There is no player called {challenge[:40]}.")
            if values["play_format"] not in (STANDARD, RAID):
                raise services.MatchError("Choose the Standard or the Raid play format.")
            if raid and not values["encounter"]:
                raise services.MatchError("Choose which raid to play.")
            if values["time_limit"] not in (0, *services.TIME_LIMITS):
                raise services.MatchError("Choose a time limit from the list, or none.")
            settings = services.MatchSettings(
                title=values["title"],
                structure=values["structure"],
                password=request.POST.get("password", ""),
                allow_observers=values["allow_observers"],
                friends_only=values["friends_only"],
                guild_only=values["guild_only"],
                # The Raid's form hides Light vs. Dark: a box ticked before is not sent on.
                light_vs_dark=values["light_vs_dark"] and not raid,
                time_limit=values["time_limit"] or None,
                challenged=challenged,
                players=values["players"],
                encounter=values["encounter"] if raid else "",
                difficulty=values["difficulty"],
            )
            match = services.match_create(host=request.user, deck=deck, settings=settings)
        except services.MatchError as failure:
            error = failure.message
        else:
            return _done(request, match.pk)
    context = {
        "action": reverse("game:match_create"),
        "challenge": challenged.username if challenged else challenge,
        "decks": decks,
        "guild": selectors.host_guild(player=request.user),
        "values": values,
        "structures": MatchStructure.choices,
        "numbers_of_players": NUMBERS_OF_PLAYERS,
        "raids": selectors.raid_choices(),
        "difficulties": DIFFICULTIES,
        "time_limits": [(seconds, f"{seconds // 60} minutes") for seconds in services.TIME_LIMITS],
        "error": error,
    }
    return _dialog(request, "game/_match_form.html", context, status=400 if error else 200)


# Creating a Match, "Play Format": "*Standard* (a 1-versus-1 game or 2-versus-2 game), or
# *Raid* (a team of players versus a computer AI opponent)".
STANDARD, RAID = "standard", "raid"
# Creating a Match, "Number of Players": "the normal game for 2 players, or a multiplayer
# 2-versus-2 team game for 4 players".
NUMBERS_OF_PLAYERS = (
    (services.SEATS, "2 players"),
    (services.TEAM_PLAYERS, "4 players: a 2-versus-2 team game"),
)


def _chosen_team(request) -> int | None:
    """The Join window's team of a team game: 0 or 1; None for either team. Anything else
    is -1, which the service refuses in words."""
    chosen = request.POST.get("team", "")
    if chosen in ("", "any"):
        return None
    number = whole_number_or_none(chosen, minimum=1, maximum=services.TEAMS)
    return number - 1 if number else -1


@login_required
def match_join(request, match_id):
    match = selectors.match_info(match_id=match_id)
    if match is None:
        raise Http404("There is no such match.")
    decks = selectors.player_decks(player=request.user)
    values = {"deck": decks[0][0].pk if decks else None, "team": None}
    # A medallion or a challenge's Accept may open the window of a match gone meanwhile: it
    # says so, and shows who plays it only to whoever may read its Match Info.
    error = selectors.match_unjoinable(match)
    status = 409 if error else 200
    if not error and (refusal := selectors.match_info_refusal(match=match, viewer=request.user)):
        return _window_refused(request, refusal, status=403)
    if request.method == "POST":
        values["deck"] = object_id(request.POST.get("deck"))
        values["team"] = _chosen_team(request)
        deck = _chosen_deck(request)
        try:
            if deck is None and not match.practice:
                raise services.MatchError("Choose one of your decks.")
            services.match_join(
                match_id=match.pk,
                player=request.user,
                deck=deck,
                password=request.POST.get("password", ""),
                team=values["team"],
            )
        except services.MatchGone as gone:
            error, status = gone.message, 409
        except services.MatchError as failure:
            error, status = failure.message, 400
        else:
            return _done(request, match.pk)
    context = {
        "action": reverse("game:match_join", args=[match.pk]),
        "joining": True,
        "match": match,
        "gone": status == 409,
        # A Raid's players are all heroes: there is no team to choose.
        "teams": selectors.match_teams(match)
        if match.team_game and not match.raid and status != 409
        else None,
        "decks": decks,
        "values": values,
        "error": error,
    }
    return _dialog(request, "game/_match_form.html", context, status=status)


@login_required
@require_POST
def practice_create(request):
    """The Casual Lobby's Practice Game: a match with the two fixed practice decks."""
    settings = services.MatchSettings(title="Practice Game", practice=True)
    try:
        match = services.match_create(host=request.user, deck=None, settings=settings)
    except services.MatchError as failure:
        if request.htmx:
            return HttpResponse(failure.message, status=409, content_type="text/plain")
        messages.error(request, failure.message)
        return redirect("lobbies:lobby", "casual")
    return _done(request, match.pk)


@login_required
def match_info(request, match_id):
    match = selectors.match_info(match_id=match_id)
    if match is None:
        raise Http404("There is no such match.")
    if refusal := selectors.match_info_refusal(match=match, viewer=request.user):
        return _window_refused(request, refusal, status=403)
    return _dialog(request, "game/_match_info.html", {"match": match})


@login_required
@require_GET
def match_card_face(request, match_id, avatar_number):
    """The face of a player-made avatar a seat of the match plays: a card in play is public,
    to everyone who may watch the match or its replay."""
    if match_id > MAX_ID or avatar_number > MAX_ID:
        raise Http404("There is no such card in that match.")
    face = selectors.match_card_face(
        match_id=match_id, number=avatar_number, viewer=request.user, size=face_size(request)
    )
    if face is None:
        raise Http404("There is no such card in that match.")
    return face_response(request, face, private=True)


@require_GET
def encounter_card_face(request, slug, index):
    """The face of a card of a heroic encounter's boss's own (its avatar, its deck's), drawn
    as a catalog card's is: the playmat shows it as it shows every other card."""
    face = selectors.encounter_card_face(slug=slug, index=index, size=face_size(request))
    if face is None:
        raise Http404("There is no such card in that encounter.")
    return face_response(request, face, private=False)


@login_required
def match_page(request, match_id):
    try:
        screen = selectors.match_screen(match_id=match_id, viewer=request.user)
    except selectors.NotAllowedToWatch as refusal:
        return render(request, "game/match_refused.html", {"reason": refusal.message}, status=403)
    preferences = preferences_for(user=request.user)
    return render(
        request,
        "game/match.html",
        {
            "screen": screen,
            "settings_form": PlaymatSettingsForm(instance=preferences),
            "auto_select": preferences.auto_select_first_action,
            "game_tips": game_screen_tips(preferences.hidden_tips),
        },
    )


@login_required
@require_POST
def playmat_settings(request, match_id):
    """The Playmat menu's Settings: the Game/Playmat preferences, saved from the match. A new
    card size, Hand Display Mode or Card Warnings redraws the page; Pass When Out of Actions,
    turned on, passes at once if Pass is all the player can do."""
    preferences = preferences_for(user=request.user)
    autopass = preferences.pass_when_out_of_actions
    auto_select = preferences.auto_select_first_action
    # What the page is drawn with: the Prompt asks (or not) before a card's restriction
    # destroys another as Card Warnings stood.
    drawn = (
        preferences.card_size_playmat,
        preferences.hand_display_mode,
        preferences.card_warnings,
    )
    form = PlaymatSettingsForm(request.POST, instance=preferences)
    saved = form.is_valid()
    if saved:
        form.save()
        auto_select = preferences.auto_select_first_action
        if preferences.pass_when_out_of_actions and not autopass and match_id <= MAX_ID:
            services.match_pass_if_out_of_actions(match_id=match_id, player=request.user)
    if not request.htmx:
        if saved:
            messages.success(request, "Game/Playmat settings saved.")
        else:
            messages.error(request, "Please correct the settings; nothing was saved.")
        return redirect("game:match_page", match_id) if match_id <= MAX_ID else redirect("lobby")
    response = render(
        request,
        "game/_playmat_settings.html",
        # htmx swaps only successful answers: a refused form comes back with its message.
        {"settings_form": form, "match_id": match_id, "saved": saved, "auto_select": auto_select},
    )
    redrawn = (
        preferences.card_size_playmat,
        preferences.hand_display_mode,
        preferences.card_warnings,
    )
    if saved and redrawn != drawn:
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
def match_ready(request, match_id):
    ready = request.POST.get("ready") != "0"
    return playmat_button(request, services.match_ready, match_id=match_id, ready=ready)


@login_required
@require_POST
def match_fill_with_computers(request, match_id):
    """The host's "Fill empty seats with computer players" on a team game's Match Launch
    screen."""
    return playmat_button(request, team_matches.match_fill_with_computers, match_id=match_id)


@login_required
@require_POST
def raid_dialog_read_view(request, match_id):
    """A Raid's dialog's Got it button: the hero's next dialog told, if any, shows."""
    dialog = whole_number_or_none(request.POST.get("dialog", ""), minimum=0, maximum=100)
    return playmat_button(
        request,
        team_matches.raid_dialog_read,
        match_id=match_id,
        dialog=-1 if dialog is None else dialog,
    )


@login_required
@require_POST
def match_leave(request, match_id):
    try:
        services.match_leave(match_id=match_id, player=request.user)
    except services.MatchError as failure:
        return _refused(request, match_id, failure.message)
    url = reverse("lobbies:lobby", args=["casual"])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def match_concede(request, match_id):
    return playmat_button(request, services.match_concede, match_id=match_id)


@login_required
@require_POST
def match_first_choose(request, match_id):
    """Between two games, the loser of the last chooses who goes first in the next."""
    go_first = request.POST.get("first") == "me"
    return playmat_button(
        request, services.match_first_choose, match_id=match_id, go_first=go_first
    )


@login_required
@require_POST
def match_offer(request, match_id):
    """Offer a draw or to adjourn (the Playmat menu)."""
    offer = request.POST.get("offer", "")[:20]
    return playmat_button(request, offers.match_offer, match_id=match_id, offer=offer)


@login_required
@require_POST
def match_offer_answer(request, match_id):
    accept = request.POST.get("accept") == "1"
    return playmat_button(request, offers.match_offer_answer, match_id=match_id, accept=accept)


@login_required
@require_POST
def match_offer_withdraw(request, match_id):
    return playmat_button(request, offers.match_offer_withdraw, match_id=match_id)


@login_required
@require_POST
def match_claim(request, match_id):
    """The player who stayed claims the win, or adjourns, after the opponent's absence."""
    adjourn = request.POST.get("adjourn") == "1"
    return playmat_button(request, offers.match_claim, match_id=match_id, adjourn=adjourn)


@login_required
@require_POST
def challenge_decline(request, match_id):
    try:
        services.match_challenge_decline(match_id=match_id, player=request.user)
    except services.MatchError as failure:
        return HttpResponse(failure.message, status=409, content_type="text/plain; charset=utf-8")
    return HttpResponse(status=204)


@login_required
def adjourned_matches(request):
    """The /resume window: your adjourned matches whose opponents are in your lobby."""
    lobby = _lobby_of(request)
    context = {
        "lobby": lobby,
        "matches": selectors.resumable_matches(player=request.user, lobby=lobby),
    }
    return _dialog(request, "game/_resume.html", context)


@login_required
@require_POST
def match_resume(request, match_id):
    try:
        offers.match_resume(match_id=match_id, player=request.user, lobby=_lobby_of(request))
    except services.MatchError as failure:
        return _window_refused(request, failure.message)
    return _done(request, match_id)


@login_required
@require_POST
def adjourned_delete(request, match_id):
    try:
        offers.match_adjourned_delete(match_id=match_id, player=request.user)
    except services.MatchError as failure:
        return _window_refused(request, failure.message)
    return adjourned_matches(request)


def _lobby_of(request) -> str:
    lobby = request.POST.get("lobby") or request.GET.get("lobby") or ""
    return lobby if lobby in Lobby.values else Lobby.CASUAL


def _window_refused(request, message: str, *, status: int = 409):
    if request.htmx:
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    messages.error(request, message)
    return redirect("lobbies:lobby", _lobby_of(request))


def playmat_button(request, service, **arguments):
    """A button of the match page: the page changes through its socket."""
    match_id = arguments["match_id"]
    try:
        service(player=request.user, **arguments)
    except services.MatchError as failure:
        return _refused(request, match_id, failure.message)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("game:match_page", match_id)


def _refused(request, match_id: int, message: str):
    if request.htmx:
        return HttpResponse(message, status=409, content_type="text/plain; charset=utf-8")
    messages.error(request, message)
    return redirect("game:match_page", match_id)


@login_required
@require_POST
def skirmish_rematch(request, match_id):
    """The end screen's Rematch: the same Skirmish again, begun at once."""
    if match_id > MAX_ID:
        raise Http404("No such match.")
    try:
        match = skirmish.skirmish_rematch(player=request.user, match_id=match_id)
    except services.MatchError as failure:
        return _refused(request, match_id, failure.message)
    url = reverse("game:match_page", args=[match.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
def skirmish_page(request):
    """Play → Skirmish: your deck against one of four computer opponents, at a level."""
    decks = selectors.player_decks(player=request.user)
    values = {
        "deck": decks[0][0].pk if decks else None,
        "archetype": "",
        "level": ComputerLevel.NORMAL,
        "time_limit": 0,
    }
    error = None
    if request.method == "POST":
        values = {
            "deck": object_id(request.POST.get("deck")),
            "archetype": request.POST.get("opponent", "")[:20],
            "level": request.POST.get("level", "")[:20],
            "time_limit": whole_number_or_none(
                request.POST.get("time_limit", "0"), minimum=0, maximum=services.MAX_TIME_LIMIT
            ),
        }
        try:
            if values["time_limit"] is None:
                raise services.MatchError("Choose a time limit from the list, or none.")
            match = skirmish.skirmish_start(
                player=request.user,
                deck=_chosen_deck(request),
                archetype=values["archetype"],
                level=values["level"],
                time_limit=values["time_limit"] or None,
            )
        except services.MatchError as failure:
            error = failure.message
        else:
            return redirect("game:match_page", match.pk)
    context = {
        "decks": decks,
        "opponents": selectors.computer_opponents(),
        "levels": ComputerLevel.choices,
        "time_limits": [(seconds, f"{seconds // 60} minutes") for seconds in services.TIME_LIMITS],
        "values": values,
        "error": error,
        "record": selectors.skirmish_record(player=request.user),
    }
    return render(request, "game/skirmish.html", context, status=400 if error else 200)


@login_required
def match_replay(request, match_id):
    """Step through a finished match's game from its log; the address is shareable."""
    try:
        screen = selectors.match_replay(
            match_id=match_id,
            viewer=request.user,
            game_number=whole_number_or_none(request.GET.get("game"), minimum=1, maximum=99),
            step=whole_number_or_none(request.GET.get("step"), minimum=0, maximum=MAX_ID),
            own_view=request.GET.get("view") == "mine",
        )
    except selectors.NotAllowedToWatch as refusal:
        return render(request, "game/match_refused.html", {"reason": refusal.message}, status=403)
    except selectors.NoReplay as refusal:
        status = 404 if isinstance(refusal, selectors.NoSuchMatch) else 200
        return render(
            request, "game/match_refused.html", {"reason": refusal.message}, status=status
        )
    return render(request, "game/replay.html", {"screen": screen})


@login_required
def match_history(request, username=None):
    """A player's finished matches (your own without a name), each with its replay."""
    player = request.user if username is None else player_by_name(username=username)
    if player is None:
        raise Http404("There is no player of that name.")
    return render(
        request,
        "game/history.html",
        {
            "player": player,
            "history": selectors.match_history(player=player, viewer=request.user),
            "skirmish_record": selectors.skirmish_record(player=player),
        },
    )


@login_required
@require_POST
def quick_join(request):
    """Quick Join: a waiting match that fits your Quick Join Settings, or a new one."""
    try:
        match = services.quick_join(player=request.user)
    except services.MatchError as failure:
        if request.htmx:
            return HttpResponse(failure.message, status=409, content_type="text/plain")
        messages.error(request, failure.message)
        return redirect("lobbies:lobby", "casual")
    return _done(request, match.pk)


@login_required
def quick_join_settings(request):
    """The Quick Join Settings window (right-click Quick Join, or its Settings button)."""
    current = selectors.quick_join_settings(player=request.user)
    values = {
        "structure": current.structure,
        "time_limit": current.time_limit or 0,
        "deck": current.deck_id,
    }
    error = saved = None
    if request.method == "POST":
        values = {
            "structure": whole_number_or_none(request.POST.get("structure"), minimum=1, maximum=9)
            or 0,
            "time_limit": whole_number_or_none(
                request.POST.get("time_limit", "0"), minimum=0, maximum=services.MAX_TIME_LIMIT
            ),
            "deck": object_id(request.POST.get("deck")),
        }
        try:
            if values["time_limit"] is None:
                raise services.MatchError("Choose a time limit from the list, or none.")
            services.quick_join_settings_save(
                player=request.user,
                structure=values["structure"],
                time_limit=values["time_limit"] or None,
                deck=_chosen_deck(request),
            )
        except services.MatchError as failure:
            error = failure.message
        else:
            saved = "Saved: Quick Join now looks for such a match, or creates one."
    context = {
        "decks": selectors.player_decks(player=request.user),
        "values": values,
        "structures": MatchStructure.choices,
        "time_limits": [(seconds, f"{seconds // 60} minutes") for seconds in services.TIME_LIMITS],
        "error": error,
        "saved": saved,
    }
    return _dialog(request, "game/_quick_join_settings.html", context)
