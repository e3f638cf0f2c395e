"""Idempotency records keep the ETag of the first answer, so a replay carries it too.

Revision ID: 0004_replayed_etags
Revises: 0003_virtual_games
Create Date: 2026-11-24

Records stored before this revision replay without an ETag, as they did; they expire in 48 hours.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_replayed_etags"
down_revision = "0003_virtual_games"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.add_column(sa.Column("etag", sa.String(length=255), nullable=True))


def downgrade():
    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.drop_column("etag")
