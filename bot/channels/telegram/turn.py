"""One update being handled: its transaction, who sent it, their chat's state, and the
replies it queues.

The webhook opens a ``Turn`` inside the transaction that marks the update processed
and hands it to PTB's handlers through a context variable (``PoundContext.turn``).
Every reply is queued to the outbox in that same transaction, under a key made of the
update's inbox key (``tg-reply:<bot id>:<update_id>``): a reply is never lost with a
rolled-back update and never doubled by a redelivered one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from telegram import Update
from telegram.ext import CallbackContext, ExtBot

from bot.channels.identity import caller_for_telegram
from bot.channels.telegram.outbox import MAX_TEXT, Action, Keyboard, encode, split_text
from bot.channels.telegram.sender import CHANNEL
from bot.i18n import LANGUAGES, Translator, reply_language, translator
from bot.services.base import Deps
from bot.store.messages import enqueue
from bot.store.models import Conversation
from bot.store.senders import add_chat, chat_for_update, write_chat
from bot.store.tx import Tx
from bot.support.caller import KEEPER, OFFICER, Caller

__all__ = ["ChatState", "PoundContext", "Turn", "current_turn", "open_turn", "using"]

_TURN: ContextVar[Turn] = ContextVar("poundbot_telegram_turn")


class ChatState:
    """A chat's row in ``conversations``: the language a chat of no registered user chose,
    and the report in progress (``flow``), so any instance, after any restart, goes on."""

    def __init__(self, tx: Tx, chat_id: str, row: Conversation | None) -> None:
        self._tx, self._chat_id, self._row = tx, chat_id, row

    @classmethod
    async def load(cls, tx: Tx, chat_id: str) -> ChatState:
        """The chat's state, locked until the end of the transaction (one update at a time)."""
        return cls(tx, chat_id, await chat_for_update(tx, CHANNEL, chat_id))

    @property
    def lang(self) -> str | None:
        lang = self._row.state.get("lang") if self._row else None
        return lang if lang in LANGUAGES else None

    @property
    def flow(self) -> str:
        return self._row.flow if self._row else ""

    def data(self, flow: str) -> dict[str, Any] | None:
        """The state of ``flow`` if it is the one in progress."""
        if self._row is None or self._row.flow != flow:
            return None
        return dict(self._row.state.get(flow) or {})

    def put(self, flow: str, data: dict[str, Any]) -> None:
        """Save the state of ``flow`` and make it the one in progress."""
        self._write(flow, {**self._state(), flow: data})

    def end(self) -> None:
        """No flow in progress any more (the chat's language stays)."""
        state = {k: v for k, v in self._state().items() if k == "lang"}
        self._write("", state)

    def set_lang(self, lang: str) -> None:
        self._write(self.flow, {**self._state(), "lang": lang})

    def _state(self) -> dict[str, Any]:
        return dict(self._row.state) if self._row else {}

    def _write(self, flow: str, state: dict[str, Any]) -> None:
        if self._row is None:
            if not flow and not state:
                return
            self._row = add_chat(self._tx, CHANNEL, self._chat_id, flow, state)
            return
        write_chat(self._tx, self._row, flow, state)  # a new dict: the JSON column sees it


