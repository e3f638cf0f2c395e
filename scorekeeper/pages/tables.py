"""Open or create a table, join one from its share link, manage its players, erase a player's
name and delete the table."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit

import segno
from flask import Blueprint, make_response, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from engine.problems import ProblemCode
from engine.sentences import N_
from scorekeeper.domain.refusals import InvalidRequest, NameTaken
from scorekeeper.pages.access import (
    cookie_name,
    forget,
    joined_tables,
    opened_table,
    page_table,
    remember,
)
from scorekeeper.results.queries import issued_tokens, table_games
from scorekeeper.schemas import load
from scorekeeper.schemas.resources import PlayerCreateSchema, TableCreateSchema
from scorekeeper.services import forgetting, operations
from scorekeeper.web.auth import table_player
from scorekeeper.web.http import versions_read
from scorekeeper.web.i18n import LANGUAGE_COOKIE, say, use_language

if TYPE_CHECKING:
    from scorekeeper.storage.models import Table

bp = Blueprint("tables", __name__)

INVALID_SHARE_LINK = N_("This share link is not valid (the table's token may have been changed).")
TABLE_PAGE_GAMES = 50
"""The table's page lists its latest games, up to this many."""


JOINED_HEADER = "Tables-Joined"
"""The start page's list of the tables this phone may open (their ids): the service worker drops
its copies of any other table's pages (a token rotated, a cookie gone), see ``static/sw.js``."""


@bp.get("/")
def home() -> Response:
    """Tables this phone has joined, and a form to create one."""
    tables = joined_tables()
    response = make_response(render_template("pages/home.html", tables=tables, errors={}))
    response.headers[JOINED_HEADER] = ",".join(str(table.id) for table in tables)
    return response


@bp.post("/tables")
def create_table() -> Response | tuple[str, int]:
    """Create a table and keep its token on this phone."""
    try:
        body = load(TableCreateSchema(), {"name": request.form.get("name", "")})
    except InvalidRequest as invalid:
        errors = {"name": say(invalid.problems[0])}
        return render_template("pages/home.html", tables=[], errors=errors), 422
    table, token = operations.create_table(**body)
    return remember(redirect(url_for("pages.tables.table", table_id=table.id)), table.id, token)


@bp.route("/join/<id:table_id>", methods=["GET", "POST"])
def join(table_id: int) -> Response | str:
    """The share link, ``/join/<id>#<token>``: a browser never sends what follows ``#``, so the
    token reaches no server or proxy log; this page hands it over in a POST (its script does so
    at once; without script, the link or the token is pasted into its field). Links of the
    older form, ``?token=...``, still open the table (access logs redact them)."""
    if request.method == "GET" and "token" not in request.args:
        return render_template("pages/join.html", table_id=table_id)
    given = request.form.get("token", "") if request.method == "POST" else request.args["token"]
    token = _token_in(given)
    opened_table(
        table_id,
        token,
        N_("This share link is not valid (the table's token may have been changed)."),
    )
    return remember(redirect(url_for("pages.tables.table", table_id=table_id)), table_id, token)


def _token_in(given: str) -> str:
    """The table's token in what was pasted: a share link (the key after ``#``, or an older
    link's ``?token=``) or the token alone."""
    link = urlsplit(given.strip())
    return link.fragment or parse_qs(link.query).get("token", [""])[0] or given.strip()


@bp.get("/language/<code>")
def switch_language(code: str) -> Response:
    """The EN/FR switch: remember the choice, go back where the phone was (only to a page of
    this site: the referrer is the browser's word, so anything else goes home)."""
    use_language(code)
    return redirect(_page_left() or url_for("pages.tables.home"))


def _page_left() -> str | None:
    """The page the switch was pressed on, query string included (``/t/1/games/new?players=3``)
    but for a ``lang=`` that would outvote the new choice, when the referrer is a page of this
    site; else None."""
    back = urlsplit(request.referrer or "")
    if back.netloc != request.host or back.scheme not in ("http", "https"):
        return None
    kept = [
        (key, value)
        for key, value in parse_qsl(back.query, keep_blank_values=True)
        if key != LANGUAGE_COOKIE
    ]
    return local_path(back.path + (f"?{urlencode(kept)}" if kept else ""))


