"""One field, held in its three places: the marshmallow schema that loads or dumps it, the
openapi.yaml component that documents it, and (for an answer) the view that makes it. A field
added to one and not the others fails here, naming where it is missing.

The schemas and the spec are compared field by field: the same names, the same required fields
in a request, every field of an answer always sent, and null allowed in both or neither. The
views are compared by their keys with the schema that dumps them: a key the schema does not
know would be dropped without a word.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from marshmallow import Schema, fields

from scorekeeper.results.queries import table_by_token, table_game
from scorekeeper.results.standings import game_view, hand_view
from scorekeeper.schemas import ratings, reports, resources, transfer
from scorekeeper.schemas.fields import Text
from scorekeeper.web.http import NoQuery
from tests.api.conftest import TableAccess
from tests.contract import SPEC, resolved

REQUESTS: dict[type[Schema], str] = {
    resources.TableCreateSchema: "TableCreate",
    resources.PlayerCreateSchema: "PlayerName",
    resources.TokenCreateSchema: "TokenRequest",
    resources.GameCreateSchema: "GameCreate",
    resources.VirtualGameCreateSchema: "VirtualGameCreate",
    resources.HandEntrySchema: "Hand",
    resources.NewHandSchema: "NewHand",
    reports.HandReportSchema: "HandReport",
    reports.SideReportSchema: "SideReport",
    reports.ScoreSheetSchema: "ScoreSheet",
    transfer.TableDocumentSchema: "TableExport",
}
"""Each request body's schema and its component in openapi.yaml."""

ANSWERS: dict[type[Schema], str] = {
    resources.TableSchema: "Table",
    resources.PlayerSchema: "Player",
    resources.TokenSchema: "IssuedToken",
    resources.EventSchema: "Event",
    resources.EventPageSchema: "EventPage",
    resources.PlayerWithStatisticsSchema: "PlayerWithStatistics",
    resources.GameSideOutSchema: "GameSide",
    resources.HandOutSchema: "StoredHand",
    resources.GameSummarySchema: "GameSummary",
    resources.GameSchema: "Game",
    resources.GamePageSchema: "GamePage",
    resources.HistoryRowSchema: "HistoryRow",
    reports.SideScoreSchema: "SideScore",
    ratings.SeasonSchema: "Season",
    ratings.RatingSchema: "Rating",
    ratings.RatingsSchema: "Ratings",
    ratings.HeadToHeadSchema: "HeadToHead",
}
"""Each answer's schema and its component in openapi.yaml."""


def component(name: str) -> dict[str, Any]:
    return resolved(SPEC["components"]["schemas"][name])


