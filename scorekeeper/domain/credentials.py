"""A table's and a seat's tokens: made here, shown once, and stored only as a digest.

A token is a bearer credential, so the database keeps its SHA-256 digest and a lost database
gives nobody a way in. The prefix tells a table's token (``mb_``) from a seat's (``mbs_``) at a
glance, in a log or a support message, without saying anything of its secret part.
"""

from __future__ import annotations

import hashlib
import secrets

TABLE_TOKEN_PREFIX = "mb_"
SEAT_TOKEN_PREFIX = "mbs_"


def new_token(prefix: str = TABLE_TOKEN_PREFIX) -> str:
    """A fresh token: 32 random bytes, URL-safe."""
    return prefix + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()
