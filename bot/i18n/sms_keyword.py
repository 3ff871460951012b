"""The Mobile Seva keyword in what poundbot tells someone to send.

On Mobile Seva an SMS reaches poundbot only when it starts with the state's keyword and
poundbot's sub-keyword (``MSEVA_KEYWORD``, e.g. ``KL POUND``): so every instruction of
what to send (HELP, "not a command ... like DUES KNM-17", the officer's "Then send
NOTICE KNM-17") says it, in an SMS, when poundbot runs on Mobile Seva
(``KL POUND DUES KNM-17``). Telegram, the web desk and the other providers never show it.

On the web desk an instruction names the desk's form instead of a command to type
(``on_desk``): "Fix its day and place with the form “Fix the auction (s.13(3))” below".

The keyword is data, a DLT variable of its own before the command (``{#var#}DUES
KNM-17``): one template serves every state's keyword, and an installation without one
sends the variable empty. ``use_keyword`` sets it for the process (the server, from its
settings); ``keyword_in_sms`` for a block (the segment budgets count ``WORST_KEYWORD``).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import in_sms, leaf, probing

__all__ = [
    "WORST_KEYWORD",
    "desk_form",
    "keyword_in_sms",
    "on_desk",
    "or_form",
    "sms_keyword",
    "to_send",
    "use_keyword",
    "without_keyword",
]

#: The longest keyword the segment budgets allow for: a state's two letters and a
#: sub-keyword of up to ten.
WORST_KEYWORD: Final = "KL POUNDSEVA"

_keyword = ""
_everywhere = False  # a segment budget: every text rendered is counted as an SMS
#: A WhatsApp message answered as an SMS is (Twilio's number needs no keyword).
_WITHOUT: contextvars.ContextVar[bool] = contextvars.ContextVar("without_keyword", default=False)
#: A step's form as the web desk names it, while an answer on the desk is rendered.
_DESK: contextvars.ContextVar[Callable[[str, Translator], str] | None] = contextvars.ContextVar(
    "on_desk", default=None
)


def use_keyword(keyword: str, *, everywhere: bool = False) -> None:
    """The keyword every SMS instruction starts with from now on ("" for none);
    ``everywhere``: in every text, SMS or not (the segment budgets render so)."""
    global _keyword, _everywhere  # one setting of the process, set at start
    _keyword = " ".join(keyword.split())
    _everywhere = everywhere


def sms_keyword() -> str:
    """The keyword in use ("" when poundbot is not on Mobile Seva)."""
    return _keyword


@contextmanager
def keyword_in_sms(keyword: str, *, everywhere: bool = False) -> Iterator[None]:
    """The keyword in use for the block, then the one before."""
    before = (_keyword, _everywhere)
    use_keyword(keyword, everywhere=everywhere)
    try:
        yield
    finally:
        use_keyword(before[0], everywhere=before[1])


@contextmanager
def without_keyword() -> Iterator[None]:
    """No keyword in what the block renders (this task only): an answer on WhatsApp."""
    token = _WITHOUT.set(True)
    try:
        yield
    finally:
        _WITHOUT.reset(token)


@contextmanager
def on_desk(form: Callable[[str, Translator], str] | None) -> Iterator[None]:
    """An answer on the web desk in the block: an instruction of what to send names the
    step's form, as ``form`` words it (the step's command word, the translator); with
    None, a chat's answer."""
    token = _DESK.set(form)
    try:
        yield
    finally:
        _DESK.reset(token)


def to_send(tr: Translator, line: str, *, data: bool = False, form: str = "") -> str:
    """``line``, a command to send, with the keyword before it in an SMS on Mobile Seva;
    on the web desk (``on_desk``), the form of the step ``form`` instead.

    ``line`` is the command as the message gives it: fixed text of the template (an
    example made of the language's command words, ``literal``), or with ``data`` one
    variable (a command with its case number and amount)."""
    desk = desk_form(tr, form) if form else None
    if desk is not None:
        return desk
    if probing():  # the template: the keyword a variable, whatever is configured
        body = leaf(tr, line, "command") if data else line
        return leaf(tr, WORST_KEYWORD + " ", "keyword") + body
    if _keyword and (_everywhere or in_sms()) and not _WITHOUT.get():
        return f"{_keyword} {line}"
    return line


def desk_form(tr: Translator, form: str) -> str | None:
    """On the web desk (``on_desk``), the form of the step ``form`` as the desk words it;
    None in a chat (and when the wording of every message is probed)."""
    desk = _DESK.get()
    return desk(form, tr) if desk is not None and not probing() else None


def or_form(tr: Translator, word: str, form: str) -> str:
    """``word``, a command word a message names, or on the web desk (``on_desk``) the
    form of the step ``form``."""
    found = desk_form(tr, form)
    return word if found is None else found
