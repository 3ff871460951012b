"""DLT (TRAI's Distributed Ledger Technology rules): every SMS to an Indian number names
the sender's registered entity and the registered content template it matches.

``DltStamp`` is what an SMS provider needs to send one message under DLT; which template a
message is, and whether its text matches, is decided before the provider is called.

The templates are poundbot's SMS as the catalogs write them, with ``{#var#}`` where data
goes (``i18n_tools.dlt_templates`` finds them by rendering every SMS with its slots marked;
``make messages`` writes them to ``locales/dlt-templates.json``). A template is named by
its *kind* (the same in every language) and its language; ``[dlt.templates]`` in the
configuration gives the id the DLT portal gave each ``kind.lang``.

The check before a send (``DltPolicy.stamp``): the text must be one of the templates,
every fixed part verbatim and each ``{#var#}`` at most ``slot_limit`` characters (30 on
the portals unless configured); the template must have an id. Otherwise the message is
not sent (``DltRefusal`` with the reason). The check applies when ``[dlt] entity_id`` is
set: an installation outside India (Twilio, no DLT) has none and sends as before.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final, Literal, NamedTuple

from bot.support.resources import data_dir

__all__ = [
    "CATEGORIES",
    "DEFAULT_SLOT_LIMIT",
    "MAX_TEMPLATES",
    "REGISTRY_PATH",
    "URL_LIMIT",
    "URL_VAR",
    "VAR",
    "DltPolicy",
    "DltRefusal",
    "DltStamp",
    "Registry",
    "Template",
    "registry",
    "upload_rows",
]

#: Between the parts of an SMS reply sent as SMS of their own (``sms_fit.in_parts``):
#: each part is one DLT template; the outbox queues one SMS a part.
PART: Final = "\x0c"

#: The variable of a DLT content template, as every portal writes it.
VAR: Final = "{#var#}"
#: A variable that holds a link (the portals' URL tag: the link must start with an
#: address whitelisted on the portal, not fit 30 characters).
URL_VAR: Final = "{#url#}"
#: Characters a link may take: poundbot's longest (a sign-in link, a printable notice)
#: is about 100 with a long public address.
URL_LIMIT: Final = 160
_VARIABLE: Final = re.compile(re.escape(VAR) + "|" + re.escape(URL_VAR))
#: Characters one variable may carry on the portals unless they say otherwise.
DEFAULT_SLOT_LIMIT: Final = 30
#: The most templates poundbot registers in one language (``make messages-report``
#: prints each language's count; a test holds it).
MAX_TEMPLATES: Final = 250
#: Where ``make messages`` writes the templates.
REGISTRY_PATH: Final = data_dir("locales") / "dlt-templates.json"

Category = Literal["service-implicit", "service-explicit"]
#: The DLT categories poundbot's SMS fall in, as the portals name them.
CATEGORIES: Final[Mapping[str, str]] = {
    "service-implicit": "Service Implicit",
    "service-explicit": "Service Explicit",
}


class DltStamp(NamedTuple):
    """The DLT identifiers of one outbound SMS: the principal entity's id and the id the
    DLT portal gave the template the text matches."""

    entity_id: str
    template_id: str


class DltRefusal(Exception):
    """An SMS that cannot go out under DLT: no template matches, a variable is too long,
    or the template has no id. Its message is the reason, recorded on the outbox row."""


@functools.cache
def _split(text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The fixed parts of a template's text and, between them, how many variables each
    slot takes (0: a link, ``URL_VAR``); once per text."""
    pieces = _VARIABLE.split(text)
    kinds = _VARIABLE.findall(text)
    fixed = [pieces[0]]
    widths: list[int] = []
    for kind, piece in zip(kinds, pieces[1:], strict=True):
        if kind == URL_VAR:
            widths.append(0)
            fixed.append(piece)
            continue
        if len(fixed) > 1 and fixed[-1] == "" and widths[-1] > 0:
            widths[-1] += 1  # variables written together: one wider slot
            fixed[-1] = piece
            continue
        widths.append(1)
        fixed.append(piece)
    return tuple(fixed), tuple(widths)


@functools.cache
def _slotted(text: str) -> re.Pattern[str]:
    """A template's text with a slot of any length for each variable; once per text."""
    fixed, _ = _split(text)
    return re.compile("(.*?)".join(re.escape(f) for f in fixed), re.DOTALL)


