"""The public notice board of an authority: its open s.13(2) notices, for anyone to read.

Only the public facts of a case (``bot.services.public.public_facts``): kinds, counts,
descriptions and the places (seized, of the auction) without names or telephone numbers,
the dates. Never a name or a phone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from bot.services.base import Deps, figures_for
from bot.services.public import PublicCase, public_facts
from bot.store.port import CaseStore
from bot.support.errors import UnknownPoundError
from bot.support.public_text import public_words
from domain.figures import Figures, lots_remaining
from domain.profiles import KERALA_1961, Profile
from domain.stages import Stage

__all__ = ["BoardNotice", "notice_board"]


@dataclass(frozen=True, slots=True)
class BoardNotice:
    """An open notice: the public facts of its case (its lots cut to the cattle still in
    the pound), the day posted, the auction fixed, and the case's figures of the day."""

    facts: PublicCase
    posted_on: date
    auction_on: date | None
    auction_place: str
    #: The owner refused the account and these cattle (s.15(5)): they go the s.13 way,
    #: and the owner may still claim them, paying what the earlier sale left unmet.
    refused_account: bool = False
    figures: Figures | None = None
    #: The Act the case is under, as in force on its impounding day (``Case.profile``):
    #: the notice cites its sections.
    act: Profile = KERALA_1961


#: The stages in which a case can have an s.13(2) notice open with cattle in the pound
#: (only these cases are rebuilt for the board, not every case in the pound).
_NOTICE_STAGES = [s.value for s in (Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING)]


async def notice_board(tx: CaseStore, deps: Deps, authority: str) -> list[BoardNotice]:
    """The notices of ``authority`` posted under s.13(2) whose cattle are still (partly)
    in the pound, oldest first; an unknown authority is refused."""
    if authority not in deps.config.authorities:
        raise UnknownPoundError("unknown authority", authority=authority)
    pounds = [p.code for p in deps.config.pounds.values() if p.authority == authority]
    out = []
    for loaded in await tx.cases_in_stage(pounds, _NOTICE_STAGES):
        case = loaded.case
        notice = case.notice
        figures = figures_for(deps, case)
        if notice is None or not figures.remaining:
            continue
        auction = case.scheduled_auction
        facts = public_facts(deps, loaded)
        out.append(
            BoardNotice(
                # The cattle still in the pound, as the notice states them (s.13(2)(a)).
                facts=replace(facts, lots=lots_remaining(facts.lots, figures), figures=figures),
                posted_on=notice.on,
                auction_on=auction.auction_on if auction else None,
                auction_place=public_words(auction.place, case.seizure) if auction else "",
                refused_account=case.deemed_unclaimed,
                figures=figures,
                act=case.profile,
            )
        )
    return sorted(out, key=lambda n: (n.posted_on, n.facts.number))
