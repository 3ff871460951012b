"""Finding every DLT template: each SMS poundbot sends, rendered with its slots marked.

The SMS are those ``sms_budget`` renders for owners (every reply, notice, refusal, the
account) at every stage on the worst-case data, the reminders of every deadline
(``bot.i18n.officers.reminders.reminder``), every SMS to keepers and officers (``staff_sms``: the
answer to each of their words, the s.13(1) report, the digest, the alerts) and the
follow-up on the pictures of a keeper's MMS (``bot.i18n.keepers.photos``). Each is
rendered under every Act (``renderings``: what an Act words otherwise is an SMS of its
own), through a ``ProbeTranslator`` in five runs (``_RUNS``: plural forms and choices by
length each way), and every wording a renderer offers is kept, chosen or not
(``dlt_probe``): a shorter case uses a richer wording than the worst case does. A
template's kind is the same in every language: its first words in English and the ids
of its head's messages. Each variable is as wide as the widest value probed (30
characters a ``{#var#}``, several side by side for more); heads that read alike in
every language are one template, and so are texts that differ in a few stretches
while keeping half their fixed text (``texts``). At most ``MAX_TEMPLATES`` a language
(``tests/unit/test_dlt_templates.py``).

``python -m i18n_tools.dlt_templates`` (run by ``make messages``) writes them to
``locales/dlt-templates.json``; ``tests/unit/test_dlt_templates.py`` checks the file is
up to date and that every rendering matches its own template.
"""

from __future__ import annotations

import difflib
import functools
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Final

from bot.adapters.photo_store import MAX_PIXELS
from bot.i18n.catalogs import LANGUAGES, Translator, translator
from bot.i18n.dlt_probe import (
    NEXT_SLOT,
    SLOT_CHARS,
    URL_SLOT,
    Choice,
    Forms,
    Probe,
    ProbeTranslator,
    Skeleton,
    collecting,
    offer,
    skeleton,
)
from bot.i18n.keepers import photos as render_photos
from bot.i18n.officers.reminders import reminder
from bot.support.dlt import REGISTRY_PATH, URL_VAR, VAR, Registry, Template
from domain.deadlines import DeadlineKind
from domain.profiles import PROFILES
from i18n_tools.sms_budget import owner_sms
from i18n_tools.staff_sms import staff_sms
from i18n_tools.worst_case import CASE_NUMBER

__all__ = ["Found", "build", "found", "main", "renderings"]

_DAY: Final = date(2026, 9, 12)
#: The probe's runs: plural forms as the data asks, all singular, all plural; each
#: choice by length as it falls, always the richest, always the shortest.
_RUNS: Final[tuple[tuple[Forms, Choice], ...]] = (
    ("natural", "natural"),
    ("one", "first"),
    ("other", "last"),
    ("natural", "first"),
    ("natural", "last"),
)
_WORD: Final = re.compile(r"[a-z]+")


def _reminders(tr: Translator) -> dict[str, str]:
    """Every reminder of a deadline, due and overdue, and the escalation to officers."""
    out = {}
    for kind in DeadlineKind:
        for when, today in (("due", _DAY), ("overdue", _DAY + timedelta(days=3))):
            out[f"reminder {kind.value} {when}"] = reminder(kind, CASE_NUMBER, _DAY, today, tr)
    out["reminder escalated"] = reminder(
        DeadlineKind.REPORT_DUE, CASE_NUMBER, _DAY, _DAY, tr, to_officer=True
    )
    return out


_PHOTO_REFUSALS: Final = ("too_large", "too_many_pixels", "not_image", "unreachable")


def _photo_followups(tr: Translator) -> dict[str, str]:
    """The follow-up SMS to a keeper once the pictures of an MMS are fetched
    (``bot.channels.twilio.media``): one SMS a line, each its own template."""
    out = {
        "photos kept": render_photos.photos_kept(10, CASE_NUMBER, tr),
        "photos kept before": render_photos.photo_already_kept(CASE_NUMBER, tr),
        "photos partly kept": render_photos.photos_partly_kept(9, 10, CASE_NUMBER, tr),
        # Under DLT the answer's word that the pictures follow goes as an SMS of its own.
        "photos coming": render_photos.photos_coming(10, CASE_NUMBER, tr),
        "photos coming one": render_photos.photos_coming(1, CASE_NUMBER, tr),
        "photo no case": render_photos.photo_no_case(tr),
    }
    for code in _PHOTO_REFUSALS:
        out[f"photo refused {code}"] = render_photos.photo_refused(
            code, 10, 10, tr, max_megapixels=MAX_PIXELS // 1_000_000
        )
    return out


def _every_sms(tr: Translator) -> dict[str, str]:
    owner = owner_sms(tr.lang, tr)
    staff = {f"staff {label}": text for label, text in staff_sms(tr.lang, tr).items()}
    return owner | _reminders(tr) | staff | _photo_followups(tr)


