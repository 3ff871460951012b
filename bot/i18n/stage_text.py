"""Where a case stands, and since when, in one sentence citing its provision: the reason a
refusal gives ("the cattle were released to the owner on 5 Mar 2026 (s.12)") rather
than only "not allowed at the present stage"."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import day
from domain.case import Case
from domain.stages import Stage

__all__ = ["case_sentence", "stage_sentence"]

_SENTENCES: Final[dict[Stage, Callable[[Translator], str]]] = {
    # TRANSLATORS: s.13(1) — why a step is refused: the cattle are in the pound and
    # have not been reported unclaimed.
    Stage.IMPOUNDED: lambda tr: tr.gettext(
        "The cattle are in the pound since %(date)s and have not been reported unclaimed (s.13(1))."
    ),
    # TRANSLATORS: s.12 — why a step is refused: the owner paid and took the cattle.
    Stage.RELEASED: lambda tr: tr.gettext(
        "The cattle were released to the owner on %(date)s (s.12)."
    ),
    # TRANSLATORS: s.14 — why a step is refused: the owner deposited the dues while
    # disputing the seizure and took the cattle.
    Stage.ON_DEPOSIT: lambda tr: tr.gettext(
        "The cattle were delivered to the owner on a deposit on %(date)s (s.14)."
    ),
    # TRANSLATORS: s.13(1), s.13(2) — why a step is refused: reported, no notice yet.
    Stage.REPORTED: lambda tr: tr.gettext(
        "The cattle were reported unclaimed on %(date)s; no notice has been posted (s.13(2))."
    ),
    # TRANSLATORS: s.13(2) — why a step is refused: the notice is posted.
    Stage.NOTICE_POSTED: lambda tr: tr.gettext("The notice was posted on %(date)s (s.13(2))."),
    # TRANSLATORS: s.15(1) — why a step is refused: the owner refused to pay.
    Stage.OWNER_REFUSED: lambda tr: tr.gettext(
        "The owner refused to pay on %(date)s; the cattle are to be sold (s.15(1))."
    ),
    # TRANSLATORS: s.13(3), s.15(1) — why a step is refused: the sale has begun.
    Stage.SELLING: lambda tr: tr.gettext("The sale began on %(date)s (s.13(3), s.15(1))."),
    # TRANSLATORS: s.15(3) — why a step is refused: the sale is settled and the account
    # awaits the owner.
    Stage.ACCOUNT_DUE: lambda tr: tr.gettext(
        "The sale was settled on %(date)s; the account awaits the owner (s.15(3))."
    ),
    # TRANSLATORS: s.15(5) — why a step is refused: the owner refused the account and the
    # cattle left are deemed unclaimed (they go the s.13 way: report, notice, auction).
    Stage.DEEMED_UNCLAIMED: lambda tr: tr.gettext(
        "The owner refused the account on %(date)s: the cattle left are deemed unclaimed (s.15(5))."
    ),
    # TRANSLATORS: s.16(3) — why a step is refused: the balance is held in deposit.
    Stage.IN_DEPOSIT: lambda tr: tr.gettext(
        "The balance of the sale is held in deposit since %(date)s (s.16(3))."
    ),
    # TRANSLATORS: why a step is refused: the case is over.
    Stage.CLOSED: lambda tr: tr.gettext("The case was closed on %(date)s."),
    # TRANSLATORS: s.7 — why a step is refused: the case was entered by mistake and voided.
    Stage.VOIDED: lambda tr: tr.gettext(
        "The case was voided on %(date)s as entered by mistake (s.7)."
    ),
}


#: The sale begun, by the provision of its route.
_SALE_BEGUN: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: s.13(3) — where the case stands: the sale of the unclaimed cattle by
    # public auction has begun.
    "s.13(3)": lambda tr: tr.gettext("The sale began on %(date)s (s.13(3))."),
    # TRANSLATORS: s.15(1) — where the case stands: the owner refused or omitted to pay,
    # and the sale of as many of the cattle as necessary has begun.
    "s.15(1)": lambda tr: tr.gettext("The sale began on %(date)s (s.15(1))."),
}


def stage_sentence(stage: Stage, since: date, tr: Translator, sale: str | None = None) -> str:
    """Where a case stands and since when, citing the provision of its stage; a sale
    under way cites its route's (``sale``: s.13(3) or s.15(1)) when it is known."""
    said = _SALE_BEGUN.get(sale or "") if stage is Stage.SELLING else None
    return (said or _SENTENCES[stage])(tr) % {"date": day(since, tr)}


def case_sentence(case: Case, tr: Translator) -> str:
    """Where ``case`` stands and since when, citing the provision of its stage and, for
    a sale under way, of its route (s.13(3) or s.15(1))."""
    return stage_sentence(case.stage, case.stage_since, tr, case.sale_provision)
