"""Unguessable signed links: the printable s.13(2) notice of a case, and its photos."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import date

from bot.support.compare import same_secret

__all__ = [
    "SOURCE_PATH",
    "board_path",
    "notice_path",
    "notice_signature",
    "photo_path",
    "photo_signature",
    "signin_path",
    "verify_notice",
    "verify_photo",
]


def notice_signature(secret: str, number: str, on: date) -> str:
    """HMAC-SHA256 of the case number and the notice date, URL-safe, 22 characters."""
    digest = hmac.new(
        secret.encode(), f"notice|{number}|{on.isoformat()}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def notice_path(secret: str, number: str, on: date) -> str:
    """The path of the printable notice: ``/notice/KNM-17/2026-03-10/<signature>``."""
    return f"/notice/{number}/{on.isoformat()}/{notice_signature(secret, number, on)}"


def verify_notice(secret: str, number: str, on: date, signature: str) -> bool:
    """True when ``signature`` was made by this server for this case and date."""
    return same_secret(notice_signature(secret, number, on), signature)


#: Where the running server offers its source (AGPL-3.0 section 13): ``bot.web.source``.
SOURCE_PATH = "/source"


def signin_path(token: str) -> str:
    """The path of a single-use sign-in link of the web desk: ``/web/signin/<token>``."""
    return f"/web/signin/{token}"


def board_path(authority: str) -> str:
    """The path of an authority's public notice board: ``/notices/<authority code>``."""
    return f"/notices/{authority}"


def photo_signature(secret: str, photo_id: int, variant: str) -> str:
    """HMAC-SHA256 of a photo's id and variant (``full`` or ``thumb``), 22 characters."""
    digest = hmac.new(
        secret.encode(), f"photo|{photo_id}|{variant}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def photo_path(secret: str, photo_id: int, *, thumb: bool = False) -> str:
    """``/photo/12/<signature>``, or ``/photo/12/thumb/<signature>`` for its thumbnail."""
    variant = "thumb" if thumb else "full"
    middle = "/thumb" if thumb else ""
    return f"/photo/{photo_id}{middle}/{photo_signature(secret, photo_id, variant)}"


def verify_photo(secret: str, photo_id: int, variant: str, signature: str) -> bool:
    """True when ``signature`` was made by this server for this photo and variant."""
    return same_secret(photo_signature(secret, photo_id, variant), signature)
