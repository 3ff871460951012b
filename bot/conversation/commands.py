"""One-line commands: text (SMS, a Telegram line, the console) to a structured command.

Pure: no I/O. ``parse`` returns an order (``bot.conversation.orders``) or raises
``ParseError`` with a stable code the renderers translate. The words are in
``bot.support.words``. ``read_line`` also says how the line was read: a word one
letter away from an owner's word (``words.close_keyword``), a Malayalam word in Latin
letters. Before the words are read, quotes and angle brackets around a word and a
question mark at the end are dropped (replies quote command words, and owners copy
them), a case number spelled in Malayalam, Tamil or Kannada letters is read as one
(``bot.conversation.case_letters``), a case number may come before the word, and a
case number alone asks its dues.

Why it is long: the grammar of every command in one parser, so that the words of all of
them are read alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, time
from typing import Final, TypedDict

from bot.config import Config, normalize_word
from bot.conversation import orders as o
from bot.conversation.case_letters import latin_case
from bot.conversation.orders import ORDERS, Order, SeizeLot
from bot.support.errors import BadInputError
from bot.support.phones import PhoneError, normalize_phone, phone_runs
from bot.support.words import (
    CONNECTIVE_INDEX,
    CONNECTIVES,
    close_keyword,
    field_of,
    keyword_of,
    language_named,
    outcome_of,
)
from domain.money import Money

__all__ = [
    "MAX_LENGTH",
    "ParseError",
    "Parsed",
    "SeizeLot",
    "name_and_phone",
    "normalize_phone",
    "parse",
    "parse_amount",
    "parse_count",
    "parse_date",
    "parse_time",
    "read_line",
]

MAX_LENGTH = 1600  # ten SMS segments; anything longer is refused before parsing
_DATE = re.compile(r"^(\d{1,2})[-/.](\d{1,2})(?:[-/.](\d{2}|\d{4}))?$")
_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})$")
_CASE_LIKE = re.compile(r"^[A-Za-z]{2,6}[-/.#]?\d{1,7}$")
#: A word, or a description in brackets (kept whole, even when left unclosed).
_TOKEN = re.compile(r"\([^()]*\)?|[^\s()]+")
#: Quotes and brackets dropped around every word (not inside one: ``O'Brien``).
_QUOTES = "\"'“”‘’«»<>„‚`"
#: Commands a question mark makes no command of: a question does not opt out or in.
_NEVER_ASKED = frozenset({"stop", "start"})
#: Connecting words recognised after the ``;`` of a SEIZE line, in the description.
_AFTER_DESCRIPTION = frozenset({"owner", "by", "seized"})


class ParseError(BadInputError):
    """The text is not a command poundbot understands; ``code`` says what is wrong."""

    def __init__(self, code: str, **facts: object) -> None:
        super().__init__(code)
        self.code = code
        self.facts = facts


_CASE_COMMANDS = {
    "photo",
    "dues",
    "deposit",
    "status",
    "paid",
    "deposited",
    "report",
    "refused",
    "notice",
    "auction",
    "sold",
    "unsold",
    "settle",
    "receipt",
    "account_refused",
    "claim",
    "fund",
    "dispose",
    "outcome",
    "refunded",
    "claimed",
    "reject",
}


#: Commands whose free text (a manner of disposal) may hold other connecting words.
_CONNECTIVES_OF: dict[str, frozenset[str]] = {
    "dispose": frozenset({"by", "ref", "how", "on"}),
}
#: The owner's steps a LOT makes of that lot's owner's only (s.12, s.14, s.15(1)).
_BY_LOT: Final = frozenset({"paid", "deposited", "refused"})
#: The connecting words of the other commands on a case: LOT is only the owner's steps'.
_CONNECTIVES_ON_CASE: Final = frozenset(CONNECTIVES) - {"lot"}


def parse_date(text: str, today: date) -> date:
    """``20-11-2026``, ``20/11/26``, ``20.11`` (this year) -> a date; else ParseError."""
    match = _DATE.match(text.strip())
    if not match:
        raise ParseError("bad_date", text=text)
    day, month, year = int(match.group(1)), int(match.group(2)), match.group(3)
    full_year = today.year if year is None else int(year) + (2000 if len(year) == 2 else 0)
    try:
        return date(full_year, month, day)
    except ValueError:
        raise ParseError("bad_date", text=text) from None


def parse_time(text: str) -> time:
    """``14:30`` or ``14.30`` -> a time of day; else ParseError (``bad_time``)."""
    match = _TIME.match(text.strip())
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise ParseError("bad_time", text=text)
    return time(int(match.group(1)), int(match.group(2)))


def parse_amount(text: str) -> Money:
    """An amount as people write it: ``300``, ``₹300``, ``Rs 300``, ``Rs.300``,
    ``3,000.50``, ``540/-``."""
    cleaned = text.strip().lower().removesuffix("/-").removeprefix("rs").removeprefix("₹")
    cleaned = cleaned.strip(" .").replace(",", "").replace(" ", "")
    try:
        money = Money.rupees(cleaned)
    except (ValueError, TypeError):
        raise ParseError("bad_amount", text=text) from None
    if money.is_negative:
        raise ParseError("bad_amount", text=text)
    return money


def parse_count(text: str) -> int:
    """A count of head or a lot number: a whole number from 1 to 10,000."""
    if not text.isdecimal() or not 1 <= int(text) <= 10_000:
        raise ParseError("bad_count", text=text)
    return int(text)


def _split_connectives(
    tokens: list[str], only: frozenset[str] | None = None, taken: frozenset[str] = frozenset()
) -> tuple[list[str], dict[str, list[str]]]:
    """Tokens before the first connective, and the tokens after each connective.

    ``only`` limits the connectives recognised; one in ``taken`` (already given) or a
    description in brackets is an ordinary token.
    """
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    current: list[str] = head
    for token in tokens:
        found = None if token.startswith("(") else CONNECTIVE_INDEX.get(normalize_word(token))
        name = found[0] if found is not None else None
        if (
            name is not None
            and name not in parts
            and name not in taken
            and (only is None or name in only)
        ):
            current = parts.setdefault(name, [])
        else:
            current.append(token)
    return head, parts


def _date_time(tokens: list[str], today: date) -> tuple[date | None, time | None]:
    if not tokens:
        raise ParseError("bad_date", text="")
    on = parse_date(tokens[0], today)
    at = parse_time(tokens[1]) if len(tokens) > 1 else None
    if len(tokens) > 2:
        raise ParseError("bad_date", text=" ".join(tokens))
    return on, at


def _kind(config: Config, lang: str, tokens: list[str]) -> tuple[str, int]:
    """The kind named by the longest run (up to 3 words) at the start of ``tokens``."""
    for width in (3, 2, 1):
        phrase = " ".join(tokens[:width])
        if len(tokens) < width:
            continue
        for language in (lang, "en", "ml", "ta", "kn"):
            code = config.kind_for_word(language, phrase)
            if code is not None:
                return code, width
        if width == 1 and normalize_word(phrase) in config.kinds:
            return normalize_word(phrase), 1
    raise ParseError("unknown_kind", word=tokens[0] if tokens else "")


def _lots(config: Config, lang: str, tokens: list[str]) -> list[SeizeLot]:
    """``2 cow (brown) 1 goat`` -> lots, each with its own description (s.13(2)(a))."""
    lots: list[SeizeLot] = []
    i = 0
    while i < len(tokens):
        if tokens[i].startswith("("):
            raise ParseError("bad_count", text=tokens[i])
        count = parse_count(tokens[i])
        words = []
        for token in tokens[i + 1 :]:
            if token.startswith("("):
                break
            words.append(token)
        code, width = _kind(config, lang, words)
        i += 1 + width
        description = ""
        if i < len(tokens) and tokens[i].startswith("("):
            description = tokens[i].strip("()").strip()
            i += 1
        lots.append(SeizeLot(count, code, description))
    return lots


def _connective(token: str) -> str | None:
    """The connecting word ``token`` is (``owner``, ``at``, ...), or None."""
    found = None if token.startswith("(") else CONNECTIVE_INDEX.get(normalize_word(token))
    return found[0] if found is not None else None


def _starts_lot(config: Config, lang: str, tokens: list[str]) -> bool:
    """Whether ``tokens`` start with a lot: a count and the word of a kind."""
    if not tokens or not tokens[0].isdecimal() or not 1 <= int(tokens[0]) <= 10_000:
        return False
    try:
        _kind(config, lang, [t for t in tokens[1:4] if not t.startswith("(")])
    except ParseError:
        return False
    return True


def _owned_runs(
    config: Config, lang: str, tokens: list[str]
) -> tuple[list[tuple[list[str], list[str] | None]], list[str]]:
    """The lots of a SEIZE line, run by run, each run with the OWNER written after it
    (None: none), and the tokens from the first other connecting word on. An OWNER
    belongs to the lots written since the OWNER before it; a lot after an OWNER starts
    a new run."""
    runs: list[tuple[list[str], list[str] | None]] = []
    lots: list[str] = []
    owner: list[str] | None = None
    for i, token in enumerate(tokens):
        name = _connective(token)
        if name is not None and name not in ("owner", "lot"):
            runs.append((lots, owner))
            return runs, tokens[i:]
        if name == "owner" and owner is None:
            owner = []
        elif owner is not None and _starts_lot(config, lang, tokens[i:]):
            runs.append((lots, owner))
            lots, owner = [token], None
        elif owner is not None:
            owner.append(token)
        else:
            lots.append(token)
    runs.append((lots, owner))
    return runs, []


def _seize(config: Config, lang: str, rest: str, today: date) -> o.Seize:
    main, _, tail = rest.partition(";")
    runs, after = _owned_runs(config, lang, _TOKEN.findall(main))
    _, parts = _split_connectives(after, only=_CONNECTIVES_ON_CASE)
    # After ";" comes the description; OWNER, BY and SEIZED are still recognised there,
    # so an owner's name and number never end up in the (public) description.
    words, more = _split_connectives(tail.split(), only=_AFTER_DESCRIPTION, taken=frozenset(parts))
    parts.update(more)
    shared = " ".join(words).strip()
    # One OWNER after all the lots is the owner of them all (the case's); OWNERs written
    # after lots among others are each the owner of the lots before it.
    one_owner = len(runs) == 1 or (len(runs) == 2 and not runs[1][0] and runs[1][1] is None)
    if one_owner and runs[0][1] is not None:
        if "owner" in parts:
            raise ParseError("owner_of_lots")
        parts["owner"] = runs[0][1]
    lots: list[o.SeizeLot] = []
    for run, owner_words in runs:
        owner, phone = ("", None)
        if owner_words is not None and not one_owner:
            owner, phone = name_and_phone(" ".join(owner_words), config.phone_region)
            if not owner:
                raise ParseError("owner_of_lots")
        for lot in _lots(config, lang, run):
            if not lot.description:
                lot = replace(lot, description=shared)
            lots.append(replace(lot, owner=owner, owner_phone=phone))
    if not lots:
        raise ParseError("missing_cattle")
    place = " ".join(parts.get("at", [])).strip(" ,")
    if not place:
        raise ParseError("missing_place")
    on, at = _date_time(parts["on"], today) if "on" in parts else (None, None)
    seized_on = _one_date(parts["seized"], today) if "seized" in parts else None
    owner, phone = name_and_phone(" ".join(parts.get("owner", [])), config.phone_region)
    return o.Seize(
        lang=lang,
        lots=tuple(lots),
        place=place,
        on=on,
        at=at,
        seizer=" ".join(parts.get("by", [])).strip(" ,"),
        description=shared,
        owner=owner,
        owner_phone=phone,
        seized_on=seized_on,
    )


def name_and_phone(text: str, region: str) -> tuple[str, str | None]:
    """``Ravi, Chathamangalam 98470 12345`` -> ("Ravi, Chathamangalam", "+919847012345").

    A run of five digits or more is the telephone number of the owner or buyer named (a
    house number is shorter): it must be a valid mobile number (``normalize_phone``),
    else ParseError naming the fault; a second number is refused rather than dropped.
    """
    runs = phone_runs(text)
    name = text
    for run in runs:
        name = name.replace(run, " ", 1)
    name = " ".join(name.split()).strip(" ,")
    if not runs:
        return name, None
    if len(runs) > 1:
        raise ParseError("phone_two_numbers", text=" ".join(runs))
    try:
        return name, normalize_phone(runs[0], region)
    except PhoneError as exc:
        raise ParseError(exc.code, **exc.facts) from None


def _one_date(tokens: list[str], today: date) -> date:
    if len(tokens) != 1:
        raise ParseError("bad_date", text=" ".join(tokens))
    return parse_date(tokens[0].strip(",."), today)


def _case_number(raw: list[str]) -> tuple[str, list[str]]:
    """The case number at the start of ``raw`` (``KNM-17``, ``knm 17``) and what follows."""
    bare = [t.strip(".,;:!?") for t in raw]
    if not any(bare):
        raise ParseError("missing_case")
    if _CASE_LIKE.match(bare[0]):
        return bare[0].upper(), raw[1:]
    if len(bare) > 1 and bare[0].isalpha() and bare[1].isdigit():
        return f"{bare[0]}-{bare[1]}".upper(), raw[2:]
    raise ParseError("missing_case", text=bare[0][:20] or raw[0][:20])


def _reason(tokens: list[str]) -> tuple[list[str], str]:
    """The tokens before BECAUSE and the reason after it; no reason -> ParseError."""
    before, parts = _split_connectives(tokens, only=frozenset({"because"}))
    reason = " ".join(parts.get("because", [])).strip(" ,.")
    if not reason:
        raise ParseError("missing_reason")
    return before, reason


def _correct(config: Config, lang: str, rest: str, today: date) -> o.Correct:
    """``CORRECT <case> <field> <value> BECAUSE <reason>`` (s.7)."""
    case, tokens = _case_number(_TOKEN.findall(rest))
    before, reason = _reason(tokens)
    name = field_of(before[0]) if before else None
    if name is None:
        raise ParseError("unknown_field", word=before[0] if before else "")
    value = before[1:]
    text = " ".join(value).strip(" ,")
    base = o.Correct(lang=lang, case=case, fact=name, reason=reason)
    if name == "cattle":
        lots = _lots(config, lang, value)
        if not lots:
            raise ParseError("missing_cattle")
        return replace(base, lots=tuple(lots))
    if name == "brought":
        on, at = _date_time(value, today)
        return replace(base, on=on, at=at)
    if name == "seized":
        return replace(base, seized_on=_one_date(value, today))
    if name == "owner":
        lot = None
        if value and _connective(value[0]) == "lot":  # OWNER LOT <n> <name>: that lot's
            lot = parse_count(value[1] if len(value) > 1 else "")
            value = value[2:]
        owner, phone = name_and_phone(" ".join(value), config.phone_region)
        if not owner and phone is None:
            raise ParseError("missing_person")
        return replace(base, owner=owner, owner_phone=phone, lot=lot)
    if not text:
        raise ParseError("missing_place" if name == "place" else "missing_person")
    return replace(base, text=text)


def _void(lang: str, rest: str) -> o.Void:
    """``VOID <case> BECAUSE <reason>``: a case entered by mistake."""
    case, tokens = _case_number(rest.split())
    _, reason = _reason(tokens)
    return o.Void(lang=lang, case=case, reason=reason)


@dataclass(frozen=True, slots=True)
class Parsed:
    """A line as read: the order, the command word as typed, and how it was read."""

    order: Order
    #: The word as the sender typed it (without quotes).
    typed: str = ""
    #: The command word it was read as when the typed word is one letter away from it.
    read_as: str | None = None

    @property
    def in_latin_letters(self) -> bool:
        """A Malayalam word written in Latin letters (Manglish: ``pizha``)."""
        return self.order.lang == "ml" and self.typed.isascii()


def parse(text: str, config: Config, today: date) -> Order:
    """Parse one line. Unknown words, a missing case number, a bad count, ... -> ParseError."""
    return read_line(text, config, today).order


def _tidy(text: str, codes: frozenset[str]) -> list[str]:
    """The words of ``text``: quotes around each dropped, a question mark at the end
    dropped, a case number spelled in other letters read (``case_letters``)."""
    words = [w.strip(_QUOTES) for w in text.split()]
    words = [w for w in words if w]
    if len(words) > 1 or (words and words[0] != "?"):
        while len(words) > 1 and words[-1] == "?":
            words.pop()
        while words and words[-1].endswith("?") and words[-1] != "?":
            words[-1] = words[-1].rstrip("?")
        if words and words[0] != "?":
            words[0] = words[0].strip("?")
        words = [w for w in words if w]
    # A case number is one of the first three words ("WORD CASE", "CASE WORD", "CASE").
    return [latin_case(w, codes) if i < 3 else w for i, w in enumerate(words)]


def _case_first(words: list[str], codes: frozenset[str]) -> int:
    """How many words at the start make a case number of a configured pound
    (``KNM-17``: 1, ``KNM 17``: 2), or 0."""
    bare = [w.strip(".,;:!") for w in words[:2]]
    if bare and _CASE_LIKE.match(bare[0]):
        letters = re.match(r"[A-Za-z]+", bare[0])
        if letters and letters[0].upper() in codes:
            return 1
    if len(bare) == 2 and bare[0].upper() in codes and bare[1].isdigit():
        return 2
    return 0


def read_line(text: str, config: Config, today: date) -> Parsed:
    """``parse``, and how the line was read (``Parsed``)."""
    if len(text) > MAX_LENGTH:
        raise ParseError("too_long")
    printable = text if text.isprintable() else "".join(c if c.isprintable() else " " for c in text)
    if not printable.strip():
        raise ParseError("empty")
    codes = frozenset(code.upper() for code in config.pounds)
    words = _tidy(printable, codes)
    if not words:
        raise ParseError("empty")
    first, rest = words[0], words[1:]
    found = keyword_of(first.lstrip("/"))
    read_as = None
    if found is None:
        width = _case_first(words, codes)
        if width and len(words) == width:  # a case number alone: its dues
            return Parsed(o.Dues(lang="en", case=_case_number(words)[0]), typed=first)
        if width and len(words) > width:  # the case number before the word
            first, rest = words[width], [*words[:width], *words[width + 1 :]]
            found = keyword_of(first)
    if found is None:
        close = close_keyword(first.lstrip("/"))
        if close is None:
            raise ParseError("unknown_command", word=first[:20])
        found, read_as = close[:2], close[2]
    name, lang = found
    if name in _NEVER_ASKED and "?" in printable:  # "STOP?" asks; it stops nothing
        raise ParseError("unknown_command", word=first[:20])
    if name == "lang":  # LANG ml, or a language's name alone: english
        named = None if rest else language_named(first)
        choice = named or _language(rest)
        return Parsed(o.Lang(lang=lang, choice=choice), typed=first, read_as=read_as)
    order = _order(name, lang, " ".join(rest), config, today)
    return Parsed(order, typed=first, read_as=read_as)


def _order(name: str, lang: str, rest: str, config: Config, today: date) -> Order:
    if name == "seize":
        return _seize(config, lang, rest, today)
    if name == "correct":
        return _correct(config, lang, rest, today)
    if name == "void":
        return _void(lang, rest)
    if name == "find":
        words = tuple(w.strip(".,;:!?") for w in rest.split() if w.strip(".,;:!?"))
        if not words:
            raise ParseError("missing_words")
        return o.Find(lang=lang, words=words[:6])
    if name not in _CASE_COMMANDS:
        return ORDERS[name](lang=lang)
    return _case_command(name, lang, rest, today, config.phone_region)


def _language(rest: list[str]) -> str:
    """The language LANG asks for: its code or its name (``ml``, ``malayalam``)."""
    choice = language_named(rest[0]) if rest else None
    if choice is None:
        raise ParseError("unknown_lang", text=" ".join(rest)[:10])
    return choice


class _OnCase(TypedDict):
    """What every order on a case carries."""

    lang: str
    case: str
    on: date | None


#: The owner's questions: asked without a case number, they are about the newest open
#: case that names the sender's number (``bot.conversation.reply.handle_text``).
_ASKED_OF_A_NUMBER: Final = frozenset({"dues", "deposit", "status"})


def _case_command(name: str, lang: str, rest: str, today: date, region: str) -> o.CaseOrder:
    # Punctuation around the case number is noise; inside places and names (commas
    # between places, "Ayesha, Chathamangalam") it is kept.
    if name in _ASKED_OF_A_NUMBER and not rest.strip(" .,;:!?"):
        order = ORDERS[name]
        assert issubclass(order, o.CaseOrder)
        return order(lang=lang, case="")
    # "KNM-17", "knm 17": take one or two tokens as the case number.
    number, tokens = _case_number(rest.split())
    tokens = [t for t in tokens if t.strip(".,;:!?")]
    if tokens:
        tokens[-1] = tokens[-1].rstrip(".!?")
    only = _CONNECTIVES_OF.get(name, None if name in _BY_LOT else _CONNECTIVES_ON_CASE)
    head, parts = _split_connectives(tokens, only)
    lot = None
    if "lot" in parts:  # LOT <n> [amount]: the amount may follow the lot's number
        lot_words = parts.pop("lot")
        lot = parse_count(lot_words[0] if lot_words else "")
        head = [*head, *lot_words[1:]]
    on = _date_time(parts["on"], today)[0] if "on" in parts else None
    case = _OnCase(lang=lang, case=number.upper(), on=on)
    if name == "notice":
        places = tuple(p.strip() for p in " ".join(parts.get("at", [])).split(",") if p.strip())
        return o.Notice(**case, places=places)
    expenses = parse_amount(" ".join(parts["expenses"])) if parts.get("expenses") else None
    if name == "auction":
        if on is None:
            raise ParseError("bad_date", text="")
        return o.Auction(**case, place=" ".join(parts.get("at", [])).strip(), expenses=expenses)
    if name in ("sold", "unsold"):
        if len(head) < 2:
            raise ParseError("bad_count", text=" ".join(head))
        lot, count = parse_count(head[0]), parse_count(head[1])
        if name == "unsold":
            return o.Unsold(**case, lot=lot, count=count)
        if len(head) < 3:
            raise ParseError("bad_amount", text="")
        # TO <name>, <residence> [<phone>] (s.18: who bought, and from where)
        buyer, phone = name_and_phone(" ".join(parts.get("to", [])), region)
        who, _, residence = buyer.partition(",")
        if not who.strip(" ,") or not residence.strip(" ,"):
            raise ParseError("missing_buyer")
        return o.Sold(
            **case,
            lot=lot,
            count=count,
            price=parse_amount(head[2]),
            buyer=who.strip(" ,"),
            residence=residence.strip(" ,"),
            buyer_phone=phone,
            declared="declared" in parts,
        )
    if name == "photo":  # PHOTO <case> [lot]: the picture comes with it (bot.conversation.photos)
        return o.Photo(**case, lot=parse_count(head[0]) if head else None)
    if name in ("paid", "deposited"):  # the amount given, if any: checked against the dues
        paid = o.Paid if name == "paid" else o.Deposited
        if not head:
            return paid(**case, lot=lot)
        try:
            return paid(**case, amount=parse_amount(" ".join(head)), lot=lot)
        except ParseError:
            raise ParseError("bad_paid_amount", text=" ".join(head)) from None
    if name == "refused":
        return o.Refused(**case, lot=lot)
    if name == "settle":
        spent = parse_amount(head[0]) if head else expenses
        return o.Settle(**case, expenses=spent or Money.zero())
    if name == "receipt":
        person = " ".join(parts.get("by", head)).strip()
        if not person:
            raise ParseError("missing_person")
        return o.Receipt(**case, received_by=person)
    if name == "dispose":
        return _dispose(case, head, parts)
    if name == "outcome":
        found = outcome_of(head[0]) if len(head) == 1 else None
        reference = " ".join(parts.get("ref", [])).strip()
        if found is None or not reference:
            raise ParseError("missing_outcome", text=" ".join(head))
        return o.Outcome(**case, outcome=found, reference=reference)
    if name == "claimed":
        person = " ".join(parts.get("by", head)).strip()
        if not person:
            raise ParseError("missing_person")
        return o.Claimed(**case, claimant=person)
    if name == "reject":  # REJECT <case> [BY <claimant>] REF <decision>
        reference = " ".join(parts.get("ref", head)).strip()
        if not reference:
            raise ParseError("missing_reference")
        return o.Reject(**case, reference=reference, claimant=" ".join(parts.get("by", [])).strip())
    if name == "claim":  # CLAIM <case> BY <name> REF <ref> [PREFERRED <date>] [ON <date>]
        person = " ".join(parts.get("by", [])).strip()
        reference = " ".join(parts.get("ref", [])).strip()
        if not person or not reference:
            raise ParseError("missing_person")
        preferred = _one_date(parts["preferred"], today) if "preferred" in parts else None
        return o.Claim(**case, claimant=person, reference=reference, preferred_on=preferred)
    order = ORDERS[name]
    assert issubclass(order, o.CaseOrder)
    return order(**case)


def _dispose(case: _OnCase, head: list[str], parts: dict[str, list[str]]) -> o.Dispose:
    """``DISPOSE <case> <lot> <heads> [<proceeds>] BY <who ordered> REF <order>
    [HOW <manner>]`` (s.13(3) proviso)."""
    if len(head) < 2:
        raise ParseError("bad_count", text=" ".join(head))
    lot, count = parse_count(head[0]), parse_count(head[1])
    if len(head) > 3:
        raise ParseError("bad_amount", text=" ".join(head[2:]))
    proceeds = parse_amount(head[2]) if len(head) == 3 else Money.zero()
    ordered_by = " ".join(parts.get("by", [])).strip(" ,")
    reference = " ".join(parts.get("ref", [])).strip(" ,")
    if not ordered_by or not reference:
        raise ParseError("missing_order")
    manner = " ".join(parts.get("how", [])).strip(" ,")
    return o.Dispose(
        **case,
        lot=lot,
        count=count,
        proceeds=proceeds,
        ordered_by=ordered_by,
        reference=reference,
        manner=manner,
    )
