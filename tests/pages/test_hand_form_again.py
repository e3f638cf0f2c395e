"""The hand form posted to be shown again, not saved: a stepper's − or + tapped without script, or
the language switched on the form. Nothing is recorded, what was entered stays (which answers a
person chose included), and input a flaky phone garbles changes nothing rather than failing."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.api.conftest import TableAccess
from tests.hand_forms import hand_form, hands, joined_game


@pytest.fixture
def game(client: FlaskClient) -> tuple[TableAccess, str]:
    return joined_game(client)


def field(page: str, name: str) -> str:
    """The value a page's input ``name`` is shown with."""
    found = re.search(rf'name="{re.escape(name)}"[^>]*? value="([^"]*)"', page)
    assert found, name
    return found.group(1)


def checked(page: str, name: str) -> list[str]:
    """The values of the radios or boxes ``name`` shown checked."""
    return re.findall(rf'name="{re.escape(name)}" value="([^"]*)" checked', page)


def test_a_stepper_moves_its_count_and_the_cards_become_the_distance(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    table, path = game
    form = {**hand_form(client, path + "/hands/new", 1, km=300), "s0-d200": "1", "completed": ""}
    answer = client.post(path + "/hands/new", data={**form, "step": "s0-d200:1"})
    assert answer.status_code == 200
    page = answer.text
    assert field(page, "s0-d200") == "2"
    assert field(page, "s0-km") == ""  # counting cards makes them the distance
    assert checked(page, "s0-two_hundreds") == ["2"]  # a 200 counted is a 200 said
    assert checked(page, "completed") == [""]
    assert "banner warn" not in page  # shown again, not refused
    assert hands(table, path) == []


@pytest.mark.parametrize(
    ("count", "step", "shown"),
    [("0", "-1", "0"), ("2", "1", "2"), ("1", "-1", "0")],
    ids=["no fewer than none", "no more 200s than a side plays (RULES.md §5)", "one fewer"],
)
def test_a_stepper_keeps_within_its_limits(
    client: FlaskClient, game: tuple[TableAccess, str], count: str, step: str, shown: str
) -> None:
    _, path = game
    form = {**hand_form(client, path + "/hands/new", 1), "s1-d200": count}
    page = client.post(path + "/hands/new", data={**form, "step": f"s1-d200:{step}"}).text
    assert field(page, "s1-d200") == shown
    plus, minus = ("one more", "one fewer")
    assert (f'disabled aria-label="Bob: 200 km, {minus}"' in page) == (shown == "0")
    assert (f'disabled aria-label="Bob: 200 km, {plus}"' in page) == (shown == "2")


@pytest.mark.parametrize(
    "step", ["s9-d25:1", "s0-d30:1", "s0-d25:+5", "s0-d25", "", "s0-km:1", "s00000-d25:1"]
)
def test_a_step_the_form_cannot_send_changes_nothing(
    client: FlaskClient, game: tuple[TableAccess, str], step: str
) -> None:
    table, path = game
    form = hand_form(client, path + "/hands/new", 1, km=300)
    answer = client.post(path + "/hands/new", data={**form, "step": step})
    assert answer.status_code == 200
    assert field(answer.text, "s0-km") == "300"
    assert all(field(answer.text, f"s0-d{value}") == "0" for value in (25, 50, 75, 100, 200))
    assert hands(table, path) == []


def test_the_language_switched_on_the_form_keeps_it(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    table, path = game
    form = {
        **hand_form(client, path + "/hands/new", 1, km=1100),
        "completed": "",
        "chosen": "completed",
    }
    answer = client.post(path + "/hands/new", data={**form, "language": "fr"})
    assert answer.status_code == 200
    assert 'lang="fr"' in answer.text
    assert "lang=fr" in answer.headers["Set-Cookie"]
    assert field(answer.text, "s0-km") == "1100"
    assert checked(answer.text, "completed") == [""]
    assert field(answer.text, "chosen") == "completed"
    # The refusal the form meets as it stands is beside Ann, in French; nothing was recorded.
    assert 'data-code="distance_over_target"' in answer.text
    assert hands(table, path) == []
    assert 'lang="fr"' in client.get(path + "/hands/new").text  # and the phone keeps it


def test_a_language_the_app_does_not_have_changes_nothing(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    _, path = game
    form = hand_form(client, path + "/hands/new", 1)
    answer = client.post(path + "/hands/new", data={**form, "language": "xx"})
    assert answer.status_code == 200
    assert 'lang="en"' in answer.text
    assert "Set-Cookie" not in answer.headers or "lang=" not in answer.headers["Set-Cookie"]
    assert field(answer.text, "s0-km") == "300"


@pytest.mark.parametrize(
    ("posted", "shown"),
    [
        ({"chosen": "completed s1-two_hundreds"}, "completed s1-two_hundreds"),
        ({"chosen": "completed nonsense s7-two_hundreds"}, "completed"),
        ({}, "completed extension s0-two_hundreds s1-two_hundreds"),
    ],
    ids=["as the script sent them", "only answers the form has", "sent without the script: all"],
)
def test_a_refused_form_says_which_answers_were_chosen(
    client: FlaskClient, game: tuple[TableAccess, str], posted: dict[str, str], shown: str
) -> None:
    _, path = game
    form = {**hand_form(client, path + "/hands/new", 1, km=700), "completed": "", **posted}
    answer = client.post(path + "/hands/new", data=form)
    assert answer.status_code == 422
    assert field(answer.text, "chosen") == shown
    assert checked(answer.text, "completed") == [""]


def test_a_fresh_form_has_nothing_chosen_and_a_correction_everything(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    _, path = game
    assert field(client.get(path + "/hands/new").text, "chosen") == ""
    client.post(path + "/hands/new", data=hand_form(client, path + "/hands/new", 1))
    correction = client.get(path + "/hands/1").text
    assert field(correction, "chosen") == "completed extension s0-two_hundreds s1-two_hundreds"


def test_a_correction_shown_again_keeps_its_version(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    table, path = game
    client.post(path + "/hands/new", data=hand_form(client, path + "/hands/new", 1))
    page = client.get(path + "/hands/1").text
    form = {**hand_form(client, path + "/hands/1", 1, km=200), "etag": field(page, "etag")}
    answer = client.post(path + "/hands/1", data={**form, "step": "s1-d25:1"})
    assert answer.status_code == 200
    assert field(answer.text, "etag") == field(page, "etag")
    assert field(answer.text, "s1-d25") == "1"
    assert field(answer.text, "s0-km") == "200"
    assert hands(table, path) == [300]


def test_a_correction_shown_again_still_finds_a_change_made_meanwhile(
    client: FlaskClient, game: tuple[TableAccess, str]
) -> None:
    """Another phone corrects the hand while this one's correction is shown again (a language
    switch): this phone's Save is refused with the current version, not written over it."""
    table, path = game
    client.post(path + "/hands/new", data=hand_form(client, path + "/hands/new", 1))
    versions_read = field(client.get(path + "/hands/1").text, "etag")
    other = {**hand_form(client, path + "/hands/1", 1, km=400), "etag": versions_read}
    assert client.post(path + "/hands/1", data=other).status_code == 302
    mine = {**hand_form(client, path + "/hands/1", 1, km=200), "etag": versions_read}
    again = client.post(path + "/hands/1", data={**mine, "language": "fr"})
    assert field(again.text, "etag") == versions_read
    answer = client.post(path + "/hands/1", data={**mine, "etag": field(again.text, "etag")})
    assert answer.status_code == 409
    assert field(answer.text, "s0-km") == "400"  # the current version, to correct afresh
    assert hands(table, path) == [400]
