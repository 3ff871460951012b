"""Twilio's request signature (``X-Twilio-Signature``): a request's parameters are taken
only when Twilio signed them for our public URL (``POUNDBOT_PUBLIC_URL`` + path), never
the Host header a proxy passed on; then cleaned of control characters
(``bot.support.clean``: a NUL cannot be stored in PostgreSQL)."""

from __future__ import annotations

import hmac
import logging

from starlette.requests import Request
from twilio.request_validator import RequestValidator

from bot.channels.sms.port import form_params
from bot.support.clean import clean_data

__all__ = ["signed_params"]

log = logging.getLogger("poundbot.sms")


async def signed_params(
    request: Request, public_url: str, auth_token: str
) -> dict[str, str] | None:
    """The POST parameters if the request is signed by Twilio for ``public_url``."""
    signature = request.headers.get("X-Twilio-Signature", "")
    params = await form_params(request)
    # The URL Twilio signed, from the request's path and query as they came (building
    # ``request.url`` parses and quotes the whole URL again on every message).
    url = public_url.rstrip("/") + request.scope["path"]
    query = request.scope.get("query_string", b"")
    if query:
        url += "?" + query.decode("latin-1")
    if not signature or not _signed(RequestValidator(auth_token), url, params, signature):
        log.warning("refused an unsigned or forged request to %s", request.url.path)
        return None
    # Checked as signed; used and stored without NUL and other control characters.
    cleaned: dict[str, str] = clean_data(params)
    return cleaned


def _signed(validator: RequestValidator, url: str, params: dict[str, str], signature: str) -> bool:
    """Whether ``signature`` is Twilio's for ``url`` and ``params``. Twilio signs the URL
    as configured, which is ``url``: that one signature is computed first, and only when
    it does not match are both forms of the URL that the library accepts (with and
    without the default port) tried (``RequestValidator.validate``, two signatures)."""
    computed = validator.compute_signature(url, params)
    if hmac.compare_digest(computed.encode(), signature.encode()):  # any header: bytes
        return True
    return bool(validator.validate(url, params, signature))
