"""The questions of the guided seizure report and their buttons.

Each step has one question; its buttons carry stable callback ids (``seize:kind:cow``,
``seize:count:2``, ``seize:skip`` ...). The place of seizure is asked with the reply
keyboard's "share location" button, the only one Telegram lets a bot ask a location with.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Final

from bot.channels.telegram.outbox import Button, Keyboard
from bot.channels.telegram.turn import Turn
from bot.i18n import Translator, fmt, render
from bot.i18n.chrome import telegram as text
from bot.services.base import act_of_case
from domain.s07_seizure import Lot

__all__ = ["FIELDS", "brought_at", "chosen", "photo_buttons", "prompt", "report_tr"]

#: The parts of a report that "Fix" offers, by stable id.
FIELDS: Final = ("cattle", "description", "place", "photos", "seizer", "owner", "when", "seized")
# The label of the button each action stands for (in the answered message).
_ACTION_LABEL: Final = {
    "more": "another",
    "next": "go_on",
    "skip": "skip",
    "done": "done",
    "now": "now",
    "same": "same_day",
    "confirm": "confirm",
    "fix": "fix",
    "back": "back",
    "cancel": "cancel",
    "owners": "owners",
    "no_owner": "no_owner",
}
#: The most "Same owner as lot n" buttons a lot's question shows (one per owner given).
_MOST_SAME: Final = 6
# Steps whose question has one button beside Cancel: (question, label, action).
_SIMPLE: Final = {
    "description": (text.ask_description, "skip", "skip"),
    "place_name": (text.ask_place_name, "skip", "skip"),
    "photos": (text.ask_photos, "done", "done"),
    "seizer": (text.ask_seizer, "skip", "skip"),
    "owner": (text.ask_owner, "skip", "skip"),
    "when": (text.ask_when, "now", "now"),
    "seized": (text.ask_seized, "same_day", "same"),
}


def _button(turn: Turn, key: str, action: str) -> Button:
    return Button(text.label(key, turn.tr), f"seize:{action}")


def _rows(buttons: list[Button], width: int) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def brought_at(state: dict[str, Any]) -> datetime | None:
    """When the cattle were brought in, as answered (local, naive), or None."""
    value = state.get("brought_at")
    return datetime.fromisoformat(value) if value else None


def report_tr(turn: Turn, state: dict[str, Any]) -> Translator:
    """The turn's translator in the words of the Act the report's case will be under:
    the one in force for the keeper's pound's authority on the day brought (today, until
    it is answered), as the intake gives it (``under_its_act``)."""
    when = brought_at(state)
    day = when.date() if when is not None else turn.deps.today()
    return turn.tr.under(act_of_case(turn.deps.config, turn.caller.pound or "", day))


def _cattle(turn: Turn, state: dict[str, Any]) -> str:
    lots = [Lot(kind, count) for kind, count in state["lots"]]
    return render.cattle(lots, turn.tr, turn.deps.config.kinds)


def _lot_cattle(turn: Turn, state: dict[str, Any], index: int) -> str:
    """The cattle of the lot at ``index``, as in "1 goat"."""
    kind, count = state["lots"][index]
    return render.cattle([Lot(kind, count)], turn.tr, turn.deps.config.kinds)


def _person(owner: Any) -> str:
    """An owner as the summary shows them: name and number (``[name, phone]``)."""
    return " ".join(p for p in owner or () if p)


def _owner_lines(turn: Turn, state: dict[str, Any]) -> list[tuple[str, str]]:
    """The summary's owner: one line, or a line of each lot's when they have their own."""
    owners = state.get("owners")
    if owners is None:
        return [(text.label("owner", turn.tr), _person([state["owner"], state["owner_phone"]]))]
    return [
        (text.owner_of_lot(i + 1, _lot_cattle(turn, state, i), turn.tr), _person(owner))
        for i, owner in enumerate(owners)
    ]


def _summary(turn: Turn, state: dict[str, Any]) -> str:
    tr, missing = turn.tr, text.not_given(turn.tr)
    when = brought_at(state)
    if when is not None and not state.get("hour_known", True):
        shown_when = fmt.date(when.date(), tr.lang)
    else:
        shown_when = fmt.datetime(when, tr.lang) if when else ""
    seized = state.get("seized_on")
    lines = [
        (text.label("cattle", tr), _cattle(turn, state)),
        (text.label("description", tr), state["description"]),
        (text.label("place", tr), state["place"]),
        (text.label("photos", tr), str(len(state["photos"])) if state["photos"] else ""),
        (text.label("seizer", tr), state["seizer"]),
        *_owner_lines(turn, state),
        (text.label("when", tr), shown_when),
        (
            text.label("seized", tr),
            fmt.date(date.fromisoformat(seized), tr.lang) if seized else text.label("same_day", tr),
        ),
    ]
    return text.summary([(k, v or missing) for k, v in lines], tr)


def prompt(turn: Turn, state: dict[str, Any]) -> tuple[str, Keyboard, Keyboard]:
    """The question of the current step, its inline buttons, and its reply keyboard."""
    tr, step, kinds = report_tr(turn, state), state["step"], turn.deps.config.kinds
    cancel = (_button(turn, "cancel", "cancel"),)
    if step == "kind":
        buttons = [Button(text.kind_name(c, tr, kinds), f"seize:kind:{c}") for c in kinds]
        return text.ask_kind(tr), (*_rows(buttons, 3), cancel), ()
    if step == "count":
        numbers = [Button(str(n), f"seize:count:{n}") for n in range(1, 11)]
        question = text.ask_count(text.kind_name(state["kind"], tr, kinds), tr)
        return question, (*_rows(numbers, 5), cancel), ()
    if step == "more":
        more = (_button(turn, "another", "more"), _button(turn, "go_on", "next"))
        return text.ask_more(_cattle(turn, state), tr), (more, cancel), ()
    if step == "place":
        share = ((Button(text.label("location", tr), location=True),),)
        return text.ask_place(tr), (), share
    if step == "confirm":
        confirm = (_button(turn, "confirm", "confirm"), _button(turn, "fix", "fix"))
        return _summary(turn, state), (confirm, cancel), ()
    if step == "fix":
        fields = [Button(text.label(f, tr), f"seize:field:{f}") for f in FIELDS]
        back = (_button(turn, "back", "back"),)
        return text.ask_fix(tr), (*_rows(fields, 2), back), ()
    if step == "lot_owner":
        return _lot_owner(turn, state, tr), (*_owner_buttons(turn, state), cancel), ()
    ask, key, action = _SIMPLE[step]
    if step == "owner" and len(state["lots"]) > 1:  # or each lot's owner in turn
        both = (_button(turn, key, action), _button(turn, "owners", "owners"))
        return ask(tr), (both, cancel), ()
    return ask(tr), ((_button(turn, key, action),), cancel), ()


def _lot_owner(turn: Turn, state: dict[str, Any], tr: Translator) -> str:
    """Whose is the next lot whose owner is not given yet."""
    index = len(state["owners"])
    return text.ask_lot_owner(index + 1, _lot_cattle(turn, state, index), tr)


def _owner_buttons(turn: Turn, state: dict[str, Any]) -> list[tuple[Button, ...]]:
    """Under a lot's owner: "Same owner as lot n" for each owner given so far (the first
    lot of each), and "Owner not known"."""
    firsts: dict[tuple[str, ...], int] = {}
    for i, owner in enumerate(state["owners"]):
        if owner:
            firsts.setdefault(tuple(p or "" for p in owner), i + 1)
    same = [
        Button(text.same_owner(n, turn.tr), f"seize:same_owner:{n}")
        for n in list(firsts.values())[:_MOST_SAME]
    ]
    return [*_rows(same, 2), (_button(turn, "no_owner", "no_owner"),)]


def photo_buttons(turn: Turn) -> Keyboard:
    """Under "n photos received": Done, Cancel."""
    return ((_button(turn, "done", "done"),), (_button(turn, "cancel", "cancel"),))


def chosen(turn: Turn, shown: str, action: str, arg: str) -> str:
    """The pressed message as it stays: its question, the answer under it, no buttons."""
    tr = turn.tr
    if action == "kind":
        answer = text.kind_name(arg, tr, turn.deps.config.kinds)
    elif action == "count":
        answer = arg
    elif action == "field":
        answer = text.label(arg, tr) if arg in FIELDS else arg
    elif action == "same_owner":
        answer = text.same_owner(int(arg), tr) if arg.isdecimal() else arg
    else:
        answer = text.label(_ACTION_LABEL[action], tr)
    return f"{shown}\n→ {answer}" if shown else f"→ {answer}"
