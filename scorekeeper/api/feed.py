"""A table's feed: what changed at the table, event by event, for a wall screen, a chat bot or a
stats bot to follow without reading every game again (:mod:`scorekeeper.storage.feed`).

A follower asks for the events after the last it has (``after``) and may ask the server to hold
an empty answer until there is one (``Prefer: wait``, as a virtual game's reader does): woken
by the same watch, from any worker, within the watch's interval on SQLite and at once on
PostgreSQL. A follower that was away asks with its last number and reads everything it missed,
a page at a time (``more``).
"""

from __future__ import annotations

from flask import Blueprint, Response

from engine.problems import ProblemCode
from engine.sentences import N_
from scorekeeper.results.queries import table_events
from scorekeeper.schemas.resources import EventPageSchema, EventQuerySchema
from scorekeeper.services import operations
from scorekeeper.web import live
from scorekeeper.web.auth import authorized_table
from scorekeeper.web.http import queried, query, respond

bp = Blueprint("feed", __name__)
page_schema = EventPageSchema()


@bp.get("/tables/<id:table_id>/events")
@queried(EventQuerySchema())
@live.waits
def read_events(table_id: int) -> Response:
    """The table's events after number ``after``, oldest first; empty, with ``Prefer: wait``,
    only once nothing came in the time asked."""
    table = authorized_table(table_id)
    after, limit = query()["after"], query()["limit"]
    if after > table.event_count:
        raise operations.invalid_request(
            "/after",
            ProblemCode.INVALID_FIELD,
            N_("The table has no event with that number yet: start from 0."),
        )
    events = table_events(table.id, after=after, limit=limit)
    last = events[-1].number if events else after
    live.watched_feed(table.id, table.event_count, idle=not events)
    body = {"items": events, "last": last, "more": last < table.event_count}
    return respond(page_schema.dump(body))
