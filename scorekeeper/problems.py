"""RFC 9457 problem details: the one error shape of the API and of the command line."""

from __future__ import annotations

from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

from engine.problems import Problem

PROBLEM_JSON = "application/problem+json"
REPORT_REFUSED = "/problems/report-refused"
"""The ``type`` of a refused report or sheet (the other errors are plain HTTP: ``about:blank``)."""


def problem_document(
    status: int,
    detail: str,
    *,
    type_: str = "about:blank",
    title: str | None = None,
    errors: Iterable[Problem] = (),
    **extra: Any,
) -> dict[str, Any]:
    """A problem details object; ``errors`` lists ``{path, code, detail}`` when there are any."""
    document: dict[str, Any] = {
        "type": type_,
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    listed = [problem.to_dict() for problem in errors]
    if listed:
        document["errors"] = listed
    document.update(extra)
    return document


def refusal_document(problems: Iterable[Problem]) -> dict[str, Any]:
    """The 422 answer to a report or sheet the rules refuse."""
    listed = list(problems)
    count = "1 problem" if len(listed) == 1 else f"{len(listed)} problems"
    return problem_document(
        422,
        f"The report was refused ({count}): " + " ".join(p.detail for p in listed),
        type_=REPORT_REFUSED,
        title="Report refused",
        errors=listed,
    )
