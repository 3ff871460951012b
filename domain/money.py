"""Money in integer paise.

No sum is split in proportion anywhere: the proceeds of a sale meet the heads of dues
in a stated order (``domain.s15_sale.settle``), and each event's ledger legs add up to the
money it moved (``domain.ledger.Postings``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Money", "total"]

# Rupees as written by people and in configuration: digits, at most two decimals.
_RUPEES = re.compile(r"^(-)?([0-9]{1,15})(?:\.([0-9]{1,2}))?$")
_DECIMALS = re.compile(r"^-?[0-9]{1,15}\.[0-9]{3,}$")


@dataclass(frozen=True, order=True, slots=True)
class Money:
    """An amount in integer paise (1 rupee = 100 paise). Never a float."""

    paise: int

    def __post_init__(self) -> None:
        if not isinstance(self.paise, int) or isinstance(self.paise, bool):
            raise TypeError("money is integer paise")

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
