"""The security headers of every response the server sends, set in one ASGI middleware.

- ``Content-Security-Policy``: nothing but this site (``default-src 'self'``: styles,
  images and the favicon come from ``/web/static`` and the signed photo links, never
  inline, never from elsewhere), no plugin, no ``<base>``, forms post to this site only,
  and no page can be put in a frame (``frame-ancestors 'none'``; ``X-Frame-Options:
  DENY`` says the same to older browsers): no clickjacking.
- ``X-Content-Type-Options: nosniff``: a file is read as the type it is sent as.
- ``Referrer-Policy: same-origin``: no other site is ever told a URL of this one (a
  sign-in link carries its token, a notice or photo link its signature). Not
  ``no-referrer``: under it a browser posts the sign-in form with ``Origin: null``, and
  the sign-in refuses a post that does not say it comes from this site (``bot.web.pages``).
- ``Cache-Control: private, no-store`` on the pages of the desk (``/web/...``, the
  sign-in pages with their token included) and on any answer to a signed-in request:
  no proxy and no browser history keeps names, amounts or tokens. The public notice
  board, the static files and the photos keep their own caching.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.web.session import COOKIE

__all__ = ["CSP", "NO_STORE", "SecurityHeaders", "no_store_for"]

CSP = (
    "default-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
NO_STORE = "private, no-store"

_ALWAYS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def no_store_for(path: str, cookie_header: str) -> bool:
    """Whether the answer to a request for ``path`` (with these cookies) is never stored:
    every page of the desk, and anything asked with a session cookie; not the static files."""
    if path.startswith("/web/static/"):
        return False
    if path == "/web" or path.startswith("/web/"):
        return True
    return f"{COOKIE}=" in cookie_header


class SecurityHeaders:
    """Adds the headers above to every HTTP response (a route's own value is replaced:
    the policy is set here, in one place)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = ""
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                cookies += value.decode("latin-1") + ";"
        private = no_store_for(scope.get("path", ""), cookies)

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in _ALWAYS.items():
                    headers[name] = value
                if private:
                    headers["Cache-Control"] = NO_STORE
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # Starlette's own 500 page is sent from outside every middleware: the 500 is
            # sent from here instead, with the headers; the error still goes on to be logged.
            if not started:
                await PlainTextResponse("Internal Server Error", status_code=500)(
                    scope, receive, send_with_headers
                )
            raise
