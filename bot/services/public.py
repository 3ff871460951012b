"""What anyone may ask: dues, a deposit, a search of open cases, the outcome of a case.

Public answers carry the public facts of a case only: kinds, counts, descriptions,
place of seizure, pound and dates. Never a name or a telephone number. An owner of some
of a case's cattle who asks from their number is answered of their own lots alone
(``bot.services.owners``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from bot.config.names import Name
from bot.services.base import Deps, figures_for, statement_of
from bot.services.owners import owners_case
from bot.store.port import CaseStore
from bot.store.tx import LoadedCase
from bot.support.errors import VoidedCaseError
from bot.support.phones import looks_like_phone
from bot.support.public_text import public_lots, public_place
from bot.support.search_words import search_terms
from domain.case import Case
from domain.deadlines import Deadline
from domain.figures import Figures, figures_of, lots_remaining
from domain.s04_s11_dues import Dues
from domain.s07_seizure import Lot
from domain.s14_deposit import Deposit
from domain.s15_3_account import Account
from domain.stages import IN_POUND_STAGES, Stage
from domain.statement import Statement, dates_of

__all__ = [
    "DepositAnswer",
    "DuesAnswer",
    "Outcome",
    "PublicCase",
    "deposit_quote",
    "dues_today",
    "facts_of",
    "find_cases",
    "outcome",
    "owners_view",
    "public_facts",
]


@dataclass(frozen=True, slots=True)
class PublicCase:
    """The facts of a case anyone may know."""

    number: str
    pound: str
    pound_name: str
    lots: tuple[Lot, ...]
    place_seized: str
    impounded_on: date
    stage: Stage
    report_due_on: date
    #: The case's figures of the day, where an answer gives them (FIND: its cattle are
    #: ``lots`` cut to the heads these figures have in the pound).
    figures: Figures | None = None


def facts_of(case: Case, pound_name: str) -> PublicCase:
    """The public facts of a case: no names, no telephone numbers."""
    return PublicCase(
        number=case.number,
        pound=case.seizure.pound,
        pound_name=pound_name,
        lots=public_lots(case.seizure),
        place_seized=public_place(case.seizure),
        impounded_on=case.seizure.impounded_on,
        stage=case.stage,
        report_due_on=dates_of(case).report_on,
    )


def public_facts(deps: Deps, loaded: LoadedCase) -> PublicCase:
    """The public facts of a loaded case, with its pound's name; kept with the case (a
    kept fold is the same object from one answer to the next)."""
    name = _named(deps, loaded)
    return loaded.case.kept(("public facts", name), (), lambda: facts_of(loaded.case, name))


def _named(deps: Deps, loaded: LoadedCase) -> str:
    pound = deps.config.pounds.get(loaded.pound)
    return pound.name if pound else loaded.pound


async def owners_view(
    tx: CaseStore, deps: Deps, loaded: LoadedCase, phone: str | None
) -> tuple[Case, PublicCase]:
    """The case an answer to ``phone`` speaks of, with its public facts: when ``phone``
    is the number of an owner of some of the cattle of a case of more than one owner, the
    case their lots would make on their own (``Case.part``, under the case's number:
    nothing written), while the lots could still be separated (s.7); else the case."""
    part = await owners_case(tx, loaded, phone, deps.today())
    if part is not None:
        return part, facts_of(part, _named(deps, loaded))
    return loaded.case, public_facts(deps, loaded)


def _not_voided(loaded: LoadedCase) -> LoadedCase:
    """A case voided as entered by mistake has no dues and takes no deposit."""
    if loaded.case.stage is Stage.VOIDED:
        raise VoidedCaseError("voided", number=loaded.row.number)
    return loaded


@dataclass(frozen=True, slots=True)
class DuesAnswer:
    """Dues today, with the deadlines ahead (what happens next and when); after a sale,
    the s.15(3) account of what it settled."""

    facts: PublicCase
    dues: Dues
    next_steps: tuple[Deadline, ...]
    case: Case
    account: Account | None = None
    stated: Statement | None = None
    #: The figures of the statement the answer renders.
    figures: Figures | None = None


async def dues_today(
    tx: CaseStore, deps: Deps, number: str, phone: str | None = None
) -> DuesAnswer:
    """What the owner owes today on a case (s.11, s.4, s.12), and what comes next: the
    case's statement of the day; asked from the number of an owner of some of its
    cattle, of their lots alone (``owners_view``)."""
    loaded = _not_voided(await tx.load_case(number))
    case, facts = await owners_view(tx, deps, loaded, phone)
    stated = statement_of(deps, case)
    return DuesAnswer(
        facts,
        stated.dues,
        stated.ahead,
        case,
        stated.account,
        stated,
        figures_of(stated),
    )


@dataclass(frozen=True, slots=True)
class DepositAnswer:
    """What a deposit under s.14 would be today, with the s.19 last day to complain."""

    facts: PublicCase
    deposit: Deposit
    case: Case


async def deposit_quote(
    tx: CaseStore, deps: Deps, number: str, phone: str | None = None
) -> DepositAnswer:
    """What a deposit under s.14 would be today, and the s.19 last day to complain;
    asked from the number of an owner of some of its cattle, for their lots alone."""
    loaded = _not_voided(await tx.load_case(number))
    case, facts = await owners_view(tx, deps, loaded, phone)
    deposit = statement_of(deps, case).deposit
    return DepositAnswer(facts, deposit, case)


async def find_cases(tx: CaseStore, deps: Deps, words: list[str]) -> list[PublicCase]:
    """Cases with cattle still in the pound whose kind, public description or place seized
    match all the words (never released, delivered on deposit, sold or settled ones); a case
    partly sold shows the heads still in the pound.

    The descriptions searched hold no names and no telephone numbers (``public_lots``);
    a search with phone-like digits in it finds nothing, whatever else it says.
    """
    cleaned = [w for w in (w.strip() for w in words) if len(w) >= 2][:6]
    if not cleaned or looks_like_phone(" ".join(cleaned)):
        return []
    # Each word in every language it may be written in (``search_words``), and a
    # configured place by each of its names.
    terms = [search_terms(w, deps.config.kind_words) + _place_forms(w, deps) for w in cleaned]
    found = await tx.search_open(terms, stages=tuple(s.value for s in IN_POUND_STAGES))
    out = []
    for loaded in found:
        if not loaded.case.heads_remaining:
            continue
        facts = public_facts(deps, loaded)
        # The store matches the place as written; a case found only through a name in it
        # (the owner's field) is not found: every word must be in what the public reads.
        if all(_in_public_text(term, facts) for term in terms):
            out.append(_still_in_pound(facts, figures_for(deps, loaded.case)))
    return out


def _place_forms(word: str, deps: Deps) -> tuple[str, ...]:
    """A configured place's names in every language, when ``word`` is one of them."""
    place = deps.config.place_names(word)
    return tuple(place.forms.values()) if isinstance(place, Name) else ()


