# ruff: noqa: RUF001, RUF003 (these tests are about look-alike characters)
"""One name, however it is spelled: case, width and compatibility forms collide; names
mixing look-alike scripts are refused; the database is the last word."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from players import selectors
from players.models import Player
from players.usernames import username_mixed_scripts

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-staple"


def register(client, username):
    return client.post(
        "/api/v1/auth/register", {"username": username, "password": PASSWORD}, format="json"
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("evex", "ＥVEx"),  # full-width E
        ("evex", "EVEX"),
        ("evex", "ｅｖｅｘ"),
        ("office", "oﬃce"),  # ffi ligature
        ("strasse", "Straße"),  # case-folding: ß is ss
        ("ana_1", "ana_¹"),  # superscript one
    ],
)
def test_spellings_of_one_name_collide(api_client, first, second):
    assert register(api_client, first).status_code == 201
    response = register(api_client, second)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "username_taken"
    assert Player.objects.count() == 1


def test_the_name_is_kept_as_typed_after_nfkc(api_client):
    body = register(api_client, "ＥVEx").json()
    assert body["username"] == "EVEx"
    player = Player.objects.get()
    assert (player.username, player.username_canonical) == ("EVEx", "evex")


def test_a_name_is_measured_after_nfkc(api_client):
    """One character can expand to many; the stored name must still fit."""
    response = register(api_client, "ﷺ" * 10)  # 18 letters each after NFKC
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_input"


@pytest.mark.parametrize(
    ("name", "scripts"),
    [
        ("еvex", ["Cyrillic", "Latin"]),  # Cyrillic е
        ("pοker", ["Greek", "Latin"]),  # Greek ο
        ("аnа_ben", ["Cyrillic", "Latin"]),
        ("ana١", ["Arabic", "Latin"]),  # Arabic-Indic digit one
    ],
)
def test_names_mixing_scripts_are_refused(api_client, name, scripts):
    response = register(api_client, name)
    assert response.status_code == 422  # the schema's pattern allows it; a rule refuses it
    error = response.json()["error"]
    assert error["code"] == "invalid_username"
    assert error["details"] == {"reason": "mixed_scripts", "scripts": scripts}
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        "张伟",  # Han
        "Αλέξανδρος",  # Greek
        "Niño_Ñ",  # Latin with Filipino Ñ
        "山田たろう",  # Han with Hiragana: Japanese
        "kim_민준",  # Latin with Hangul
        "Иван",  # Cyrillic
        "ехх",  # wholly Cyrillic, looks like Latin "exx": knowingly allowed
        "juan.dela-cruz+2@ph",
    ],
)
def test_names_in_one_script_or_an_allowed_mix_are_accepted(api_client, name):
    response = register(api_client, name)
    assert response.status_code == 201, response.json()
    assert response.json()["username"] == name


def test_script_of_ascii_digits_and_symbols_is_neutral():
    assert username_mixed_scripts("Ω_2024.@+-") == []
    assert username_mixed_scripts("ana❶") == ["Dingbat", "Latin"]


def test_login_with_another_spelling_of_the_name(api_client):
    register(api_client, "Ana")
    for spelling in ["Ana", "ana", "ANA", "ＡＮＡ"]:
        response = api_client.post(
            "/api/v1/auth/token", {"username": spelling, "password": PASSWORD}, format="json"
        )
        assert response.status_code == 200, spelling


def test_the_database_refuses_two_spellings_of_one_name(api_client):
    Player.objects.create_user("evex")
    with pytest.raises(IntegrityError):
        Player.objects.create_user("EVEX")


def test_the_constraint_holds_even_past_the_model(api_client):
    Player.objects.create_user("evex")
    bob = Player.objects.create_user("bob")
    with pytest.raises(IntegrityError):
        Player.objects.filter(pk=bob.pk).update(username_canonical="evex")


def test_a_sign_up_race_is_decided_by_the_constraint(api_client, monkeypatch):
    """Two sign-ups can both pass the look-up before either inserts."""
    monkeypatch.setattr(selectors, "username_taken", lambda **kwargs: False)
    assert register(api_client, "evex").status_code == 201
    response = register(api_client, "EVEX")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "username_taken"


def test_the_admin_refuses_a_twin_name_as_a_form_error(admin_client):
    Player.objects.create_user("straße")
    response = admin_client.post(
        "/admin/players/player/add/",
        {"username": "STRASSE", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "A player with that name already exists." in response.content.decode()
    assert not Player.objects.filter(username="STRASSE").exists()


def test_renaming_a_player_keeps_the_canonical_name_in_step():
    player = Player.objects.create_user("ana")
    player.username = "Bea"
    player.save(update_fields=["username"])
    player.refresh_from_db()
    assert player.username_canonical == "bea"


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_existing_rows_and_renames_later_twins():
    executor = MigrationExecutor(connection)
    executor.migrate([("players", "0001_initial")])
    old_apps = executor.loader.project_state([("players", "0001_initial")]).apps
    OldPlayer = old_apps.get_model("players", "Player")
    start = timezone.now()
    for i, name in enumerate(["evex", "EVEx", "EVEx-2", "Ana"]):  # in sign-up order
        OldPlayer.objects.create(
            username=name, password="!", date_joined=start + timedelta(minutes=i)
        )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    names = dict(Player.objects.values_list("username", "username_canonical"))
    assert names == {
        "evex": "evex",
        "EVEx-3": "evex-3",  # -2 would be the twin of the existing EVEx-2
        "EVEx-2": "evex-2",
        "Ana": "ana",
    }
