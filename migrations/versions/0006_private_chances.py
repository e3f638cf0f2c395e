"""Private coup-fourré chances: a virtual game asks every seat of an attacked side.

Games stored before keep the old chances (only a holder of the safety was asked), so their
stored moves still replay exactly.

Revision ID: 0006_private_chances
Revises: 0005_player_name_keys
Create Date: 2026-11-24 02:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006_private_chances"
down_revision = "0005_player_name_keys"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("private_chances", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    # Dropped in place (SQLite 3.35 and PostgreSQL both can). A batch "move and copy" of games,
    # as this step did before, dropped the old table on SQLite, and with foreign keys on that
    # deleted every side, hand and move of every game (ON DELETE CASCADE).
    op.execute("ALTER TABLE games DROP COLUMN private_chances")
