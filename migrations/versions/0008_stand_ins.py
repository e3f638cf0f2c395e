"""Stand-ins: a computer may play an absent player's seat of a virtual game, and give it back.

A seat keeps the computer playing it for its player (``stand_in``) and each stored move the
computer that chose it in a player's place, so the history tells who played which hands.
Seats and moves stored before have none: their players played them.

Revision ID: 0008_stand_ins
Revises: 0007_kept_totals
Create Date: 2026-11-26 07:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008_stand_ins"
down_revision = "0007_kept_totals"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stand_in", sa.String(length=16), nullable=True))
    with op.batch_alter_table("virtual_moves", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stand_in", sa.String(length=16), nullable=True))


def downgrade() -> None:
    # Dropped in place (SQLite 3.35 and PostgreSQL both can), as 0006 does: no batch copy of a
    # table that others point at.
    op.execute("ALTER TABLE virtual_moves DROP COLUMN stand_in")
    op.execute("ALTER TABLE seats DROP COLUMN stand_in")
