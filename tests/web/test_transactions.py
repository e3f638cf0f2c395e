"""A request's write is committed with an answer below 400 and rolled back otherwise, and a page
that refuses raises its refusal: whatever it wrote before is gone, even when the answer is a
redirect. Checked with views added here, after the app was built, as a new page would be."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask, redirect
from sqlalchemy import func, select

from engine.sentences import N_
from scorekeeper.domain.refusals import NotNow
from scorekeeper.services import operations
from scorekeeper.storage.extensions import db
from scorekeeper.storage.models import Player, Table
from scorekeeper.web import security
from scorekeeper.web.transactions import unwritten


def players(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Player.name).order_by(Player.id)))


def add_page(app: Flask, path: str, then: Callable[[], object]) -> None:
    """A page view at ``path`` that adds a player to a new table, then does ``then``."""

    def view() -> object:
        table, _ = operations.create_table("Club")
        operations.create_player(table, path.strip("/"))
        return then()

    view.__name__ = path.strip("/").replace("-", "_")
    app.add_url_rule(path, view_func=security.csrf.exempt(view), methods=["POST"])


def refuse() -> object:
    raise NotNow(N_("Only a game at the table that has ended can be played again."))


@pytest.fixture
def pages(app: Flask) -> Flask:
    add_page(app, "/kept", lambda: redirect("/", 303))
    add_page(app, "/refused", refuse)
    add_page(app, "/redirected-unwritten", lambda: unwritten(redirect("/", 303)))
    add_page(app, "/answered-409", lambda: ("taken", 409))
    return app


def test_a_page_that_answers_below_400_keeps_its_write(pages: Flask) -> None:
    assert pages.test_client().post("/kept").status_code == 303
    assert players(pages) == ["kept"]


@pytest.mark.parametrize(
    ("path", "status"), [("/refused", 409), ("/redirected-unwritten", 303), ("/answered-409", 409)]
)
def test_a_page_that_refuses_after_a_write_stores_nothing(
    pages: Flask, path: str, status: int
) -> None:
    """A refusal raised after the player was added, a redirect raised as unwritten, or a 4xx
    answer: no player, and no table either (nothing of the request is half-written)."""
    assert pages.test_client().post(path).status_code == status
    assert players(pages) == []
    with pages.app_context():
        assert db.session.scalar(select(func.count()).select_from(Table)) == 0
