"""The heads of dues the Act names: the fine (s.11), the charge for feeding and watering
(s.4, s.12) and the expenses of sale (s.15(2)); the s.15(2) order of deductions and the
configuration name them. A module of its own so that what reads them (the configuration)
need not load the case."""

from __future__ import annotations

import enum

__all__ = ["DuesItem"]


class DuesItem(enum.Enum):
    """The heads of dues the Act names."""

    FINE = "fine"  # s.11
    FEEDING = "feeding"  # s.4, s.12
    SALE_EXPENSES = "sale_expenses"  # s.15(2)
