"""A fake Twilio REST API on loopback: records the messages the real SDK sends, and
serves the media of inbound MMS / WhatsApp messages (behind the account's basic auth).

SMS and WhatsApp alike (``To=whatsapp:+…``); a WhatsApp template arrives in the
Content API form (``ContentSid``, ``ContentVariables``, no ``Body``). Refusals: ``fail``
answers the next creates with (HTTP status, Twilio code); ``refuse_whatsapp`` answers
every WhatsApp create with a code (e.g. 63003, not a WhatsApp user); ``free_window``
False refuses WhatsApp free text with 63016 (outside the 24-hour window), as Twilio
does when it knows it at once. Media added with ``drip`` are served a few bytes at a
time (``drip_chunk`` every ``drip_every`` seconds: 64 bytes every 0.5 s), as a slow or
hostile server does: no single read waits long, the whole takes minutes.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

__all__ = ["FakeTwilio"]


@dataclass
class FakeTwilio:
    """Answers ``Messages.json`` like Twilio; ``fail`` holds (status, code) to answer first."""

    messages: list[dict[str, str]] = field(default_factory=list)
    fail: list[tuple[int, int]] = field(default_factory=list)
    auth: list[str] = field(default_factory=list)
    refuse_whatsapp: int | None = None
    free_window: bool = True
    #: Media by path: (bytes, Content-Type); ``fetched`` counts each path's downloads.
    media: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    fetched: dict[str, int] = field(default_factory=dict)
    #: (account SID, auth token) a media download must carry as basic auth.
    account: tuple[str, str] | None = None
    #: The media paths served dripping, and how: bytes a chunk, seconds between chunks.
    drip: set[str] = field(default_factory=set)
    drip_chunk: int = 64
    drip_every: float = 0.5
    #: Dripping downloads in progress now.
    dripping: int = 0

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/2010-04-01/Accounts/{sid}/Messages.json", self.create, methods=["POST"]),
                Route(
                    "/2010-04-01/Accounts/{sid}/Messages/{message}/Media/{media}",
                    self.serve_media,
                    methods=["GET"],
                ),
            ]
        )

    def whatsapp(self) -> list[dict[str, str]]:
        """The WhatsApp messages accepted."""
        return [m for m in self.messages if m.get("To", "").startswith("whatsapp:")]

    def sms(self) -> list[dict[str, str]]:
        """The SMS accepted."""
        return [m for m in self.messages if not m.get("To", "").startswith("whatsapp:")]

    def _refusal(self, form: dict[str, str]) -> tuple[int, int] | None:
        if self.fail:
            return self.fail.pop(0)
        to, sender = form.get("To", ""), form.get("From", "")
        if to.startswith("whatsapp:") != sender.startswith("whatsapp:"):
            return 400, 63007  # the From is not a sender on the To's channel
        if not to.startswith("whatsapp:"):
            return None
        if "ContentSid" in form and "Body" in form:
            return 400, 21619  # a template is sent without a Body
        if self.refuse_whatsapp is not None:
            return 400, self.refuse_whatsapp
        if "ContentSid" not in form and not self.free_window:
            return 400, 63016
        return None

    def add_media(
        self, sid: str, message: str, n: int, data: bytes, content_type: str, *, drip: bool = False
    ) -> str:
        """Keep a picture of inbound message ``message``; its path (as in ``MediaUrl<n>``).
        ``drip``: served a few bytes at a time."""
        path = f"/2010-04-01/Accounts/{sid}/Messages/{message}/Media/ME{n:032d}"
        self.media[path] = (data, content_type)
        if drip:
            self.drip.add(path)
        return path

    async def _dripped(self, data: bytes) -> AsyncIterator[bytes]:
        self.dripping += 1
        try:
            for start in range(0, len(data), self.drip_chunk):
                yield data[start : start + self.drip_chunk]
                await asyncio.sleep(self.drip_every)
        finally:
            self.dripping -= 1

    async def serve_media(self, request: Request) -> Response:
        if self.account is not None:
            expected = base64.b64encode(":".join(self.account).encode()).decode()
            if request.headers.get("authorization", "") != f"Basic {expected}":
                return JSONResponse({"code": 20003, "message": "Authenticate"}, status_code=401)
        path = request.url.path
        if path not in self.media:
            return JSONResponse({"code": 20404, "message": "not found"}, status_code=404)
        self.fetched[path] = self.fetched.get(path, 0) + 1
        data, content_type = self.media[path]
        if path in self.drip:
            return StreamingResponse(
                self._dripped(data),
                media_type=content_type,
                headers={"content-length": str(len(data))},
            )
        return Response(data, media_type=content_type)

    async def create(self, request: Request) -> JSONResponse:
        self.auth.append(request.headers.get("authorization", ""))
        form = {k: str(v) for k, v in (await request.form()).items()}
        refusal = self._refusal(form)
        if refusal is not None:
            status, code = refusal
            return JSONResponse(
                {"code": code, "message": "fake refusal", "status": status}, status_code=status
            )
        self.messages.append(form)
        sid = f"SM{len(self.messages):032d}"
        return JSONResponse(
            {
                "sid": sid,
                "status": "queued",
                "to": form.get("To"),
                "from": form.get("From"),
                "body": form.get("Body"),
                "account_sid": request.path_params["sid"],
            },
            status_code=201,
        )
