"""Cards are data: the set file loads idempotently and edits update cards in place."""

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from collection.cards.models import Card, CardSet
from collection.cards.services import CatalogError, catalog_load_set, set_files
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_load_cards_twice_changes_nothing(capsys):
    call_command("load_cards")
    first = {card.pk: card.rules for card in Card.objects.all()}

    call_command("load_cards")

    output = capsys.readouterr().out
    assert f"0 created, 0 updated, {len(first)} unchanged" in output
    assert {card.pk: card.rules for card in Card.objects.all()} == first
    assert CardSet.objects.count() == len(set_files())


def test_editing_the_file_updates_the_card_in_place(tmp_path):
    source = set_files()[0]
    catalog_load_set(path=source)
    data = json.loads(source.read_text(encoding="utf-8"))
    edited = data["cards"][10]
    before = Card.objects.get(card_set__number=data["set"]["number"], number=edited["number"])
    edited["lore"] = "A new chapter of the story."
    changed_file = tmp_path / source.name
    changed_file.write_text(json.dumps(data), encoding="utf-8")

    report = catalog_load_set(path=changed_file)

    assert (report.created, report.updated) == (0, 1)
    after = Card.objects.get(pk=before.pk)
    assert after.lore == "A new chapter of the story."
    assert after.title == before.title


def test_invalid_set_file_loads_nothing(tmp_path, empty_catalog):
    data = json.loads(set_files()[0].read_text(encoding="utf-8"))
    data["cards"][0]["rarity"] = "X"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")

    with pytest.raises(CatalogError, match="problem"):
        catalog_load_set(path=broken)
    assert not Card.objects.exists()


def test_unreadable_set_file_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogError, match="can't be read as JSON"):
        catalog_load_set(path=broken)


def test_card_indexes_follow_traits_and_keywords(catalog):
    card = Card.objects.exclude(rules__keywords=[]).exclude(traits=[]).first()
    assert f"|{card.traits[0].lower()}|" in card.trait_index
    assert f"|{card.keyword_names[0]}|" in card.keyword_index


def test_staff_admin_lists_filters_and_searches_cards_and_players(client, catalog):
    staff = UserFactory(username="Admiral", is_staff=True, is_superuser=True)
    client.force_login(staff)
    card = Card.objects.filter(card_type="unit").first()

    cards = client.get(
        reverse("admin:cards_card_changelist"), {"card_type__exact": "unit", "q": card.title}
    )
    sets = client.get(reverse("admin:cards_cardset_changelist"), {"q": "1"})
    players = client.get(reverse("admin:accounts_user_changelist"), {"q": "Admir"})

    assert cards.status_code == sets.status_code == players.status_code == 200
    assert card.title in cards.content.decode()
    assert "Admiral" in players.content.decode()


def test_staff_edit_of_a_card_is_checked_against_the_rules_vocabulary(client, catalog):
    client.force_login(UserFactory(username="Editor", is_staff=True, is_superuser=True))
    card = Card.objects.filter(card_type="unit").first()
    url = reverse("admin:cards_card_change", args=[card.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {name: ("" if value is None else value) for name, value in data.items()}
    data["rules"] = json.dumps({"keywords": [{"keyword": "teleport"}]})
    data["traits"] = json.dumps(card.traits)

    response = client.post(url, data)

    assert response.status_code == 200
    assert "teleport" in response.content.decode()
    card.refresh_from_db()
    assert card.rules != {"keywords": [{"keyword": "teleport"}]}

    data["rules"] = json.dumps(card.rules)
    data["lore"] = "Edited by staff."
    assert client.post(url, data).status_code == 302
    card.refresh_from_db()
    assert card.lore == "Edited by staff."
