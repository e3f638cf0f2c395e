"""Games keep what their hands add up to: hand count, running totals, leaders, outcome, winner.

Revision ID: 0007_kept_totals
Revises: 0006_private_chances
Create Date: 2026-11-25 10:00:00.000000

A request then reads where a game stands from its row instead of rebuilding the score sheet from
every hand. Games stored before are filled from their hands here, by the engine, exactly as
``scorekeeper db verify`` rebuilds them.

Every hand POST deletes its table's expired idempotency records; with an index on the time alone
that read every record of the table, so the index is on (table, time) now.
"""

import sqlalchemy as sa
from alembic import op

from engine.rules import Rules
from engine.scoring import HandScore
from engine.sheet import Outcome, leaders_of, status_of, winner_of

# revision identifiers, used by Alembic.
revision = "0007_kept_totals"
down_revision = "0006_private_chances"
branch_labels = None
depends_on = None

games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("players", sa.Integer),
    sa.column("variants", sa.JSON),
    sa.column("hand_count", sa.Integer),
    sa.column("totals", sa.JSON),
    sa.column("leaders", sa.JSON),
    sa.column("outcome", sa.String),
    sa.column("winner", sa.Integer),
)
sides = sa.table("sides", sa.column("game_id", sa.Integer))
hands = sa.table(
    "hands",
    sa.column("game_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("breakdown", sa.JSON),
)


def upgrade():
    # Columns added in place, never by copying the table: on SQLite a batch "move and copy" of
    # games drops the old table, and with foreign keys on that deletes every side, hand and move
    # of every game (ON DELETE CASCADE). Hence NOT NULL with a default from the start.
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hand_count", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("totals", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.add_column(sa.Column("leaders", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.add_column(sa.Column("outcome", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("winner", sa.Integer(), nullable=True))

    connection = op.get_bind()
    side_counts = dict(
        connection.execute(
            sa.select(sides.c.game_id, sa.func.count()).group_by(sides.c.game_id)
        ).all()
    )
    for game_id, players, variants in connection.execute(
        sa.select(games.c.id, games.c.players, games.c.variants).order_by(games.c.id)
    ).all():
        totals = [0] * side_counts.get(game_id, 0)
        count = 0
        for (breakdown,) in connection.execute(
            sa.select(hands.c.breakdown).where(hands.c.game_id == game_id).order_by(hands.c.number)
        ):
            score = HandScore.from_dict(breakdown)
            totals = [total + points for total, points in zip(totals, score.totals, strict=True)]
            count += 1
        rules = Rules.for_players(players, variants or {})
        status = status_of(totals, rules) if count else Outcome.IN_PROGRESS
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(
                hand_count=count,
                totals=totals,
                leaders=list(leaders_of(totals)) if count else [],
                outcome=None if status is Outcome.IN_PROGRESS else str(status),
                winner=winner_of(totals, rules) if count else None,
            )
        )

    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_records_created_at"))
        batch_op.create_index(
            "ix_idempotency_records_table_created", ["table_id", "created_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.drop_index("ix_idempotency_records_table_created")
        batch_op.create_index(
            batch_op.f("ix_idempotency_records_created_at"), ["created_at"], unique=False
        )

    # Dropped in place (SQLite 3.35 and PostgreSQL both can), for the reason given above.
    for column in ("winner", "outcome", "leaders", "totals", "hand_count"):
        op.execute(f"ALTER TABLE games DROP COLUMN {column}")
