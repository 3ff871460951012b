"""The guided seizure report (s.7) on Telegram: one question at a time, with buttons.

    /seize -> kind -> count -> more? --another--> kind
                                     --go on--> description -> place [-> place name]
           -> photos -> seizer -> owner -> when -> seized -> confirm --fix--> fix -> <step>
                                  |                                  --confirm--> record_seizure
                                  --a different owner for each lot--> lot_owner (lot 1, 2, ...)

The owner typed at ``owner`` is the owner of every lot (the case's); with more than one
lot, the keeper may instead give each lot's owner in turn (``lot_owner``: typed, the same
as an earlier lot's, or not known), as ``SEIZE 1 cow OWNER ... 1 goat OWNER ...`` does.

Every step's state is kept in the chat's row of ``conversations`` (``ChatState``), so
the next update may reach another instance or a restarted one. Buttons carry stable
callback ids (``seize:kind:cow``, ``seize:skip``), never their translated labels; a
press that does not fit the current step is answered as stale and changes nothing.
The report ends in the same use case as the one-line SEIZE (``record_seizure``).
"""

from __future__ import annotations

from typing import Any, Final

from bot.channels.telegram.seize_record import (
    kind_of,
    lot_owner_of,
    now,
    owner_of,
    record,
    seized_of,
    when_of,
)
from bot.channels.telegram.seize_view import FIELDS, chosen, photo_buttons, prompt, report_tr
from bot.channels.telegram.turn import Turn
from bot.conversation.commands import ParseError
from bot.conversation.photos import Incoming, refused_text
from bot.i18n import render
from bot.i18n.chrome import telegram as text
from bot.store.rows import savepoint
from bot.support.caller import KEEPER
from bot.support.errors import AppError
from domain.errors import DomainError

__all__ = ["FLOW", "begin", "cancel", "on_button", "on_location", "on_photo", "on_text"]

FLOW: Final = "seize"

# The parts of the report in order, and the step that asks each.
_ORDER: Final = (
    "cattle",
    "description",
    "place",
    "photos",
    "seizer",
    "owner",
    "when",
    "seized",
    "confirm",
)
_FIRST_STEP: Final = {"cattle": "kind", "place": "place"}
# The button actions each step accepts ("cancel" is accepted at every step).
_ACTIONS: Final[dict[str, frozenset[str]]] = {
    "kind": frozenset({"kind"}),
    "count": frozenset({"count"}),
    "more": frozenset({"more", "next"}),
    "description": frozenset({"skip"}),
    "place_name": frozenset({"skip"}),
    "photos": frozenset({"done"}),
    "seizer": frozenset({"skip"}),
    "owner": frozenset({"skip", "owners"}),
    "lot_owner": frozenset({"same_owner", "no_owner"}),
    "when": frozenset({"now"}),
    "seized": frozenset({"same"}),
    "confirm": frozenset({"confirm", "fix"}),
    "fix": frozenset({"field", "back"}),
}
_MAX_FIELD: Final = 300
_MAX_PHOTOS: Final = 10  # a sane number for one report; PHOTO adds more later


def _new() -> dict[str, Any]:
    return {
        "step": "kind",
        "lots": [],
        "kind": None,
        "description": "",
        "place": "",
        "location": "",
        "photos": [],
        "seizer": "",
        "owner": "",
        "owner_phone": None,
        # Lots of different owners: [name, phone] (or None: not known) of each lot asked
        # so far; None: one owner of every lot (``owner``).
        "owners": None,
        "brought_at": None,
        "hour_known": True,
        "seized_on": None,
        "fixing": False,
    }


def _next(state: dict[str, Any], done: str) -> str:
    """The step after the part ``done``: the next part, or the summary when fixing."""
    if state.get("fixing"):
        return "confirm"
    part = _ORDER[_ORDER.index(done) + 1]
    return _FIRST_STEP.get(part, part)


async def _show(turn: Turn, state: dict[str, Any], note: str = "") -> None:
    question, inline, reply = prompt(turn, state)
    await turn.send(f"{note}\n\n{question}" if note else question, inline=inline, reply=reply)


# --- entering and leaving ---------------------------------------------------------------


async def begin(turn: Turn) -> None:
    """/seize with nothing after it: start a report, or show where the one begun stands."""
    if turn.caller.role != KEEPER or turn.caller.pound is None:
        await turn.send(render.not_allowed(turn.tr))
        return
    chat = await turn.chat()
    state = chat.data(FLOW)
    if state is not None:
        await _show(turn, state, note=text.in_progress(turn.tr))
        return
    state = _new()
    chat.put(FLOW, state)
    await _show(turn, state)


