"""Cross-origin requests to the API, off by default: a browser page of another site (a club's
own results page) may call the API only from the origins ``CORS_ORIGINS`` names (a list, e.g.
``SCOREKEEPER_CORS_ORIGINS='["https://club.example"]'``). The answer's ETag, Location, request
id, wait and rate limit headers are readable by that page; the API's own request headers (the
token, the conditions, the idempotency key, the wait) may be sent. The pages never answer another
origin.
"""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

EXPOSED = (
    "ETag",
    "Location",
    "X-Request-Id",
    "Preference-Applied",
    "Idempotent-Replayed",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
)
ALLOWED = (
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Prefer",
    "X-Request-Id",
    "Accept-Language",
)


def init_app(app: Flask) -> None:
    origins = list(app.config.get("CORS_ORIGINS") or [])
    if not origins:
        return
    CORS(
        app,
        resources={r"/api/v1/*": {"origins": origins}},
        expose_headers=list(EXPOSED),
        allow_headers=list(ALLOWED),
        max_age=600,
        supports_credentials=False,  # a bearer token, never a cookie, opens a table to the API
    )
