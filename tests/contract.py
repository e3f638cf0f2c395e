"""openapi.yaml as a test oracle: every response an API test receives is checked against it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest, MockResponse

SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
SPEC = OpenAPI.from_file_path(
    str(SPEC_PATH),
    config=Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            "text/csv": lambda data: data.decode() if isinstance(data, bytes) else data,
        }
    ),
)


def check_response(response: Any) -> None:
    """Raise if ``response`` (to a request the spec describes) does not match the spec."""
    sent = response.request
    request = MockRequest(sent.host_url, sent.method, sent.path)
    received = MockResponse(
        response.get_data(),
        status_code=response.status_code,
        headers=dict(response.headers),
        content_type=response.mimetype,
    )
    try:
        SPEC.validate_response(request, received)
    except (PathNotFound, OperationNotFound):
        # Unknown paths and methods: their 404/405 shape is checked by the API tests themselves.
        return


class ContractClient(FlaskClient):
    """A test client that checks every response it receives against openapi.yaml."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        response = super().open(*args, **kwargs)
        check_response(response)
        return response
