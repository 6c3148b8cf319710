"""Two sign-ups of one name in different cases at the same moment: one account, and the other
player reads the sign-up form's "name taken" message, never a server error."""

import threading
import time

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from tcgsite.accounts import services
from tcgsite.accounts.models import User
from tests.factories import PASSWORD, UserFactory

NAME_TAKEN = "A user with that username already exists."

postgresql_only = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="the race needs a database where one insert waits on another's unique index",
)


def sign_up(username: str):
    """One visitor's sign-up, on a thread of its own (with its own connection)."""
    try:
        return Client().post(
            reverse("accounts:signup"),
            {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        )
    finally:
        connection.close()


def insert_waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE 'INSERT INTO \"accounts_user\"%%'"
        )
        return cursor.fetchone()[0] > 0


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_sign_up_that_loses_the_race_for_a_name_gets_the_name_taken_message():
    """Given a sign-up of "Racer" that has written its row but not committed yet, a sign-up of
    "RACER" passes the form's check (the row is not visible yet) and its insert waits on the
    unique index; when the first commits, the second gets the form's message."""
    written, commit = threading.Event(), threading.Event()

    def first():
        try:
            with transaction.atomic():
                services.account_create(username="Racer", password=PASSWORD)
                written.set()
                commit.wait(timeout=30)
        finally:
            connection.close()

    responses = []
    first_thread = threading.Thread(target=first)
    first_thread.start()
    assert written.wait(timeout=30)
    second_thread = threading.Thread(target=lambda: responses.append(sign_up("RACER")))
    second_thread.start()
    deadline = time.monotonic() + 30
    while not insert_waiting_on_a_lock():
        assert time.monotonic() < deadline, "the second sign-up never reached the database"
        time.sleep(0.05)
    commit.set()
    first_thread.join(timeout=30)
    second_thread.join(timeout=30)

    (response,) = responses
    assert response.status_code == 200
    assert NAME_TAKEN in response.content.decode()
    (account,) = User.objects.filter(username__iexact="racer")
    assert account.username == "Racer"


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_simultaneous_sign_ups_of_one_name_in_four_cases_make_one_account():
    names = ["Speeder", "speeder", "SPEEDER", "sPEEDER"]
    barrier = threading.Barrier(len(names))
    responses: dict[str, object] = {}

    def run(name):
        barrier.wait()
        responses[name] = sign_up(name)

    threads = [threading.Thread(target=run, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    statuses = sorted(response.status_code for response in responses.values())
    assert statuses == [200, 200, 200, 302]
    for response in responses.values():
        if response.status_code == 200:
            assert NAME_TAKEN in response.content.decode()
    (winner,) = User.objects.filter(username__iexact="speeder")
    assert responses[winner.username].status_code == 302


@pytest.mark.django_db
def test_the_database_refusing_a_name_becomes_the_name_taken_message():
    """What the loser of the race meets, on either database: the form found the name free,
    the unique constraint on the lower-case name refuses it."""
    UserFactory(username="Tyler")

    with pytest.raises(services.UsernameTaken, match=NAME_TAKEN):
        services.account_create(username="TYLER", password=PASSWORD)

    # The refused insert rolled back alone: the request's transaction goes on.
    assert User.objects.filter(username__iexact="tyler").count() == 1


@pytest.mark.django_db
def test_a_name_taken_between_the_forms_check_and_its_constraint_check_reads_the_same_message():
    """The narrower window of the race: another sign-up commits after this form's name check
    and before its validation of the model's constraints."""
    UserFactory(username="Skimmer")

    with pytest.raises(ValidationError) as refusal:
        User(username="SKIMMER").validate_constraints()

    assert refusal.value.messages == [NAME_TAKEN]
