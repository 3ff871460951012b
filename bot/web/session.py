"""The session cookie and the CSRF token of the web desk, and who a request comes from.

The cookie holds a random session token and an HMAC of it under the server's secret:
a cookie the server did not make is refused before the database is asked. The database
holds only the SHA-256 of the token (``bot.services.web_signin``). The CSRF token of a
form is another HMAC of the session token, so it needs no storage and changes with the
session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from bot.bootstrap import App
from bot.caller import Caller
from bot.channels.identity import caller_of
from bot.services.web_signin import SESSION_VALID, session_user

__all__ = [
    "CHANNEL",
    "COOKIE",
    "GetCaller",
    "Keys",
    "clear_cookie",
    "current_caller",
    "session_of",
    "set_cookie",
]

COOKIE = "poundbot_session"
CHANNEL = "web"


def _mac(secret: str, purpose: str, token: str) -> str:
    digest = hmac.new(secret.encode(), f"{purpose}|{token}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


@dataclass(frozen=True, slots=True)
class Keys:
    """The server's secret, and whether cookies go over HTTPS only."""

    secret: str
    secure: bool

    def cookie_value(self, token: str) -> str:
        return f"{token}.{_mac(self.secret, 'web-session', token)}"

    def token_of(self, cookie: str | None) -> str | None:
        """The session token of a cookie this server signed, else None."""
        if not cookie or "." not in cookie:
            return None
        token, _, signature = cookie.rpartition(".")
        expected = _mac(self.secret, "web-session", token)
        return token if hmac.compare_digest(expected, signature) else None

    def csrf(self, token: str) -> str:
        return _mac(self.secret, "web-csrf", token)

    def csrf_ok(self, token: str, given: str) -> bool:
        return bool(given) and hmac.compare_digest(self.csrf(token), given)


def set_cookie(response: Response, keys: Keys, token: str) -> None:
    """The session cookie: signed, HttpOnly, SameSite=Lax, Secure under https, 12 hours."""
    response.set_cookie(
        COOKIE,
        keys.cookie_value(token),
        max_age=int(SESSION_VALID.total_seconds()),
        path="/",
        secure=keys.secure,
        httponly=True,
        samesite="lax",
    )


def clear_cookie(response: Response, keys: Keys) -> None:
    response.delete_cookie(COOKIE, path="/", secure=keys.secure, httponly=True, samesite="lax")


async def session_of(request: Request, keys: Keys) -> tuple[str, Caller] | None:
    """The session token and the Caller of a signed-in request, else None."""
    token = keys.token_of(request.cookies.get(COOKIE))
    if token is None:
        return None
    app: App | None = getattr(request.app.state, "poundbot", None)
    if app is None:
        return None
    async with app.store.transaction() as tx:
        user = await session_user(tx, token)
    return (token, caller_of(user, CHANNEL)) if user is not None else None


GetCaller = Callable[[Request], Awaitable[Caller | None]]


def current_caller(keys: Keys) -> GetCaller:
    """The resolver the document and chart pages take: ``(request) -> Caller | None``."""

    async def resolve(request: Request) -> Caller | None:
        found = await session_of(request, keys)
        return found[1] if found else None

    return resolve
