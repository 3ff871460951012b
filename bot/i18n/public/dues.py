"""The lines of what is owed: fines (s.11), feeding and watering (s.4), sale expenses
(s.15(2)), each with its heads, days and rate; used by every reply that lists dues."""

from __future__ import annotations

from bot.i18n.catalogs import Translator
from bot.i18n.common import KindMap, kind_count, money
from domain.s04_s11_dues import Dues, DuesItem, DuesLine

__all__ = ["dues_line", "dues_lines"]


def dues_line(line: DuesLine, tr: Translator, kinds: KindMap | None = None) -> str:
    """One line of the dues with its provision: heads × (days ×) rate = amount."""
    values = {
        "cattle": kind_count(line.kind, line.heads, tr, kinds),
        "rate": money(line.rate, tr),
        "amount": money(line.amount, tr),
        "days": line.days,
    }
    if line.amount.is_negative:
        # TRANSLATORS: s.15(2), s.15(5) — in the settlement of a second sale: what the
        # proceeds of the first sale already met (a negative amount).
        met = tr.gettext("Met from the proceeds of the earlier sale (s.15(2)): %(amount)s")
        return met % values
    if line.item is DuesItem.FINE:
        # TRANSLATORS: s.11 — one line of the dues: heads x fine per head = amount.
        return tr.gettext("Fine (s.11): %(cattle)s × %(rate)s = %(amount)s") % values
    if line.item is DuesItem.FEEDING:
        # TRANSLATORS: s.4 — one line of the dues: heads x days x charge per head per
        # day = amount.
        text = tr.ngettext(
            "Feeding and watering (s.4): %(cattle)s × %(days)d day × %(rate)s = %(amount)s",
            "Feeding and watering (s.4): %(cattle)s × %(days)d days × %(rate)s = %(amount)s",
            line.days,
        )
        return text % values
    # TRANSLATORS: s.15(2) — the expenses of the sale, deducted from its proceeds.
    return tr.gettext("Expenses of sale (s.15(2)): %(amount)s") % values


def dues_lines(dues: Dues, tr: Translator, kinds: KindMap | None = None) -> list[str]:
    """Every line of ``dues``, in the domain's order (lot by lot)."""
    return [dues_line(line, tr, kinds) for line in dues.lines]
