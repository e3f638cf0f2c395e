"""JSON in and out: parsing that fails only with ValueError, whatever a flaky phone or a hostile
client sends, and orjson where JSON is a request's cost.

``json.loads`` raises RecursionError for very deep nesting and a ValueError naming a Python
setting for numbers of thousands of digits; both are simply invalid input here. Request bodies,
documents and the command line keep that parser (its refusals are part of the contract); the
JSON columns read back from the database go through orjson (what it does not take falls back to
the standard library). Flask's side of it, answers included, is
:mod:`scorekeeper.web.json_http`.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def parse_json(text: str | bytes) -> Any:
    """``json.loads(text)``, raising ValueError with a plain reason for anything it refuses."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None
    except ValueError as error:
        if "int_max_str_digits" in str(error) or "Exceeds the limit" in str(error):
            raise ValueError("a number in it has too many digits") from None
        raise


def stored_json(text: str | bytes) -> Any:
    """A JSON column as read back from the database (written by the standard library)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
