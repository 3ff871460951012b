"""Finding the DLT templates of poundbot's SMS by rendering them with marked slots.

Every SMS is made of catalog messages whose ``%(name)s`` placeholders are filled with
data. A ``ProbeTranslator`` returns each translation with its placeholders marked, so
a rendered SMS shows which parts are the catalog's fixed text and which are data:

- each placeholder's value is framed ``SLOT name SEP value END``; a value that is itself
  a catalog message (a next step, the list of cattle with its commas) is fixed text with
  its own slots, so only the innermost values (an amount, a date, a name) are slots;
- ``leaf`` frames a value that is data however it was made (``48 cows`` is a count and
  a kind's name, made through ngettext): one slot; ``literal`` frames a value that is
  fixed text though code made it (an example command line): never a slot;
- each catalog message starts with ``MSG id``: the sequence of the messages an SMS is
  made of names its template the same way in every language.

``skeleton`` turns a marked text into a template: its *head*, the SMS's first catalog
message (with the next ones while it has fewer than ``MIN_FIXED`` fixed characters),
is the fixed text, with a ``{#var#}`` for each of its placeholders (whatever fills it:
data, or a catalog message such as a next step), each number (a section, ``13(1)``:
one template serves every section and every Act) and each office that holds a power
of the Act, with its case ending (``the local authority``, ``തദ്ദേശ സ്ഥാപനത്തിന്``: an
Act that names another office fills the same template); the rest of the SMS (the sentences
code joins after the head) is one variable group, which may be empty. Both plural
forms of a message are one template: the words they differ in are a variable
(``_forms``). While a ``Probe`` collects (``collecting``), ``sms_fit`` reports every
wording it is offered, chosen or not: the registry holds the wordings a shorter case
would use too. Outside a probe the markers
never appear: the plain ``Translator`` is used and ``leaf`` returns its text.

Why it is long: the markers, the translator that sets them and the reading of them
(``skeleton``) are one format; split, each half would have to know the other's.
"""

from __future__ import annotations

import contextvars
import difflib
import functools
import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final, Literal

from bot.i18n.catalogs import SMS_RENDERING, Translator, for_sms
from bot.support.dlt import PART

__all__ = [
    "MIN_FIXED",
    "NEXT_SLOT",
    "PART",
    "SLOT_CHARS",
    "URL_SLOT",
    "Choice",
    "Forms",
    "Probe",
    "ProbeTranslator",
    "Skeleton",
    "collecting",
    "in_sms",
    "leaf",
    "literal",
    "offer",
    "plain",
    "probe_choice",
    "probing",
    "rendering_sms",
    "skeleton",
]

SLOT: Final = "\x01"
SEP: Final = "\x1f"
END: Final = "\x02"
LEAF: Final = "\x03"
LEAF_END: Final = "\x04"
MSG: Final = "\x05"
MSG_END: Final = "\x06"
LIT: Final = "\x07"
LIT_END: Final = "\x08"
_MARKS: Final = str.maketrans("", "", SLOT + END + LEAF + LEAF_END + LIT + LIT_END)
_MSG_ID: Final = re.compile(f"{MSG}[0-9a-f]+{MSG_END}")
_SLOT_NAME: Final = re.compile(f"[{SLOT}{LEAF}][a-z_0-9+]*{SEP}")
_PLACEHOLDER: Final = re.compile(r"%\((?P<name>[a-z_0-9]+)\)[-#0 +]*\d*(?:\.\d+)?[sdif]")

Forms = Literal["natural", "one", "other"]
Choice = Literal["natural", "first", "last"]


def plain(text: str) -> str:
    """``text`` without the probe's markers (itself when there are none)."""
    if SLOT not in text and LEAF not in text and MSG not in text and LIT not in text:
        return text
    return _SLOT_NAME.sub("", _MSG_ID.sub("", text)).translate(_MARKS)


def _id(*parts: str) -> str:
    return hashlib.sha1("\x00".join(parts).encode()).hexdigest()[:10]


_WORDS: Final = re.compile(r"\S+\s*")


def _letters(words: list[str]) -> int:
    return len("".join(_PLACEHOLDER.sub("", "".join(words)).split()))


