"""Player names compared as a person reads them: a key per name, unique per table.

Revision ID: 0005_player_name_keys
Revises: 0004_replayed_etags
Create Date: 2026-11-24

Names already stored stay as they are. Where a table already has two players whose names now
read alike ("Ann" and "ann"), the first keeps the name's key and each later one gets a key of its
own, so the upgrade never fails and nobody is renamed; a new player or a rename can no longer
take a name that reads like the first one's.
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.names import folded, name_key

revision = "0005_player_name_keys"
down_revision = "0004_replayed_etags"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def upgrade():
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(length=64), nullable=True))

    connection = op.get_bind()
    taken: set[tuple[int, str]] = set()
    rows = connection.execute(
        sa.select(players.c.id, players.c.table_id, players.c.name).order_by(players.c.id)
    )
    for player_id, table_id, name in rows.all():
        key = name_key(name)
        if (table_id, key) in taken:  # an earlier player's name reads the same
            key = name_key(f"{folded(name)}\x00{player_id}")  # no name has a NUL
        taken.add((table_id, key))
        connection.execute(players.update().where(players.c.id == player_id).values(name_key=key))

    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint("uq_players_table_id_name_key", ["table_id", "name_key"])


def downgrade():
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_constraint("uq_players_table_id_name_key", type_="unique")
        batch_op.drop_column("name_key")
