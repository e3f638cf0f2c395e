"""JSON in and out: parsing that fails only with ValueError, whatever a flaky phone or a hostile
client sends, and orjson where JSON is a request's cost.

``json.loads`` raises RecursionError for very deep nesting and a ValueError naming a Python
setting for numbers of thousands of digits; both are simply invalid input here. Request bodies
keep that parser (its refusals are part of the contract). Answers, and the JSON columns read back
from the database, go through orjson, several times faster than the standard library on a game's
hands; what orjson does not take (an integer beyond 64 bits, a key that is not a string) falls
back to the standard library, so the JSON is always the same, only the bytes may differ (orjson
writes non-ASCII characters as UTF-8 where the standard library escapes them).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Request, Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest
from werkzeug.sansio.response import Response as BaseResponse

_PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
"""Dates and dataclasses go to Flask's own ``default`` (an HTTP date, a dict), as before."""


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


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading request bodies with :func:`parse_json` and writing compact answers
    with orjson."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return parse_json(s)

    def response(self, *args: Any, **kwargs: Any) -> BaseResponse:
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)  # indented for a person reading it
        document = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(document, default=self.default, option=_PASSTHROUGH)
        except orjson.JSONEncodeError:
            body = self.dumps(document, separators=(",", ":")).encode()
        return Response(body + b"\n", mimetype=self.mimetype)


class JSONRequest(Request):
    """A request that says why its JSON body could not be read (Flask hides it outside debug)."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:
            return super().on_json_loading_failed(e)  # not sent as JSON: 415
        raise BadRequest(f"The body is not valid JSON: {e}.")
