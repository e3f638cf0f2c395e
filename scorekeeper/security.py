"""Defences in depth for the pages, against someone on the same Wi-Fi as the table.

* **Behind a reverse proxy.** ``TRUSTED_PROXIES`` (``SCOREKEEPER_TRUSTED_PROXIES``, default 0)
  is how many proxies in front of the app set ``X-Forwarded-For``, ``-Proto``, ``-Host`` and
  ``-Port``. Only then are those headers believed (werkzeug's ``ProxyFix``): with no proxy, any
  phone could send them and pass for HTTPS or for another host. Behind an HTTPS proxy so
  configured, the request is known to be HTTPS and every cookie is sent ``Secure``.
* **Cookies.** The table cookie, the session (CSRF) cookie and the language cookie are
  ``SameSite=Lax`` and, over HTTPS, ``Secure``; the first two are ``HttpOnly``.
"""

from __future__ import annotations

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix


def is_https() -> bool:
    """Whether the current request came over HTTPS (through a trusted proxy, if configured)."""
    return has_request_context() and request.is_secure


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, ``Secure`` whenever the request came over HTTPS (Flask's
    own setting is fixed at start-up, and a Wi-Fi table is often served over plain HTTP)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app)) or is_https()


def init_app(app: Flask) -> None:
    """Trust the configured proxies, and install the session."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies
        )
    app.session_interface = SessionInterface()
