"""The steps of a case as web forms: each form builds the order (``bot.conversation.orders``) that
the same chat word builds, and the dispatcher runs it (``bot.conversation.reply.run_command``):
the same use case, the same rules, the same refusals as SMS and Telegram.

A new chat word comes to the web by adding its form here: its fields, the stages it
is offered in and the roles that may take it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import date

from bot.conversation.commands import ParseError, parse_amount, parse_count, parse_date
from bot.conversation.orders import ORDERS, CaseOrder
from bot.services.base import STEP_POWERS, may_take
from bot.support.caller import KEEPER, OFFICER, Caller
from domain.case import Case
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    CaseVoided,
    ClaimedAndPaid,
    ClaimPreferred,
    ClaimRejected,
    CreditedToFund,
    DeliveredOnDeposit,
    DepositClaimed,
    DepositOutcome,
    DisposedOtherwise,
    Event,
    LotOffered,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
    SeizureCorrected,
)
from domain.money import Money
from domain.profiles import Office
from domain.stages import OPEN_STAGES, Stage

__all__ = [
    "CORRECTABLE",
    "FORMS",
    "OUTCOMES",
    "Field",
    "Form",
    "build_command",
    "form_of",
    "forms_for",
]

#: The facts of the seizure report the web's CORRECT form changes (s.7); the others
#: (cattle, days, owner) are corrected with the CORRECT word by SMS or Telegram.
CORRECTABLE = ("place", "seizer")
#: The choices of OUTCOME (s.14, s.19): the seizure upheld, or found illegal.
OUTCOMES = ("upheld", "illegal")


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a form: the field of the order it fills (``_ORDER_FIELDS`` where it is
    named otherwise) and its input type."""

    name: str  # on, place, places, person, reference, amount, lot, count, reason, field, value,
    # preferred
    kind: str  # date, text, money, number, lot, choice, office
    required: bool = False


@dataclass(frozen=True, slots=True)
class Form:
    """A step of a case: the command word, its fields, where and by whom it is offered,
    and the step of the Act it records (offered only on the days the Act allows it)."""

    command: str
    fields: tuple[Field, ...]
    stages: frozenset[Stage]
    roles: frozenset[str]
    event: type[Event]
    #: A checkbox the person must tick: "s.18" (SOLD: the buyer signed the declaration),
    #: "void" (VOID: the case is withdrawn for good).
    confirm: str = ""


_ON = Field("on", "date")
#: The lot whose owner's step it is (``LOT n``): shown where the lots are of more than one
#: owner; left blank, the step is the whole case's.
_OWNERS_LOT = Field("lot", "lot")
_IN_POUND = frozenset({Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED})
_AUCTION = frozenset({Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING})
_K, _O = frozenset({KEEPER}), frozenset({OFFICER})

#: Where the owner may still take the cattle back: the Act's rule by route and round
#: (``Case.lawful_today``) decides the day: payment until a head of the round is sold,
#: also after a refusal or a refused account (s.12, s.15(5)); deposit while the ten days
#: of s.19 run and no head is sold (s.14).
_OWNER_TAKES_BACK = _IN_POUND | frozenset(
    {Stage.OWNER_REFUSED, Stage.SELLING, Stage.DEEMED_UNCLAIMED}
)

