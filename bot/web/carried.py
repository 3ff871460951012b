"""A file uploaded for a dry run, carried to the form that confirms it, so that the
confirmation applies what the dry run read without the file being chosen again.

The file's bytes ride in a hidden field (base64: no browser rewrites them), beside a
seal: an HMAC of the server's secret over the purpose, the session's token, the file's
SHA-256 and what else the dry run showed (its plan's digest and the reason given). A
confirmation whose file, plan or reason is not the one sealed for this session is
refused; what the file says is read and checked again all the same before anything is
changed (``bot.services.user_import``, ``bot.services.dlt_ids``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Mapping

from bot.support.compare import same_secret

__all__ = ["FIELD", "SEAL", "carried", "carry"]

#: The hidden fields: the file, and its seal.
FIELD = "sheet"
SEAL = "seal"


def _seal(secret: str, purpose: str, token: str, data: bytes, shown: str) -> str:
    digest = hashlib.sha256(data).hexdigest()
    message = f"{purpose}|{token}|{digest}|{shown}".encode()
    mac = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def carry(secret: str, purpose: str, token: str, data: bytes, shown: str) -> dict[str, str]:
    """The hidden fields that carry ``data`` and what the dry run ``shown`` to the
    confirmation, for the session ``token``."""
    return {
        FIELD: base64.b64encode(data).decode("ascii"),
        SEAL: _seal(secret, purpose, token, data, shown),
    }


def carried(
    secret: str, purpose: str, token: str, fields: Mapping[str, str], shown: str
) -> bytes | None:
    """The file a confirmation carries, if it is sealed for this session with what the
    dry run ``shown``; else None."""
    try:
        data = base64.b64decode(fields.get(FIELD, ""), validate=True)
    except (binascii.Error, ValueError):
        return None
    expected = _seal(secret, purpose, token, data, shown)
    return data if same_secret(expected, fields.get(SEAL, "")) else None
