"""Sending SMS through Mobile Seva (the Government of India's gateway, run by C-DAC): the
Mobile Seva adapter of the SMS port, outbound.

Mobile Seva's SMS Push Service (services.mgov.gov.in/RegisterPushService, and the MSDP
/ MSDG Services Integration Document, "Push SMS Integration"): one HTTP POST, form-encoded,
to ``https://msdgweb.mgov.gov.in/esms/sendsmsrequestDLT`` with

- ``username``, and ``password`` as the integration document's examples send it: the
  SHA-1 of the password, in lower-case hex;
- ``senderid`` (the department's DLT header), ``content``, ``mobileno``;
- ``smsservicetype``: ``singlemsg`` for one English SMS, ``unicodemsg`` for text outside
  GSM-7 (Malayalam, Tamil, Kannada), whose ``content`` is every character written as an
  HTML numeric entity (``&#3349;``), as the document's Unicode example does;
- ``key``: the SHA-512, in lower-case hex, of username + senderid + content (as sent) +
  the department's secure key, each trimmed;
- ``templateid``: the DLT template id the text matches.

The page's table (services.mgov.gov.in/RegisterPushService, "SMS Push Service",
endpoint ``sendsmsrequestDLT``) lists username, password, content, senderid,
smsservicetype, mobileno, key and templateid, and names no entity id; nor does the
integration document's DLT example. The department's DLT entity is bound to its
account and sender id (header) on the portal when C-DAC opens it, so no entity field is
sent (an undocumented one would be a guess); ``templateid`` is always sent.

The answer is one line of text: ``402,MsgID = <id>`` when the message is taken (the id is
returned), any other code a refusal (``401`` credentials, ``405`` ...); an HTTP 5xx or
a network error is worth another try.
"""

from __future__ import annotations

import hashlib

from bot.adapters.outbox import PermanentSendError
from bot.channels.sms.http_sender import FormSender, gsm7
from bot.support.dlt import DltStamp

__all__ = ["MsevaSender", "entities", "push_key", "sha1_password"]

#: The code of the answer when Mobile Seva has taken the message.
ACCEPTED = "402"


def sha1_password(password: str) -> str:
    """The password as the push service takes it."""
    return hashlib.sha1(password.strip().encode()).hexdigest()


def push_key(username: str, sender_id: str, content: str, secure_key: str) -> str:
    """The ``key`` hash of one push request."""
    text = username.strip() + sender_id.strip() + content.strip() + secure_key.strip()
    return hashlib.sha512(text.encode()).hexdigest()


def entities(text: str) -> str:
    """A Unicode text as ``unicodemsg`` content: each character as ``&#<code>;``."""
    return "".join(f"&#{ord(c)};" for c in text)


class MsevaSender(FormSender):
    """Sends one SMS per call through Mobile Seva's push service; use inside ``async with``."""

    provider = "mseva"

    def __init__(
        self,
        username: str,
        password: str,
        sender_id: str,
        secure_key: str,
        *,
        api_url: str,
        default_dlt: DltStamp | None = None,
    ) -> None:
        super().__init__(default_dlt=default_dlt)
        self._username, self._password = username.strip(), sha1_password(password)
        self._sender, self._secure = sender_id.strip(), secure_key.strip()
        self._url = api_url

    async def send(
        self, recipient: str, body: str, key: str, *, dlt: DltStamp | None = None
    ) -> str:
        """Send an SMS; returns Mobile Seva's message id."""
        unicode = not gsm7(body)
        content = entities(body.strip()) if unicode else body.strip()
        stamp = self.stamp(dlt)
        form = {
            "username": self._username,
            "password": self._password,
            "senderid": self._sender,
            "content": content,
            "smsservicetype": "unicodemsg" if unicode else "singlemsg",
            # 10 or 12 digits (91 and the number), no "+".
            "mobileno": recipient.lstrip("+"),
            "key": push_key(self._username, self._sender, content, self._secure),
        }
        if stamp is not None:
            form["templateid"] = stamp.template_id
        response = await self.post(self._url, form)
        answer = response.text.strip()
        code, _, rest = answer.partition(",")
        if not response.is_success or code.strip() != ACCEPTED:
            raise PermanentSendError(f"mseva {response.status_code}: {answer[:200]}")
        message_id = rest.partition("=")[2].strip()
        if not message_id:
            raise PermanentSendError(f"mseva: no MsgID in {answer[:200]!r}")
        return message_id
