"""The steps of the Act, gathered from the modules of their sections, where each is
declared once (``domain.step.Step``): the lookup the fold of a case (``domain.case``)
takes every step by. A new step is one declaration in its section's module (and that
module here, if it is new)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from domain import (
    s07_correction,
    s07_owners,
    s12_release,
    s13_3_proviso,
    s13_unclaimed,
    s14_deposit,
    s15_3_account,
    s15_sale,
    s16_s17_proceeds,
)
from domain.events import Event
from domain.step import Step

__all__ = ["DECLARED", "STEPS"]

#: The modules that declare steps, in the order of the Act.
_SECTIONS: Final = (
    s07_correction,
    s07_owners,
    s12_release,
    s13_unclaimed,
    s13_3_proviso,
    s14_deposit,
    s15_sale,
    s15_3_account,
    s16_s17_proceeds,
)

#: Every step, each with the module that declares it (a ``Step`` at its top level).
DECLARED: Final[tuple[tuple[Step[Any], str], ...]] = tuple(
    (value, module.__name__)
    for module in _SECTIONS
    for value in vars(module).values()
    if isinstance(value, Step)
)

#: The declaration of each kind of event.
STEPS: Final[Mapping[type[Event], Step[Any]]] = MappingProxyType(
    {step.event: step for step, _ in DECLARED}
)