FORMS: tuple[Form, ...] = (
    # s.12; on the owner's route also during the sale, of what the proceeds leave owed
    # (s.15(1)): offered while ``Case.lawful_today`` allows it.
    # An owner's step on their own lots (LOT n): offered where the lots are of more than
    # one owner (s.7); blank, the whole case's.
    Form("paid", (_OWNERS_LOT, _ON), _OWNER_TAKES_BACK, _K, ClaimedAndPaid),
    Form("deposited", (_OWNERS_LOT, _ON), _OWNER_TAKES_BACK, _K, DeliveredOnDeposit),
    Form(
        "report",
        (_ON,),
        frozenset({Stage.IMPOUNDED, Stage.DEEMED_UNCLAIMED}),
        _K,
        ReportedUnclaimed,
    ),
    Form("refused", (_OWNERS_LOT, _ON), _IN_POUND, _K | _O, OwnerRefusedToPay),
    Form(
        "notice",
        (Field("places", "text", True), _ON),
        frozenset({Stage.REPORTED}),
        _O,
        NoticePosted,
    ),
    Form(
        "auction",
        (Field("on", "date", True), Field("place", "text", True), Field("expenses", "money")),
        _AUCTION,
        _O,
        AuctionScheduled,
    ),
    Form(
        "sold",
        (
            Field("lot", "lot", True),
            Field("count", "number", True),
            Field("amount", "money", True),
            Field("person", "text", True),
            Field("place", "text", True),
            _ON,
        ),
        _AUCTION,
        _O,
        LotOffered,
        confirm="s.18",
    ),
    Form(
        "dispose",
        (
            Field("lot", "lot", True),
            Field("count", "number", True),
            Field("amount", "money"),
            Field("person", "office", True),  # s.13(3) proviso: a configured office's code
            Field("reference", "text", True),
            Field("description", "text"),
            _ON,
        ),
        frozenset({Stage.NOTICE_POSTED, Stage.SELLING}),
        _O,
        DisposedOtherwise,
    ),
    Form(
        "unsold",
        (Field("lot", "lot", True), Field("count", "number", True), _ON),
        _AUCTION,
        _O,
        LotOffered,
    ),
    Form("settle", (Field("amount", "money"), _ON), frozenset({Stage.SELLING}), _O, SaleClosed),
    Form(
        "receipt",
        (Field("person", "text", True), _ON),
        frozenset({Stage.ACCOUNT_DUE}),
        _O,
        AccountDelivered,
    ),
    Form("account_refused", (_ON,), frozenset({Stage.ACCOUNT_DUE}), _O, AccountRefused),
    Form(
        "claim",
        (
            Field("person", "text", True),
            Field("reference", "text", True),
            Field("preferred", "date"),  # s.16(3): empty, the pending claim's day
            _ON,  # the day established
        ),
        frozenset({Stage.IN_DEPOSIT}),
        _O,
        ClaimPreferred,
    ),
    Form("fund", (_ON,), frozenset({Stage.IN_DEPOSIT}), _O, CreditedToFund),
    Form(
        "claimed",
        (Field("person", "text", True), _ON),
        frozenset({Stage.IN_DEPOSIT}),
        _O,
        DepositClaimed,
    ),
    Form(
        "reject",
        (Field("reference", "text", True), _ON),
        frozenset({Stage.IN_DEPOSIT}),
        _O,
        ClaimRejected,
    ),
    Form(
        "outcome",
        (Field("outcome", "choice", True), Field("reference", "text", True), _ON),
        frozenset({Stage.ON_DEPOSIT}),
        _O,
        DepositOutcome,
    ),
    Form(
        "correct",
        (
            Field("field", "choice", True),
            Field("value", "text", True),
            Field("reason", "text", True),
        ),
        OPEN_STAGES - {Stage.CLOSED},
        _K | _O,
        SeizureCorrected,
    ),
    Form(
        "void",
        (Field("reason", "text", True),),
        _IN_POUND | frozenset({Stage.OWNER_REFUSED, Stage.SELLING}),
        _K | _O,
        CaseVoided,
        confirm="void",
    ),
)

_BY_NAME = {form.command: form for form in FORMS}


def form_of(name: str) -> Form | None:
    """The form of the step ``name``, if the web has one."""
    return _BY_NAME.get(name)


def forms_for(
    caller: Caller, case: Case, today: date, held: Collection[Office] = frozenset()
) -> list[Form]:
    """The steps ``caller`` may take on ``case`` today: those of the caller's role that
    the Act allows in the case's stage on this day (``Case.lawful_today``), and of a
    step under a power, only if the caller may take it while the authority's officers
    hold the offices ``held`` (``may_take``, as the step's refusal decides it; the use
    cases check each step's own facts again)."""
    return [
        f
        for f in FORMS
        if caller.role in f.roles
        and case.stage in f.stages
        and case.lawful_today(f.event, today)
        and _may_take(caller, case, f, held)
    ]


