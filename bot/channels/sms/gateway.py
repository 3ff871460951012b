"""What the providers that sign nothing (Exotel, Mobile Seva) share on the inbound side:
a request is theirs when it carries the secret path segment (``POUNDBOT_WEBHOOK_SECRET``)
and comes from an allowed source address; anything else is a 404 that stores nothing.
Their messages are answered by push SMS (``bot.channels.sms.inbound.take_in``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import ClassVar

from starlette.requests import Request
from starlette.responses import Response

from bot.channels.sms.inbound import take_in
from bot.channels.sms.port import app_of, from_allowed, request_params, secret_matches
from bot.store.messages import Handler, Inbound

__all__ = ["SecretGateway", "empty", "not_found"]

log = logging.getLogger("poundbot.sms")


def not_found() -> Response:
    """The answer to a request that is not the provider's."""
    return Response("not found", status_code=404, media_type="text/plain")


def empty() -> Response:
    """The answer carrying nothing (the answer to a message goes by push SMS)."""
    return Response(b"", media_type="text/plain")


class SecretGateway:
    """The inbound side of a provider that signs nothing (its webhook is a dataclass
    with these fields)."""

    secret: str
    allow: Sequence[str]
    wait_budget: float
    #: What the log calls the webhook when it refuses a request.
    webhook: ClassVar[str]

    async def read(self, request: Request) -> dict[str, str] | None:
        """The parameters of a request with the secret path segment, from an allowed
        source address."""
        return await request_params(request) if self.authentic(request) else None

    def authentic(self, request: Request) -> bool:
        """The secret path segment, and the allow-list when there is one."""
        if secret_matches(request, self.secret) and from_allowed(request, self.allow):
            return True
        log.warning("refused a request to %s: wrong secret or source address", self.webhook)
        return False

    async def take_in(
        self, request: Request, message: Inbound, handler: Handler | None = None
    ) -> Response:
        """Store, act on and answer ``message`` by push SMS, within the wait budget."""
        return await take_in(
            request, app_of(request), message, wait_budget=self.wait_budget, handler=handler
        )
