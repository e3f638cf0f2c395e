"""Baseline: an empty schema under migration control.

Revision ID: 0001_baseline
Revises:
Create Date: 2026-11-23

Stateless scoring needs no tables; this revision makes every database, SQLite or PostgreSQL,
start from one known point so the tables of games arrive as ordinary upgrades.
"""

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to create yet."""


def downgrade() -> None:
    """Nothing to drop."""