@dataclass
class Turn:
    """The handling of one update."""

    tx: Tx
    deps: Deps
    key: str  # the update's inbox key
    chat_id: int | None
    caller: Caller
    text: str = ""
    error: BaseException | None = None
    penalty: int = 0  # counted against the sender's limit beyond the message itself
    #: The update's picture, downloaded before its transaction (by its source key:
    #: ``bot.channels.telegram.webhook.TelegramChannel.receive``).
    prefetched: dict[str, Any] = field(default_factory=dict)
    replies: list[str] = field(default_factory=list)
    _counts: Counter[str] = field(default_factory=Counter)
    _chat: ChatState | None = None

    async def chat(self) -> ChatState:
        """The chat's state, read (and locked) the first time a handler needs it."""
        if self._chat is None:
            if self.chat_id is None:
                self._chat = ChatState(self.tx, "", None)
            else:
                self._chat = await ChatState.load(self.tx, str(self.chat_id))
        return self._chat

    @property
    def lang(self) -> str:
        """The language to answer in (``bot.i18n.language``): the one ``open_turn``
        chose, else the script of what they wrote."""
        return reply_language(self.caller.lang, text=self.text)

    @property
    def tr(self) -> Translator:
        return translator(self.lang)

    def set_lang(self, lang: str) -> None:
        self.caller = replace(self.caller, lang=lang)

    async def _queue(self, prefix: str, action: Action) -> None:
        if self.chat_id is None:
            return
        self._counts[prefix] += 1
        n = self._counts[prefix]
        key = f"{prefix}:{self.key}" + (f":{n}" if n > 1 else "")
        await enqueue(
            self.tx,
            key=key,
            channel=CHANNEL,
            recipient=str(self.chat_id),
            body=encode(action),
            purpose="answer",
        )

    async def send(
        self,
        text: str,
        *,
        inline: Keyboard = (),
        reply: Keyboard = (),
        remove_keyboard: bool = False,
    ) -> None:
        """Queue a message (in pieces if long; a keyboard goes with the last piece)."""
        pieces = split_text(text)
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            action = Action(
                "send",
                text=piece,
                inline=inline if last else (),
                reply=reply if last else (),
                remove_keyboard=remove_keyboard and last,
            )
            await self._queue("tg-reply", action)
        self.replies.append(text)

    async def send_photo(self, key: str, caption: str) -> None:
        """Queue a kept photo (its photo-store key) with a caption."""
        await self._queue("tg-photo", Action("photo", text=caption, photo=key))

    async def edit(self, message_id: int, text: str, inline: Keyboard = ()) -> None:
        """Queue new text (and buttons, or none) for a message the bot sent."""
        action = Action("edit", text=text[:MAX_TEXT], inline=inline, message_id=message_id)
        await self._queue("tg-edit", action)

    async def answer(self, callback_id: str, text: str = "") -> None:
        """Queue the answer to a button press (Telegram shows ``text`` as a toast)."""
        await self._queue("tg-answer", Action("answer", text=text[:200], callback_id=callback_id))

    async def menu(self, commands: Iterable[tuple[str, str]]) -> None:
        """Queue this chat's command menu."""
        await self._queue("tg-menu", Action("menu", commands=tuple(commands)))

    def summary(self) -> str:
        """What the update was answered (kept in the inbox row)."""
        return "\n\n".join(self.replies)


async def open_turn(tx: Tx, deps: Deps, update: Update, key: str) -> Turn:
    """Who sent ``update`` and in which language to answer them.

    The language (``bot.i18n.language``) is the registered user's choice, else the
    chat's, else the Telegram client's where poundbot speaks it, else the script of the
    message, else a keeper's pound's or an officer's authority's.
    """
    user = update.effective_user
    chat_id = update.effective_chat.id if update.effective_chat else (user.id if user else None)
    caller = await caller_for_telegram(tx, user.id) if user else None
    base = caller or Caller.public(CHANNEL)
    message = update.effective_message
    text = (message.text or message.caption or "") if message else ""
    turn = Turn(tx, deps, key, chat_id, base, text=text)
    client = (user.language_code or "")[:2].lower() if user else ""
    chat = (await turn.chat()).lang if not base.lang else None  # only when none is chosen
    lang = reply_language(
        base.lang,
        chat,
        client,
        text=text,
        pound=deps.config.pounds.get(base.pound or "") if base.role == KEEPER else None,
        authority=(
            deps.config.authorities.get(base.authority or "") if base.role == OFFICER else None
        ),
    )
    turn.caller = replace(base, lang=lang, telegram_id=user.id if user else None)
    return turn


@contextmanager
def using(turn: Turn) -> Iterator[Turn]:
    """``with using(turn):`` makes ``turn`` the current one for PTB's handlers."""
    token = _TURN.set(turn)
    try:
        yield turn
    finally:
        _TURN.reset(token)


def current_turn() -> Turn:
    """The update being handled in this task."""
    try:
        return _TURN.get()
    except LookupError:
        raise RuntimeError("no Telegram update is being handled here") from None


class PoundContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """PTB's context, with the update's ``Turn`` (transaction, caller, replies)."""

    @property
    def turn(self) -> Turn:
        return current_turn()
