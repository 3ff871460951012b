"""The session cookie and the CSRF token of the web desk, and who a request comes from.

The cookie holds a random session token and an HMAC of it under the server's secret:
a cookie the server did not make is refused before the database is asked. The database
holds only the SHA-256 of the token (``bot.services.web_signin``). The CSRF token of a
form is another HMAC of the session token, so it needs no storage and changes with the
session.

Before there is a session, the sign-in button is bound to the browser that opened the
link: the page (GET) sets a random pre-session cookie and puts an HMAC of it in the form;
the sign-in (POST) needs both, matching. A page on another site can make a browser post
a sign-in link of its own, but cannot read or set our cookie, so it cannot sign a
victim in as the attacker (login CSRF).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from bot.channels.identity import caller_of
from bot.services.runtime import App
from bot.services.web_signin import SESSION_VALID, session_user
from bot.support.caller import Caller
from bot.support.compare import same_secret

__all__ = [
    "CHANNEL",
    "COOKIE",
    "FLASH_COOKIE",
    "SIGNIN_COOKIE",
    "GetCaller",
    "Keys",
    "clear_cookie",
    "clear_flash_cookie",
    "clear_signin_cookie",
    "current_caller",
    "same_origin",
    "session_of",
    "set_cookie",
    "set_flash_cookie",
    "set_signin_cookie",
]

COOKIE = "poundbot_session"
#: The pre-session cookie of the sign-in page (only sent back to ``/web/signin/...``).
SIGNIN_COOKIE = "poundbot_signin"
SIGNIN_PATH = "/web/signin"
#: The answer of a step, carried to the case page the step redirects to.
FLASH_COOKIE = "poundbot_flash"
FLASH_PATH = "/web/cases/"
#: A cookie holds about 4 KB: a longer answer is cut (the case page shows the rest).
FLASH_MAX = 3800
#: As long as a sign-in link is valid.
SIGNIN_VALID = 15 * 60
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
        return token if same_secret(expected, signature) else None

    def csrf(self, token: str) -> str:
        return _mac(self.secret, "web-csrf", token)

    def csrf_ok(self, token: str, given: str) -> bool:
        return bool(given) and same_secret(self.csrf(token), given)

    def signin_field(self, presession: str) -> str:
        """The hidden field of the sign-in form bound to the pre-session cookie."""
        return _mac(self.secret, "web-signin", presession)

    def flash_value(self, token: str, number: str, text: str) -> str:
        """The cookie that carries a step's answer to the case page it redirects to
        (post/redirect/get): the text compressed, bound to the session and the case."""
        while True:
            packed = zlib.compress(json.dumps([number, text]).encode(), 9)
            payload = base64.urlsafe_b64encode(packed).decode().rstrip("=")
            value = f"{payload}.{_mac(self.secret, 'web-flash', token + '|' + payload)}"
            if len(value) <= FLASH_MAX or len(text) < 40:
                return value
            text = text[: len(text) * 4 // 5].rstrip() + " …"

    def flash_of(self, token: str, cookie: str | None, number: str) -> str | None:
        """The answer a flash cookie of this session carries for case ``number``."""
        if not cookie or "." not in cookie:
            return None
        payload, _, signature = cookie.rpartition(".")
        expected = _mac(self.secret, "web-flash", token + "|" + payload)
        if not same_secret(expected, signature):
            return None
        try:
            raw = zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            case, text = json.loads(raw)
        except (ValueError, zlib.error):
            return None
        return text if case == number and isinstance(text, str) else None

    def signin_ok(self, presession: str | None, given: str) -> bool:
        """Whether the sign-in form came with the field of this browser's pre-session."""
        if not presession or not given:
            return False
        return same_secret(self.signin_field(presession), given)


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


def set_signin_cookie(response: Response, keys: Keys, presession: str) -> None:
    """The pre-session cookie: HttpOnly, SameSite=Strict, for the sign-in pages only."""
    response.set_cookie(
        SIGNIN_COOKIE,
        presession,
        max_age=SIGNIN_VALID,
        path=SIGNIN_PATH,
        secure=keys.secure,
        httponly=True,
        samesite="strict",
    )


def clear_signin_cookie(response: Response, keys: Keys) -> None:
    response.delete_cookie(
        SIGNIN_COOKIE, path=SIGNIN_PATH, secure=keys.secure, httponly=True, samesite="strict"
    )


def set_flash_cookie(response: Response, keys: Keys, value: str) -> None:
    """A step's answer for the page after it: the desk's case pages only, one minute,
    read once (the page that shows it clears it)."""
    response.set_cookie(
        FLASH_COOKIE,
        value,
        max_age=60,
        path=FLASH_PATH,
        secure=keys.secure,
        httponly=True,
        samesite="lax",
    )


def clear_flash_cookie(response: Response, keys: Keys) -> None:
    response.delete_cookie(
        FLASH_COOKIE, path=FLASH_PATH, secure=keys.secure, httponly=True, samesite="lax"
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


def _origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL (the default port left out); "" if it has none."""
    try:
        parts = urlsplit(url)
        scheme, host, number = parts.scheme.lower(), (parts.hostname or "").lower(), parts.port
    except ValueError:  # a port that is not a number
        return ""
    if scheme not in ("http", "https") or not host:
        return ""
    default = {"http": 80, "https": 443}[scheme]
    port = f":{number}" if number is not None and number != default else ""
    return f"{scheme}://{host}{port}"


def same_origin(request: Request, public_url: str) -> bool:
    """Whether a POST says it comes from a page of this server: its ``Origin`` is the
    public URL's origin (the request's own without one); without ``Origin``, its
    ``Referer`` is a URL of that origin. Neither (or ``Origin: null``): refused."""
    own = _origin_of(public_url or str(request.base_url))
    origin = request.headers.get("origin")
    if origin is not None:
        return bool(own) and _origin_of(origin) == own
    referer = request.headers.get("referer")
    if not referer:
        return False
    return bool(own) and _origin_of(referer) == own


GetCaller = Callable[[Request], Awaitable[Caller | None]]


def current_caller(keys: Keys) -> GetCaller:
    """The resolver the document and chart pages take: ``(request) -> Caller | None``."""

    async def resolve(request: Request) -> Caller | None:
        found = await session_of(request, keys)
        return found[1] if found else None

    return resolve
