"""One-line commands: text (SMS, a Telegram line, the console) to a structured command.

Pure: no I/O. ``parse`` returns a ``Command`` or raises ``ParseError`` with a stable
code the renderers translate. The words are in ``bot.words``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, time

from bot.config import Config, normalize_word
from bot.errors import BadInputError
from bot.words import CONNECTIVE_INDEX, keyword_of, outcome_of
from domain.money import Money

__all__ = [
    "MAX_LENGTH",
    "Command",
    "ParseError",
    "SeizeLot",
    "normalize_phone",
    "parse",
    "parse_date",
]

MAX_LENGTH = 1600  # ten SMS segments; anything longer is refused before parsing
_DATE = re.compile(r"^(\d{1,2})[-/.](\d{1,2})(?:[-/.](\d{2}|\d{4}))?$")
_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})$")
_CASE_LIKE = re.compile(r"^[A-Za-z]{2,6}[-/.#]?\d{1,7}$")
_PHONE = re.compile(r"^\+?[0-9]{10,13}$")


class ParseError(BadInputError):
    """The text is not a command poundbot understands; ``code`` says what is wrong."""

    def __init__(self, code: str, **facts: object) -> None:
        super().__init__(code, **facts)
        self.code = code


@dataclass(frozen=True, slots=True)
class SeizeLot:
    """``<n> <kind>`` in a SEIZE line."""

    count: int
    kind: str


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed command: its name, the language its keyword was in, and its arguments."""

    name: str
    lang: str
    case: str | None = None
    words: tuple[str, ...] = ()
    lots: tuple[SeizeLot, ...] = ()
    place: str = ""
    on: date | None = None
    at: time | None = None
    person: str = ""
    description: str = ""
    lot: int | None = None
    count: int | None = None
    amount: Money | None = None
    reference: str = ""
    places: tuple[str, ...] = field(default=())
    owner: str = ""
    owner_phone: str | None = None


_CASE_COMMANDS = {
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
    "claimed",
    "reject",
}


#: Commands whose free text (a manner of disposal) may hold other connecting words.
_CONNECTIVES_OF: dict[str, frozenset[str]] = {
    "dispose": frozenset({"by", "ref", "how", "on"}),
}


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


def _parse_time(text: str) -> time:
    match = _TIME.match(text.strip())
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise ParseError("bad_time", text=text)
    return time(int(match.group(1)), int(match.group(2)))


def _amount(text: str) -> Money:
    cleaned = text.strip().lower().removeprefix("rs").removeprefix("₹").strip(" .").replace(",", "")
    try:
        money = Money.rupees(cleaned)
    except (ValueError, TypeError):
        raise ParseError("bad_amount", text=text) from None
    if money.is_negative:
        raise ParseError("bad_amount", text=text)
    return money


def _count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise ParseError("bad_count", text=text)
    return int(text)


def _split_connectives(
    tokens: list[str], only: frozenset[str] | None = None
) -> tuple[list[str], dict[str, list[str]]]:
    """Tokens before the first connective, and the tokens after each connective
    (only the connectives in ``only``, when given: other words are text)."""
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    current: list[str] = head
    for token in tokens:
        found = CONNECTIVE_INDEX.get(normalize_word(token))
        if found is not None and only is not None and found[0] not in only:
            found = None
        if found is not None and found[0] not in parts:
            current = parts.setdefault(found[0], [])
        else:
            current.append(token)
    return head, parts


def _date_time(tokens: list[str], today: date) -> tuple[date | None, time | None]:
    if not tokens:
        raise ParseError("bad_date", text="")
    on = parse_date(tokens[0], today)
    at = _parse_time(tokens[1]) if len(tokens) > 1 else None
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


def _seize(config: Config, lang: str, rest: str, today: date) -> Command:
    main, _, description = rest.partition(";")
    head, parts = _split_connectives(main.split())
    lots: list[SeizeLot] = []
    i = 0
    while i < len(head):
        count = _count(head[i])
        code, width = _kind(config, lang, head[i + 1 :])
        lots.append(SeizeLot(count, code))
        i += 1 + width
    if not lots:
        raise ParseError("missing_cattle")
    place = " ".join(parts.get("at", [])).strip(" ,")
    if not place:
        raise ParseError("missing_place")
    on, at = _date_time(parts["on"], today) if "on" in parts else (None, None)
    owner_words = [w for w in parts.get("owner", []) if not _PHONE.match(w)]
    phones = [normalize_phone(w) for w in parts.get("owner", []) if _PHONE.match(w)]
    return Command(
        name="seize",
        lang=lang,
        lots=tuple(lots),
        place=place,
        on=on,
        at=at,
        person=" ".join(parts.get("by", [])).strip(" ,"),
        description=description.strip(),
        owner=" ".join(owner_words).strip(" ,"),
        owner_phone=phones[0] if phones else None,
    )


def normalize_phone(text: str) -> str:
    """An Indian mobile number in E.164: ``9847012345`` -> ``+919847012345``."""
    digits = text.lstrip("+")
    if text.startswith("+"):
        return "+" + digits
    if len(digits) == 10:
        return "+91" + digits
    if len(digits) == 12 and digits.startswith("91"):
        return "+" + digits
    return "+" + digits.lstrip("0")


