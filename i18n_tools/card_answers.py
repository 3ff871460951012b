"""The answers on the owner's card (``docs/owners-card.md``), asked of poundbot itself.

Each language section of the card shows what an owner texts (``> **DUES KNM-1**``) and,
on the quoted lines under it, what poundbot answers. ``python -m i18n_tools.card_answers``
(run by ``make messages``) asks poundbot each of those commands and writes its answers
in: one scenario per language, through poundbot's composition root (``open_app``) on a
temporary SQLite file, with a fixed clock and the sample configuration; the keeper and
the officer write in the section's language (the demo's phrases, ``bot.demo.phrases``):

- KNM-1: a cow, with its owner's name and number, impounded on 1 March 2026;
- KNM-2: a buffalo and a goat seized at Kunnamangalam market that morning, owner unknown;
- KNM-3 and KNM-4: two cows each, impounded on 22 June. KNM-4 names the same owner; he
  refuses to pay, one cow is sold at the auction of 26 June, he refuses the account, the
  other cow is reported, noticed, offered on 8 July unsold and disposed of by the
  Director's order; the surplus is held in deposit (the demo's story,
  ``bot/demo/refusal.py``).

The owner asks by SMS, from his number, each command of the card in its section: those
about KNM-1 or KNM-2 or no case on 2 March at 18:10, those about KNM-3 or KNM-4 on
8 July at 12:00. Each answer is the SMS text, one quoted line per SMS when an answer is
sent as several (``dlt_probe.PART``). The command lines are the card's: change one there
(in every section) and run the module. ``tests/integration/test_card_answers.py`` fails
while the card differs from what poundbot answers.
"""

from __future__ import annotations

import asyncio
import functools
import re
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from bot.bootstrap import open_app
from bot.channels.identity import sender_of
from bot.config import Config, load_config, sample_config_path
from bot.conversation import orders as o
from bot.conversation.commands import ParseError, read_line
from bot.conversation.reply import handle_text
from bot.demo.phrases import Phrases, phrases
from bot.i18n.dlt_probe import PART
from bot.services.admin import add_user
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.languages import LANGUAGES
from bot.support.words import CONNECTIVES
from domain.calendar import LOCAL_TZ

__all__ = ["CARD", "CardError", "answers", "main", "questions", "regenerated", "rewritten"]

CARD: Final = Path(__file__).resolve().parents[1] / "docs" / "owners-card.md"

KEEPER: Final = "+919847000010"
OFFICER: Final = "+919847000020"
#: The owner of KNM-1 and KNM-4, who asks every question.
OWNER: Final = "+919847099999"

#: When the owner asks about a case (None: a question naming no case).
ASKED: Final[dict[str | None, datetime]] = {
    None: datetime(2026, 3, 2, 18, 10, tzinfo=LOCAL_TZ),
    "KNM-1": datetime(2026, 3, 2, 18, 10, tzinfo=LOCAL_TZ),
    "KNM-2": datetime(2026, 3, 2, 18, 10, tzinfo=LOCAL_TZ),
    "KNM-3": datetime(2026, 7, 8, 12, 0, tzinfo=LOCAL_TZ),
    "KNM-4": datetime(2026, 7, 8, 12, 0, tzinfo=LOCAL_TZ),
}

_SECTION: Final = re.compile(r"^## .*\{ \.language #(?P<lang>[a-z]+) \}[ \t]*$", re.M)
#: A command of the card (bold, two spaces: a line break) and the quoted lines under it.
_BLOCK: Final = re.compile(r"^> \*\*(?P<command>[^*\n]+)\*\*  \n(?P<answer>(?:>[^\n]*\n)*)", re.M)
#: What Markdown would read as markup in an answer.
_MARKUP: Final = re.compile(r"([\\`*_\[])")


class CardError(Exception):
    """The card asks what the scenario cannot answer."""


def questions(card: str) -> dict[str, list[str]]:
    """The commands of each language section of ``card``, in order."""
    heads = list(_SECTION.finditer(card))
    found: dict[str, list[str]] = {}
    for head, after in zip(heads, [*heads[1:], None], strict=True):
        end = after.start() if after else len(card)
        section = card[head.end() : end]
        found[head["lang"]] = [m["command"] for m in _BLOCK.finditer(section)]
    return found


