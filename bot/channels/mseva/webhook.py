"""Mobile Seva's SMS pull: a citizen's SMS to 166 / 51969 / 9223166166, forwarded to the
department (the Mobile Seva adapter of the SMS port, inbound; ``bot.channels.mseva.sender``
sends the answers).

mgov.gov.in/RegisterPullService: a pull SMS starts with the state's keyword and the
service's sub-keyword (``KL POUND``), then the service's own words. Mobile Seva forwards
it, by the HTTP GET or POST the department registered, with ``mobileNumber`` (10 digits,
``9324******``), ``timeStamp`` (``yyyy-mm-dd hh:mm:ss``), ``operatorName`` and
``areaCode`` (both blank for now) and ``message`` (the whole SMS, keywords included).
It calls only the IP address it whitelisted for the department, and signs nothing.

Served at ``/mseva/pull/<secret>`` (GET and POST). ``MSEVA_KEYWORD`` is taken off the
front of the message (any case, any spacing, written together too: ``KLPOUND``)
before the words are read. The message has no id of its own: it is stored under a
hash of the number, the time stamp and the text, so that a forward repeated is the
same message, acted on once. The answer goes out as a push SMS through the outbox,
with its DLT template id; the HTTP answer carries no text.
A wrong secret, or a source address outside ``POUNDBOT_MSEVA_ALLOW`` when it is set (C-DAC
gives the addresses; serve warns while it is unset), is a 404 that stores nothing. Behind
a proxy the address is the one a trusted proxy names (``POUNDBOT_TRUSTED_PROXIES``).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.channels.sms.answer import CHANNEL
from bot.channels.sms.gateway import SecretGateway, empty, not_found
from bot.channels.sms.port import StatusReport
from bot.store.messages import Inbound
from bot.support import budget

__all__ = ["MsevaPull", "strip_keyword"]

log = logging.getLogger("poundbot.sms")


def strip_keyword(message: str, keyword: str) -> str:
    """``message`` without the leading ``keyword`` (its words in any case, separated by
    any spaces or none: ``KL POUND``, ``klpound``); the message as it is when it does
    not start with it."""
    words = keyword.split()
    if not words:
        return message.strip()
    pattern = r"\s*" + r"\s*".join(re.escape(w) for w in words) + r"(?:\s+|$)"
    match = re.match(pattern, message, re.IGNORECASE)
    return (message[match.end() :] if match else message).strip()


@dataclass
class MsevaPull(SecretGateway):
    """The pull webhook of one running poundbot."""

    secret: str
    keyword: str
    allow: Sequence[str] = ()
    wait_budget: float = budget.DEFAULT_BUDGET
    name: str = "mseva"
    webhook: ClassVar[str] = "the Mobile Seva pull"

    def routes(self) -> list[Route]:
        return [Route("/mseva/pull/{secret}", self.pull, methods=["GET", "POST"])]

    def inbound(self, params: Mapping[str, str]) -> Inbound | None:
        number, text = params.get("mobileNumber", "").strip(), params.get("message", "")
        if not number or not text.strip():
            return None
        stamp = params.get("timeStamp", "")
        digest = hashlib.sha256(f"{number}\n{stamp}\n{text}".encode()).hexdigest()[:40]
        body = strip_keyword(text, self.keyword)
        return Inbound(CHANNEL, f"mseva:{digest}", number[:64], body, dict(params))

    def status(self, params: Mapping[str, str]) -> StatusReport | None:
        """Mobile Seva sends no delivery reports to the department (its portal shows them)."""
        return None

    async def pull(self, request: Request) -> Response:
        """A citizen's SMS: stored, acted on, answered by push SMS once."""
        params = await self.read(request)
        if params is None:
            return not_found()
        message = self.inbound(params)
        if message is None:
            return empty()
        return await self.take_in(request, message)
