"""What the senders that speak plain HTTP (Exotel, Mobile Seva) share: one HTTP client
for the life of the sender (``async with``), the DLT stamp each SMS goes under (the one
the outbox gives, else the sender's default from settings), and one form POSTed a
message, its failures sorted as the outbox wants them: a network error, 429 and 5xx are
worth another try (``TransientSendError``); the provider's refusals are read by each
sender from the answer it gets back."""

from __future__ import annotations

from types import TracebackType
from typing import ClassVar, Self

import httpx

from bot.adapters.outbox import TransientSendError
from bot.support.dlt import DltStamp
from bot.support.sms_segments import segments

__all__ = ["FormSender", "gsm7"]


def gsm7(body: str) -> bool:
    """Whether ``body`` goes as GSM-7 text (else as Unicode: Malayalam, Tamil, ``₹``)."""
    return segments(body).encoding == "GSM-7"


class FormSender:
    """Sends one SMS per form POSTed; use it inside ``async with``."""

    #: The provider's name, as the outbox's errors say it.
    provider: ClassVar[str]

    def __init__(
        self, *, default_dlt: DltStamp | None = None, auth: httpx.Auth | None = None
    ) -> None:
        self._default, self._auth = default_dlt, auth
        self._http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> Self:
        self._http = httpx.AsyncClient(auth=self._auth, timeout=15)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._http is not None:
            await self._http.aclose()

    def stamp(self, dlt: DltStamp | None) -> DltStamp | None:
        """The DLT stamp of one SMS: the one given, else the sender's default."""
        return dlt or self._default

    async def post(self, url: str, form: dict[str, str]) -> httpx.Response:
        """POST ``form``; a network error, 429 or 5xx raises ``TransientSendError``."""
        assert self._http is not None, f"use {type(self).__name__} inside 'async with'"
        try:
            response = await self._http.post(url, data=form)
        except httpx.HTTPError as exc:
            raise TransientSendError(f"{self.provider} network: {exc!r}") from exc
        if response.status_code == 429 or response.status_code >= 500:
            raise TransientSendError(f"{self.provider} {response.status_code}")
        return response
