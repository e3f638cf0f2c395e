"""Defences in depth for the pages, against someone on the same Wi-Fi as the table.

* **Behind a reverse proxy.** ``TRUSTED_PROXIES`` (``SCOREKEEPER_TRUSTED_PROXIES``, default 0)
  is how many proxies in front of the app set ``X-Forwarded-For``, ``-Proto``, ``-Host`` and
  ``-Port``. Only then are those headers believed (werkzeug's ``ProxyFix``): with no proxy, any
  phone could send them and pass for HTTPS or for another host. Behind an HTTPS proxy so
  configured, the request is known to be HTTPS and every cookie is sent ``Secure``.
* **Cookies.** The table cookie, the session (CSRF) cookie and the language cookie are
  ``SameSite=Lax`` and, over HTTPS, ``Secure``; the first two are ``HttpOnly``.
* **Headers.** A Content-Security-Policy that allows only the app's own scripts, styles and
  images (no inline script or style, nothing from elsewhere), no framing by any site
  (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), ``nosniff``, and a referrer only
  for the site itself.
* **Cross-site form posts.** A page form posted from another origin is refused (403) by its
  ``Sec-Fetch-Site`` header, or by ``Origin`` from browsers that do not send the former; the
  CSRF token stays the main guard. The API is not concerned: it takes a bearer token, never a
  cookie.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, g, has_request_context, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_wtf import CSRFProtect
from werkzeug.exceptions import Forbidden
from werkzeug.middleware.proxy_fix import ProxyFix

from engine.sentences import N_
from scorekeeper.web.transactions import WRITES

PAGE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",  # the service worker (/sw.js)
        "manifest-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
"""What a page may load: the app's own files only, and it may be framed by nobody."""

REFERENCE_POLICY = PAGE_POLICY.replace("img-src 'self'", "img-src 'self' data:")
"""The API reference's page (``/api/docs``): the pages' policy, but Swagger UI's stylesheet draws
its icons as ``data:`` images. Still no inline script or style, nothing from elsewhere."""

API_POLICY = "default-src 'none'; frame-ancestors 'none'"
"""JSON and CSV are never documents to render."""

SAME_ORIGIN = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values of a request a page of this site (or the person) made; ``same-site``
is not one: another port or subdomain of the host is another origin."""
csrf = CSRFProtect()
"""Every page form's CSRF token checked (the API is exempt: it authenticates with a bearer
token, never a cookie)."""
ONE_YEAR = 365 * 24 * 3600
"""A year in seconds: how long a phone keeps a table's key and its language, and how long a
browser may cache an asset whose name carries its hash."""


def is_https() -> bool:
    """Whether the current request came over HTTPS (through a trusted proxy, if configured)."""
    return has_request_context() and request.is_secure


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, ``Secure`` whenever the request came over HTTPS (Flask's
    own setting is fixed at start-up, and a Wi-Fi table is often served over plain HTTP)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app)) or is_https()

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if g.get("session_cookie_left") and not session.modified:
            return False
        return bool(super().should_set_cookie(app, session))


def leave_session_cookie() -> None:
    """Send this answer without the session's cookie, unless the view changed the session. An
    answer held back for a while (a long poll: :mod:`scorekeeper.web.live`) would otherwise send
    the session as the request brought it, undoing what another tab of the phone saved since."""
    g.session_cookie_left = True


def refuse_cross_site_forms() -> None:
    """403 for a page form sent from another origin (see the module's docstring)."""
    if request.method not in WRITES or request.path.startswith("/api/"):
        return
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        allowed = fetch_site in SAME_ORIGIN
    else:
        origin = request.headers.get("Origin")
        # The host only: without a trusted proxy configured, an HTTPS proxy's requests look
        # like HTTP here, and no other origin can share this host and port anyway.
        allowed = origin is None or urlsplit(origin).netloc == request.host
    if not allowed:
        raise Forbidden(
            N_(
                "This form was sent from another site. Open the page on this site and send it "
                "again."
            )
        )


def add_security_headers(response: Response) -> Response:
    """The headers of the module's docstring, on every response (a view may set its own)."""
    api = has_request_context() and request.path.startswith("/api/")
    headers = response.headers
    headers.setdefault("Content-Security-Policy", API_POLICY if api else PAGE_POLICY)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    return response


def init_app(app: Flask) -> None:
    """Trust the configured proxies, and install the session, the check and the headers."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    app.session_interface = SessionInterface()
    app.before_request(refuse_cross_site_forms)
    app.after_request(add_security_headers)