def _forms(text: str, other: str) -> str:
    """``text`` with each stretch of words it differs in from ``other`` (the other
    plural form of the message) framed as a slot (empty where only ``other`` has
    words): "%(n)d head is" and "%(n)d heads are" are one template, "{#var#} head
    {#var#}"."""
    if text == other:
        return text
    words, others = _WORDS.findall(text), _WORDS.findall(other)
    ops = difflib.SequenceMatcher(None, words, others, autojunk=False).get_opcodes()
    same = [w for op, i1, i2, _, _ in ops if op == "equal" for w in words[i1:i2]]
    if _letters(same) * 2 < max(_letters(words), _letters(others)):
        return text  # the forms differ too much: a template each
    out = []
    for op, i1, i2, _, _ in ops:
        stretch = "".join(words[i1:i2])
        out.append(stretch if op == "equal" else f"{SLOT}form{SEP}{stretch}{END}")
    return "".join(out)


def _mark(msgid: str, translated: str) -> str:
    framed = _PLACEHOLDER.sub(
        lambda m: f"{SLOT}{m['name']}{SEP}{m[0]}{END}", translated.replace("%%", "\x00")
    )
    return f"{MSG}{msgid}{MSG_END}{framed}".replace("\x00", "%%")


@dataclass(frozen=True, slots=True)
class ProbeTranslator(Translator):
    """A translator whose translations carry the probe's markers.

    ``forms`` picks the plural form: the one ``n`` asks for (``natural``), or always the
    singular (``one``) or the plural (``other``), so that both wordings of a message
    are found on the same data."""

    forms: Forms = "natural"

    @classmethod
    def of(cls, tr: Translator, forms: Forms = "natural") -> ProbeTranslator:
        return cls(tr.lang, tr.locale, tr.translations, tr.act, forms)

    def gettext(self, message: str) -> str:  # a probe finds SMS templates: GSM-7 in English
        return _mark(_id(message), for_sms(self.lang, Translator.gettext(self, message), True))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if self.forms != "natural":
            n = 1 if self.forms == "one" else 2
        text = for_sms(self.lang, Translator.ngettext(self, singular, plural, n), True)
        other = for_sms(
            self.lang, Translator.ngettext(self, singular, plural, 2 if n == 1 else 1), True
        )
        # One template for both forms: the words they differ in are a variable.
        return _mark(_id(singular, plural), _forms(text, other))

    def leaf(self, text: str, name: str = "data") -> str:
        return f"{LEAF}{name}{SEP}{plain(text)}{LEAF_END}"


def leaf(tr: Translator, text: str, name: str = "data") -> str:
    """``text`` as one slot of a template however it was made (a count and a kind)."""
    if isinstance(tr, ProbeTranslator):
        return tr.leaf(text, name)
    return text


def literal(tr: Translator, text: str) -> str:
    """``text`` as fixed text of a template though code made it (an example command
    line, made of the language's command words): never a slot."""
    if isinstance(tr, ProbeTranslator):
        return f"{LIT}{plain(text)}{LIT_END}"
    return text


#: Characters one variable holds when the templates are made (the portals' default;
#: ``bot.support.dlt.DEFAULT_SLOT_LIMIT``): a longer value takes several side by side.
SLOT_CHARS: Final = 30
#: Fixed characters (not spaces, not numbers) the head of a template has at least: a
#: template of little else than variables is refused by the portals, so a head as short
#: as "Case {#var#}." takes in the next sentence too.
MIN_FIXED: Final = 5
#: A number in fixed text (a section, ``13(1)``; a count): a variable, so that one
#: template serves every section and every Act. A paragraph of an unnumbered section, as
#: the Cattle-trespass Act, 1871 is cited (``14, para 1``, ``16, para 3(e)``; the word
#: as ``bot.i18n.common.cite`` writes it in each language), is one number with its
#: section: the Act's citation fills the template a Kerala section does.
_NUMBER: Final = re.compile(
    r"\d+(?:\([0-9a-z]+\))*"
    r"(?:, (?:para|ഖണ്ഡിക|பத்தி|ಕಂಡಿಕೆ) \d+(?:\([0-9a-z]+\))*)?"
)
#: The rest of a word after an office's name: its case ending in Malayalam, Tamil and
#: Kannada (``തദ്ദേശ സ്ഥാപനത്തിന്``), up to a space or a mark.
_ENDING: Final = r"[^\s.,;:()\"“”'‘’]*"
#: The offices that hold a power of the Act, as the catalogs name them, with their case
#: endings: a variable, so that an Act that names another office (the Magistrate of the
#: District in the Act of 1871) fills the same template.
_OFFICE: Final = re.compile(
    "|".join(
        (
            r"(?:the )?local authority",
            r"(?:the )?Director\b",
            "തദ്ദേശ സ്ഥാപന" + _ENDING,
            "ഡയറക്ട[റർ]" + _ENDING,
            "உள்ளாட்சி அமைப்" + _ENDING,
            "இயக்குந[ரர்]" + _ENDING,
            "ಸ್ಥಳೀಯ ಸಂಸ್ಥೆ" + _ENDING,
            "ನಿರ್ದೇಶಕ" + _ENDING,
        )
    )
)
#: What of a template's fixed text is a variable: a number or an office.
_FACT: Final = re.compile(f"(?:{_OFFICE.pattern})|(?:{_NUMBER.pattern})")
#: The name of the variable of the sentences after a template's head.
NEXT_SLOT: Final = "next"
#: The name of the variable of a number in the catalog's text.
NUMBER_SLOT: Final = "number"
#: The name of the variable of an office in the catalog's text.
OFFICE_SLOT: Final = "office"