@bp.get("/t/<id:table_id>")
def table(table_id: int) -> Response:
    """The table: its players, its games, and how other phones join it.

    Its share link and QR code carry the table's key: no copy of the page is kept (the browser's
    cache, the service worker's), so the key lives only in this phone's cookie."""
    response = make_response(table_page(page_table(table_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


def table_page(table: Table, errors: dict[str, str] | None = None) -> str:
    games = table_games(table.id, limit=TABLE_PAGE_GAMES)
    token = request.cookies[cookie_name(table.id)]
    share = url_for("pages.tables.join", table_id=table.id, _external=True) + "#" + token
    return render_template(
        "pages/table.html",
        table=table,
        games=list(games),
        share=share,
        qr=qr_svg(share),
        issued=issued_tokens(table.id),
        errors=errors or {},
    )


@bp.post("/t/<id:table_id>/leave")
def leave(table_id: int) -> Response:
    """Leave this table: this phone forgets the table's token, and then the start page (whose
    list no longer has it) has the service worker drop its copies of the table's pages; the
    page's script has already dropped them, and the hands waiting for the table, after asking.

    Open to a phone whose token no longer opens the table (rotated): it must be able to forget
    it all the same."""
    return forget(redirect(url_for("pages.tables.home"), 303), table_id)


@bp.post("/t/<id:table_id>/players")
def add_player(table_id: int) -> Response | tuple[str, int]:
    """Add a player to the table."""
    table = page_table(table_id)
    back = request.form.get("next", "")
    if back and local_path(back, within=f"/t/{table_id}/") is None:  # checked before acting
        raise operations.invalid_request(
            "/next",
            ProblemCode.INVALID_FIELD,
            "next: not a page of this table to go back to; nothing was added.",
        )
    try:
        body = load(PlayerCreateSchema(), {"name": request.form.get("name", "")})
        operations.create_player(table, **body)
    except InvalidRequest as invalid:
        return table_page(table, {"name": say(invalid.problems[0])}), 422
    except NameTaken as taken:
        return table_page(table, {"name": say(taken.sentence)}), 409
    return redirect(back or url_for("pages.tables.table", table_id=table_id))


@bp.route("/t/<id:table_id>/delete", methods=["GET", "POST"])
def delete_table(table_id: int) -> Response | str:
    """Delete the table, after a page that says what goes with it. The confirmation carries the
    table's version (its ETag): a hand or a player added since the page was shown refuses it
    (412), and the table is shown again rather than deleted unseen."""
    table = page_table(table_id)
    if request.method == "GET":
        response = make_response(
            render_template(
                "pages/delete_table.html",
                table=table,
                players=len(table.players),
                games=operations.game_count(table),
            )
        )
        response.headers["Cache-Control"] = "no-store"
        return response
    forgetting.delete_table(table, versions_read())
    return forget(redirect(url_for("pages.tables.table_deleted"), 303), table_id)


@bp.get("/deleted")
def table_deleted() -> str:
    """Where a phone lands once its table is deleted: it is gone, for every phone."""
    return render_template("pages/table_deleted.html")


@bp.route("/t/<id:table_id>/players/<id:player_id>/erase", methods=["GET", "POST"])
def erase_player(table_id: int, player_id: int) -> Response | str:
    """Erase a player's name, after a confirmation: their games and scores stay, under a
    neutral name."""
    table = page_table(table_id)
    player = table_player(table, player_id)
    back = url_for("pages.ratings.player_page", table_id=table_id, player_id=player_id)
    if request.method == "GET":
        return render_template(
            "pages/confirm.html",
            table=table,
            question=N_("Erase the name of %(name)s"),
            values={"name": player.name},
            explain=N_(
                "Their name is replaced by a neutral one everywhere at this table: games, "
                "history, ratings, exports. Their games and scores stay. This cannot be undone."
            ),
            action=request.path,
            back=back,
            button=N_("Erase the name"),
        )
    forgetting.erase_player(player)
    return redirect(back, 303)


def local_path(target: str, within: str = "/") -> str | None:
    r"""``target`` if it is a path of this site under ``within`` that no browser reads as another
    site, else None. Browsers drop tabs and line breaks from a URL and read ``\`` as ``/``, so
    ``/\t/other.example`` or ``/\other.example`` would leave the site as ``//other.example``
    does: only printable ASCII without ``\`` is accepted, never a leading ``//``.

    >>> local_path("/t/1/games/new?players=3", within="/t/1/")
    '/t/1/games/new?players=3'
    >>> [local_path(p) for p in ("//x.example", "/\t/x.example", "/\\x.example", "https://x")]
    [None, None, None, None]
    """
    printable = all("!" <= character <= "~" and character != "\\" for character in target)
    if printable and target.startswith(within) and not target.startswith("//"):
        return target
    return None


def qr_svg(text: str) -> Markup:
    """``text`` as a QR code, drawn here as inline SVG (no image service, no script)."""
    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=4, dark="#000000", light="#ffffff", omitsize=True)
    return Markup(svg)  # noqa: S704  (segno's own SVG markup, from a URL it encoded)
