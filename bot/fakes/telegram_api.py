"""A fake Telegram Bot API on loopback, recording the calls the real PTB bot makes, and
builders of the updates Telegram would post. It serves the files a test gives it
(``add_file``): ``getFile`` and the download at ``/file/bot<token>/<file_path>``."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = [
    "BOT_ID",
    "BOT_USER",
    "BOT_USERNAME",
    "TOKEN",
    "Call",
    "FakeTelegram",
    "TelegramUser",
    "Updates",
]

TOKEN = "123456:TEST-token_for-poundbot"
BOT_ID = 123456
BOT_USERNAME = "poundbot_test_bot"
_DATE = 1_772_340_000  # 2026-03-01, as Telegram's Unix time
# Parameters PTB posts as JSON strings inside the form.
_JSON_PARAMS = frozenset({"reply_markup", "commands", "scope", "allowed_updates", "entities"})
_INT_PARAMS = frozenset({"chat_id", "message_id", "offset", "timeout", "limit"})


@dataclass
class Call:
    """One Bot API call as the fake received it."""

    method: str
    params: dict[str, Any]
    result: Any = None

    @property
    def message_id(self) -> int:
        """The id of the message this call sent or edited."""
        return int(self.result["message_id"])

    @property
    def text(self) -> str:
        return str(self.params.get("text", ""))

    @property
    def buttons(self) -> list[tuple[str, str]]:
        """(label, callback data) of an inline keyboard, row by row."""
        markup = self.params.get("reply_markup") or {}
        rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
        return [(b["text"], b.get("callback_data", "")) for row in rows for b in row]


@dataclass
class FakeTelegram:
    """Answers the Bot API methods poundbot uses; ``fail`` holds answers to give first,
    as (method, status, description, retry_after); ``delay`` is how many seconds it takes
    to answer a ``sendMessage`` (a slow Bot API)."""

    calls: list[Call] = field(default_factory=list)
    fail: list[tuple[str, int, str, int | None]] = field(default_factory=list)
    webhook: dict[str, Any] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)
    _message_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(500))
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    _called: asyncio.Condition = field(default_factory=asyncio.Condition)
    closed: bool = False
    delay: float = 0.0
    #: Files by file id: the bytes a download gives; ``downloads`` counts each file's.
    files: dict[str, bytes] = field(default_factory=dict)
    downloads: dict[str, int] = field(default_factory=dict)
    #: The pictures of the ``sendPhoto`` calls, in order.
    photos: list[bytes] = field(default_factory=list)
    #: While set and not yet released, every file download waits for it (a slow
    #: download); ``held`` counts the downloads waiting now.
    hold: asyncio.Event | None = None
    held: int = 0

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/bot{token}/{method}", self.handle, methods=["POST"]),
                Route("/file/bot{token}/{file_path:path}", self.download, methods=["GET"]),
            ]
        )

    def add_file(self, file_id: str, data: bytes) -> None:
        """A file a user sent (a photo's largest size): ``getFile`` finds it by its id."""
        self.files[file_id] = data

    def get_file(self, params: dict[str, Any]) -> dict[str, Any]:
        file_id = str(params.get("file_id", ""))
        return {
            "file_id": file_id,
            "file_unique_id": f"{file_id}u",
            "file_size": len(self.files[file_id]),
            "file_path": f"photos/{file_id}.jpg",
        }

    async def download(self, request: Request) -> Response:
        if request.path_params["token"] != TOKEN:
            return _error(401, "Unauthorized")
        name = request.path_params["file_path"].removeprefix("photos/").removesuffix(".jpg")
        if name not in self.files:
            return _error(404, "Not Found")
        self.downloads[name] = self.downloads.get(name, 0) + 1
        if self.hold is not None:
            self.held += 1
            try:
                await self.hold.wait()
            finally:
                self.held -= 1
        return Response(self.files[name], media_type="application/octet-stream")

    def of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def sent(self, chat_id: int | None = None) -> list[Call]:
        """The messages sent (to ``chat_id``), oldest first."""
        return [c for c in self.of("sendMessage") if chat_id in (None, c.params.get("chat_id"))]

    async def wait_for(self, method: str, n: int = 1) -> list[Call]:
        """Return once ``method`` has been called ``n`` times (no timer: an event)."""
        async with self._called:
            await self._called.wait_for(lambda: len(self.of(method)) >= n)
        return self.of(method)

    def queue_update(self, update: dict[str, Any]) -> None:
        """An update for getUpdates (long polling)."""
        self.pending.append(update)
        self._arrived.set()

    def close(self) -> None:
        """Let a waiting getUpdates answer at once (before the server stops)."""
        self.closed = True
        self._arrived.set()

    async def _params(self, request: Request) -> dict[str, Any]:
        params: dict[str, Any] = {}
        async with request.form() as form:
            for key, value in form.multi_items():
                if not isinstance(value, str):
                    if key == "photo":  # an uploaded picture (multipart)
                        self.photos.append(await value.read())
                    continue
                if key in _JSON_PARAMS:
                    params[key] = json.loads(value)
                elif key in _INT_PARAMS and value.lstrip("-").isdigit():
                    params[key] = int(value)
                else:
                    params[key] = value
        return params

    async def handle(self, request: Request) -> JSONResponse:
        method = request.path_params["method"]
        if request.path_params["token"] != TOKEN:
            return _error(401, "Unauthorized")
        params = await self._params(request)
        if method == "sendMessage" and self.delay:
            await asyncio.sleep(self.delay)
        call = Call(method, params)
        self.calls.append(call)
        for i, (name, status, description, retry_after) in enumerate(self.fail):
            if name == method:
                del self.fail[i]
                return _error(status, description, retry_after)
        if method == "getUpdates":
            return await self._get_updates()
        if method == "getFile" and params.get("file_id") not in self.files:
            return _error(400, "Bad Request: invalid file_id")
        answer = _ANSWERS.get(method)
        if answer is None:
            return _error(404, "Not Found: method not found")
        call.result = answer(self, params)
        async with self._called:
            self._called.notify_all()
        return _ok(call.result)

    async def _get_updates(self) -> JSONResponse:
        if not self.pending and not self.closed:
            self._arrived.clear()
            await self._arrived.wait()
        updates, self.pending = self.pending, []
        return _ok(updates)

    def message(self, params: dict[str, Any], message_id: int | None = None) -> dict[str, Any]:
        return {
            "message_id": message_id or next(self._message_ids),
            "date": _DATE,
            "chat": {"id": params.get("chat_id"), "type": "private"},
            "from": BOT_USER,
            "text": params.get("text", ""),
        }


BOT_USER = {"id": BOT_ID, "is_bot": True, "first_name": "Pound", "username": BOT_USERNAME}

_ANSWERS: dict[str, Any] = {
    "getMe": lambda fake, p: {
        **BOT_USER,
        "can_join_groups": False,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
    },
    "sendMessage": lambda fake, p: fake.message(p),
    "sendPhoto": lambda fake, p: fake.message(p),
    "getFile": lambda fake, p: fake.get_file(p),
    "editMessageText": lambda fake, p: fake.message(p, p.get("message_id")),
    "editMessageReplyMarkup": lambda fake, p: fake.message(p, p.get("message_id")),
    "answerCallbackQuery": lambda fake, p: True,
    "setMyCommands": lambda fake, p: True,
    "deleteWebhook": lambda fake, p: True,
    "setWebhook": lambda fake, p: fake.webhook.update(p) or True,
    "getWebhookInfo": lambda fake, p: {
        "url": fake.webhook.get("url", ""),
        "has_custom_certificate": False,
        "pending_update_count": 0,
    },
}


def _ok(result: Any) -> JSONResponse:
    return JSONResponse({"ok": True, "result": result})


def _error(status: int, description: str, retry_after: int | None = None) -> JSONResponse:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return JSONResponse(body, status_code=status)


@dataclass
class TelegramUser:
    """Someone writing to the bot from their Telegram account."""

    id: int
    first_name: str
    language_code: str | None = "en"

    def as_json(self) -> dict[str, Any]:
        user: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.language_code:
            user["language_code"] = self.language_code
        return user

    def chat(self) -> dict[str, Any]:
        return {"id": self.id, "type": "private", "first_name": self.first_name}


class Updates:
    """Builds updates as Telegram posts them, with increasing update ids."""

    def __init__(self, first: int = 700_000) -> None:
        self._ids = itertools.count(first)
        self._messages = itertools.count(1)

    def _message(self, user: TelegramUser, **content: Any) -> dict[str, Any]:
        return {
            "update_id": next(self._ids),
            "message": {
                "message_id": next(self._messages),
                "date": _DATE,
                "chat": user.chat(),
                "from": user.as_json(),
                **content,
            },
        }

    def text(self, user: TelegramUser, text: str) -> dict[str, Any]:
        """A typed message; a leading /command is marked as Telegram marks it."""
        content: dict[str, Any] = {"text": text}
        if text.startswith("/"):
            length = len(text.split(" ", 1)[0])
            content["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        return self._message(user, **content)

    def location(self, user: TelegramUser, latitude: float, longitude: float) -> dict[str, Any]:
        return self._message(user, location={"latitude": latitude, "longitude": longitude})

    def photo(
        self, user: TelegramUser, file_id: str, caption: str = "", size: int | None = None
    ) -> dict[str, Any]:
        """A photo (two sizes: the largest is ``file_id``), with a caption if given."""
        sizes: list[dict[str, Any]] = [
            {
                "file_id": f"{file_id}-small",
                "file_unique_id": f"{file_id}s",
                "width": 90,
                "height": 60,
            },
            {"file_id": file_id, "file_unique_id": f"{file_id}u", "width": 1280, "height": 853},
        ]
        if size is not None:
            sizes[-1]["file_size"] = size
        content: dict[str, Any] = {"photo": sizes}
        if caption:
            content["caption"] = caption
            if caption.startswith("/"):
                length = len(caption.split(" ", 1)[0])
                content["caption_entities"] = [
                    {"type": "bot_command", "offset": 0, "length": length}
                ]
        return self._message(user, **content)

    def document(
        self, user: TelegramUser, file_id: str, name: str, mime: str, caption: str = ""
    ) -> dict[str, Any]:
        """A file sent as a document (a photo sent uncompressed, or anything else)."""
        content: dict[str, Any] = {
            "document": {
                "file_id": file_id,
                "file_unique_id": f"{file_id}u",
                "file_name": name,
                "mime_type": mime,
            }
        }
        if caption:
            content["caption"] = caption
        return self._message(user, **content)

    def button(self, user: TelegramUser, pressed_on: Call, data: str) -> dict[str, Any]:
        """A press on a button of the message the bot sent in ``pressed_on``."""
        update_id = next(self._ids)
        return {
            "update_id": update_id,
            "callback_query": {
                "id": f"cq-{update_id}",
                "from": user.as_json(),
                "chat_instance": f"ci-{user.id}",
                "data": data,
                "message": {
                    "message_id": pressed_on.message_id,
                    "date": _DATE,
                    "chat": user.chat(),
                    "from": BOT_USER,
                    "text": pressed_on.text,
                },
            },
        }
