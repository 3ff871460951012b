"""The page templates of the web desk (Jinja2 through Starlette) and what every page gets:
the person's language, the gettext of it, and the formatters of ``bot.i18n``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import jinja2
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from bot.config import Config
from bot.config.names import local
from bot.conversation.commands import ParseError, parse_date
from bot.i18n import LANGUAGES, Translator, reply_language, translator
from bot.i18n.chrome import web_names as names
from bot.i18n.common import cattle as cattle_text
from bot.i18n.common import cite, day, described_cattle, money
from bot.services.desk import CaseFilter, DueItem
from bot.support.caller import Caller
from domain.deadlines import PERIOD_ENDS
from domain.money import Money
from domain.profiles import KERALA_1961, Profile, profile
from domain.s07_seizure import Lot
from domain.stages import Stage

__all__ = [
    "LANGUAGE_NAMES",
    "LANG_COOKIE",
    "PRIVATE",
    "DeadlineLine",
    "Pages",
    "day_or_none",
    "language_of",
]

LANG_COOKIE = "poundbot_lang"
#: Each language named in itself, for the switch at the top of every page.
LANGUAGE_NAMES = {"ml": "മലയാളം", "en": "English", "ta": "தமிழ்", "kn": "ಕನ್ನಡ"}
_TEMPLATES = Path(__file__).parent / "templates"

#: How many filters of the list of cases are kept rendered (``Pages.case_filter``).
_FILTERS_KEPT = 512
#: The kinds of deadline (as stored) that end a period given to someone else.
_PERIOD_ENDS = frozenset(kind.value for kind in PERIOD_ENDS)

#: Pages are never cached by a proxy or the browser's history (they show names, money).
PRIVATE = {"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex"}


def language_of(request: Request, caller: Caller | None, config: Config) -> str:
    """The language of a page (``bot.i18n.language``): the one chosen with the switch,
    else the person's, their pound's or their authority's."""
    switch = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE, "")
    if caller is None:
        return reply_language(switch)
    return reply_language(
        switch,
        caller.lang,
        pound=config.pounds.get(caller.pound or ""),
        authority=config.authorities.get(caller.authority or ""),
    )


class DeadlineLine(NamedTuple):
    """A deadline as a line of a table of Today, in words: ``late`` a duty whose day has
    passed, ``ended`` the last day of a period the Act gives someone else, passed
    (``domain.deadlines.PERIOD_ENDS``: not overdue); ``who`` acts on it (the
    pound-keeper's report shows on the officer's page too)."""

    number: str
    what: str
    provision: str
    by: str
    late: bool
    ended: bool
    who: str = ""


