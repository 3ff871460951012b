"""The s.13(2) notice and the script of its proclamation.

s.13(2): the local authority affixes in a conspicuous part of its office a notice
stating (a) the number and description of the cattle, (b) the place where they were
seized, (c) the place where they are impounded, and has it proclaimed by beat of drum
in the village and in the market place nearest to the place of seizure (the Kerala Act
as amended proclaims it there with no beat of drum: ``Profile.drum``). The heading
names the case's Act (``act_title``).
s.13(3): if the cattle are not claimed within seven days from the date of the notice
they are sold by public auction. "From" excludes the day of the notice (GCA s.8), so
the last day to claim is notice_on + 7 and the auction is lawful from the day after.

The notice is public: the descriptions it prints hold no name and no telephone number
(``public_lots``). ``notice_parts`` gives the notice as labelled parts; ``notice_text``
joins them as plain text and ``notice_html`` lays them out for printing.

Each round has its text (``Round``, chosen in one place: ``round_of``): the first, and
the round of cattle the owner refused with the account, deemed unclaimed (s.15(5)). The
proclamation is said aloud: the customary opening, each name after a label and a colon
(never with a case ending), the dates with the month in full (``fmt.spoken_date``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from enum import Enum
from typing import TYPE_CHECKING, Final

from bot.config.names import local
from bot.i18n import fmt
from bot.i18n.catalogs import Translator
from bot.i18n.common import KindMap, act_title, day, described_cattle, office_title
from bot.i18n.public.sms_fit import join
from bot.support.public_text import public_lots, public_place
from domain.case import Case
from domain.figures import Figures, lots_remaining
from domain.profiles import Office, Power
from domain.s07_seizure import Lot, Seizure
from domain.statement import dates_of

if TYPE_CHECKING:
    from bot.config import Authority, Pound

__all__ = [
    "NoticeParts",
    "Round",
    "notice_days",
    "notice_heading",
    "notice_parts",
    "notice_text",
    "proclamation_script",
    "round_of",
    "second_round_claim",
]


@dataclass(frozen=True, slots=True)
class NoticeParts:
    """The s.13(2) notice in one language, part by part."""

    lang: str
    heading: str
    authority: str
    reference: str
    intro: str
    items: tuple[tuple[str, str], ...]  # (label, value) for (a), (b), (c)
    warning: str
    claim: str
    proclaimed: str
    dated: str
    signature: str


def _lots_left(seizure: Seizure, case: Case) -> tuple[Lot, ...]:
    """The lots of ``seizure`` cut to the heads ``case`` has not sold or disposed of."""
    return tuple(
        replace(lot, count=case.remaining_heads(i))
        for i, lot in enumerate(seizure.lots)
        if case.remaining_heads(i)
    )


def pound_and_address(name: str, address: str) -> str:
    """The pound's name, then its address without the first parts the name already says
    (``Cattle Pound, behind the office …`` after ``… Cattle Pound``): s.13(2)(c)."""
    if not address.strip():
        return name
    parts = [part.strip() for part in address.split(",")]
    said = name.casefold()
    while len(parts) > 1 and parts[0].casefold() in said:
        parts.pop(0)
    return ", ".join([name, *parts])


def second_round_claim(tr: Translator) -> str:
    """How the owner may still claim cattle deemed unclaimed after a refused account,
    until a head of their sale is sold (s.12, s.15(2), s.16(3))."""
    # TRANSLATORS: s.12, s.15(2), s.16(3) — on the notice and the public board, cattle
    # the owner refused after a sale in part: the owner may still claim them, paying
    # what is owed less what the earlier sale met; that sale's balance is in deposit.
    return tr.gettext(
        "The owner or the owner's agent may claim them at the pound on paying the fines "
        "and charges still owed, less what the earlier sale met (s.12, s.15(2)); the "
        "balance of that sale is held in deposit (s.16(3))."
    )


def _signature(tr: Translator) -> str:
    """Who signs the notice: the office that posts it under the case's Act (s.13(2));
    ``%(signer)s`` is filled with its name."""
    office = tr.act.office_for(Power.POST_NOTICE)
    if office is Office.LOCAL_AUTHORITY:
        # TRANSLATORS: s.13(2) — who signs: the secretary of the local authority or the
        # officer the Director specifies.
        return tr.gettext("Secretary / authorised officer, %(authority)s")
    # TRANSLATORS: s.13(2) — who signs the notice under an Act that has it posted by
    # another office than the local authority (the Cattle-trespass Act, 1871: the
    # officer in charge of the nearest police station); %(signer)s is that office, as
    # "the officer in charge of the nearest police station" is translated.
    return tr.gettext("Signed by %(signer)s")


def notice_heading(tr: Translator) -> str:
    """The heading of the s.13(2) notice, naming the case's Act (``tr.act``)."""
    # TRANSLATORS: s.13(2) — heading of the notice affixed at the office of the local
    # authority. %(act)s is the short title of the case's Act, as you translate it
    # ("Kerala Cattle Trespass Act, 1961"; "Cattle-trespass Act, 1871").
    text = tr.gettext("Notice under s.13(2) of the %(act)s")
    return text % {"act": act_title(tr.act, tr)}


