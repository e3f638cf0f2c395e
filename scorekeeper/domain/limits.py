"""The sizes the database's columns hold, named once for the columns, the schemas that refuse what
would not fit, and the addresses."""

from __future__ import annotations

MAX_ID = 2**31 - 1
"""The largest id, hand number or version an integer column holds (on PostgreSQL and SQLite
alike): a larger one is refused, or not found, before it reaches a query."""

COMPUTER_NAME_LIMIT = 16
"""The longest technical name of a computer player a seat or a move stores
(:data:`scorekeeper.domain.levels.LEVELS`)."""