def rewritten(card: str, answered: dict[tuple[str, str], str]) -> str:
    """``card`` with the answer to each command (``answered[lang, command]``, the SMS
    text) on the quoted lines under it."""
    heads = list(_SECTION.finditer(card))
    out = [card[: heads[0].start()] if heads else card]
    for head, after in zip(heads, [*heads[1:], None], strict=True):
        end = after.start() if after else len(card)

        def block(m: re.Match[str], lang: str = head["lang"]) -> str:
            command = m["command"]
            return f"> **{command}**  \n{_quoted(answered[lang, command])}"

        out.append(card[head.start() : head.end()])
        out.append(_BLOCK.sub(block, card[head.end() : end]))
    return "".join(out)


def _quoted(text: str) -> str:
    """An answer as quoted Markdown lines: one a line of each SMS, line breaks between."""
    lines = [line for part in text.split(PART) for line in part.splitlines() if line.strip()]
    marked = [re.sub(r"^(\d+)\. ", r"\1\\. ", _MARKUP.sub(r"\\\1", line)) for line in lines]
    marked = [line.replace("<", "&lt;") for line in marked]
    return "  \n".join(f"> {line}" for line in marked) + "\n"


@dataclass
class _Scene:
    """One language's scenario: the app, its clock and what its people write."""

    app: App
    clock: FixedClock
    p: Phrases

    def at(self, when: datetime) -> None:
        self.clock.set(when)

    async def say(self, phone: str, text: str, *, sms: bool = False) -> tuple[str, str]:
        """``text`` from ``phone`` (staff as in Telegram, the owner by SMS): the answer
        and its language."""
        async with self.app.store.transaction() as tx:
            caller = (await sender_of(tx, phone, "sms" if sms else "telegram")).caller
            reply = await handle_text(tx, self.app.deps, caller, text, sms=sms)
        return reply.text, reply.lang

    async def staff(self, phone: str, text: str, expect: str) -> None:
        """A keeper's or officer's line, which must answer with ``expect`` in it."""
        answer, _ = await self.say(phone, text)
        if expect not in answer:
            raise CardError(f"the scenario ({self.p.lang}) broke at {text!r}:\n{answer}")


@functools.cache
def _config() -> Config:
    """The sample configuration (its pound KNM, its authority KNM-GP, its tariff)."""
    return load_config(sample_config_path())


def _local(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=LOCAL_TZ)


async def _intake(s: _Scene) -> None:
    """KNM-1 (a cow, its owner's number) and KNM-2 (a buffalo and a goat), 1 March."""
    p, at = s.p, s.p.joiner
    s.at(_local(3, 1, 10, 30))
    owner = f"{at('owner')} {p.owner} {OWNER.removeprefix('+91')}"
    await s.staff(KEEPER, f"/seize 1 {p.cow} {at('at')} {p.place} {owner}; {p.cow_looks}", "KNM-1")
    s.at(_local(3, 1, 11, 15))
    await s.staff(KEEPER, f"/seize 1 buffalo 1 goat {at('at')} {p.place}; {p.pair_looks}", "KNM-2")


async def _refusal(s: _Scene) -> None:
    """KNM-3 and KNM-4 from 22 June; KNM-4 to the deposit of its surplus on 8 July."""
    p, at = s.p, s.p.joiner
    case = "KNM-4"
    s.at(_local(6, 22, 10))
    await s.staff(KEEPER, f"/seize 2 {p.cow} {at('at')} {p.place}", "KNM-3")
    owner = f"{at('owner')} {p.owner} {OWNER.removeprefix('+91')}"
    await s.staff(KEEPER, f"/seize 2 {p.cow} {at('at')} {p.place} {owner}", case)
    s.at(_local(6, 23, 11))
    await s.staff(KEEPER, f"/refused {case}", case)
    await s.staff(OFFICER, f"/auction {case} {at('on')} 26-06-2026 {at('at')} {p.place}", case)
    s.at(_local(6, 26, 11))
    buyer = f"{at('to')} {p.buffalo_buyer}, {p.place} DECLARED"
    await s.staff(OFFICER, f"/sold {case} 1 1 20000 {buyer}", case)
    await s.staff(OFFICER, f"/settle {case} 500", case)
    s.at(_local(6, 27, 10))
    await s.staff(OFFICER, f"/noreceipt {case}", case)
    s.at(_local(6, 30, 10))
    await s.staff(KEEPER, f"/report {case}", case)
    s.at(_local(6, 30, 16))
    await s.staff(OFFICER, f"/notice {case} {at('at')} {p.drum_at}", case)
    await s.staff(OFFICER, f"/auction {case} {at('on')} 08-07-2026 {at('at')} {p.place}", case)
    s.at(_local(7, 8, 11))
    await s.staff(OFFICER, f"/unsold {case} 1 1", case)
    by = CONNECTIVES["by"][p.lang][-1]  # the plain "by", not "seized by"
    order = f"{by} Director {at('ref')} DO-4/2026 {at('how')} goshala"
    await s.staff(OFFICER, f"/dispose {case} 1 1 1500 {order}", "DO-4/2026")
    await s.staff(OFFICER, f"/settle {case} 0", case)