def notice_days(case: Case, notice_on: date, tr: Translator) -> dict[str, object]:
    """The case and the days a notice of ``notice_on`` states, as the domain gives them:
    the notice's day, the last day to claim and the first day of the auction (s.13(2),
    s.13(3))."""
    dates = dates_of(case, notice_on)  # the s.13(3) days of a notice of that day
    assert dates.notice_until is not None
    assert dates.auction_from is not None
    return {
        "case": case.number,
        "date": day(notice_on, tr),
        "last": day(dates.notice_until, tr),
        "from": day(dates.auction_from, tr),
    }


def _notice_lots(case: Case, seizure: Seizure, figures: Figures | None) -> tuple[Lot, ...]:
    """The cattle a notice states (s.13(2)(a)), in their public form: those the case's
    ``figures`` have in the pound (without them, as the case counts them)."""
    if figures is None:  # the heads not sold or disposed of, as the case counts them
        return public_lots(replace(seizure, lots=_lots_left(seizure, case)))
    return lots_remaining(public_lots(seizure), figures)


def notice_parts(
    case: Case,
    authority: Authority,
    pound: Pound,
    notice_on: date,
    tr: Translator,
    kinds: KindMap | None = None,
    *,
    figures: Figures | None = None,
) -> NoticeParts:
    """The parts of the s.13(2) notice of ``case``, dated ``notice_on``; with the case's
    ``figures``, item (a) states the cattle still in the pound."""
    seizure = case.seizure
    values = notice_days(case, notice_on, tr) | {
        "impounded": day(seizure.impounded_on, tr),
        "office": local(authority.office_address, tr.lang),
        "village": local(authority.village, tr.lang),
        "market": local(authority.market_place, tr.lang),
        "authority": local(authority.name, tr.lang),
        "signer": office_title(tr.act.office_for(Power.POST_NOTICE), tr),
    }
    # TRANSLATORS: s.13(2) — the reference of the notice: the case number.
    reference = tr.gettext("Case No. %(case)s") % values
    # TRANSLATORS: s.13(1), s.13(2) — opening sentence of the notice.
    intro = tr.gettext(
        "The cattle described below were impounded on %(impounded)s and have not been "
        "claimed within seven days (s.13(1))."
    )
    # TRANSLATORS: s.13(2)(a) — label; keep "(a)" as the Act labels it.
    a = tr.gettext("(a) Number and description of the cattle:")
    # TRANSLATORS: s.13(2)(b) — label; keep "(b)".
    b = tr.gettext("(b) Place where they were seized:")
    # TRANSLATORS: s.13(2)(c) — label; keep "(c)". The pound's name and address follow.
    c = tr.gettext("(c) Place where they are impounded:")
    # TRANSLATORS: s.13(3) — the warning of the notice: seven days from the date of the
    # notice, the last day to claim, and the first day of the public auction.
    warning = tr.gettext(
        "If the cattle are not claimed within seven days from the date of this notice, that "
        "is, on or before %(last)s, they will be sold by public auction on or after "
        "%(from)s (s.13(3))."
    )
    # TRANSLATORS: s.12 — how the owner claims them until then.
    claim = tr.gettext(
        "The owner or the owner's agent may claim them at the pound on paying the fines "
        "and the charges for feeding and watering (s.12)."
    )
    if round_of(case) is Round.AFTER_REFUSED_ACCOUNT:
        # TRANSLATORS: s.15(5), s.13(1) — opening sentence of the notice of cattle the
        # owner refused to receive after a sale in part: they are deemed unclaimed.
        intro = tr.gettext(
            "The cattle described below were impounded on %(impounded)s; the owner refused "
            "to receive them after a part of the cattle was sold, and they are deemed "
            "unclaimed (s.15(5))."
        )
        claim = second_round_claim(tr)
    if figures is not None and not figures.may_pay:
        claim = ""  # a head of the sale is sold: the cattle can no longer be claimed (s.13(3))
    if tr.act.drum:
        # TRANSLATORS: s.13(2) — where the notice is also proclaimed by beat of drum: the
        # village and the market place, listed after the colon (no case ending on a name).
        proclaimed = tr.gettext(
            "This notice is also proclaimed by beat of drum at these places: %(village)s; "
            "%(market)s (s.13(2))."
        )
    else:
        # TRANSLATORS: s.13(2) as amended — the same, under an Act whose proclamation has
        # no beat of drum (the Kerala Act as amended): do not name a drum.
        proclaimed = tr.gettext(
            "This notice is also proclaimed at these places: %(village)s; %(market)s (s.13(2))."
        )
    # TRANSLATORS: s.13(2) — the date of the notice and the office where it is affixed.
    dated = tr.gettext("Date of notice: %(date)s. Affixed at: %(office)s.")
    signature = _signature(tr)
    return NoticeParts(
        lang=tr.lang,
        heading=notice_heading(tr),
        authority=local(authority.name, tr.lang),
        reference=reference,
        intro=intro % values,
        items=(
            (a, described_cattle(_notice_lots(case, seizure, figures), tr, kinds)),
            (b, public_place(seizure)),
            (c, pound_and_address(local(pound.name, tr.lang), local(pound.address, tr.lang))),
        ),
        warning=warning % values,
        claim=claim,
        proclaimed=proclaimed % values,
        dated=dated % values,
        signature=signature % values,
    )


