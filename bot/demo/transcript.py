"""The printed conversation of the demo: who said what to poundbot, and what it answered,
at the time of the simulated clock, with a header for each statutory step.

What poundbot sends is read where it arrives: the calls the fake Bot API received
(``sendMessage``, a chat's command menu) and the messages the fake Twilio
API received. So the transcript shows what left the real channel code, not what the
demo meant to send.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, TextIO

from bot.fakes.telegram_api import Call, FakeTelegram
from bot.fakes.twilio_api import FakeTwilio
from bot.i18n.act_words import section_in
from bot.support.clock import Clock
from domain.calendar import LOCAL_TZ
from domain.profiles import KERALA_1961, Profile

__all__ = ["Transcript"]

_RULE: Final = "──"
_INDENT: Final = " " * 4
#: A citation of the Kerala Act, as the story writes it: ``s.15(3)(e)``, ``s.13(3) proviso``.
_CITATION: Final = re.compile(r"s\.\d+(?:\([0-9a-z]+\))*(?: proviso)?")


class Transcript:
    """Prints the story to ``out``; ``chats`` and ``phones`` name the role behind each
    Telegram chat id and telephone number."""

    def __init__(self, out: TextIO, clock: Clock, act: Profile = KERALA_1961) -> None:
        self.out, self.clock, self.act = out, clock, act
        self.chats: dict[int, str] = {}
        self.phones: dict[str, str] = {}
        self._calls = 0
        self._sms = 0
        self._pushed = 0

    def _stamp(self) -> str:
        return self.clock.now().astimezone(LOCAL_TZ).strftime("[%a %d %b %Y %H:%M]")

    def _print(self, head: str, text: str) -> None:
        first, *rest = text.splitlines() or [""]
        print(f"{self._stamp()} {head}{first}", file=self.out)
        for line in rest:
            print(f"{_INDENT}{line}" if line.strip() else "", file=self.out)

    def line(self, text: str = "") -> None:
        """A line of narration, as it is."""
        print(text, file=self.out)

    def cited(self, text: str) -> str:
        """``text`` with each Kerala citation as the story's Act cites it (``s.13(1)`` is
        ``s.14 para 1`` under the 1871 Act; a provision it lacks keeps Kerala's, so
        marked)."""

        def own(match: re.Match[str]) -> str:
            said = match[0]
            if said not in self.act.citations:  # a whole section: ``s.16``
                return section_in(self.act, said) or said
            return self.act.cites(said) or f"{said} (Kerala)"

        return _CITATION.sub(own, text)

    def step(self, title: str) -> None:
        """The header of a step: ``── s.13(1) report of unclaimed cattle ──``."""
        print(f"\n{_RULE} {self.cited(title)} {_RULE}", file=self.out)

    def note(self, text: str) -> None:
        """What happens off the chat (an administrator's command, a fetched page)."""
        self._print("· ", text)

    def said(self, role: str, text: str) -> None:
        """A message a person sent to poundbot."""
        self._print(f"{role} → poundbot: ", text)

    def told(self, role: str, channel: str, text: str) -> None:
        """A message poundbot sent to a person."""
        self._print(f"poundbot → {role} ({channel}): ", text)

    def checked(self, text: str) -> None:
        """A fact checked in the database."""
        print(f"{_INDENT}✓ {self.cited(text)}", file=self.out)

    def failed(self, text: str) -> None:
        """A check that failed: the demo stops here."""
        print(f"\n✗ CHECK FAILED {text}", file=self.out)

    def catch_up(
        self,
        telegram: FakeTelegram,
        twilio: FakeTwilio,
        pushed: Sequence[Mapping[str, str]] = (),
    ) -> None:
        """Print what reached the fake APIs since the last call, oldest first; ``pushed``:
        the SMS sent through Exotel or Mobile Seva so far (``To``, ``Body``)."""
        calls, self._calls = telegram.calls[self._calls :], len(telegram.calls)
        for call in calls:
            self._telegram(call)
        for message in pushed[self._pushed :]:
            number = message.get("To", "")
            self.told(self.phones.get(number, number), "SMS", message.get("Body", ""))
        self._pushed = max(self._pushed, len(pushed))
        messages, self._sms = twilio.messages[self._sms :], len(twilio.messages)
        for message in messages:
            to = message.get("To", "")
            number = to.removeprefix("whatsapp:")
            channel = "WhatsApp" if to != number else "SMS"
            body = message.get("Body") or f"[template {message.get('ContentSid', '')}]"
            self.told(self.phones.get(number, number), channel, body)

    def _telegram(self, call: Call) -> None:
        role = self.chats.get(int(call.params.get("chat_id", 0) or 0), "?")
        if call.method == "sendMessage":
            self.told(role, "Telegram", call.text + _buttons(call))
        elif call.method == "setMyCommands":
            scope = call.params.get("scope") or {}
            role = self.chats.get(int(scope.get("chat_id", 0) or 0), role)
            names = " ".join(f"/{c['command']}" for c in call.params.get("commands", []))
            if scope.get("type") == "chat":
                self.told(role, "Telegram menu", names)
        # Not printed: the answer to a button press (answerCallbackQuery) and the edit
        # of the question to show the button pressed (editMessageText): the press is.


def _buttons(call: Call) -> str:
    """The buttons under a message, as ``[label]``s (a long keyboard is counted)."""
    buttons = call.buttons
    markup = call.params.get("reply_markup") or {}
    keyboard = markup.get("keyboard", []) if isinstance(markup, dict) else []
    labels = [label for label, _ in buttons] + [b["text"] for row in keyboard for b in row]
    if not labels:
        return ""
    if len(labels) > 8:
        return f"\n[{len(labels)} buttons: {', '.join(labels[:6])}, …]"
    return "\n" + " ".join(f"[{label}]" for label in labels)