class Template(NamedTuple):
    """One DLT content template: a kind in one language, its category and its text.

    (This module's records are named tuples: ``poundbot config check`` reads a
    ``DltPolicy``, and a dataclass is slow to define.)"""

    kind: str
    lang: str
    category: Category
    text: str  # with {#var#} for each slot
    slots: tuple[str, ...]  # the name of each slot, in order

    @property
    def name(self) -> str:
        """The template's name on the portal: ``kind.lang``."""
        return f"{self.kind}.{self.lang}"

    @property
    def unicode(self) -> bool:
        """Whether the text goes as UCS-2 (the portals' "Unicode" content type)."""
        return not self.text.isascii()

    @property
    def _parts(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The fixed parts and, between them, how many variables each slot takes (0:
        a link, ``URL_VAR``)."""
        return _split(self.text)

    @staticmethod
    def _limit(width: int, slot_limit: int) -> int:
        return URL_LIMIT if width == 0 else slot_limit * width

    @property
    def pattern(self) -> re.Pattern[str]:
        """The text with a slot of any length for each variable."""
        return _slotted(self.text)

    @functools.lru_cache(maxsize=4)  # noqa: B019 - a few limits per template, kept with it
    def bounded(self, slot_limit: int) -> re.Pattern[str]:
        """The text with each slot at most ``slot_limit`` characters per variable (two
        slots side by side are told apart by their lengths, as a portal's check does)."""
        fixed, widths = self._parts
        out = [re.escape(fixed[0])]
        for width, after in zip(widths, fixed[1:], strict=True):
            link = r"(?=https?://)" if width == 0 else ""
            out.append(f"{link}(.{{0,{self._limit(width, slot_limit)}}}?)")
            out.append(re.escape(after))
        return re.compile("".join(out), re.DOTALL)

    @property
    def fixed_length(self) -> int:
        return len(_VARIABLE.sub("", self.text))

    def could(self, text: str) -> bool:
        """Whether ``text`` has this template's fixed parts in order (begins with the
        first, ends with the last): a quick test before the pattern, which could take
        long to fail on a text of many slots."""
        fixed, _ = self._parts
        if not text.startswith(fixed[0]) or not text.endswith(fixed[-1]):
            return False
        at = len(fixed[0])
        for piece in fixed[1:-1]:
            at = text.find(piece, at)
            if at == -1:
                return False
            at += len(piece)
        return len(fixed) == 1 or at <= len(text) - len(fixed[-1])

    def values(self, text: str) -> tuple[str, ...] | None:
        """The slots' values if ``text`` is this template's fixed text with data in its
        slots (of any length), else None."""
        if not self.could(text):
            return None
        match = self.pattern.fullmatch(text)
        return None if match is None else match.groups()

    def problem(self, text: str, slot_limit: int) -> str | None:
        """Why ``text`` is not this template within ``slot_limit``, or None."""
        values = self.values(text)
        if values is None:
            return f"the text does not match template {self.name}"
        if self.bounded(slot_limit).fullmatch(text) is not None:
            return None
        _, widths = self._parts
        for n, (value, width) in enumerate(zip(values, widths, strict=True), start=1):
            if width == 0 and not value.startswith(("https://", "http://")):
                return f"variable {n} of template {self.name} is not a link"
            if len(value) > self._limit(width, slot_limit):
                return (
                    f"variable {n} of template {self.name} has {len(value)} characters "
                    f"(limit {self._limit(width, slot_limit)})"
                )
        return f"the variables of template {self.name} do not fit {slot_limit} characters each"


class Registry:
    """Every template, by kind and language."""

    def __init__(self, templates: tuple[Template, ...]) -> None:
        self.templates = templates
        by_lang: dict[str, list[Template]] = {}
        for t in templates:
            by_lang.setdefault(t.lang, []).append(t)
        for found in by_lang.values():
            # The most specific first: more fixed text, then fewer slots.
            found.sort(key=lambda t: (-t.fixed_length, len(t.slots), t.kind))
        self._by_name = {t.name: t for t in templates}
        self._by_lang = by_lang

    def __repr__(self) -> str:
        return f"Registry({self.templates!r})"

    def __iter__(self) -> Iterator[Template]:
        return iter(self.templates)

    def __len__(self) -> int:
        return len(self.templates)

    @property
    def kinds(self) -> list[str]:
        return sorted({t.kind for t in self.templates})

    def only(self, langs: Iterable[str]) -> Registry:
        """The templates in ``langs`` (those a configuration's SMS go out in)."""
        wanted = set(langs)
        return Registry(tuple(t for t in self.templates if t.lang in wanted))

    def about(self, kind: str, words: int = 8) -> str:
        """A kind as an operator recognises it: the English beginning of its text, each
        variable as "…" (``"Case …: … due on … (fines …" …``)."""
        english = self.get(f"{kind}.en") or next((t for t in self if t.kind == kind), None)
        if english is None:
            return kind
        cut = " ".join(_VARIABLE.sub("…", english.text).split()).split(" ")
        return '"' + " ".join(cut[:words]) + (" …" if len(cut) > words else "") + '"'

    def get(self, name: str) -> Template | None:
        """The template named ``kind.lang``."""
        return self._by_name.get(name)

    def find(
        self, text: str, lang: str | None = None, slot_limit: int = DEFAULT_SLOT_LIMIT
    ) -> Template | None:
        """The most specific template ``text`` matches with each variable within
        ``slot_limit``, else the most specific it matches with slots of any length (whose
        ``problem`` says why it cannot go): in ``lang`` when given, else in any
        language."""
        langs = [lang] if lang else list(self._by_lang)
        loose = None
        for each in langs:
            for template in self._by_lang.get(each, ()):
                if not template.could(text):
                    continue
                if template.bounded(slot_limit).fullmatch(text) is not None:
                    return template
                if loose is None and template.values(text) is not None:
                    loose = template
        return loose

    def to_json(self) -> str:
        rows = [
            {
                "kind": t.kind,
                "lang": t.lang,
                "category": t.category,
                "slots": list(t.slots),
                "text": t.text,
            }
            for t in sorted(self.templates, key=lambda t: (t.kind, t.lang))
        ]
        import json  # here: a configuration is read without the registry

        return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Registry:
        import json

        return cls(
            tuple(
                Template(r["kind"], r["lang"], r["category"], r["text"], tuple(r["slots"]))
                for r in json.loads(text)
            )
        )


@functools.cache
def registry(path: Path = REGISTRY_PATH) -> Registry:
    """The templates ``make messages`` wrote (read once per process)."""
    return Registry.from_json(path.read_text(encoding="utf-8"))


#: The columns of the bulk upload of content templates, in the order the portals'
#: sample sheets give them: the name the entity gives the template, the type of
#: communication, its category, the content type and the text with ``{#var#}``.
UPLOAD_COLUMNS: Final = (
    "Template Name",
    "Template Type",
    "Category",
    "Content Type",
    "Template Content",
)


def upload_rows(templates: Iterable[Template]) -> list[tuple[str, ...]]:
    """One row per template in the form of ``UPLOAD_COLUMNS``."""
    return [
        (
            t.name,
            "Service",
            CATEGORIES[t.category],
            "Unicode" if t.unicode else "Text",
            t.text,
        )
        for t in sorted(templates, key=lambda t: (t.kind, t.lang))
    ]


def upload_csv(templates: Iterable[Template]) -> str:
    """The bulk-upload sheet as CSV (UTF-8, a header row)."""
    from bot.support.csv_sheet import Table, write_csv  # only the sheet needs it

    out = io.StringIO()
    write_csv(out, Table(tuple(UPLOAD_COLUMNS), [list(row) for row in upload_rows(templates)]))
    return out.getvalue()


class DltPolicy(NamedTuple):
    """What the configuration says of DLT (``[dlt]``): the entity, the template ids by
    ``kind.lang``, the characters a variable may hold."""

    entity_id: str = ""
    template_ids: Mapping[str, str] = MappingProxyType({})
    slot_limit: int = DEFAULT_SLOT_LIMIT

    @property
    def enforced(self) -> bool:
        """Whether every SMS must match a registered template (an entity is set)."""
        return bool(self.entity_id)

    def missing(self, templates: Registry) -> list[str]:
        """The ``kind.lang`` of every template without an id (of ``templates``: give
        ``Registry.only`` the configured languages)."""
        return sorted(t.name for t in templates if t.name not in self.template_ids)

    def stamp(
        self, text: str, templates: Registry, kind: str | None = None
    ) -> tuple[str, DltStamp]:
        """The template ``text`` is (its ``kind.lang``) and the stamp to send it under;
        ``DltRefusal`` with the reason when it cannot go out under DLT. ``kind`` (a
        ``kind.lang`` recorded earlier) is checked first."""
        template = templates.get(kind) if kind else None
        if template is None or template.problem(text, self.slot_limit) is not None:
            template = templates.find(text, slot_limit=self.slot_limit)
        if template is None:
            raise DltRefusal("no DLT template matches the text")
        problem = template.problem(text, self.slot_limit)
        if problem is not None:
            raise DltRefusal(problem)
        template_id = self.template_ids.get(template.name)
        if not template_id:
            raise DltRefusal(f"no DLT template id configured for {template.name}")
        return template.name, DltStamp(self.entity_id, template_id)