class Pages:
    """Renders a template in a language, with the formatters bound to it."""

    def __init__(self, config: Config) -> None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            auto_reload=False,  # the templates are part of the release: no stat per page
        )
        self.templates = Jinja2Templates(env=env)
        self.config = config
        self._kinds: dict[str, list[tuple[str, str]]] = {}
        self._cattle: dict[str, dict[tuple[Lot, ...], str]] = {}
        self._cites: dict[str, dict[tuple[str, str], str]] = {}
        # Kept by the Act as in force (a profile), not its key: its texts may say its
        # configured days and months, and the offices a s.31 notification transferred.
        self._deadlines: dict[str, dict[tuple[str, str, Profile], tuple[str, str]]] = {}
        self._stages: dict[tuple[str, Profile], dict[str, str]] = {}
        self._line_forms: dict[tuple[str, str, Profile, type, tuple[Any, ...]], str] = {}
        self._filters: dict[tuple[str, Profile, CaseFilter, str, tuple[str, ...]], Markup] = {}
        self._pounds: dict[str, dict[str, str]] = {}

    def context(
        self,
        request: Request,
        lang: str,
        languages: Sequence[str] = LANGUAGES,
        act: Profile = KERALA_1961,
    ) -> dict[str, Any]:
        """What every template gets, in the language, and in the words of ``act`` (the
        Act of the case a page is about: its citations, the names of its steps)."""
        tr = translator(lang).under(act)
        kinds = self.config.kinds

        def cattle(lots: Sequence[Lot]) -> str:
            return self.cattle(lots, tr)

        return {
            "lang": lang,
            **language_switch(request, languages),
            "_": tr.gettext,
            "day": lambda value: day(value, tr),
            "money": lambda amount: money(amount, tr),
            "paise": lambda paise: money(Money(int(paise)), tr),
            "cite": self.citer(tr),
            "cattle": cattle,
            "named": lambda name: local(name, lang),  # a configured name, in the page's language
            "described": lambda lots: described_cattle(list(lots), tr, kinds),
            "stage": lambda code: names.stage_name(code, tr),
            "event": lambda code: names.event_name(code, tr),
            "deadline": lambda code: names.deadline_name(code, tr),
            "deadline_on": lambda code, when, mark=", ": names.deadline_on(
                code, day(when, tr), tr, mark
            ),
            "role": lambda code: names.role_name(code, tr),
            "channel": lambda code: names.channel_name(code, tr),
            "account": lambda code: names.account_name(code, tr),
            "step_title": lambda command, sale=None: names.step_title(command, tr, sale),
            "field_label": lambda command, field: names.field_label(command, field, tr),
            "tr": tr,
            "texts": names,
        }

    def page(
        self,
        request: Request,
        name: str,
        lang: str,
        values: dict[str, Any],
        *,
        status: int = 200,
        languages: Sequence[str] = LANGUAGES,
        act: Profile = KERALA_1961,
    ) -> HTMLResponse:
        """The template ``name`` in ``lang``, in the words of ``act`` (a case's Act)."""
        context = {**self.context(request, lang, languages, act), "caller": None, **values}
        return self.templates.TemplateResponse(
            request, name, context, status_code=status, headers=PRIVATE
        )

    def citer(self, tr: Translator, act: Profile | None = None) -> Callable[..., str]:
        """The ``cite`` of a page in the language: a provision as ``act`` (a case's Act;
        by default the translator's) cites it, or as the Act given after it (a profile
        or its key: each notice of a board, each deposit of Today is its own case's);
        each said once a language and Act, and kept."""
        said = self._cites.setdefault(tr.lang, {})
        act = tr.act if act is None else act

        def cited(provision: str, under: Profile | str | None = None) -> str:
            chosen = act if under is None else under
            if isinstance(chosen, str):
                chosen = profile(chosen)
            text = said.get((chosen.key, provision))
            if text is None:
                text = said[(chosen.key, provision)] = cite(provision, tr, chosen)
            return text

        return cited

    def cattle(self, lots: Sequence[Lot], tr: Translator) -> str:
        """The lots in words (``2 cows, 1 goat``) in the translator's language."""
        # The same few lots recur down a list: each is put in words once a language.
        said = self._cattle.setdefault(tr.lang, {})
        key = tuple(lots)
        text = said.get(key)
        if text is None:
            text = said[key] = cattle_text(list(lots), tr, self.config.kinds)
            if len(said) > 4096:
                said.clear()
        return text

    def deadline_lines(
        self, items: Sequence[DueItem], today: date, tr: Translator
    ) -> list[DeadlineLine]:
        """Deadlines as the lines of a table of Today, in words: each in those of its
        case's Act (``DueItem.act``)."""
        # The same few kinds and provisions recur down a list: each is said once a language
        # and Act.
        said = self._deadlines.setdefault(tr.lang, {})
        lines = []
        for item in items:
            key = (item.kind, item.provision, item.act)
            words = said.get(key)
            if words is None:
                under = tr.under(item.act)
                what = names.deadline_name(item.kind, under)
                words = said[key] = (what, cite(item.provision, under))
            past = item.due_on < today
            ended = past and item.kind in _PERIOD_ENDS
            line = DeadlineLine(
                item.number,
                *words,
                day(item.due_on, tr),
                past and not ended,
                ended,
                names.role_name(item.who, tr),
            )
            lines.append(line)
        return lines

    def case_filter(
        self, tr: Translator, wanted: CaseFilter, pounds: Sequence[str], searched: str = ""
    ) -> Markup:
        """The filter of the list of cases (``cases_filter.html``) as chosen, with the
        text searched (kept when the filter is sent), in the language: rendered once for
        each language, choice, text and set of pounds, and kept. It shows nothing of the
        database: the Act's stages, the configured pounds and kinds, and the choice (a
        page's number left out: the filter is the same)."""
        chosen = replace(wanted, page=1, words=(), phone="")
        key = (tr.lang, tr.act, chosen, searched, tuple(pounds))
        found = self._filters.get(key)
        if found is None:
            if len(self._filters) >= _FILTERS_KEPT:  # dates and texts typed make many
                self._filters.clear()
            found = self._filters[key] = Markup(
                self.templates.env.get_template("cases_filter.html").render(
                    _=tr.gettext,
                    wanted=wanted,
                    searched=searched,
                    stages=list(self.stages(tr).items()),
                    pounds=[(code, self.pound_name(code, tr)) for code in pounds],
                    kinds=self.kinds(tr),
                )
            )
        return found

    def lines(self, name: str, tr: Translator, lines: Sequence[NamedTuple]) -> Markup:
        """The rows of a table, each line (a named tuple of text, and of switches: True
        or False) through the template ``name``. The template is rendered once a
        language and set of switches with a placeholder for each text; each line then
        fills them in, escaped as Jinja escapes (``escaped``): the HTML of rendering the
        template a line at a time, for a third of the cost (Jinja escapes and yields
        each cell and each label of each line). The rows are joined by newlines."""
        if not lines:
            return Markup("")
        kind = type(lines[0])
        switches = tuple(at for at, value in enumerate(lines[0]) if isinstance(value, bool))
        texts = [at for at in range(len(lines[0])) if at not in switches]
        rows = []
        for line in lines:
            key = (name, tr.lang, tr.act, kind, tuple(line[at] for at in switches))
            form = self._line_forms.get(key)
            if form is None:
                form = self._line_forms[key] = self._line_form(name, tr, line)
            rows.append(form.format(*[escaped(line[at]) for at in texts]))
        return Markup("\n".join(rows))

    def _line_form(self, name: str, tr: Translator, line: NamedTuple) -> str:
        """The template ``name`` for lines switched as ``line`` is, in the language, as
        a ``str.format`` form: ``{0}`` where the first text goes, and so on; its own
        braces doubled."""
        values: dict[str, Any] = {}
        texts = 0
        for field, value in zip(line._fields, line, strict=True):
            if isinstance(value, bool):
                values[field] = value
            else:
                values[field] = Markup(f"\x00{texts}\x00")
                texts += 1
        text = self.templates.env.get_template(name).render(_=tr.gettext, **values)
        text = text.replace("{", "{{").replace("}", "}}")
        for at in range(texts):
            text = text.replace(f"\x00{at}\x00", f"{{{at}}}")
        return text

    def stages(self, tr: Translator) -> dict[str, str]:
        """The stages of a case, in their order, with their names in the language (and
        the translator's Act: ``Deemed unclaimed (s.15(5))``)."""
        key = (tr.lang, tr.act)
        found = self._stages.get(key)
        if found is None:
            found = self._stages[key] = {s.value: names.stage_name(s.value, tr) for s in Stage}
        return found

    def pound_name(self, code: str, tr: Translator) -> str:
        """A configured pound's name in the language."""
        said = self._pounds.setdefault(tr.lang, {})
        name = said.get(code)
        if name is None:
            name = said[code] = local(self.config.pounds[code].name, tr.lang)
        return name

    def kinds(self, tr: Translator) -> list[tuple[str, str]]:
        """The kinds of cattle with their names in the language (for the filter)."""
        found = self._kinds.get(tr.lang)
        if found is None:
            named: dict[str, str] = {}
            for word, code in self.config.kind_words.get(tr.lang, {}).items():
                named.setdefault(code, word)
            kinds = self.config.kinds
            found = [(code, named.get(code, kinds[code].name)) for code in kinds]
            self._kinds[tr.lang] = found
        return found


def escaped(text: str) -> str:
    """``text`` escaped as Jinja escapes it (``markupsafe.escape``: the same five
    characters, the same entities), as a plain string: no Markup made for each cell."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


def language_switch(request: Request, languages: Sequence[str] = LANGUAGES) -> dict[str, object]:
    """The language switch of a page: ``languages`` by their names, and the link of each,
    which sets the language and comes back to the page (without its ``lang``)."""

    def lang_link(code: str) -> str:
        return f"/web/lang/{code}?next={quote(_here(request), safe='')}"

    return {
        "languages": [(code, LANGUAGE_NAMES[code]) for code in languages],
        "lang_link": lang_link,
    }


def _here(request: Request) -> str:
    query = "&".join(f"{k}={quote(v)}" for k, v in request.query_params.items() if k != "lang")
    return request.url.path + (f"?{query}" if query else "")


def day_or_none(text: str, today: date) -> date | None:
    """A date from a filter field, typed as the desk's other days are (``01-03-2026``,
    ``1/3/26``, ``1.3``: this year, as ``today`` is), or as a link gives it
    (``2026-03-01``); anything else narrows nothing."""
    if not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        pass
    try:
        return parse_date(text, today)
    except ParseError:
        return None
