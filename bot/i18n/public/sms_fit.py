"""Making a reply fit an SMS: the segment budget, the richest wording that fits, lists
cut short with "and N more".

Every owner-facing SMS fits 2 GSM-7 segments in English (306 characters) and 5 UCS-2
segments in Malayalam, Tamil and Kannada (335 UTF-16 units) on worst-case data
(tested): the same facts take about as many letters in the four languages, but the
Indian scripts go as UCS-2, 67 units a segment, so they need that many segments to
carry what English carries in two. A renderer offers its wordings richest first and
``shortest_fit`` takes the first that fits; the last wording is the one that always
fits. A reply made ``same_facts`` takes, at each choice, the wording every language can
carry, so a fact is left out of every language or of none.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, ParamSpec, TypeVar

from bot.i18n.catalogs import LANGUAGES, Translator, translator
from bot.i18n.dlt_probe import PART, in_sms, offer, plain, probe_choice, probing, rendering_sms
from bot.support.sms_segments import segments

__all__ = [
    "PART",
    "SMS_SEGMENT_BUDGET",
    "STAFF_SMS_SEGMENTS",
    "choose",
    "fit_list",
    "fits_sms",
    "in_parts",
    "join",
    "one_text",
    "same_facts",
    "shortest_fit",
    "sms_parts",
]

#: Segments an owner-facing SMS may take: 2 in English (GSM-7, 306 characters), 5 in
#: the Indian scripts (UCS-2, 335 UTF-16 units).
SMS_SEGMENT_BUDGET: Final[Mapping[str, int]] = {"en": 2, "ml": 5, "ta": 5, "kn": 5}

#: Segments an SMS to a pound-keeper or an officer may take (lists, help).
STAFF_SMS_SEGMENTS: Final = 4


def in_parts(parts: Iterable[str]) -> str:
    """Sentences that are each their own SMS when an SMS is rendered (one template a
    sentence, whichever of them a case has), one a line in a chat; empty parts dropped."""
    kept = [p for p in parts if p]
    return (PART if in_sms() else "\n").join(kept)


def sms_parts(text: str) -> list[str]:
    """The SMS ``text`` goes as: its parts (``in_parts``), empty ones dropped."""
    return [p for p in text.split(PART) if p.strip()]


def one_text(text: str, sep: str = "\n") -> str:
    """``text`` with its parts on lines of one message (a chat, WhatsApp, a TwiML
    answer without DLT)."""
    return sep.join(sms_parts(text)) if PART in text else text


def join(parts: Iterable[str], sms: bool) -> str:
    """Sentences on one line in an SMS, one a line in a chat; empty parts dropped."""
    return (" " if sms else "\n").join(p for p in parts if p)


def fits_sms(text: str, lang: str, budget: int | None = None) -> bool:
    """Whether ``text`` (each of its parts) fits ``budget`` segments (by default
    ``SMS_SEGMENT_BUDGET``)."""
    limit = budget if budget is not None else SMS_SEGMENT_BUDGET.get(lang, 3)
    return all(segments(plain(part)).segment_count <= limit for part in text.split(PART))


@dataclass
class _Plan:
    """The wordings chosen for one reply: measured in every language, then imposed."""

    mode: Literal["measure", "force"]
    picks: list[int] = field(default_factory=list)
    at: int = 0

    def choose(self, first_fit: int, count: int) -> int:
        if self.mode == "measure":
            self.picks.append(first_fit)
            return first_fit
        pick = self.picks[self.at] if self.at < len(self.picks) else first_fit
        self.at += 1
        return min(pick, count - 1)


_PLAN: contextvars.ContextVar[_Plan | None] = contextvars.ContextVar("sms_plan", default=None)


def choose(first_fit: int, count: int) -> int:
    """Which of ``count`` wordings to use, the first that fits being ``first_fit``: that
    one, or inside a ``same_facts`` reply the one every language can carry."""
    if probing():
        return probe_choice(first_fit, count)
    plan = _PLAN.get()
    return first_fit if plan is None else plan.choose(first_fit, count)


def shortest_fit(
    tr: Translator, candidates: Iterable[Sequence[str]], budget: int | None = None
) -> str:
    """The first candidate (richest first) whose sentences fit the SMS budget, else the
    last; inside a ``same_facts`` reply, the candidate every language can carry."""
    texts = [join(parts, sms=True) for parts in candidates]
    if not texts:
        return ""
    if probing():
        for text in texts:
            offer(text)
    first = next((i for i, t in enumerate(texts) if fits_sms(t, tr.lang, budget)), len(texts) - 1)
    return texts[choose(first, len(texts))]


P = ParamSpec("P")
R = TypeVar("R")


def same_facts(render: Callable[P, R]) -> Callable[P, R]:
    """An SMS renderer whose shortened wordings are the same in every language.

    Where the full wording does not fit the budget, a renderer offers shorter ones that
    leave facts out. So that every language carries the same facts, the reply is first
    rendered in every language (``LANGUAGES``), and each choice of a wording takes the
    shortest that any language needed: a fact is left out in all languages or in none.
    Only SMS renderings are planned (the ``sms`` argument, when the renderer has one)."""
    signature = inspect.signature(render)

    @functools.wraps(render)
    def planned(*args: P.args, **kwargs: P.kwargs) -> R:
        if _PLAN.get() is not None or probing():
            return render(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        if bound.arguments.get("sms", True) is False:
            return render(*args, **kwargs)
        with rendering_sms():
            return _planned(bound)

    def _planned(bound: inspect.BoundArguments) -> R:
        name = next((n for n, v in bound.arguments.items() if isinstance(v, Translator)), None)
        if name is None:
            return render(*bound.args, **bound.kwargs)
        own = bound.arguments[name]
        assert isinstance(own, Translator)
        picks: list[int] = []
        for lang in LANGUAGES:
            # each language under the same Act: its citations take their own room
            bound.arguments[name] = own if lang == own.lang else translator(lang).under(own.act)
            plan = _Plan("measure")
            token = _PLAN.set(plan)
            try:
                render(*bound.args, **bound.kwargs)
            finally:
                _PLAN.reset(token)
            for i, pick in enumerate(plan.picks):
                if i < len(picks):
                    picks[i] = max(picks[i], pick)
                else:
                    picks.append(pick)
        bound.arguments[name] = own
        token = _PLAN.set(_Plan("force", picks))
        try:
            return render(*bound.args, **bound.kwargs)
        finally:
            _PLAN.reset(token)

    return planned


def fit_list(
    tr: Translator,
    head: Sequence[str],
    items: Sequence[str],
    more: Callable[[int], str],
    budget: int | None = None,
    sep: str = " ",
    hidden: int = 0,
) -> str:
    """``head`` and as many ``items`` as fit the SMS budget, then ``more(n)`` for the
    ``n`` left out (``hidden`` more were left out before). At least one item is always
    shown."""
    if not items:
        return sep.join(p for p in head if p)
    texts = []
    for shown in range(len(items), 0, -1):
        left = len(items) - shown + hidden
        parts = [*head, *items[:shown]]
        text = sep.join(p for p in parts if p)
        if left:
            text = f"{text}{sep}{more(left)}"
        texts.append(text)
    if probing():
        for text in texts:
            offer(text)
    first = next((i for i, t in enumerate(texts) if fits_sms(t, tr.lang, budget)), len(texts) - 1)
    return texts[choose(first, len(texts))]
