"""A table's and a seat's tokens: made here, shown once, and stored only as a digest; and the
scopes of the tokens a table issues.

A token is a bearer credential, so the database keeps its SHA-256 digest and a lost database
gives nobody a way in. The prefix tells a table's token (``mb_``) from a seat's (``mbs_``), a
read token (``mbr_``) and a record token (``mbw_``) at a glance, in a log or a support message,
without saying anything of its secret part.
"""

from __future__ import annotations

import hashlib
import secrets
from enum import StrEnum

TABLE_TOKEN_PREFIX = "mb_"
SEAT_TOKEN_PREFIX = "mbs_"


class Scope(StrEnum):
    """What a token may do at its table; each scope may do all the ones before it may.

    A wall screen, a stats bot or a spectator's link reads; a club's results bot records the
    hands; only the table's own token manages the table itself (its tokens, a new table token,
    a seat's new link, abandoning a game)."""

    READ = "read"
    """Every GET of the table, and nothing else."""
    RECORD = "record"
    """Players, games, hands and virtual games: the table's play."""
    OWNER = "owner"
    """The table's own token."""

    def covers(self, needed: Scope) -> bool:
        """Whether a token of this scope may do what ``needed`` allows."""
        order = list(Scope)
        return order.index(self) >= order.index(needed)

    @property
    def prefix(self) -> str:
        """The first characters of a token of this scope."""
        return {Scope.READ: "mbr_", Scope.RECORD: "mbw_", Scope.OWNER: TABLE_TOKEN_PREFIX}[self]


ISSUED_SCOPES = (Scope.READ, Scope.RECORD)
"""The scopes of the tokens a table's owner issues (the owner's own is the table's token)."""


def new_token(prefix: str = TABLE_TOKEN_PREFIX) -> str:
    """A fresh token: 32 random bytes, URL-safe."""
    return prefix + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()