def renderings(tr: Translator) -> dict[str, str]:
    """Every SMS poundbot can send, in ``tr``'s language, on the worst-case data: to
    owners, the reminders, to keepers and officers, and the follow-up on a keeper's
    pictures; under ``tr``'s Act, and under each other Act (``PROFILES``) what it words
    otherwise (the proclamation with no beat of drum under the Kerala Act as amended,
    the report to the officer in charge of the nearest police station under the
    Cattle-trespass Act, 1871), labelled ``label [act]``."""
    out = _every_sms(tr)
    for act in PROFILES.values():
        if act is tr.act:
            continue
        for label, text in _every_sms(tr.under(act)).items():
            if text != out.get(label):
                out[f"{label} [{act.key}]"] = text
    return out


@dataclass(frozen=True, slots=True)
class Shape:
    """One template of one language: its head (``Skeleton.shape``) and the variables
    each of its slots takes at the widest value probed, and its tail's."""

    head: Skeleton
    widths: tuple[int, ...]
    tail: int

    @property
    def text(self) -> str:
        return self.head.text_with(self.widths, self.tail)

    @property
    def slots(self) -> tuple[str, ...]:
        return self.head.slots + ((NEXT_SLOT,) if self.tail else ())

    def merge(self, other: Shape) -> Shape:
        widths = tuple(max(a, b) for a, b in zip(self.widths, other.widths, strict=True))
        return Shape(self.head, widths, max(self.tail, other.tail))

    def wider(self, sk: Skeleton) -> Shape:
        widths = tuple(max(a, b) for a, b in zip(self.widths, sk.widths, strict=True))
        return Shape(self.head, widths, max(self.tail, sk.tail_width))


Found = dict[str, dict[str, Shape]]  # lang -> key -> shape


@functools.cache
def found() -> Found:
    """Every template's shape by language and key.

    One head can make two texts in one language (the help names a command by its
    English and its own word, or by its own word only): the second text's key gets
    ``~1`` (``~2``, ...), in the order the texts are found. The sentences after a head
    are one variable group as wide as the longest found (a head without them is the
    same template: the group may be empty)."""
    out: Found = {}
    for lang in LANGUAGES:
        keyed = out.setdefault(lang, {})
        texts: dict[str, list[str]] = {}
        for forms, choice in _RUNS:
            probe = ProbeTranslator.of(translator(lang), forms)
            with collecting(Probe(choice=choice)) as seen:
                for text in renderings(probe).values():
                    offer(text)
            for _, marked in seen.found:
                sk = skeleton(marked)
                if not sk.shape.strip():
                    continue
                known = texts.setdefault(sk.key, [])
                if sk.shape not in known:
                    known.append(sk.shape)
                n = known.index(sk.shape)
                name = sk.key if n == 0 else f"{sk.key}~{n}"
                shape = keyed.get(name)
                keyed[name] = (
                    Shape(sk, sk.widths, sk.tail_width) if shape is None else shape.wider(sk)
                )
    return _merged(out)


def _merged(by_lang: Found) -> Found:
    """Keys whose heads are the same text in every language as one template (two
    messages that read alike, or a message with and without another's words)."""
    keys = sorted(set().union(*(set(keyed) for keyed in by_lang.values())))
    first: dict[tuple[str | None, ...], str] = {}
    out: Found = {lang: {} for lang in by_lang}
    for key in keys:
        sig = tuple(k[key].head.shape if key in k else None for k in by_lang.values())
        into = first.setdefault(sig, key)
        for lang, keyed in by_lang.items():
            if key not in keyed:
                continue
            shape = keyed[key]
            have = out[lang].get(into)
            out[lang][into] = shape if have is None else have.merge(shape)
    return out


#: A template's text in tokens: a run of variables, a link, spaces, a word.
_TOKEN: Final = re.compile(r"(?:\{#var#\})+|\{#url#\}|\s+|[^\s{]+|\{")
#: Two templates whose texts differ in one stretch are one, the stretch a variable, when
#: what they have in common keeps this share of each one's fixed text (and at least
#: ``_KEPT`` characters): "the public this hour, its limit" and "the public today, its
#: limit"; a clause one has and the other has not.
_SHARE: Final = 0.5
_KEPT: Final = 12
_STRETCHES: Final = 6

Texts = dict[str, dict[str, tuple[str, tuple[str, ...]]]]  # lang -> key -> text, slots


def _runs(token: str) -> int:
    return token.count(VAR)


def _same(a: str, b: str) -> bool:
    return a == b or (_runs(a) > 0 and _runs(b) > 0)


def _fixed(tokens: Sequence[str]) -> int:
    return sum(len(t) for t in tokens if not _runs(t) and t != URL_VAR and not t.isspace())


def _cost(tokens: Sequence[str]) -> int:
    return sum(SLOT_CHARS * _runs(t) if _runs(t) else len(t) for t in tokens)


@functools.cache
def _tokens(text: str) -> tuple[tuple[str, ...], Counter[str], int]:
    """``text``'s tokens, its fixed tokens counted, and its fixed text's length."""
    tokens = tuple(_TOKEN.findall(text))
    fixed = Counter(t for t in tokens if not _runs(t) and t != URL_VAR and not t.isspace())
    return tokens, fixed, _fixed(tokens)


