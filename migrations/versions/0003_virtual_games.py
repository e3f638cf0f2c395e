"""Virtual games: a seed per game, seats for computer players or with their own token, moves.

Revision ID: 0003_virtual_games
Revises: 0002_games
Create Date: 2026-11-23 09:30:40.498193

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003_virtual_games"
down_revision = "0002_games"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "virtual_moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seed", sa.BigInteger(), nullable=True))

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("computer", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("token_hash", sa.String(length=64), nullable=True))
        batch_op.alter_column("player_id", existing_type=sa.INTEGER(), nullable=True)
        batch_op.create_index(batch_op.f("ix_seats_token_hash"), ["token_hash"], unique=True)


def downgrade():
    # Virtual games cannot be kept without their seats and moves: they go first.
    virtual = "SELECT id FROM games WHERE seed IS NOT NULL"
    op.execute(f"DELETE FROM hands WHERE game_id IN ({virtual})")
    op.execute(
        f"DELETE FROM seats WHERE side_id IN (SELECT id FROM sides WHERE game_id IN ({virtual}))"
    )
    op.execute(f"DELETE FROM sides WHERE game_id IN ({virtual})")
    op.execute("DELETE FROM games WHERE seed IS NOT NULL")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_token_hash"))
        batch_op.alter_column("player_id", existing_type=sa.INTEGER(), nullable=False)
        batch_op.drop_column("token_hash")
        batch_op.drop_column("computer")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("seed")

    op.drop_table("virtual_moves")
