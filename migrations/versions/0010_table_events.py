"""A table's feed: every change to a table as an event numbered per table, in commit order, and
the table's count of them.

Revision ID: 0010_table_events
Revises: 0009_access_tokens
Create Date: 2026-12-02 07:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010_table_events"
down_revision = "0009_access_tokens"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("hand", sa.Integer(), nullable=True),
        sa.Column("move", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "number"),
    )
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("event_count", sa.Integer(), server_default="0", nullable=False)
        )


def downgrade() -> None:
    # Dropped in place (SQLite 3.35 and PostgreSQL both can), as 0006 does.
    op.execute("ALTER TABLE tables DROP COLUMN event_count")
    op.drop_table("table_events")
