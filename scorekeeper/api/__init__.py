"""The versioned JSON API: one blueprint at ``/api/v1`` gathering one blueprint per resource."""

from flask import Blueprint

from scorekeeper.api import scoring

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.register_blueprint(scoring.bp)
