from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from tcgsite.accounts import selectors, services
from tcgsite.accounts.avatars import player_avatar_svg
from tcgsite.accounts.forms import PREFERENCE_PAGES, SignUpForm
from tcgsite.accounts.models import User


def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.account_create(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except services.UsernameTaken as error:
            form.add_error("username", str(error))
            return render(request, "accounts/signup.html", {"form": form})
        login(request, user, backend="tcgsite.accounts.backends.CaseInsensitiveUsernameBackend")
        messages.success(request, f"Welcome to the galaxy, {user.username}!")
        return redirect("lobby")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def preferences(request, page="account"):
    if page not in PREFERENCE_PAGES:
        raise Http404("No such preferences page.")
    title, form_class = PREFERENCE_PAGES[page]
    current = services.preferences_for(user=request.user)
    form = form_class(request.POST or None, instance=current)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, f"{title} saved.")
            return redirect("accounts:preferences", page=page)
        messages.error(request, "Please correct the highlighted fields; nothing was saved.")
    return render(
        request,
        "accounts/preferences.html",
        {"form": form, "page": page, "page_title": title, "pages": PREFERENCE_PAGES},
    )


@login_required
@require_POST
def hide_tips(request, screen):
    try:
        services.tips_hide(user=request.user, screen=screen)
    except services.AccountError as error:
        return HttpResponse(str(error), status=400)
    if request.htmx:
        return HttpResponse("")
    return redirect(_local_url(request, request.POST.get("next", "")) or "lobby")


@login_required
def player_list(request):
    query = request.GET.get("q", "").strip()
    players = selectors.players_search(query=query)
    page = Paginator(players, 40).get_page(request.GET.get("page"))
    template = "accounts/_player_rows.html" if request.htmx else "accounts/player_list.html"
    return render(request, template, {"page": page, "query": query})


@login_required
def player_info(request, username):
    """A player's page; asked by htmx (a User List's Get info), only its card, for a dialog."""
    owner = _player_or_404(username)
    return render(
        request,
        "accounts/_player_card.html" if request.htmx else "accounts/player_info.html",
        {
            "owner": owner,
            "info": services.account_info_visible(owner=owner, viewer=request.user),
            "is_friend": selectors.is_friend(user=request.user, other=owner),
            "is_ignored": selectors.is_ignored(user=request.user, other=owner),
        },
    )


@login_required
@require_POST
def friend_toggle(request, username):
    friend = _player_or_404(username)
    try:
        if selectors.is_friend(user=request.user, other=friend):
            services.friend_remove(user=request.user, friend=friend)
            result = f"{friend.username} is no longer on your Friends List."
        else:
            services.friend_add(user=request.user, friend=friend)
            result = f"{friend.username} is now on your Friends List."
    except services.AccountError as error:
        return _list_change(request, friend, str(error), failed=True)
    return _list_change(request, friend, result)


@login_required
@require_POST
def ignore_toggle(request, username):
    other = _player_or_404(username)
    try:
        if selectors.is_ignored(user=request.user, other=other):
            services.ignore_remove(user=request.user, other=other)
            result = f"{other.username} is no longer on your Ignore List."
        else:
            services.ignore_add(user=request.user, other=other)
            result = f"{other.username} is now on your Ignore List: you won't see their messages."
    except services.AccountError as error:
        return _list_change(request, other, str(error), failed=True)
    return _list_change(request, other, result)


def _list_change(request, other: User, result: str, *, failed: bool = False):
    """The answer to a Friends or Ignore List change: for htmx (a User List's menu) the
    sentence alone, else back to the page it was made on, or the player's page."""
    if request.htmx:
        return render(request, "accounts/_list_change.html", {"result": result, "failed": failed})
    (messages.error if failed else messages.success)(request, result)
    return redirect(
        _local_url(request, request.POST.get("next", ""))
        or reverse("accounts:player_info", args=[other.username])
    )


def avatar_picture(request, choice):
    try:
        picture = player_avatar_svg(choice)
    except ValueError as error:
        raise Http404(str(error)) from error
    response = HttpResponse(picture, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def _local_url(request, url: str) -> str:
    """``url`` if it is a page of this site (a path), else ""; never another site."""
    is_local = url.startswith("/") and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if is_local else ""


def _player_or_404(username: str) -> User:
    player = selectors.player_by_name(username=username)
    if player is None:
        raise Http404("There is no player of that name.")
    return player
