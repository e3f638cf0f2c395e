"""RFC 9457 problem details: the one error shape of the API and of the command line."""

from __future__ import annotations

from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

from flask import has_request_context

from engine.problems import Problem
from engine.sentences import N_
from scorekeeper.web.i18n import gettext, ngettext, say
from scorekeeper.web.request_ids import instance

PROBLEM_JSON = "application/problem+json"
REPORT_REFUSED = "/problems/report-refused"
"""The ``type`` of a report or sheet the rules refuse."""
INVALID_REQUEST = "/problems/invalid-request"
"""The ``type`` of a request whose JSON does not have the documented shape."""


def problem_document(
    status: int,
    detail: str,
    *,
    type_: str = "about:blank",
    title: str | None = None,
    errors: Iterable[Problem] = (),
    **extra: Any,
) -> dict[str, Any]:
    """A problem details object; ``errors`` lists ``{path, code, detail}`` when there are any,
    each ``detail`` in the request's language (``path`` and ``code`` are for programs, the same
    in every language)."""
    document: dict[str, Any] = {
        "type": type_,
        # A title of the app's own is said in the reader's language (RFC 9457 lets it change
        # with the language alone); HTTP's phrases are the protocol's, in English.
        "title": gettext(title) if title else HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    listed = [{"path": p.path, "code": str(p.code), "detail": say(p)} for p in errors]
    if listed:
        document["errors"] = listed
    if has_request_context():
        document["instance"] = instance()
    document.update(extra)
    return document


def refusal_document(problems: Iterable[Problem], *, shape: bool = False) -> dict[str, Any]:
    """The 422 answer listing every problem: with the rules (a report), or with the ``shape``."""
    listed = list(problems)
    if shape:
        summary = ngettext(
            "The request was refused (%(num)s problem):",
            "The request was refused (%(num)s problems):",
            len(listed),
        )
    else:
        summary = ngettext(
            "The report was refused (%(num)s problem):",
            "The report was refused (%(num)s problems):",
            len(listed),
        )
    return problem_document(
        422,
        " ".join([summary, *(say(problem) for problem in listed)]),
        type_=INVALID_REQUEST if shape else REPORT_REFUSED,
        title=N_("Invalid request") if shape else N_("Report refused"),
        errors=listed,
    )
