"""The Guilds window (rulebook, "Guilds"): All Guilds and Friends' Guilds, a guild's details
(Overview, Members, Settings) and the actions of its members. Each action answers an htmx
request (a pop-up's button, a User List's menu) with a sentence, and a form with a message on
the page it leads back to."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from guilds import selectors
from guilds.services import guilds as services
from tcgsite.accounts.models import User
from tcgsite.accounts.selectors import player_by_name

TABS = ("overview", "members", "settings")


@login_required
def guild_list(request, *, create_name: str = "", create_error: str = ""):
    friends_only = request.GET.get("show") == "friends"
    return render(
        request,
        "guilds/guild_list.html",
        {
            "friends_only": friends_only,
            "rankings": selectors.guild_rankings(friends_of=request.user if friends_only else None),
            "own_guild": selectors.guild_of(user_id=request.user.pk),
            "invitations": selectors.invitations_of(user=request.user),
            "create_name": create_name,
            "create_error": create_error,
        },
        status=400 if create_error else 200,
    )


@login_required
@require_POST
def guild_create(request):
    name = request.POST.get("name", "")
    try:
        guild = services.guild_create(founder=request.user, name=name)
    except services.GuildError as refusal:
        return guild_list(request, create_name=name[:60], create_error=refusal.message)
    messages.success(request, f"You founded {guild.name}. Invite players to join it.")
    return redirect("guilds:guild_detail", guild_id=guild.pk)


@login_required
def guild_detail(request, guild_id):
    page = selectors.guild_page(guild_id=guild_id, viewer=request.user)
    if page is None:
        raise Http404("There is no such guild.")
    tab = request.GET.get("tab", "overview")
    if tab not in TABS or (tab == "settings" and not page.manages):
        tab = "overview"
    return render(request, "guilds/guild_detail.html", {"page": page, "tab": tab})


@login_required
@require_POST
def guild_invite(request, username=None):
    """Invite New Members: from the Settings form, or a User List's menu."""
    name = (username if username is not None else request.POST.get("username", "")).strip()
    invitee = player_by_name(username=name) if name else None
    if invitee is None:
        refusal = f"There is no player called {name[:40]}." if name else "Type a player's name."
        return _refused(request, refusal, back=_settings_url(request))
    try:
        invitation = services.guild_invite(inviter=request.user, invitee=invitee)
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=_settings_url(request))
    return _done(
        request,
        f"{invitee.username} is invited to {invitation.guild.name}.",
        back=_settings_url(request),
    )


@login_required
@require_POST
def invitation_accept(request, invitation_id):
    try:
        guild = services.guild_invitation_accept(invitation_id=invitation_id, user=request.user)
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=reverse("guilds:guild_list"))
    back = reverse("guilds:guild_detail", args=[guild.pk])
    return _done(request, f"Welcome to {guild.name}!", back=back, guild=guild)


@login_required
@require_POST
def invitation_decline(request, invitation_id):
    try:
        guild = services.guild_invitation_decline(invitation_id=invitation_id, user=request.user)
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=reverse("guilds:guild_list"))
    return _done(
        request,
        f"You declined the invitation to {guild.name}.",
        back=reverse("guilds:guild_list"),
    )


@login_required
@require_POST
def guild_leave(request):
    try:
        guild = services.guild_leave(user=request.user)
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=reverse("guilds:guild_list"))
    if guild is None:
        result = "You left your guild; it had no other member, so it is disbanded."
    else:
        result = f"You left {guild.name}."
    return _done(request, result, back=reverse("guilds:guild_list"))


@login_required
@require_POST
def guild_kick(request, username):
    member = _player_or_404(username)
    back = _members_url(request)
    try:
        guild = services.guild_kick(by=request.user, member=member)
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=back)
    return _done(request, f"{member.username} is no longer in {guild.name}.", back=back)


@login_required
@require_POST
def guild_officer(request, username):
    """Grant Guild Officer Status (``officer=1``) or revoke it (``officer=0``)."""
    member = _player_or_404(username)
    back = _members_url(request)
    officer = request.POST.get("officer") == "1"
    try:
        services.guild_officer_set(leader=request.user, member=member, officer=officer)
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=back)
    result = "is now an officer" if officer else "is no longer an officer"
    return _done(request, f"{member.username} {result}.", back=back)


@login_required
@require_POST
def guild_message(request):
    broadcast = request.POST.get("broadcast") == "on"
    back = _settings_url(request)
    try:
        reached = services.guild_message_set(
            by=request.user, text=request.POST.get("message", ""), broadcast=broadcast
        )
    except services.GuildError as refusal:
        return _refused(request, refusal.message, back=back)
    result = "Guild Message saved: each member sees it at their next login."
    if broadcast:
        online = f"{reached} member{'' if reached == 1 else 's'}"
        result = f"Guild Message saved and sent now to the {online} logged in."
    return _done(request, result, back=back)


def _done(request, result: str, *, back: str, guild=None):
    if request.htmx:
        return _answer(request, result, failed=False, guild=guild)
    messages.success(request, result)
    return redirect(back)


def _refused(request, result: str, *, back: str):
    if request.htmx:
        return _answer(request, result, failed=True, guild=None)
    messages.error(request, result)
    return redirect(back)


def _answer(request, result: str, *, failed: bool, guild):
    """A sentence for htmx: a line of a pop-up (its Accept or Decline), or a User List's menu."""
    in_toast = request.headers.get("HX-Target") != "user-menu"
    return render(
        request,
        "guilds/_answer.html",
        {"result": result, "failed": failed, "guild": guild, "toast": in_toast},
    )


def _own_guild_url(request, tab: str) -> str:
    guild_id = selectors.guild_id_of(user_id=request.user.pk)
    if guild_id is None:
        return reverse("guilds:guild_list")
    return f"{reverse('guilds:guild_detail', args=[guild_id])}?tab={tab}"


def _settings_url(request) -> str:
    return _own_guild_url(request, "settings")


def _members_url(request) -> str:
    return _own_guild_url(request, "members")


def _player_or_404(username: str) -> User:
    player = player_by_name(username=username)
    if player is None:
        raise Http404("There is no player of that name.")
    return player