def notice_text(
    case: Case,
    authority: Authority,
    pound: Pound,
    notice_on: date,
    tr: Translator,
    *,
    figures: Figures | None = None,
) -> str:
    """The s.13(2) notice as plain text, to affix at the office (s.13(2))."""
    parts = notice_parts(case, authority, pound, notice_on, tr, figures=figures)
    return join(
        [
            parts.heading,
            parts.authority,
            parts.reference,
            parts.intro,
            *(f"{label} {value}" for label, value in parts.items),
            parts.warning,
            parts.claim,
            parts.proclaimed,
            parts.dated,
            parts.signature,
        ],
        sms=False,
    )


class Round(Enum):
    """The round a notice and its proclamation belong to: each has its own text."""

    #: s.13(2): cattle not claimed within seven days of impounding.
    FIRST = "s.13(2)"
    #: s.15(5): the owner refused the account after a sale in part; the cattle left are
    #: deemed unclaimed and proclaimed again, the owner still free to pay (s.12).
    AFTER_REFUSED_ACCOUNT = "s.15(5)"


def round_of(case: Case) -> Round:
    """The round ``case`` is proclaimed in: the one place a proclamation's text is chosen."""
    return Round.AFTER_REFUSED_ACCOUNT if case.deemed_unclaimed else Round.FIRST