def parse(text: str, config: Config, today: date) -> Command:
    """Parse one line. Unknown words, a missing case number, a bad count, ... -> ParseError."""
    if len(text) > MAX_LENGTH:
        raise ParseError("too_long")
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text).strip()
    if not cleaned:
        raise ParseError("empty")
    first, _, rest = cleaned.partition(" ")
    found = keyword_of(first.lstrip("/"))
    if found is None:
        raise ParseError("unknown_command", word=first[:20])
    name, lang = found
    rest = rest.strip()
    if name == "seize":
        return _seize(config, lang, rest, today)
    if name == "find":
        words = tuple(w.strip(".,;:!?") for w in rest.split() if w.strip(".,;:!?"))
        if not words:
            raise ParseError("missing_words")
        return Command(name=name, lang=lang, words=words[:6])
    if name == "lang":
        choice = rest.strip(" .").lower()[:2]
        if choice not in ("ml", "en", "ta", "kn"):
            raise ParseError("unknown_lang", text=rest[:10])
        return Command(name=name, lang=lang, words=(choice,))
    if name not in _CASE_COMMANDS:
        return Command(name=name, lang=lang)
    return _case_command(name, lang, rest, today)


def _case_command(name: str, lang: str, rest: str, today: date) -> Command:
    # Punctuation around the case number is noise; inside places and names (commas
    # between places, "Ayesha, Chathamangalam") it is kept.
    raw = rest.split()
    bare = [t.strip(".,;:!?") for t in raw]
    if not any(bare):
        raise ParseError("missing_case")
    # "KNM-17", "knm 17": take one or two tokens as the case number.
    if _CASE_LIKE.match(bare[0]):
        case, tokens = bare[0], raw[1:]
    elif len(bare) > 1 and bare[0].isalpha() and bare[1].isdigit():
        case, tokens = f"{bare[0]}-{bare[1]}", raw[2:]
    else:
        raise ParseError("missing_case", text=bare[0][:20] or raw[0][:20])
    tokens = [t for t in tokens if t.strip(".,;:!?")]
    if tokens:
        tokens[-1] = tokens[-1].rstrip(".!?")
    head, parts = _split_connectives(tokens, _CONNECTIVES_OF.get(name))
    on = _date_time(parts["on"], today)[0] if "on" in parts else None
    base = Command(name=name, lang=lang, case=case.upper(), on=on)
    if name == "notice":
        places = tuple(p.strip() for p in " ".join(parts.get("at", [])).split(",") if p.strip())
        return _replace(base, places=places)
    if name == "auction":
        if on is None:
            raise ParseError("bad_date", text="")
        return _replace(base, place=" ".join(parts.get("at", [])).strip())
    if name in ("sold", "unsold"):
        if len(head) < 2:
            raise ParseError("bad_count", text=" ".join(head))
        lot, count = _count(head[0]), _count(head[1])
        if name == "unsold":
            return _replace(base, lot=lot, count=count)
        if len(head) < 3:
            raise ParseError("bad_amount", text="")
        buyer = " ".join(parts.get("to", [])).strip()
        if not buyer:
            raise ParseError("missing_buyer")
        return _replace(base, lot=lot, count=count, amount=_amount(head[2]), person=buyer)
    if name == "settle":
        return _replace(base, amount=_amount(head[0]) if head else Money.zero())
    if name == "receipt":
        person = " ".join(parts.get("by", head)).strip()
        if not person:
            raise ParseError("missing_person")
        return _replace(base, person=person)
    if name == "dispose":
        return _dispose(base, head, parts)
    if name == "outcome":
        found = outcome_of(head[0]) if len(head) == 1 else None
        reference = " ".join(parts.get("ref", [])).strip()
        if found is None or not reference:
            raise ParseError("missing_outcome", text=" ".join(head))
        return _replace(base, words=(found,), reference=reference)
    if name == "claimed":
        person = " ".join(parts.get("by", head)).strip()
        if not person:
            raise ParseError("missing_person")
        return _replace(base, person=person)
    if name == "reject":
        reference = " ".join(parts.get("ref", head)).strip()
        if not reference:
            raise ParseError("missing_reference")
        return _replace(base, reference=reference)
    if name == "claim":
        person = " ".join(parts.get("by", [])).strip()
        reference = " ".join(parts.get("ref", [])).strip()
        if not person or not reference:
            raise ParseError("missing_person")
        return _replace(base, person=person, reference=reference)
    return base


def _dispose(base: Command, head: list[str], parts: dict[str, list[str]]) -> Command:
    """``DISPOSE <case> <lot> <heads> [<proceeds>] BY <who ordered> REF <order>
    [HOW <manner>]`` (s.13(3) proviso)."""
    if len(head) < 2:
        raise ParseError("bad_count", text=" ".join(head))
    lot, count = _count(head[0]), _count(head[1])
    if len(head) > 3:
        raise ParseError("bad_amount", text=" ".join(head[2:]))
    proceeds = _amount(head[2]) if len(head) == 3 else Money.zero()
    ordered_by = " ".join(parts.get("by", [])).strip(" ,")
    reference = " ".join(parts.get("ref", [])).strip(" ,")
    if not ordered_by or not reference:
        raise ParseError("missing_order")
    manner = " ".join(parts.get("how", [])).strip(" ,")
    return _replace(
        base,
        lot=lot,
        count=count,
        amount=proceeds,
        person=ordered_by,
        reference=reference,
        description=manner,
    )


def _replace(command: Command, **changes: object) -> Command:
    return replace(command, **changes)  # type: ignore[arg-type]
