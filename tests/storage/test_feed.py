"""A table's feed is written by the transaction that makes each change: a savepoint released
keeps its events, one rolled back takes them with it, and a transaction rolled back writes none."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.storage.extensions import db
from scorekeeper.storage.feed import _hidden
from scorekeeper.storage.models import Player, Table, TableEvent, VirtualMove


def names_told(app: Flask, table_id: int) -> list[tuple[str, int | None]]:
    with app.app_context():
        rows = db.session.execute(
            select(TableEvent.kind, TableEvent.player_id)
            .where(TableEvent.table_id == table_id)
            .order_by(TableEvent.number)
        )
        return [(kind, player) for kind, player in rows]


@pytest.fixture
def table_id(app: Flask) -> int:
    with app.app_context():
        table = Table(name="Club", token_hash="0" * 64)
        db.session.add(table)
        db.session.commit()
        return table.id


def test_a_savepoint_released_keeps_its_events_and_one_rolled_back_loses_them(
    app: Flask, table_id: int
) -> None:
    with app.app_context():
        kept = Player(table_id=table_id, name="Ann")
        with db.session.begin_nested():
            db.session.add(kept)
        savepoint = db.session.begin_nested()
        db.session.add(Player(table_id=table_id, name="Bob"))
        db.session.flush()  # Bob's row written, and noted, inside the savepoint
        savepoint.rollback()
        db.session.commit()
        ann = kept.id
    assert names_told(app, table_id) == [("player_added", ann)]


def test_a_transaction_rolled_back_writes_no_event(app: Flask, table_id: int) -> None:
    with app.app_context():
        db.session.add(Player(table_id=table_id, name="Ann"))
        db.session.flush()
        db.session.rollback()
        db.session.add(Player(table_id=table_id, name="Bob"))
        db.session.commit()
    assert [kind for kind, _ in names_told(app, table_id)] == ["player_added"]
    with app.app_context():
        count = db.session.get_one(Table, table_id).event_count
    assert count == 1


def test_a_pass_is_left_out_only_where_it_would_tell_who_holds_a_safety() -> None:
    """A game stored before private chances asked only the safety's holder: its passes stay
    out of the feed (as its watchers do not see them); under private chances every seat of the
    attacked side answers, and a pass tells nothing."""
    passing = VirtualMove(game_id=1, number=3, seat=1, move={"move": "pass"})
    discard = VirtualMove(game_id=1, number=4, seat=1, move={"move": "discard", "card": "stop"})
    assert _hidden(passing, {"private_chances": False})
    assert not _hidden(passing, {"private_chances": True})
    assert not _hidden(discard, {"private_chances": False})