def _spoken_first(tr: Translator) -> tuple[str, str]:
    # TRANSLATORS: s.13(2), s.13(3) — the proclamation read aloud (after the beat of drum,
    # where the Act has one), in the customary opening of a public proclamation; spoken
    # words, no citations. Each name after a label and a colon, never with a case ending;
    # the dates are said aloud.
    spoken = tr.gettext(
        "It is hereby made known to all, by order of %(authority)s: the cattle below have "
        "been seized and are kept in the pound. Cattle: %(cattle)s. Place of seizure: "
        "%(place)s. Pound: %(pound)s. A notice of this was affixed on %(date)s. If the owner "
        "does not claim them on or before %(last)s, they will be sold by public auction on "
        "or after %(from)s."
    )
    # TRANSLATORS: s.12 — the proclamation's last sentence: how the owner takes the
    # cattle back until the auction. Spoken words, no citation.
    claim = tr.gettext(
        "Until then the owner may pay the fines and charges at the pound and take them back."
    )
    return spoken, claim


def _spoken_after_refused_account(tr: Translator) -> tuple[str, str]:
    # TRANSLATORS: s.15(5), s.13(3) — the proclamation of the cattle the owner refused to
    # take back with the account of a sale in part: they are deemed unclaimed. The same
    # opening and labels as the first proclamation; spoken words, no citations.
    spoken = tr.gettext(
        "It is hereby made known to all, by order of %(authority)s: of the cattle seized "
        "and kept in the pound, a part has been sold by public auction; the owner refused "
        "to take back the rest, and the cattle below are therefore deemed unclaimed. "
        "Cattle: %(cattle)s. Place of seizure: %(place)s. Pound: %(pound)s. A notice of "
        "this was affixed on %(date)s. If the owner does not claim them on or before "
        "%(last)s, they will be sold by public auction on or after %(from)s."
    )
    # TRANSLATORS: s.12, s.15(2) — the last sentence of that proclamation: the owner may
    # still take the cattle, paying what is owed less what the earlier sale met.
    claim = tr.gettext(
        "Until then the owner may still pay at the pound what is owed, less what the "
        "earlier sale met, and take them back."
    )
    return spoken, claim


#: The proclamation of each round: its spoken text and its sentence on claiming.
_SPOKEN: Final[Mapping[Round, Callable[[Translator], tuple[str, str]]]] = {
    Round.FIRST: _spoken_first,
    Round.AFTER_REFUSED_ACCOUNT: _spoken_after_refused_account,
}


def proclamation_script(
    case: Case,
    authority: Authority,
    pound: Pound,
    notice_on: date,
    tr: Translator,
    *,
    figures: Figures | None = None,
) -> str:
    """What is read aloud in the village and the nearest market (s.13(2)), after the
    beat of drum where the case's Act has one: the text of the case's round
    (``round_of``), the dates as they are said aloud; without the sentence on claiming
    once a head of the round is sold (``figures.may_pay``)."""
    seizure = case.seizure
    dates = dates_of(case, notice_on)  # the s.13(3) days of a notice of that day
    assert dates.notice_until is not None
    assert dates.auction_from is not None
    values = {
        "village": local(authority.village, tr.lang),
        "market": local(authority.market_place, tr.lang),
        "authority": local(authority.name, tr.lang),
        "cattle": described_cattle(_notice_lots(case, seizure, figures), tr),
        "place": public_place(seizure),
        "pound": local(pound.name, tr.lang),
        "date": fmt.spoken_date(notice_on, tr.lang),
        "last": fmt.spoken_date(dates.notice_until, tr.lang),
        "from": fmt.spoken_date(dates.auction_from, tr.lang),
    }
    if tr.act.drum:
        # TRANSLATORS: s.13(2) — a line for the drummer: where to read the proclamation,
        # the places listed after the colon.
        where = tr.gettext(
            "Proclamation by beat of drum (s.13(2)), case %(case)s. To be read at: "
            "%(village)s; %(market)s."
        )
    else:
        # TRANSLATORS: s.13(2) as amended — a line for whoever reads the proclamation
        # aloud, under an Act with no beat of drum (the Kerala Act as amended): do not
        # name a drum.
        where = tr.gettext(
            "Proclamation (s.13(2)), case %(case)s. To be read at: %(village)s; %(market)s."
        )
    spoken, claim = _SPOKEN[round_of(case)](tr)
    said = spoken % values
    if figures is None or figures.may_pay:
        said = f"{said} {claim}"
    return join([where % (values | {"case": case.number}), said], sms=False)
