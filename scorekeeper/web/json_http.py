"""Flask's JSON for this app: request bodies read with :func:`scorekeeper.jsonio.parse_json`,
whose refusals are part of the contract, and answers written with orjson, several times faster
than the standard library on a game's hands (what orjson does not take falls back to the
standard library, so the JSON is always the same; only the bytes may differ)."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Request, Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest, UnsupportedMediaType
from werkzeug.sansio.response import Response as BaseResponse

from engine.sentences import N_
from scorekeeper.jsonio import parse_json
from scorekeeper.schemas.loading import Said

JSON = "Content-Type: application/json"
_PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
"""Dates and dataclasses go to Flask's own ``default`` (an HTTP date, a dict), as before."""


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
    """A request that says why its JSON body could not be read (Flask hides it outside debug),
    in the reader's language."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:  # not sent as JSON
            raise UnsupportedMediaType(
                Said(N_("This address reads a JSON body: send it with %(header)s."), header=JSON)
            )
        raise BadRequest(Said(N_("The body is not valid JSON: %(reason)s."), reason=str(e)))
