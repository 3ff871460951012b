"""Kinds of cattle (s.2(1)): configured data, not an enum frozen in code."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from domain.errors import UnknownKindError

__all__ = ["DEFAULT_KINDS", "Kind", "Kinds"]


class Kind(NamedTuple):
    """A kind of cattle as the tariff distinguishes it (a named tuple: every configuration
    check builds the kinds, and a dataclass is slow to define).

    ``code`` is stable (``cow``, ``calf``); ``adult`` names the adult kind of a young
    one (``calf`` -> ``cow``) where a tariff charges the young differently.
    """

    code: str
    name: str
    adult: str | None = None


class Kinds(Mapping[str, Kind]):
    """The configured kinds of cattle, looked up by code."""

    def __init__(self, kinds: Iterable[Kind]) -> None:
        self._by_code: dict[str, Kind] = {}
        for kind in kinds:
            if kind.code in self._by_code:
                raise ValueError(f"kind listed twice: {kind.code}")
            self._by_code[kind.code] = kind
        for kind in self._by_code.values():
            if kind.adult is not None and kind.adult not in self._by_code:
                raise ValueError(f"{kind.code}: adult kind {kind.adult} is not listed")

    def __getitem__(self, code: str) -> Kind:
        try:
            return self._by_code[code]
        except KeyError:
            raise UnknownKindError(f"not a kind of cattle here: {code}", "s.2(1)") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_code)

    def __len__(self) -> int:
        return len(self._by_code)


#: The kinds s.2(1) names, with young where tariffs commonly distinguish them.
DEFAULT_KINDS = Kinds(
    [
        Kind("cow", "cow"),
        Kind("ox", "ox"),
        Kind("bull", "bull"),
        Kind("calf", "calf", adult="cow"),
        Kind("buffalo", "buffalo"),
        Kind("buffalo_calf", "buffalo calf", adult="buffalo"),
        Kind("goat", "goat"),
        Kind("kid", "kid", adult="goat"),
        Kind("sheep", "sheep"),
        Kind("lamb", "lamb", adult="sheep"),
        Kind("pig", "pig"),
        Kind("horse", "horse"),
        Kind("pony", "pony"),
        Kind("colt", "colt", adult="horse"),
        Kind("mule", "mule"),
        Kind("ass", "ass"),
        Kind("camel", "camel"),
        Kind("elephant", "elephant"),
    ]
)