def properties(node: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """An object's properties and required names, through ``$ref`` and ``allOf`` (and the
    object of a ``oneOf`` that allows null)."""
    node = resolved(node)
    found: dict[str, Any] = {}
    required: set[str] = set()
    objects = [o for o in node.get("oneOf", []) if resolved(o).get("type") == "object"]
    for part in node.get("allOf", []) + objects:
        more, needed = properties(part)
        found |= more
        required |= needed
    found |= node.get("properties", {})
    return found, required | set(node.get("required", []))


def nullable(node: dict[str, Any]) -> bool:
    node = resolved(node)
    kinds = node.get("type", [])
    return "null" in (kinds if isinstance(kinds, list) else [kinds]) or any(
        nullable(option) for option in node.get("oneOf", []) + node.get("anyOf", [])
    )


def nested(field: fields.Field[Any]) -> Schema | None:
    """The schema a field holds, itself or in a list."""
    if isinstance(field, fields.List):
        field = field.inner
    return field.schema if isinstance(field, fields.Nested) else None


def items(node: dict[str, Any]) -> dict[str, Any]:
    node = resolved(node)
    return resolved(node["items"]) if node.get("type") == "array" else node


def differences(schema: Schema, node: dict[str, Any], where: str, *, answer: bool) -> list[str]:
    """How ``schema`` and the spec's object ``node`` differ, field by field (nested ones too)."""
    declared = {field.data_key or name: field for name, field in schema.fields.items()}
    documented, required = properties(node)
    found = [
        f"{where}.{name}: in the schema, not in openapi.yaml"
        for name in declared.keys() - documented.keys()
    ]
    found += [
        f"{where}.{name}: in openapi.yaml, not in the schema"
        for name in documented.keys() - declared.keys()
    ]
    for name in declared.keys() & documented.keys():
        field, spec = declared[name], documented[name]
        must = answer or field.required
        if must != (name in required):
            found.append(
                f"{where}.{name}: required {must} in the schema, {not must} in openapi.yaml"
            )
        if field.allow_none != nullable(spec):
            found.append(
                f"{where}.{name}: null allowed {field.allow_none} in the schema, "
                f"{not field.allow_none} in openapi.yaml"
            )
        longest = getattr(field, "max_length", None)  # a Text's limit, checked as sent
        if longest is not None and resolved(spec).get("maxLength") != longest:
            found.append(
                f"{where}.{name}: at most {longest} characters in the schema, "
                f"{resolved(spec).get('maxLength')} in openapi.yaml"
            )
        inner = nested(field)
        if inner is not None:
            found += differences(inner, items(spec), f"{where}.{name}", answer=answer)
    return found


@pytest.mark.parametrize(("schema", "name"), REQUESTS.items(), ids=[n for n in REQUESTS.values()])
def test_a_request_schema_and_its_component_have_the_same_fields(
    schema: type[Schema], name: str
) -> None:
    assert differences(schema(), component(name), name, answer=False) == []


@pytest.mark.parametrize(("schema", "name"), ANSWERS.items(), ids=[n for n in ANSWERS.values()])
def test_an_answer_schema_and_its_component_have_the_same_fields(
    schema: type[Schema], name: str
) -> None:
    assert differences(schema(), component(name), name, answer=True) == []


def test_the_comparison_finds_a_field_missing_from_the_spec() -> None:
    class Grown(resources.PlayerSchema):
        note = fields.String()

    assert differences(Grown(), component("Player"), "Player", answer=True) == [
        "Player.note: in the schema, not in openapi.yaml"
    ]


def test_every_schema_with_a_component_is_compared() -> None:
    """A new schema of a body or an answer joins one of the lists above (the query strings'
    schemas are parameters, checked by the contract client)."""
    modules = (resources, reports, ratings, transfer)
    every = {
        kind
        for module in modules
        for kind in vars(module).values()
        if isinstance(kind, type)
        and issubclass(kind, Schema)
        and kind.__module__ == module.__name__
    }
    parts = {
        resources.Strict, resources.GameSideSchema, resources.VirtualSeatSchema,
        resources.StandInSchema, resources.MoveSchema, resources.PlayerStatisticsSchema,
        resources.SeatSchema, reports.HandSchema, ratings.OpponentsSchema, ratings.PartnersSchema,
    }  # fmt: skip
    queries = {
        resources.GameQuerySchema, resources.VirtualQuerySchema, resources.EventQuerySchema,
        resources.PageQuerySchema, ratings.SeasonQuerySchema, ratings.SeasonPageQuerySchema,
        ratings.HistoryFilterSchema, ratings.HistoryQuerySchema,
    }  # fmt: skip
    exported = {kind for kind in every if kind.__module__ == transfer.__name__}
    assert every - set(REQUESTS) - set(ANSWERS) - parts - queries - exported == set()


def test_each_operation_takes_the_query_parameters_its_view_reads(app: Flask) -> None:
    """The query parameters openapi.yaml names for an operation are those its view's schema
    reads (the others are refused, 422): a parameter added to one and not the other fails."""
    compared = 0
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        view = app.view_functions[rule.endpoint]
        schema = getattr(view, "query_schema", None) or NoQuery()
        taken = {field.data_key or name for name, field in schema.fields.items()}
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            operation = SPEC["paths"][path][method.lower()]
            documented = {
                parameter["name"]
                for parameter in map(resolved, operation.get("parameters", []))
                if parameter["in"] == "query"
            }
            assert documented == taken, (method, path)
            compared += 1
    assert compared >= 36


def test_a_games_view_has_the_fields_its_schema_dumps(table: TableAccess, app: Flask) -> None:
    """The dicts the views make (results/standings) against the schemas that dump them."""
    ann, bob = table.add_players("Ann", "Bob")
    started = table.start_game(2, [[ann], [bob]])
    table.post(f"/games/{started['id']}/hands", {"sides": [{"distance": 300}, {"distance": 450}]})
    with app.app_context():
        opened = table_by_token(table.token)
        assert opened is not None
        game = table_game(opened, started["id"])
        assert game is not None
        view = game_view(game)
        assert set(view) == set(resources.GameSchema().fields)
        assert set(view["sides"][0]) == set(resources.GameSideOutSchema().fields)
        assert set(view["sides"][0]["seats"][0]) == set(resources.SeatSchema().fields)
        assert set(view["hands"][0]) == set(resources.HandOutSchema().fields)
        assert set(hand_view(game.hands[0], [300, 450])) == set(resources.HandOutSchema().fields)
        assert set(game_view(game, with_hands=False)) == set(resources.GameSummarySchema().fields)


def test_the_comparison_finds_a_limit_the_spec_does_not_say() -> None:
    class Shorter(resources.PlayerSchema):
        name = Text(max_length=5)

    assert differences(Shorter(), component("Player"), "Player", answer=True) == [
        "Player.name: at most 5 characters in the schema, None in openapi.yaml"
    ]
