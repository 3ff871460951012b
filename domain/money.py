"""Money in integer paise.

No sum is split in proportion anywhere: the proceeds of a sale meet the heads of dues
in a stated order (``domain.s15_sale.settle``), and each event's ledger legs add up to the
money it moved (``domain.accounts.Postings``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["Money", "total"]

# Rupees as written by people and in configuration: digits, at most two decimals.
_RUPEES = re.compile(r"^(-)?([0-9]{1,15})(?:\.([0-9]{1,2}))?$")
_DECIMALS = re.compile(r"^-?[0-9]{1,15}\.[0-9]{3,}$")


class Money:
    """An amount in integer paise (1 rupee = 100 paise). Never a float.

    A value: immutable, equal, ordered and hashed by its paise. It is written out, not a
    dataclass, because a dataclass compiles its generated methods when its module is
    imported and every configuration check (``poundbot config check``) imports this one.
    """

    __slots__ = ("paise",)
    __match_args__ = ("paise",)
    paise: int

    def __init__(self, paise: int) -> None:
        if not isinstance(paise, int) or isinstance(paise, bool):
            raise TypeError("money is integer paise")
        object.__setattr__(self, "paise", paise)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Money is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Money is immutable")

    def __reduce__(self) -> tuple[type[Money], tuple[int]]:
        return Money, (self.paise,)  # (pickle and copy: through __init__)

    def __repr__(self) -> str:
        return f"Money(paise={self.paise!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Money:
            return NotImplemented
        return self.paise == other.paise

    def __hash__(self) -> int:
        return hash((self.paise,))

    def __lt__(self, other: Money) -> bool:
        if other.__class__ is not Money:
            return NotImplemented
        return self.paise < other.paise

    def __le__(self, other: Money) -> bool:
        if other.__class__ is not Money:
            return NotImplemented
        return self.paise <= other.paise

    def __gt__(self, other: Money) -> bool:
        if other.__class__ is not Money:
            return NotImplemented
        return self.paise > other.paise

    def __ge__(self, other: Money) -> bool:
        if other.__class__ is not Money:
            return NotImplemented
        return self.paise >= other.paise

    @classmethod
    def zero(cls) -> Money:
        return cls(0)

    @classmethod
    def rupees(cls, amount: str | int) -> Money:
        """Parse rupees from text ("150", "150.50"); more than two decimals is an error."""
        if not isinstance(amount, str | int) or isinstance(amount, bool):
            raise TypeError("rupees are parsed from text or a whole number, never a float")
        text = str(amount).strip()
        match = _RUPEES.match(text)
        if match is None:
            if _DECIMALS.match(text):
                raise ValueError(f"an amount has at most two decimals: {amount!r}")
            raise ValueError(f"not an amount of rupees: {amount!r}")
        sign, whole, frac = match.groups()
        paise = int(whole) * 100 + int((frac or "").ljust(2, "0"))
        return cls(-paise if sign else paise)

    def __add__(self, other: Money) -> Money:
        return Money(self.paise + other.paise)

    def __sub__(self, other: Money) -> Money:
        return Money(self.paise - other.paise)

    def __mul__(self, times: int) -> Money:
        return Money(self.paise * times)

    __rmul__ = __mul__

    def __bool__(self) -> bool:
        return self.paise != 0

    @property
    def is_negative(self) -> bool:
        return self.paise < 0

    def __str__(self) -> str:
        sign = "-" if self.paise < 0 else ""
        whole, frac = divmod(abs(self.paise), 100)
        return f"{sign}Rs {whole}.{frac:02d}"


def total(amounts: Sequence[Money]) -> Money:
    """Sum of amounts (zero for none)."""
    return Money(sum(a.paise for a in amounts))