def _may_take(caller: Caller, case: Case, form: Form, held: Collection[Office]) -> bool:
    power = STEP_POWERS.get(form.event)
    return power is None or may_take(caller, case, power, held)


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")

#: The fields read by the chat words' own readers.
_AS_IN_CHAT: dict[str, Callable[[str], object]] = {
    "number": parse_count,
    "lot": parse_count,
    "money": parse_amount,
}


def _value(field: Field, raw: str, today: date) -> object:
    text = raw.strip()
    if field.kind == "date":  # dd-mm-yyyy as the chat words read it; yyyy-mm-dd too
        try:
            return date.fromisoformat(text) if _ISO.fullmatch(text) else parse_date(text, today)
        except (ValueError, ParseError):
            raise ParseError("bad_date", text=text[:20]) from None
    read = _AS_IN_CHAT.get(field.kind)
    if read is not None:  # as the chat words read it (₹300, Rs 300, 3,000)
        try:
            return read(text)
        except ParseError as exc:
            raise ParseError(exc.code, text=text[:20]) from None  # a long field echoed short
    if field.name == "places":
        return tuple(p.strip() for p in text.split(",") if p.strip())
    return " ".join(text.split())


_MISSING = {
    "on": "bad_date",
    "lot": "bad_count",
    "count": "bad_count",
    "amount": "bad_amount",
    "person": "missing_buyer",
    "place": "missing_place",
    "places": "missing_place",
    "reason": "missing_reason",
    "reference": "missing_reference",
    "outcome": "missing_outcome",
    "field": "unknown_field",
    "value": "missing_place",
    "sold.place": "missing_buyer",  # the buyer's residence (s.18)
}


#: A form's fields that fill an order's field of another name.
_ORDER_FIELDS: dict[str, dict[str, str]] = {
    "sold": {"amount": "price", "person": "buyer", "place": "residence"},  # s.18
    "dispose": {"amount": "proceeds", "person": "ordered_by", "description": "manner"},
    "settle": {"amount": "expenses"},
    "receipt": {"person": "received_by"},
    "claim": {"person": "claimant", "preferred": "preferred_on"},
    "claimed": {"person": "claimant"},
    "correct": {"value": "text"},
}


def build_command(
    name: str, number: str, form: Mapping[str, str], lang: str, today: date
) -> CaseOrder:
    """The order of the step ``name`` on case ``number`` from the submitted fields;
    a missing or malformed field is a ParseError, answered as the chat answers it."""
    spec = _BY_NAME.get(name)
    if spec is None:
        raise ParseError("unknown_command", word=name[:20])
    values: dict[str, object] = {}
    for field in spec.fields:
        raw = form.get(field.name, "")
        if not raw.strip():
            if field.required:
                code = _MISSING.get(f"{name}.{field.name}") or _MISSING.get(field.name)
                raise ParseError(code or "missing_person")
            continue
        values[field.name] = _value(field, raw, today)
    if name in ("settle", "dispose") and "amount" not in values:
        values["amount"] = Money.zero()  # no expenses stated / no proceeds
    if name == "outcome" and values["outcome"] not in OUTCOMES:
        raise ParseError("missing_outcome", text=str(values["outcome"])[:20])
    if name == "correct":
        fact = values.pop("field")
        if fact not in CORRECTABLE:
            raise ParseError("unknown_field", word=str(fact)[:20])
        values["fact"] = fact
    renamed = _ORDER_FIELDS.get(name, {})
    fields = {renamed.get(key, key): value for key, value in values.items()}
    order = ORDERS[name]
    assert issubclass(order, CaseOrder)  # every form is a step on a case
    return order(lang=lang, case=number, **fields)  # type: ignore[arg-type]  # typed by kind
