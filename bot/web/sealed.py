"""A note carried to the page after a form (post/redirect/get) that the browser cannot
read: an invite's code is shown once, on the page the form redirects to, and is never
kept in clear anywhere else (the cookie that carries it is sealed, lives a minute and
is cleared by the page that shows it).

Sealed with the server's secret alone (the standard library has no cipher): a random
nonce, the note XORed with a keystream of HMAC-SHA256 blocks (HMAC as a pseudo-random
function in counter mode), then an HMAC of the nonce and the sealed bytes
(encrypt-then-MAC); both keys are bound to the session token and the purpose, so a
sealed note opens only for the session it was made for.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets

__all__ = ["open_note", "seal_note"]

_NONCE = 16
_MAC = 24


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = []
    for counter in range((size + 31) // 32):
        message = nonce + counter.to_bytes(4, "big")
        blocks.append(hmac.new(key, message, hashlib.sha256).digest())
    return b"".join(blocks)[:size]


def _keys(secret: str, purpose: str, token: str) -> tuple[bytes, bytes]:
    def derive(use: str) -> bytes:
        message = f"{purpose}|{use}|{token}".encode()
        return hmac.new(secret.encode(), message, hashlib.sha256).digest()

    return derive("seal"), derive("mac")


def seal_note(secret: str, purpose: str, token: str, note: dict[str, str]) -> str:
    """``note`` sealed for the session ``token``, as a cookie's value."""
    plain = json.dumps(note, separators=(",", ":")).encode()
    seal, mac = _keys(secret, purpose, token)
    nonce = secrets.token_bytes(_NONCE)
    sealed = bytes(a ^ b for a, b in zip(plain, _stream(seal, nonce, len(plain)), strict=True))
    tag = hmac.new(mac, nonce + sealed, hashlib.sha256).digest()[:_MAC]
    return base64.urlsafe_b64encode(nonce + sealed + tag).decode().rstrip("=")


def open_note(secret: str, purpose: str, token: str, value: str | None) -> dict[str, str] | None:
    """The note a cookie's value seals for the session ``token``; None if it is not one
    this server sealed for it."""
    if not value:
        return None
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        return None
    if len(raw) <= _NONCE + _MAC:
        return None
    nonce, sealed, tag = raw[:_NONCE], raw[_NONCE:-_MAC], raw[-_MAC:]
    seal, mac = _keys(secret, purpose, token)
    expected = hmac.new(mac, nonce + sealed, hashlib.sha256).digest()[:_MAC]
    if not hmac.compare_digest(expected, tag):
        return None
    plain = bytes(a ^ b for a, b in zip(sealed, _stream(seal, nonce, len(sealed)), strict=True))
    try:
        note = json.loads(plain)
    except ValueError:
        return None
    if not isinstance(note, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in note.items()
    ):
        return None
    return note