def _in_public_text(terms: tuple[str, ...], facts: PublicCase) -> bool:
    """Whether one of the forms of a search word is in the kind, the public description
    or the public place."""
    place = facts.place_seized.casefold()
    return any(
        word in place
        or any(
            word in lot.kind.casefold() or word in lot.description.casefold() for lot in facts.lots
        )
        for word in (t.casefold() for t in terms)
    )


def _still_in_pound(facts: PublicCase, figures: Figures) -> PublicCase:
    """The facts with the lots cut to the heads the case's figures have in the pound
    (the lots of ``facts`` are already the public ones: no names, no numbers)."""
    return replace(facts, lots=lots_remaining(facts.lots, figures), figures=figures)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a case: its stage and, after a sale, the s.15(3) account; the
    case itself (for the dates of its steps) and the day asked."""

    facts: PublicCase
    account: Account | None
    case: Case | None = None
    on: date | None = None
    stated: Statement | None = None
    #: The figures of the statement the answer renders.
    figures: Figures | None = None


async def outcome(tx: CaseStore, deps: Deps, number: str, phone: str | None = None) -> Outcome:
    """The outcome of a case; after a sale, its account (s.15(3)); asked from the number
    of an owner of some of its cattle, where their lots stand."""
    loaded = await tx.load_case(number)
    case, facts = await owners_view(tx, deps, loaded, phone)
    stated = statement_of(deps, case)
    return Outcome(
        facts,
        stated.account,
        case,
        stated.on,
        stated,
        figures_of(stated),
    )
