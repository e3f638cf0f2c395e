"""JSON parsing that fails only with ValueError, whatever a flaky phone or a hostile client sends.

``json.loads`` raises RecursionError for very deep nesting and a ValueError naming a Python
setting for numbers of thousands of digits; both are simply invalid input here.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest


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


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading request bodies with :func:`parse_json`."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_json(s)


class JSONRequest(Request):
    """A request that says why its JSON body could not be read (Flask hides it outside debug)."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:
            return super().on_json_loading_failed(e)  # not sent as JSON: 415
        raise BadRequest(f"The body is not valid JSON: {e}.")