async def cancel(turn: Turn) -> bool:
    """Drop the report in progress; False if there was none."""
    chat = await turn.chat()
    if chat.data(FLOW) is None:
        return False
    chat.end()
    await turn.send(text.cancelled(turn.tr), remove_keyboard=True)
    return True


# --- answers -------------------------------------------------------------------------


async def on_button(
    turn: Turn, callback_id: str, data: str, message_id: int | None, shown: str
) -> None:
    """A button of the report was pressed on message ``message_id`` (showing ``shown``)."""
    chat = await turn.chat()
    state = chat.data(FLOW)
    _, action, arg = [*data.split(":", 2), "", ""][:3]
    if state is None or (action != "cancel" and action not in _ACTIONS.get(state["step"], ())):
        await turn.answer(callback_id, text.stale_button(turn.tr))
        return
    await turn.answer(callback_id)
    if message_id is not None:
        await turn.edit(message_id, chosen(turn, shown, action, arg))
    if action == "cancel":
        await cancel(turn)
        return
    if action == "confirm":
        await _confirm(turn, state)
        return
    _apply_button(turn, state, action, arg)
    chat.put(FLOW, state)
    await _show(turn, state)


def _apply_button(turn: Turn, state: dict[str, Any], action: str, arg: str) -> None:
    step = state["step"]
    if action == "kind" and arg in turn.deps.config.kinds:
        state["kind"], state["step"] = arg, "count"
    elif action == "count" and arg.isdecimal() and 1 <= int(arg) <= 10 and state.get("kind"):
        _add_lot(state, int(arg))  # the buttons say 1 to 10; a larger count is typed
    elif action == "more":
        state["step"] = "kind"
    elif action == "next":
        # Cattle fixed in a report whose lots had owners of their own: asked again.
        state["step"] = "owner" if state.pop("ask_owners", False) else _next(state, "cattle")
    elif action == "skip":
        part = {"description": "description", "place_name": "place"}.get(step, step)
        if step in ("description", "seizer"):
            state[step] = ""
        elif step == "owner":
            state["owner"], state["owner_phone"], state["owners"] = "", None, None
        state["step"] = _next(state, part)
    elif action == "owners" and len(state["lots"]) > 1:
        state["owner"], state["owner_phone"], state["owners"] = "", None, []
        state["step"] = "lot_owner"
    elif action == "same_owner" and arg.isdecimal():
        owners = state.get("owners") or []
        if 1 <= int(arg) <= len(owners) and owners[int(arg) - 1]:
            _add_owner(state, owners[int(arg) - 1])
    elif action == "no_owner":
        _add_owner(state, None)
    elif action == "done":
        state["step"] = _next(state, "photos")
    elif action == "now":
        state["brought_at"], state["hour_known"] = now(turn).isoformat(), True
        state["step"] = _next(state, "when")
    elif action == "same":
        state["seized_on"] = None
        state["step"] = _next(state, "seized")
    elif action == "fix":
        state["step"] = "fix"
    elif action == "back":
        state["step"] = "confirm"
    elif action == "field" and arg in FIELDS:
        _reopen(state, arg)


def _reopen(state: dict[str, Any], field: str) -> None:
    """Go back to ``field``; the summary follows it."""
    state["fixing"] = True
    if field == "cattle":
        state["lots"], state["kind"] = [], None
        if state.get("owners") is not None:  # the owners were of the lots as they were
            state["owners"], state["ask_owners"] = None, True
    elif field == "place":
        state["place"], state["location"] = "", ""
    elif field == "photos":
        state["photos"] = []
    state["step"] = _FIRST_STEP.get(field, field)


def _add_owner(state: dict[str, Any], owner: list[Any] | None) -> None:
    """The owner of the lot asked (``[name, phone]``, None: not known); after the last
    lot, the next part. Lots all of one owner are that owner's, the case's (or all of an
    owner not known: no owner given)."""
    owners = [*state["owners"], owner]
    if len(owners) < len(state["lots"]):
        state["owners"] = owners
        return
    if all(o == owners[0] for o in owners):
        state["owner"], state["owner_phone"] = owners[0] or ("", None)
        state["owners"] = None
    else:
        state["owners"] = owners
    state["step"] = _next(state, "owner")


def _add_lot(state: dict[str, Any], count: int) -> None:
    state["lots"] = [*state["lots"], [state["kind"], count]]
    state["kind"], state["step"] = None, "more"


