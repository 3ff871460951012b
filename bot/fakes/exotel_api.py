"""A fake Exotel SMS API on loopback: records the SMS poundbot sends, answers as Exotel.

Follows Exotel's Send SMS API (developer.exotel.com/api/send-sms-2;
developer.exotel.com/docs/sms-api/api-reference/send-sms): ``POST
/v1/Accounts/<account_sid>/Sms/send``, form-encoded, behind HTTP basic auth with the
API key and token; ``From``, ``To`` and ``Body`` mandatory (400 without them), and for
India ``DltEntityId``. The answer is Exotel's XML::

    <TwilioResponse><SMSMessage><Sid>…</Sid><Status>queued</Status>…</SMSMessage></TwilioResponse>

and a refusal ``<TwilioResponse><RestException><Status>…</Status><Message>…</Message>
</RestException></TwilioResponse>`` with its HTTP status (support.exotel.com "Sending an
SMS"; developer.exotel.com/docs/sms-support/sms-api-errors: 401 for a wrong key or
token). ``fail`` answers the next sends with the HTTP statuses it holds.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["FakeExotel"]


def _xml(body: str, status: int) -> Response:
    return Response(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<TwilioResponse>{body}</TwilioResponse>',
        status_code=status,
        media_type="application/xml",
    )


def _refusal(status: int, message: str) -> Response:
    return _xml(
        f"<RestException><Status>{status}</Status><Message>{escape(message)}</Message>"
        "</RestException>",
        status,
    )


@dataclass
class FakeExotel:
    """Answers ``Sms/send`` like Exotel; ``messages`` holds each SMS taken (its form)."""

    #: (account SID, API key, API token) the requests must carry.
    account: tuple[str, str, str]
    messages: list[dict[str, str]] = field(default_factory=list)
    fail: list[int] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/Accounts/{sid}/Sms/send", self.send, methods=["POST"])])

    async def send(self, request: Request) -> Response:
        sid, key, token = self.account
        expected = base64.b64encode(f"{key}:{token}".encode()).decode()
        if request.headers.get("authorization", "") != f"Basic {expected}":
            return _refusal(401, "Authentication failed. Invalid API Key or Token.")
        if request.path_params["sid"] != sid:
            return _refusal(403, "Account does not have permission")
        form = {k: str(v) for k, v in (await request.form()).items()}
        if self.fail:
            status = self.fail.pop(0)
            return _refusal(status, "fake refusal")
        missing = [name for name in ("From", "To", "Body") if not form.get(name)]
        if missing:
            return _refusal(400, f"Missing parameter(s): {', '.join(missing)}")
        if form.get("EncodingType", "plain") not in ("plain", "unicode"):
            return _refusal(400, "EncodingType must be plain or unicode")
        self.messages.append(form)
        message_sid = f"{len(self.messages):032x}"
        return _xml(
            "<SMSMessage>"
            f"<Sid>{message_sid}</Sid><AccountSid>{sid}</AccountSid>"
            f"<From>{escape(form['From'])}</From><To>{escape(form['To'])}</To>"
            f"<Body>{escape(form['Body'])}</Body><Status>queued</Status>"
            "<Direction>outbound-api</Direction>"
            f"<Uri>/v1/Accounts/{sid}/SMS/Messages/{message_sid}</Uri>"
            "</SMSMessage>",
            200,
        )
