"""API tests use a client that checks every response against openapi.yaml."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.contract import ContractClient


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    app.test_client_class = ContractClient
    return app.test_client()