async def on_text(turn: Turn, typed: str) -> None:
    """A typed answer to the current question."""
    chat = await turn.chat()
    state = chat.data(FLOW)
    assert state is not None
    step, value, tr = state["step"], typed.strip()[:_MAX_FIELD], turn.tr
    note = ""
    if step == "kind":
        kind = kind_of(turn, value)
        if kind is None:
            note = text.use_buttons(tr)
        else:
            state["kind"], state["step"] = kind, "count"
    elif step == "count":
        if value.isdecimal() and 1 <= int(value) <= 10_000:
            _add_lot(state, int(value))
        else:
            note = render.bad_count(value, tr)
    elif step in ("description", "seizer"):
        state[step] = value
        state["step"] = _next(state, step)
    elif step == "place":
        state["place"], state["location"] = value, ""
        state["step"] = _next(state, "place")
    elif step == "place_name":
        state["place"] = f"{value} ({state['location']})"
        state["step"] = _next(state, "place")
    elif step == "owner":
        try:
            state["owner"], state["owner_phone"] = owner_of(turn, value)
        except ParseError as exc:  # a number that is not a valid mobile: asked again
            note = render.parse_error(exc.code, exc.facts, tr)
        else:
            state["owners"] = None
            state["step"] = _next(state, "owner")
    elif step == "lot_owner":
        lot = len(state["owners"]) + 1
        try:
            owner = lot_owner_of(turn, lot, value)
        except ParseError as exc:  # no name, or not a mobile's number: asked again
            unnamed = exc.code == "lot_owner_without_name"
            note = (
                text.lot_owner_without_name(lot, tr)
                if unnamed
                else render.parse_error(exc.code, exc.facts, tr)
            )
        else:
            _add_owner(state, list(owner))
    elif step == "when":
        answer = when_of(turn, value)
        if answer is None:
            note = text.bad_when(value, tr)
        else:
            state["brought_at"], state["hour_known"] = answer[0].isoformat(), answer[1]
            state["step"] = _next(state, "when")
    elif step == "seized":
        seized = seized_of(turn, value)
        if seized is None:
            note = text.bad_seized(value, tr)
        else:
            state["seized_on"] = seized.isoformat()
            state["step"] = _next(state, "seized")
    else:
        note = text.use_buttons(tr)
    chat.put(FLOW, state)
    await _show(turn, state, note=note)


async def on_location(turn: Turn, latitude: float, longitude: float) -> None:
    """A shared location: the place of seizure, as "lat,lon" (a name may follow)."""
    chat = await turn.chat()
    state = chat.data(FLOW)
    assert state is not None
    if state["step"] != "place":
        await _show(turn, state, note=text.use_buttons(turn.tr))
        return
    point = f"{latitude:.5f},{longitude:.5f}"
    state["place"], state["location"], state["step"] = point, point, "place_name"
    chat.put(FLOW, state)
    await _show(turn, state)


async def on_photo(turn: Turn, picture: Incoming) -> None:
    """A photo of the cattle, downloaded and kept in the photo store
    (``photos.download``): the report keeps it for its case; a refused one is
    said so."""
    chat = await turn.chat()
    state = chat.data(FLOW)
    assert state is not None
    photos = list(state["photos"])
    note = ""
    if picture.kept is None:
        note = refused_text(picture.refused, len(photos) + 1, turn.deps, turn.tr)
    elif (
        all(not isinstance(p, dict) or p.get("key") != picture.source_key for p in photos)
        and len(photos) < _MAX_PHOTOS
    ):
        state["photos"] = [*photos, {"key": picture.source_key, **picture.kept.as_json()}]
    chat.put(FLOW, state)
    received = text.photos_received(len(state["photos"]), turn.tr)
    await turn.send(
        f"{note}\n\n{received}" if note else received,
        inline=photo_buttons(turn) if state["step"] == "photos" else (),
    )


async def _confirm(turn: Turn, state: dict[str, Any]) -> None:
    """Record the report; a refusal is told above the summary, and the report stays."""
    try:
        async with savepoint(turn.tx) as step:
            done = await record(turn, state)
            if done.refused:  # the dispatcher rolled the step back; so is this
                await step.rollback()
    except DomainError as exc:
        await _show(turn, state, note=render.error(exc, report_tr(turn, state)))
        return
    except AppError as exc:
        await _show(turn, state, note=render.app_error(exc, turn.tr))
        return
    if done.refused:
        await _show(turn, state, note=done.text)
        return
    (await turn.chat()).end()
    await turn.send(done.text, remove_keyboard=True)
