"""Domain events to JSON and back, for the audit log (``case_events.payload``)."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from domain import events as c
from domain.money import Money
from domain.profiles import Profile
from domain.steps import STEPS

__all__ = ["EVENT_TYPES", "act_of_intake", "dump_event", "load_event"]

#: Every kind of event, by its stored name: the event of each step the Act declares
#: (``domain.steps``).
EVENT_TYPES: dict[str, type[c.Event]] = {step.event.__name__: step.event for step in STEPS.values()}


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
    if isinstance(value, str):
        return str(value)  # the text (a configured name's other forms are not stored)
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


def act_of_intake(type_name: str, payload: dict[str, Any]) -> Profile:
    """The Act a case is under (``Case.profile``) from its first event, the intake
    (``Impounded``), which keeps it as it was in force on the impounding day: what a
    list of its rows speaks of the case in."""
    event = load_event(type_name, payload)
    assert isinstance(event, c.Impounded), type_name  # a case begins with its intake
    return event.seizure.profile
