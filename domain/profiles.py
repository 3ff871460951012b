"""The Acts poundbot applies, each as a profile: the sections of its own that answer to
each step, the office that holds each power, and what differs in money and procedure.

The engine speaks of the steps by the Kerala Act of 1961 (``s.13(1)``, ``s.15(5)``: the
keys of ``domain.provisions.PROVISIONS``). A profile says, for each of them, how its own
Act cites it (the central Act of 1871 has the report of Kerala's s.13(1) in the first
paragraph of its s.14: ``s.14 para 1``), or that it has no counterpart (the 1871 Act has
none of Kerala's s.15(5)). A step whose provision has no counterpart in a case's Act is
refused for that case; every citation a case shows is its own Act's.

What was not found in the text of an Act is a *gap*: the profile names it, with the
value the engine takes, and ``poundbot config check`` and docs/the-act.md say that it
must be confirmed from the Gazette before a local authority relies on it. Where a gap
leaves a value open (the days of the 1871 Act's s.20, the months of its s.17), the
configuration may set it (``Gap.settings``); nothing else of an Act is set there.
Sources: the research note on the 1871 Act and the other states' Acts, and the
project's text of the Kerala Act (ss.13-17).

A profile is dated per authority in the configuration, with the values it sets and the
powers a State's s.31 notification transfers: the Act as in force (``Profile.in_force``).
A case keeps the Act as in force on its impounding day (``domain.s07_seizure.Seizure.act``
and ``Seizure.act_settings``).

The records are named tuples, not dataclasses: ``poundbot config check`` reads the
profiles (the Act each authority applies, and what must be confirmed of it), and a
dataclass compiles its generated methods when its module is imported (as
``domain.tariff``'s records).

Why it is long: three Acts, each with its table of citations, its offices and its gaps,
each gap with its wording for the operator; read side by side, they are one table.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from domain.errors import TransitionRefusedError
from domain.provisions import PROVISIONS

__all__ = [
    "CATTLE_TRESPASS_1871",
    "DEFAULT_ACT",
    "KERALA_1961",
    "KERALA_1961_AMENDED",
    "POWER_PROVISIONS",
    "PROFILES",
    "SETTINGS",
    "Destination",
    "Gap",
    "Office",
    "Power",
    "Profile",
    "UnknownActError",
    "UnsettableError",
    "profile",
    "require_counterpart",
]


class Office(enum.Enum):
    """An office that may hold a power under one of the Acts: who acts is an office, not
    a name."""

    POUND_KEEPER = "pound_keeper"
    #: The local authority (its council or committee, as its own law says).
    LOCAL_AUTHORITY = "local_authority"
    #: The Secretary of the local authority (amended Kerala ss.20-21: inquiry and award).
    SECRETARY = "secretary"
    #: "such officer as the Director specifies" (Kerala s.13(1), as enacted).
    SPECIFIED_OFFICER = "specified_officer"
    #: The Director (Kerala, as enacted: the conditions of sale and the proviso).
    DIRECTOR = "director"
    #: The officer in charge of the nearest police station (1871 s.14, first paragraph).
    POLICE_STATION = "police_station"
    #: The Magistrate of the District (1871 ss.5, 14, 17).
    DISTRICT_MAGISTRATE = "district_magistrate"
    #: A Magistrate hearing a complaint (1871 ss.20-22).
    MAGISTRATE = "magistrate"


class Power(enum.Enum):
    """A power the Acts give to an office, each under its Kerala provision."""

    RECEIVE_REPORT = "receive_report"  # s.13(1)
    POST_NOTICE = "post_notice"  # s.13(2)
    SELL = "sell"  # s.13(3): hold the auction
    FIX_CONDITIONS = "fix_conditions"  # s.13(3): place, time and conditions of sale
    ORDER_DISPOSAL = "order_disposal"  # s.13(3) proviso
    RECEIVE_FINES = "receive_fines"  # s.16(1)
    HOLD_SURPLUS = "hold_surplus"  # s.16(3)
    HEAR_COMPLAINT = "hear_complaint"  # s.19


#: The provision each power is given under (the Kerala key).
POWER_PROVISIONS: Final[Mapping[Power, str]] = MappingProxyType(
    {
        Power.RECEIVE_REPORT: "s.13(1)",
        Power.POST_NOTICE: "s.13(2)",
        Power.SELL: "s.13(3)",
        Power.FIX_CONDITIONS: "s.13(3)",
        Power.ORDER_DISPOSAL: "s.13(3) proviso",
        Power.RECEIVE_FINES: "s.16(1)",
        Power.HOLD_SURPLUS: "s.16(3)",
        Power.HEAR_COMPLAINT: "s.19",
    }
)


class Destination(enum.Enum):
    """Where fines and the unclaimed surplus end."""

    LOCAL_FUND = "local_fund"  # the fund of the local authority
    STATE_REVENUE = "state_revenue"  # through the Magistrate of the District


class Gap(NamedTuple):
    """A provision whose text was not found: what the engine takes for it, to be
    confirmed from the Gazette."""

    #: The Kerala key of the step it touches (``s.16(3)``).
    provision: str
    #: The Act's own citation of it, as far as known (``s.17``).
    cited: str
    #: What is missing, and what poundbot takes meanwhile (English, for the operator).
    what: str
    #: The values of the profile it leaves open, which the configuration may set
    #: (``SETTINGS``: ``complaint_days``); none: poundbot's value stands.
    settings: tuple[str, ...] = ()
    #: Where the profile's value of those settings comes from, when none is set
    #: (English, for the operator: ``taken from the Kerala Act's s.19``).
    taken: str = ""


#: The values of a profile a gap may leave open to the configuration, in their order:
#: s.19's days to complain (1871: s.20), s.16(3)'s months of deposit (1871: s.17), and
#: where the fines and the unclaimed surplus end (s.16(1), s.17(1); 1871: s.17).
SETTINGS: Final = ("complaint_days", "surplus_months", "fines_to", "surplus_to")


class UnsettableError(ValueError):
    """A value set for an Act that its text leaves no gap for, or that cannot be (no
    days, a power no notification transfers)."""


class Profile(NamedTuple):
    """One Act, as poundbot applies it (built by keyword)."""

    #: The key the configuration names it by (``kerala-1961``).
    key: str
    #: The Act's short title and number.
    title: str
    #: Which text of it (as enacted, as amended).
    version: str
    #: Each Kerala provision -> the Act's own citation, or None: no counterpart.
    citations: Mapping[str, str | None]
    #: The office that holds each power.
    offices: Mapping[Power, Office]
    #: s.13(2): the notice is proclaimed by beat of drum.
    drum: bool
    #: s.15(5): an owner who refuses the account makes the cattle and the balance unclaimed.
    refused_account_unclaimed: bool
    #: s.16(3): for how many months the unclaimed surplus is held (by the office that
    #: holds ``Power.HOLD_SURPLUS``).
    surplus_months: int
    #: s.16(1), s.17(1): where fines and the unclaimed surplus end.
    fines_to: Destination
    surplus_to: Destination
    #: s.18: the classes of person barred from buying, as the Act names them, or None:
    #: the Act's text was not found, and the configuration's ``policy.barred_buyers`` holds.
    barred_buyers: tuple[str, ...] | None
    #: s.19: the days within which a complaint of illegal seizure is made.
    complaint_days: int
    #: The powers a State's notification may transfer to the local authority (1871 s.31).
    transferable: frozenset[Power] = frozenset()
    #: What was not found in the text, and is taken meanwhile.
    gaps: tuple[Gap, ...] = ()
    #: What ``config check`` says of the choice of this profile (English, the operator's).
    caution: str = ""
    #: Where the text was found.
    sources: tuple[str, ...] = ()
    #: The powers a State's s.31 notification has transferred to the local authority
    #: (``offices`` says so already): set by ``in_force``.
    transferred: frozenset[Power] = frozenset()
    #: Which of ``SETTINGS`` the configuration set, to be confirmed from the Gazette (the
    #: rest are the profile's own): set by ``in_force``.
    configured: tuple[str, ...] = ()

    def __hash__(self) -> int:  # its tables are read-only mappings: hashed without them
        return hash(
            (
                self.key,
                self.complaint_days,
                self.surplus_months,
                self.fines_to,
                self.surplus_to,
                self.transferred,
                self.configured,
            )
        )

    @property
    def settable(self) -> tuple[str, ...]:
        """The values the configuration may set for this Act: those its gaps leave open,
        in the order of ``SETTINGS``."""
        open_ = {name for gap in self.gaps for name in gap.settings}
        return tuple(name for name in SETTINGS if name in open_)

    def in_force(
        self,
        *,
        transferred: frozenset[Power] = frozenset(),
        complaint_days: int | None = None,
        surplus_months: int | None = None,
        fines_to: Destination | None = None,
        surplus_to: Destination | None = None,
    ) -> Profile:
        """This Act as an authority applies it: with the values the configuration set of
        its gaps (None: the profile's own) and, under the 1871 Act, the powers a State's
        s.31 notification ``transferred`` to the local authority held by it in
        ``offices``. Nothing set: the profile itself.

        Raises UnsettableError for a value the Act's text leaves no gap for, a number of
        days or months below one, or a power no notification of this Act transfers."""
        given: dict[str, int | Destination | None] = {
            "complaint_days": complaint_days,
            "surplus_months": surplus_months,
            "fines_to": fines_to,
            "surplus_to": surplus_to,
        }
        configured = tuple(name for name in SETTINGS if given[name] is not None)
        for name in configured:
            value = given[name]
            if name not in self.settable:
                raise UnsettableError(
                    f"{name} is not open under {self.key}: its text was found"
                    + (f" (open: {', '.join(self.settable)})" if self.settable else "")
                )
            if isinstance(value, int) and (isinstance(value, bool) or value < 1):
                raise UnsettableError(f"{name}: {value!r} is not a whole number from 1 up")
        if transferred and not self.transferable:
            raise UnsettableError(f"no power of {self.key} is transferred by a notification")
        for power in sorted(transferred - self.transferable, key=lambda p: p.value):
            raise UnsettableError(
                f"{power.value} is not a power a s.31 notification transfers under {self.key}"
            )
        if not configured and not transferred:
            return self
        offices = {
            p: Office.LOCAL_AUTHORITY if p in transferred else o for p, o in self.offices.items()
        }
        return self._replace(
            complaint_days=self.complaint_days if complaint_days is None else complaint_days,
            surplus_months=self.surplus_months if surplus_months is None else surplus_months,
            fines_to=self.fines_to if fines_to is None else fines_to,
            surplus_to=self.surplus_to if surplus_to is None else surplus_to,
            offices=MappingProxyType(offices),
            transferred=frozenset(transferred),
            configured=configured,
        )

    def cites(self, provision: str) -> str | None:
        """How this Act cites the Kerala ``provision``: ``s.14 para 1``, or None."""
        return self.citations[provision]

    def has(self, provision: str) -> bool:
        """Whether this Act has a counterpart of the Kerala ``provision``."""
        return self.citations.get(provision) is not None

    def office_for(self, power: Power, transferred: frozenset[Power] = frozenset()) -> Office:
        """The office that holds ``power``; under the 1871 Act, the local authority where a
        State's s.31 notification has ``transferred`` it."""
        if power in transferred and power in self.transferable:
            return Office.LOCAL_AUTHORITY
        return self.offices[power]


class UnknownActError(ValueError):
    """A profile the configuration names that poundbot does not have."""


def _same_numbers() -> dict[str, str | None]:
    """The Kerala Act cited by its own numbers."""
    return {provision: provision for provision in PROVISIONS}


KERALA_1961: Final = Profile(
    key="kerala-1961",
    title="Kerala Cattle Trespass Act, 1961 (Act 26 of 1961)",
    version="as enacted (the text the project was given)",
    citations=MappingProxyType(_same_numbers()),
    offices=MappingProxyType(
        {
            Power.RECEIVE_REPORT: Office.LOCAL_AUTHORITY,
            Power.POST_NOTICE: Office.LOCAL_AUTHORITY,
            Power.SELL: Office.LOCAL_AUTHORITY,
            Power.FIX_CONDITIONS: Office.DIRECTOR,
            Power.ORDER_DISPOSAL: Office.DIRECTOR,
            Power.RECEIVE_FINES: Office.LOCAL_AUTHORITY,
            Power.HOLD_SURPLUS: Office.LOCAL_AUTHORITY,
            Power.HEAR_COMPLAINT: Office.MAGISTRATE,
        }
    ),
    drum=True,
    refused_account_unclaimed=True,
    surplus_months=3,
    fines_to=Destination.LOCAL_FUND,
    surplus_to=Destination.LOCAL_FUND,
    barred_buyers=None,
    complaint_days=10,
    gaps=(
        Gap(
            "s.18",
            "s.18",
            "the text of s.18 as enacted was not in the material given: the barred "
            "buyers are the configuration's [policy] barred_buyers",
        ),
    ),
    caution=(
        "the Kerala LSG department publishes the Act as amended in 1975, 1980 and 2000 "
        "(profile kerala-1961-amended) as the text in force; confirm from the Kerala "
        "Gazette which text applies before relying on this one"
    ),
    sources=("the project's text of ss.13-17 (an OCR of the Act as enacted)",),
)

KERALA_1961_AMENDED: Final = Profile(
    key="kerala-1961-amended",
    title="Kerala Cattle Trespass Act, 1961 (Act 26 of 1961)",
    version="as amended by Acts 18 of 1975, 7 of 1980 and 16 of 2000",
    citations=MappingProxyType(_same_numbers()),
    offices=MappingProxyType(
        {
            Power.RECEIVE_REPORT: Office.LOCAL_AUTHORITY,
            Power.POST_NOTICE: Office.LOCAL_AUTHORITY,
            Power.SELL: Office.LOCAL_AUTHORITY,
            Power.FIX_CONDITIONS: Office.LOCAL_AUTHORITY,
            Power.ORDER_DISPOSAL: Office.LOCAL_AUTHORITY,
            Power.RECEIVE_FINES: Office.LOCAL_AUTHORITY,
            Power.HOLD_SURPLUS: Office.LOCAL_AUTHORITY,
            Power.HEAR_COMPLAINT: Office.LOCAL_AUTHORITY,
        }
    ),
    drum=False,
    refused_account_unclaimed=True,
    surplus_months=3,
    fines_to=Destination.LOCAL_FUND,
    surplus_to=Destination.LOCAL_FUND,
    barred_buyers=("police_officer", "officer", "pound_keeper", "member"),
    complaint_days=10,
    gaps=(
        Gap(
            "s.13(1)",
            "s.13(1)",
            "the amended s.13(1) was not seen: the report is taken to go to the local "
            "authority, which posts the notice under the amended s.13(2)",
        ),
        Gap(
            "s.13(3) proviso",
            "s.13(3) proviso",
            "the excerpt of the amended s.13(3) is cut off before its proviso: poundbot "
            "keeps the proviso, decided by the local authority ([[proviso_offices]] "
            'office = "local_authority", else poundbot\'s LOCAL-AUTHORITY)',
        ),
        Gap(
            "s.16(3)",
            "s.16",
            "the amended s.16 was not seen: the surplus is held by the local authority "
            "for three months, as in the Act as enacted, unless surplus_months is set",
            settings=("surplus_months",),
            taken="taken from the Act as enacted",
        ),
    ),
    caution=(
        "the amended text is quoted from the Kerala LSG department's wiki, not the "
        "Gazette; confirm it from the Kerala Gazette"
    ),
    sources=("Kerala LSG department wiki (panchayatwiki.lsgkerala.gov.in), vol. 2 pp. 233-238",),
)

#: Kerala's provisions, as the central Act of 1871 numbers them: its ss.14, 16 and 17 are
#: unnumbered paragraphs, cited by their order.
_1871: Final[dict[str, str | None]] = {
    "s.2(1)": "s.3",
    "s.4": "s.5",
    "s.7": "s.8",
    "s.11": "s.12",
    "s.12": "s.13",
    "s.13(1)": "s.14 para 1",
    "s.13(2)": "s.14 para 2",
    "s.13(2)(a)": "s.14 para 2(a)",
    "s.13(2)(b)": "s.14 para 2(b)",
    "s.13(2)(c)": "s.14 para 2(c)",
    "s.13(3)": "s.14 para 3",
    "s.13(3) proviso": "s.14 para 3 proviso",
    "s.14": "s.15",
    "s.15(1)": "s.16 para 1",
    "s.15(2)": "s.16 para 2",
    "s.15(3)": "s.16 para 3",
    "s.15(3)(a)": "s.16 para 3(a)",
    "s.15(3)(b)": "s.16 para 3(b)",
    "s.15(3)(c)": "s.16 para 3(c)",
    "s.15(3)(d)": "s.16 para 3(d)",
    "s.15(3)(e)": "s.16 para 3(e)",
    "s.15(3)(f)": "s.16 para 3(f)",
    "s.15(4)": "s.16 para 4",
    "s.15(5)": None,
    "s.16(1)": "s.17 para 1",
    "s.16(2)": "s.17 para 2",
    "s.16(3)": "s.17 para 3",
    "s.17(1)": "s.17 para 3",
    "s.18": "s.19",
    "s.19": "s.20",
    "GCA s.8": "GCA s.9",
}

CATTLE_TRESPASS_1871: Final = Profile(
    key="cattle-trespass-1871",
    title="Cattle-trespass Act, 1871 (Act 1 of 1871)",
    version="as in force, with the 1921 s.12",
    citations=MappingProxyType(_1871),
    offices=MappingProxyType(
        {
            Power.RECEIVE_REPORT: Office.POLICE_STATION,
            Power.POST_NOTICE: Office.POLICE_STATION,
            Power.SELL: Office.POLICE_STATION,
            Power.FIX_CONDITIONS: Office.DISTRICT_MAGISTRATE,
            Power.ORDER_DISPOSAL: Office.DISTRICT_MAGISTRATE,
            Power.RECEIVE_FINES: Office.DISTRICT_MAGISTRATE,
            Power.HOLD_SURPLUS: Office.DISTRICT_MAGISTRATE,
            Power.HEAR_COMPLAINT: Office.MAGISTRATE,
        }
    ),
    drum=True,
    refused_account_unclaimed=False,
    surplus_months=3,
    fines_to=Destination.STATE_REVENUE,
    surplus_to=Destination.STATE_REVENUE,
    barred_buyers=None,
    complaint_days=10,
    transferable=frozenset(
        {
            Power.RECEIVE_REPORT,
            Power.POST_NOTICE,
            Power.SELL,
            Power.FIX_CONDITIONS,
            Power.ORDER_DISPOSAL,
            Power.RECEIVE_FINES,
            Power.HOLD_SURPLUS,
        }
    ),
    gaps=(
        Gap(
            "s.16(3)",
            "s.17",
            "s.17 was found only in the official Telugu translation: fines and the "
            "unclaimed surplus go to the Magistrate of the District, the surplus held "
            "three months and then credited to State revenue (the text is cut off there); "
            "surplus_months, fines_to and surplus_to may be set as the Gazette says",
            settings=("surplus_months", "fines_to", "surplus_to"),
            taken="taken from the official Telugu translation of s.17",
        ),
        Gap(
            "s.18",
            "s.19",
            "the text of s.19 (barred buyers) was not found: the barred buyers are the "
            "configuration's [policy] barred_buyers",
        ),
        Gap(
            "s.19",
            "s.20",
            "the time limit for a complaint under s.20 was not found: poundbot keeps the "
            "deposit open for ten days from the seizure, as the Kerala Act does, unless "
            "complaint_days is set",
            settings=("complaint_days",),
            taken="taken from the Kerala Act's s.19",
        ),
        Gap(
            "GCA s.8",
            "GCA s.9",
            "periods are counted as under the General Clauses Act, 1897 s.9 (excluding "
            "the first day); its text was not retrieved",
        ),
        Gap(
            "s.17(1)",
            "s.31",
            "a State's notification under s.31 may transfer the Magistrate's functions "
            "and credit surplus receipts to the local fund; its clause (b) was not found",
        ),
    ),
    caution=(
        "the text is quoted from bare-act sites, not India Code; confirm it, and the "
        "State's amendments and any s.31 notification, from the Gazette"
    ),
    sources=(
        "lawyerservices.in (s.14), helplinelaw.com (ss.8, 13, 15), lawgist.in (ss.6, 16), "
        "te.wikisource.org (s.17, Telugu), advocatekhoj.com (s.31)",
    ),
)

#: Every profile, by its key.
PROFILES: Final[Mapping[str, Profile]] = MappingProxyType(
    {p.key: p for p in (KERALA_1961, KERALA_1961_AMENDED, CATTLE_TRESPASS_1871)}
)

#: The profile of a case recorded before profiles existed, and of an authority that
#: names none.
DEFAULT_ACT: Final = KERALA_1961.key


def profile(key: str) -> Profile:
    """The profile named ``key``."""
    try:
        return PROFILES[key]
    except KeyError:
        raise UnknownActError(f"unknown Act {key!r}: one of {', '.join(PROFILES)}") from None


def require_counterpart(act: Profile, provision: str) -> None:
    """Refuse a step taken under ``provision`` when the case's Act has none such (the
    1871 Act has no counterpart of Kerala's s.15(5))."""
    if not act.has(provision):
        raise TransitionRefusedError(
            f"the {act.title} has no counterpart of Kerala's {provision}",
            provision,
            reason="no_counterpart",
            facts={"act": act.key},
        )
