"""A fake Mobile Seva push service on loopback: checks each request as the gateway does,
records what it takes.

Follows services.mgov.gov.in/RegisterPushService and the MSDP / MSDG Services
Integration Document ("Push SMS Integration"): ``POST /esms/sendsmsrequestDLT``,
form-encoded, with ``username``, ``password`` (SHA-1 hex of the account's password),
``senderid``, ``content``, ``smsservicetype`` (``singlemsg`` / ``unicodemsg``),
``mobileno``, ``key`` (SHA-512 hex of username + senderid + content + secure key) and
``templateid``. The answer is one line of text: ``402,MsgID = <id>msdgsms`` when the
message is taken, ``401,Credentials Error, may be invalid username or password`` for
wrong credentials (the codes the document gives). A missing field, a key that does not
match and a wrong ``smsservicetype`` are refused too, with codes of the fake's own
(400, 416, 412: the gateway's own for these are not in the pages read). ``fail`` answers
the next requests with the HTTP statuses it holds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

__all__ = ["FakeMseva"]

_FIELDS = ("username", "password", "senderid", "content", "smsservicetype", "mobileno", "key")


@dataclass
class FakeMseva:
    """Answers ``sendsmsrequestDLT`` like Mobile Seva; ``messages`` holds each SMS taken."""

    username: str
    password: str
    secure_key: str
    messages: list[dict[str, str]] = field(default_factory=list)
    fail: list[int] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/esms/sendsmsrequestDLT", self.send, methods=["POST"])])

    def _refused(self, form: dict[str, str]) -> str | None:
        missing = [name for name in _FIELDS if not form.get(name)]
        if missing:
            return f"400,Missing parameter(s): {', '.join(missing)}"
        digest = hashlib.sha1(self.password.encode()).hexdigest()
        if form["username"] != self.username or form["password"] != digest:
            return "401,Credentials Error, may be invalid username or password"
        key = hashlib.sha512(
            (form["username"] + form["senderid"] + form["content"] + self.secure_key).encode()
        ).hexdigest()
        if form["key"] != key:
            return "416,Hash does not match"
        if form["smsservicetype"] not in ("singlemsg", "unicodemsg"):
            return "412,Invalid smsservicetype"
        if form["smsservicetype"] == "singlemsg" and not form["content"].isascii():
            return "412,Unicode content needs unicodemsg"
        return None

    async def send(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        if self.fail:
            return PlainTextResponse("fake failure", status_code=self.fail.pop(0))
        refused = self._refused(form)
        if refused:
            return PlainTextResponse(refused)
        self.messages.append(form)
        return PlainTextResponse(f"402,MsgID = {len(self.messages):010d}msdgsms")
