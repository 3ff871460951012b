"""What a queued Telegram message carries: a text, a keyboard, or another Bot API call.

The outbox keeps one text ``body`` per message. A plain body is a message to send as it
is: what ``bot.notifications.notify`` queues for officers. The channel's own replies need more (an
inline keyboard, the "share location" button, the edit of a message whose button was
pressed, the answer to a button press, a chat's command menu), so their body is a JSON
object, an *envelope* ``{"tg": 1, "op": ...}``, that ``TelegramSender`` reads back.
Keyboards travel as data (label and callback id), never as library objects, so a
message queued by one version of poundbot is sent by the next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "MAX_TEXT",
    "Action",
    "Button",
    "Keyboard",
    "decode",
    "encode",
    "split_text",
]

#: Telegram's limit on the text of one message.
MAX_TEXT: Final = 4096

_MARK: Final = '{"tg":'
_OPS: Final = frozenset({"send", "edit", "answer", "menu", "photo"})


@dataclass(frozen=True, slots=True)
class Button:
    """One button: an inline button carries ``data`` (a stable callback id); a button of
    the reply keyboard with ``location`` asks the client to share its location."""

    text: str
    data: str = ""
    location: bool = False


Keyboard = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One Bot API call to make for a chat (the outbox row's recipient).

    - ``send``: a message, with an inline keyboard, a reply keyboard, or the reply
      keyboard removed;
    - ``edit``: new text (and inline keyboard, or none) for ``message_id``;
    - ``answer``: the answer to a button press (``callback_id``), with an optional toast;
    - ``menu``: the chat's command menu, ``commands`` as (command, description);
    - ``photo``: a kept photo of the cattle, by its photo-store key, ``text`` its caption.
    """

    op: str
    text: str = ""
    inline: Keyboard = ()
    reply: Keyboard = ()
    remove_keyboard: bool = False
    message_id: int | None = None
    callback_id: str = ""
    commands: tuple[tuple[str, str], ...] = ()
    photo: str = ""

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ValueError(f"unknown Telegram action {self.op!r}")


def _rows(keyboard: Keyboard) -> list[list[list[Any]]]:
    return [[[b.text, b.data, b.location] for b in row] for row in keyboard]


def _keyboard(rows: Any) -> Keyboard:
    return tuple(tuple(Button(str(t), str(d), bool(loc)) for t, d, loc in row) for row in rows)


def encode(action: Action) -> str:
    """The outbox body for ``action``: a plain text for a bare message, else an envelope."""
    bare = not (action.inline or action.reply or action.remove_keyboard)
    if action.op == "send" and bare and not action.text.startswith(_MARK):
        return action.text
    data: dict[str, Any] = {"tg": 1, "op": action.op}
    if action.text:
        data["text"] = action.text
    if action.inline:
        data["inline"] = _rows(action.inline)
    if action.reply:
        data["reply"] = _rows(action.reply)
    if action.remove_keyboard:
        data["remove"] = True
    if action.message_id is not None:
        data["message_id"] = action.message_id
    if action.callback_id:
        data["callback"] = action.callback_id
    if action.commands:
        data["commands"] = [list(pair) for pair in action.commands]
    if action.photo:
        data["photo"] = action.photo
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def decode(body: str) -> Action:
    """The action an outbox body stands for; any body that is not an envelope is a text."""
    if not body.startswith(_MARK):
        return Action("send", text=body)
    try:
        data = json.loads(body)
    except ValueError:
        return Action("send", text=body)
    if not isinstance(data, dict) or data.get("tg") != 1:
        return Action("send", text=body)
    message_id = data.get("message_id")
    return Action(
        op=str(data.get("op", "send")),
        text=str(data.get("text", "")),
        inline=_keyboard(data.get("inline", ())),
        reply=_keyboard(data.get("reply", ())),
        remove_keyboard=bool(data.get("remove", False)),
        message_id=int(message_id) if message_id is not None else None,
        callback_id=str(data.get("callback", "")),
        commands=tuple((str(c), str(d)) for c, d in data.get("commands", ())),
        photo=str(data.get("photo", "")),
    )


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where it can."""
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit + 1)
        if cut <= 0:
            cut = rest.rfind(" ", 0, limit + 1)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip("\n ")
    if rest:
        pieces.append(rest)
    return pieces