@functools.cache
def _alike(a: str, b: str, floor: float = 0) -> str | None:
    """One template for the texts ``a`` and ``b`` (see ``_SHARE``), or None: each
    stretch they differ in (at most ``_STRETCHES``) a variable group wide enough for
    either's.

    ``texts`` tries every pair of templates, again after each merge: the fixed text
    the two have in common (the bag of their words, a bound on what the diff keeps)
    turns most pairs down before the diff is made, and a pair tried is remembered."""
    (ta, ca, fa), (tb, cb, fb) = _tokens(a), _tokens(b)
    bound = sum(len(t) * n for t, n in (ca & cb).items())
    if bound < max(_KEPT, floor) or bound < _SHARE * max(fa, fb):
        return None
    ka = ["{#var#}" if _runs(t) else t for t in ta]
    kb = ["{#var#}" if _runs(t) else t for t in tb]
    ops = difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes()
    kept = [t for op, i1, i2, _, _ in ops if op == "equal" for t in ta[i1:i2]]
    share = _fixed(kept)
    if share < max(_KEPT, floor) or share < _SHARE * max(fa, fb):
        return None
    if sum(op != "equal" for op, *_ in ops) > _STRETCHES:
        return None
    out: list[str] = []
    for op, i1, i2, j1, j2 in ops:
        if op == "equal":
            out += [
                VAR * max(_runs(x), _runs(y)) if _runs(x) else x
                for x, y in zip(ta[i1:i2], tb[j1:j2], strict=True)
            ]
            continue
        sa, sb = ta[i1:i2], tb[j1:j2]
        if URL_VAR in sa + sb:
            return None
        out.append(VAR * -(-max(_cost(sa), _cost(sb)) // SLOT_CHARS))
    return "".join(out)


def _slots(text: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """A name for each slot of ``text``: ``names`` when they are as many, else "data"."""
    runs = [t for t in _TOKEN.findall(text) if _runs(t) or t == URL_VAR]
    return (
        names
        if len(runs) == len(names)
        else tuple(URL_SLOT if t == URL_VAR else "data" for t in runs)
    )


@functools.cache
def texts() -> Texts:
    """Every template's text by language and key: ``found``'s, with templates that
    differ in one stretch in every language made one (``_alike``)."""
    by_lang = found()
    out: Texts = {
        lang: {key: (shape.text, shape.slots) for key, shape in keyed.items()}
        for lang, keyed in by_lang.items()
    }
    # What each template had before merging: a merged one keeps this share of each.
    whole = {
        lang: {key: _fixed(_TOKEN.findall(text)) for key, (text, _) in keyed.items()}
        for lang, keyed in out.items()
    }
    keys = sorted(out["en"])
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                if a not in out["en"] or b not in out["en"]:
                    continue
                langs = [lang for lang in out if a in out[lang]]
                if any(b not in out[lang] for lang in langs) or any(
                    a not in out[lang] for lang in out if b in out[lang]
                ):
                    continue
                merged = {
                    lang: _alike(
                        out[lang][a][0],
                        out[lang][b][0],
                        _SHARE * max(whole[lang][a], whole[lang][b]),
                    )
                    for lang in langs
                }
                if any(m is None for m in merged.values()):
                    continue
                for lang, text in merged.items():
                    assert text is not None
                    out[lang][a] = (text, _slots(text, out[lang][a][1]))
                    whole[lang][a] = max(whole[lang][a], whole[lang].pop(b))
                    del out[lang][b]
                changed = True
    for lang, keyed in out.items():  # a language's second text of a head, with its first
        for key in [k for k in keyed if "~" in k and any(k not in o for o in out.values())]:
            first = key.partition("~")[0]
            for into in [first, *(k for k in keyed if k.startswith(first + "~") and k != key)]:
                if into not in keyed:
                    continue
                floor = _SHARE * max(whole[lang][into], whole[lang][key])
                one = _alike(keyed[into][0], keyed[key][0], floor)
                if one is not None:
                    keyed[into] = (one, _slots(one, keyed[into][1]))
                    whole[lang][into] = max(whole[lang][into], whole[lang].pop(key))
                    del keyed[key]
                    break
    _alike.cache_clear()
    _tokens.cache_clear()
    return out


def _slug(text: str) -> str:
    words = _WORD.findall(text.replace(VAR, " ").replace(URL_VAR, " ").lower())
    return "-".join(words[:3]) or "sms"


def _templates(by_lang: Texts) -> Iterator[Template]:
    english = by_lang["en"]
    for lang, keyed in by_lang.items():
        for key, (text, slots) in keyed.items():
            first, _, nth = key.partition("~")
            slug = _slug(english[first][0]) if first in english else "sms"
            kind = f"{slug}-{first[:6]}" + (f"-{nth}" if nth else "")
            yield Template(kind, lang, "service-implicit", text, slots)


def build() -> Registry:
    """The registry of every template."""
    return Registry(tuple(_templates(texts())))


def main(argv: list[str] | None = None) -> int:
    """Write the templates to ``locales/dlt-templates.json`` (or the path given)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else REGISTRY_PATH
    path.write_text(build().to_json(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
