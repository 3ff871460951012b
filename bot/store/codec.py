"""Domain events to JSON and back, for the audit log (``case_events.payload``), and the
snapshot of a folded case (``cases.snapshot``)."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from domain import case as c
from domain.money import Money

__all__ = ["EVENT_TYPES", "SNAPSHOT_VERSION", "dump_case", "dump_event", "load_case", "load_event"]

EVENT_TYPES: dict[str, type[c.Event]] = {
    cls.__name__: cls
    for cls in (
        c.Impounded,
        c.SeizureCorrected,
        c.CaseVoided,
        c.ClaimedAndPaid,
        c.DeliveredOnDeposit,
        c.DepositOutcome,
        c.DepositRefunded,
        c.ReportedUnclaimed,
        c.NoticePosted,
        c.OwnerRefusedToPay,
        c.AuctionScheduled,
        c.LotOffered,
        c.DisposedOtherwise,
        c.SaleClosed,
        c.SaleExpensesStated,
        c.AccountDelivered,
        c.AccountRefused,
        c.DepositClaimed,
        c.ClaimPreferred,
        c.ClaimRejected,
        c.CreditedToFund,
    )
}


def _dump(value: Any) -> Any:
    if isinstance(value, Money):
        return value.paise
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_dump(v) for v in value]
    return value


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's field names with their resolved types (resolving is slow: once)."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


@functools.cache
def _loader(tp: Any) -> Callable[[Any], Any]:
    """The function that reads a JSON value back as ``tp``, built once per type: a case
    of many events is loaded without inspecting the types again for each value."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        some = _loader(inner[0])
        return lambda value: None if value is None else some(value)
    if origin is tuple:
        (inner_tp, _ellipsis) = typing.get_args(tp)
        each = _loader(inner_tp)
        return lambda value: tuple(each(v) for v in value)
    if tp is Money:
        return lambda value: Money(int(value))
    if tp is datetime:
        return datetime.fromisoformat
    if tp is date:
        return date.fromisoformat
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        fields = tuple((name, _loader(hint)) for name, hint in _fields(tp))
        cls = tp

        def load(value: Any) -> Any:
            if "$" in value:  # a value written once in a snapshot's pool (``dump_case``)
                return _pooled(cls, value["$"])
            # A field added later is absent from older payloads: its default applies.
            return cls(**{name: read(value[name]) for name, read in fields if name in value})

        return load
    return lambda value: value


def dump_event(event: c.Event) -> tuple[str, dict[str, Any]]:
    """The event's type name and a JSON-safe payload."""
    payload = _dump(event)
    assert isinstance(payload, dict)
    return type(event).__name__, payload


def load_event(type_name: str, payload: dict[str, Any]) -> c.Event:
    """The event back from its type name and payload."""
    tp: Any = EVENT_TYPES[type_name]
    event = _loader(tp)(payload)
    assert isinstance(event, c.Event)
    return event


#: The version of the snapshot encoding and of the fold it records: raise it whenever
#: an event, the case or ``Case.replay`` changes, so that older snapshots are ignored
#: and their cases replayed (and the snapshot written again).
SNAPSHOT_VERSION = 1

#: The pool of the snapshot being read (``load_case`` is synchronous: one at a time).
_POOL: list[list[Any]] = []


def _pooled(cls: type, index: int) -> Any:
    entry = _POOL[-1][index]
    if isinstance(entry, tuple):  # decoded already
        return entry[1]
    value = _loader(cls)(entry)
    _POOL[-1][index] = (None, value)
    return value


def dump_case(case: c.Case, last_seq: int) -> dict[str, Any]:
    """The snapshot of a folded case as of its event ``last_seq``: its stage and events,
    each seizure (and other record written again unchanged by a correction) once."""
    pool: list[Any] = []
    index: dict[Any, int] = {}

    def interned(value: Any) -> Any:
        if isinstance(value, c.Seizure):
            if value not in index:
                index[value] = len(pool)
                pool.append(_dump(value))
            return {"$": index[value]}
        return _dump(value)

    events = []
    for event in case.events:
        payload = {f.name: interned(getattr(event, f.name)) for f in dataclasses.fields(event)}
        events.append([type(event).__name__, payload])
    return {
        "v": SNAPSHOT_VERSION,
        "last": last_seq,
        "number": case.number,
        "stage": case.stage.value,
        "seizure": interned(case.seizure),
        "pool": pool,
        "events": events,
    }


def load_case(snapshot: dict[str, Any] | None, last_seq: int) -> c.Case | None:
    """The case a snapshot records, or None when there is none usable: of another
    version, or not as of the case's last event ``last_seq`` (then the case is replayed)."""
    if not snapshot or snapshot.get("v") != SNAPSHOT_VERSION or snapshot.get("last") != last_seq:
        return None
    _POOL.append(list(snapshot["pool"]))
    try:
        events = tuple(load_event(t, p) for t, p in snapshot["events"])
        seizure = _pooled(c.Seizure, snapshot["seizure"]["$"])
    finally:
        _POOL.pop()
    return c.Case(
        number=snapshot["number"], seizure=seizure, stage=c.Stage(snapshot["stage"]), events=events
    )