def _width(value: str) -> int:
    """The variables a value takes side by side (at least one)."""
    return max(1, -(-len(value) // SLOT_CHARS))


@dataclass(frozen=True, slots=True)
class Skeleton:
    """A template found in a marked text: its head (the first catalog message of the
    SMS, with the next ones while it has too little fixed text), whose fixed text is
    the template's, and the rest of the SMS (``tail``), one variable group.

    ``pieces`` are the head's fixed parts around its variables (one more than the
    variables); each variable holds a placeholder's value, whatever made it (data, or a
    catalog message the placeholder took), or a number of the fixed text."""

    pieces: tuple[str, ...]
    slots: tuple[str, ...]  # the name of each variable of the head, in order
    values: tuple[str, ...]  # their values in the text probed
    messages: tuple[str, ...]  # the ids of the catalog messages of the head
    tail: str = ""  # the sentences after the head, as the text probed has them

    @property
    def key(self) -> str:
        """The template's name, the same in every language: its head's messages' ids."""
        return _id(*self.messages)

    @property
    def shape(self) -> str:
        """The head's text with one ``{#var#}`` a variable (a link: ``{#url#}``)."""
        return self.text_with(tuple(1 for _ in self.slots), 0)

    def text_with(self, widths: tuple[int, ...], tail: int) -> str:
        """The template's text: each variable as wide as ``widths`` says (0: a link),
        then ``tail`` variables for the sentences after the head (none: 0)."""
        out = [self.pieces[0]]
        for name, width, piece in zip(self.slots, widths, self.pieces[1:], strict=True):
            out.append(URL_VAR if name == URL_SLOT else VAR * max(width, 1))
            out.append(piece)
        return "".join(out) + VAR * tail

    @property
    def widths(self) -> tuple[int, ...]:
        """The variables each slot takes for the values probed."""
        return tuple(_width(v) for v in self.values)

    @property
    def tail_width(self) -> int:
        return -(-len(self.tail) // SLOT_CHARS)

    @property
    def text(self) -> str:
        """The template's text as wide as the values probed."""
        return self.text_with(self.widths, self.tail_width)

    @property
    def fixed(self) -> str:
        """The fixed text, without spaces."""
        return "".join("".join(self.pieces).split())


VAR: Final = "{#var#}"
#: A slot holding a link: the portals' URL variable (``bot.support.dlt.URL_VAR``).
URL_VAR: Final = "{#url#}"
#: The name of a ``leaf`` that is a link.
URL_SLOT: Final = "url"


@dataclass(slots=True)
class _Open:
    """A slot being read: its name, where its text starts."""

    name: str
    start: int


def _enough(fixed: list[str]) -> bool:
    text = _FACT.sub("", "".join(fixed))
    return len("".join(text.split())) >= MIN_FIXED


@functools.lru_cache(maxsize=8192)
def skeleton(marked: str) -> Skeleton:
    """The template of a marked text: the head's fixed text with a variable for each of
    its placeholders (whatever fills it) and each number, then the rest of the text as
    the tail. Immutable, so kept for the texts read last: building the registry probes
    the same texts many times over."""
    pieces: list[list[str]] = [[]]
    slots: list[str] = []
    values: list[str] = []
    messages: list[str] = []
    text: list[str] = []  # the plain text of the slot being read
    stack: list[_Open] = []
    i, n = 0, len(marked)
    tail_at = n
    while i < n:
        c = marked[i]
        if c == MSG:
            j = marked.index(MSG_END, i)
            if not stack and messages and _enough([c for piece in pieces for c in piece]):
                tail_at = i
                break
            if not stack:
                messages.append(marked[i + 1 : j])
            i = j + 1
        elif c == SLOT:
            j = marked.index(SEP, i)
            if not stack:
                text = []
            stack.append(_Open(marked[i + 1 : j], len(text)))
            i = j + 1
        elif c == END:
            slot = stack.pop()
            if not stack:
                slots.append(slot.name)
                values.append("".join(text))
                pieces.append([])
            i += 1
        elif c in (LIT, LIT_END):
            i += 1
        elif c == LEAF:
            j = marked.index(SEP, i)
            k = marked.index(LEAF_END, j)
            if stack:
                text.append(marked[j + 1 : k])
            else:
                slots.append(marked[i + 1 : j].rstrip("+"))
                values.append(marked[j + 1 : k])
                pieces.append([])
            i = k + 1
        else:
            (text if stack else pieces[-1]).append(c)
            i += 1
    tail = plain(marked[tail_at:])
    # The numbers and the offices of the fixed text are variables too.
    out_pieces: list[str] = []
    out_slots: list[str] = []
    out_values: list[str] = []
    for p, piece in enumerate(pieces):
        fixed = "".join(piece)
        if p == len(pieces) - 1:
            # The space before the tail goes with it (a tail may be empty).
            stripped = fixed.rstrip()
            tail = fixed[len(stripped) :] + tail
            fixed = stripped
        parts = _FACT.split(fixed)
        facts = _FACT.findall(fixed)
        out_pieces.append(parts[0])
        for fact, after in zip(facts, parts[1:], strict=True):
            out_slots.append(NUMBER_SLOT if _NUMBER.fullmatch(fact) else OFFICE_SLOT)
            out_values.append(fact)
            out_pieces.append(after)
        if p < len(slots):
            out_slots.append(slots[p])
            out_values.append(values[p])
    return Skeleton(tuple(out_pieces), tuple(out_slots), tuple(out_values), tuple(messages), tail)


@dataclass
class Probe:
    """The wordings offered while probing, marked, with the family they were found in.

    ``choice`` says which wording a renderer takes where it chooses by length
    (``sms_fit.choose``): the one that fits (``natural``), always the richest
    (``first``) or always the shortest (``last``), so that a wording chosen inside
    another (the cattle by kind or by count) is found both ways."""

    family: str = ""
    choice: Choice = "natural"
    found: list[tuple[str, str]] = field(default_factory=list)

    def add(self, marked: str) -> None:
        for part in marked.split(PART):  # each part of an SMS is a template of its own
            if part.strip():
                self.found.append((self.family, part))


_PROBE: contextvars.ContextVar[Probe | None] = contextvars.ContextVar("dlt_probe", default=None)


@contextmanager
def collecting(probe: Probe) -> Iterator[Probe]:
    """Report to ``probe`` every SMS wording offered while the block runs."""
    token = _PROBE.set(probe)
    try:
        yield probe
    finally:
        _PROBE.reset(token)


def offer(marked: str) -> None:
    """An SMS wording a renderer considered (chosen or not), if a probe is collecting."""
    probe = _PROBE.get()
    if probe is not None:
        probe.add(marked)


_SMS = SMS_RENDERING  # the translators write an English SMS in GSM-7 by it


@contextmanager
def rendering_sms(on: bool = True) -> Iterator[None]:
    """Mark the block as rendering an SMS (``sms_fit.same_facts`` does; a reply to an
    SMS, ``bot.conversation.reply``) or, with ``on`` False, a message for a chat (names whole)."""
    token = _SMS.set(on)
    try:
        yield
    finally:
        _SMS.reset(token)


def in_sms() -> bool:
    """Whether an SMS is being rendered (or probed): names go into DLT variables."""
    return _SMS.get() or probing()


def probing() -> bool:
    """Whether a probe is collecting."""
    return _PROBE.get() is not None


def probe_choice(first_fit: int, count: int) -> int:
    """The wording to take while probing (``Probe.choice``); ``first_fit`` outside."""
    probe = _PROBE.get()
    if probe is None or probe.choice == "natural":
        return first_fit
    return 0 if probe.choice == "first" else count - 1