#: The scenario: its steps, each with when it starts, in order of time.
_STEPS: Final[tuple[tuple[datetime, Callable[[_Scene], Awaitable[None]]], ...]] = (
    (_local(3, 1, 10, 30), _intake),
    (_local(6, 22, 10), _refusal),
)


def _when_asked(command: str, lang: str) -> datetime:
    """When the owner asks ``command``: on the day of the case it names."""
    try:
        order = read_line(command, _config(), ASKED[None].date()).order
    except ParseError as exc:
        raise CardError(f"{lang}: poundbot does not read {command!r} ({exc.code})") from None
    case = order.case if isinstance(order, o.CaseOrder) else None
    if case not in ASKED:
        known = ", ".join(str(c) for c in ASKED if c)
        raise CardError(f"{lang}: {command!r} asks about {case}; the scenario has {known}")
    return ASKED[case]


async def _ask(template: Path, lang: str, commands: list[str]) -> dict[tuple[str, str], str]:
    """The answers to ``commands`` in ``lang``'s scenario, on a copy of ``template``."""
    path = template.with_name(f"{lang}.sqlite3")
    shutil.copyfile(template, path)
    url = f"sqlite+aiosqlite:///{path}"
    clock = FixedClock(_local(3, 1, 9))
    moments = sorted({_when_asked(command, lang) for command in commands})
    answered: dict[tuple[str, str], str] = {}
    async with open_app(url=url, clock=clock, config=_config(), migrate=False) as app:
        async with app.store.transaction() as tx:
            system = Caller.system()
            await add_user(
                tx, app.deps, system, role="keeper", pound="KNM", phone=KEEPER, name="K", lang=lang
            )
            await add_user(
                tx,
                app.deps,
                system,
                role="officer",
                authority="KNM-GP",
                phone=OFFICER,
                name="O",
                lang=lang,
            )
        scene = _Scene(app, clock, phrases(lang))
        steps = list(_STEPS)
        for moment in moments:
            while steps and steps[0][0] < moment:
                await steps.pop(0)[1](scene)
            scene.at(moment)
            for command in commands:
                if _when_asked(command, lang) != moment:
                    continue
                text, said_in = await scene.say(OWNER, command, sms=True)
                if said_in != lang:
                    raise CardError(f"{lang}: {command!r} is answered in {said_in}")
                answered[lang, command] = text
    return answered


async def answers(asked: dict[str, list[str]]) -> dict[tuple[str, str], str]:
    """poundbot's SMS answer to each command of ``asked`` (by language):
    ``{(lang, command): text}``."""
    unknown = sorted(set(asked) - set(LANGUAGES))
    if unknown:
        raise CardError(f"the card has sections in {unknown}, not one of {LANGUAGES}")
    for lang, commands in asked.items():  # every command readable, before the work
        for command in commands:
            _when_asked(command, lang)
    answered: dict[tuple[str, str], str] = {}
    with tempfile.TemporaryDirectory(prefix="poundbot-card-") as folder:
        template = Path(folder) / "migrated.sqlite3"
        url = f"sqlite+aiosqlite:///{template}"
        async with open_app(url=url, config=_config(), migrate=True):
            pass
        for lang, commands in asked.items():
            answered |= await _ask(template, lang, commands)
    return answered


async def regenerated(card: str) -> str:
    """``card`` with poundbot's answers to its commands."""
    return rewritten(card, await answers(questions(card)))


def main(argv: list[str] | None = None) -> int:
    """Rewrite the answers of ``docs/owners-card.md`` (or the path given)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else CARD
    card = path.read_text(encoding="utf-8")
    try:
        new = asyncio.run(regenerated(card))
    except CardError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 1
    if new != card:
        path.write_text(new, encoding="utf-8")
        print(f"{path}: the answers rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
