"""Access tokens: tokens a table's owner issues to read its data or record its play, each with a
name and a scope, stored as their digest and revoked by deleting them.

Revision ID: 0009_access_tokens
Revises: 0008_stand_ins
Create Date: 2026-12-02 07:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009_access_tokens"
down_revision = "0008_stand_ins"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "access_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index(op.f("ix_access_tokens_table_id"), "access_tokens", ["table_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_access_tokens_table_id"), table_name="access_tokens")
    op.drop_table("access_tokens")
