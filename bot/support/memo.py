"""Values made from immutable objects, kept by the objects' identity.

A case whose fold is kept (``bot.store.case_cache``) is the same object from one answer
to the next: what is made from it alone (its statement of a day, the reply rendered
from that statement) is made once and read again. The objects are compared by
identity, never by value (comparing a case of 200 events costs more than its
statement); each entry holds its objects, so that their ids cannot name other
objects while it is kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

V = TypeVar("V")


class Memo(Generic[V]):
    """At most ``size`` values, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[tuple[object, ...], V]] = OrderedDict()

    def get(self, objects: tuple[object, ...], extra: Hashable, make: Callable[[], V]) -> V:
        """The value made from ``objects`` (immutable, by identity) and ``extra`` (by
        value): kept, or made by ``make`` now and kept."""
        key = (tuple(id(o) for o in objects), extra)
        found = self._kept.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], objects, strict=True)):
            self._kept.move_to_end(key)
            return found[1]
        value = make()
        self._kept[key] = (objects, value)
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        self._kept.clear()
