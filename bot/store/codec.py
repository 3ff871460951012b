"""Domain events to JSON and back, for the audit log (``case_events.payload``)."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from datetime import date, datetime
from typing import Any

from domain import case as c
from domain.money import Money

__all__ = ["EVENT_TYPES", "dump_event", "load_event"]

EVENT_TYPES: dict[str, type[c.Event]] = {
    cls.__name__: cls
    for cls in (
        c.Impounded,
        c.SeizureCorrected,
        c.CaseVoided,
        c.ClaimedAndPaid,
        c.DeliveredOnDeposit,
        c.DepositOutcome,
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


def _load(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _load(inner[0], value)
    if origin is tuple:
        (inner, _ellipsis) = typing.get_args(tp)
        return tuple(_load(inner, v) for v in value)
    if tp is Money:
        return Money(int(value))
    if tp is datetime:
        return datetime.fromisoformat(value)
    if tp is date:
        return date.fromisoformat(value)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        # A field added later is absent from older payloads: its default applies.
        return tp(**{name: _load(hint, value[name]) for name, hint in _fields(tp) if name in value})
    return value


def dump_event(event: c.Event) -> tuple[str, dict[str, Any]]:
    """The event's type name and a JSON-safe payload."""
    payload = _dump(event)
    assert isinstance(payload, dict)
    return type(event).__name__, payload


def load_event(type_name: str, payload: dict[str, Any]) -> c.Event:
    """The event back from its type name and payload."""
    event = _load(EVENT_TYPES[type_name], payload)
    assert isinstance(event, c.Event)
    return event
