"""A fake Twilio REST API on loopback: records the messages the real SDK sends."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

__all__ = ["FakeTwilio"]


@dataclass
class FakeTwilio:
    """Answers ``Messages.json`` like Twilio; ``fail`` holds (status, code) to answer first."""

    messages: list[dict[str, str]] = field(default_factory=list)
    fail: list[tuple[int, int]] = field(default_factory=list)
    auth: list[str] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/2010-04-01/Accounts/{sid}/Messages.json", self.create, methods=["POST"])
            ]
        )

    async def create(self, request: Request) -> JSONResponse:
        self.auth.append(request.headers.get("authorization", ""))
        form = {k: str(v) for k, v in (await request.form()).items()}
        if self.fail:
            status, code = self.fail.pop(0)
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
