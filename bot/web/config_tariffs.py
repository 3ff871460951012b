"""The tariffs on the web desk, for administrators (an authority's admin their own
authority's tariffs, a state admin every one):

``/web/config/tariffs``                 the tariffs, each with its authority and pounds
``/web/config/tariffs/<name>``          one tariff: every dated row of its fines (s.11)
                                        and feeding charges (s.4) with its notification;
                                        the form that adds rows, and a withdraw button
                                        on each row not yet in force
``.../<name>/add``, ``.../withdraw``    POST: the change (``bot.services.tariff_edit``)

A row from before today is added only when each open case it changes is ticked: the
first sending lists them, and the form comes back with them to confirm; a case brought
in since lists them again. Every form carries the desk's CSRF token, the version it was
opened on (``based_on``) and a reason; a refusal shows the form again, filled, with why,
and nothing written. A change is put to work on this server at once; the others take it
up within seconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.config.names import local
from bot.conversation.commands import ParseError, parse_amount, parse_date
from bot.i18n import LANGUAGES, Translator, translator
from bot.i18n.chrome import config_tariffs as words
from bot.services.config_edit import Written
from bot.services.config_versions import config_of
from bot.services.runtime import App
from bot.services.tariff_edit import (
    SCHEDULES,
    NewRates,
    TariffOf,
    add_rates,
    tariff_of,
    tariffs_of,
    withdraw_rate,
)
from bot.store.config_versions import version
from bot.support.caller import Caller
from bot.support.errors import AppError, BadInputError
from bot.web.forms import form_fields
from bot.web.pages import Desk
from bot.web.session import session_of
from bot.web.templating import language_of
from domain.money import Money

__all__ = ["take_up", "tariff_routes"]

_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,40}")
_STATUS: Final = {"not_allowed": 403, "unknown_tariff": 404, "config_changed": 409}
Signed = tuple[str, Caller]


@dataclass
class _Form:
    """The form that adds rows, as typed (kept when it is shown again)."""

    schedule: str = "feeding"
    applies_from: str = ""
    amounts: dict[str, str] = field(default_factory=dict)
    source: str = ""
    reason: str = ""
    confirmed: list[str] = field(default_factory=list)
    based_on: str = ""


async def take_up(app: App, written: Written) -> None:
    """Put the version just written to work on this server at once (the others take it
    up within seconds: ``bot.entry.workers.run_config_watch``); a newer one in use is
    kept."""
    if app.version is None or app.version >= written.version_id:
        return
    async with app.store.reading() as tx:
        row = await version(tx, written.version_id)
    if row is not None:
        app.swap(config_of(row), row.id)


def _lang_query(request: Request) -> str:
    lang = request.query_params.get("lang", "")
    return f"?lang={lang}" if lang in LANGUAGES else ""


class _Tariffs:
    """The handlers of the pages of tariffs, sharing the desk's keys and templates."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def _render(
        self,
        request: Request,
        app: App,
        signed: Signed,
        name: str,
        values: dict[str, Any],
        status: int = 200,
    ) -> Response:
        lang = language_of(request, signed[1], app.config)
        extra = {"caller": signed[1], "csrf": self.desk.keys.csrf(signed[0])}
        pages = self.desk.pages(app)
        return pages.page(request, name, lang, {**extra, **values}, status=status)

    def _tr(self, request: Request, app: App, signed: Signed) -> Translator:
        return translator(language_of(request, signed[1], app.config))

    def _message(
        self, request: Request, app: App, signed: Signed, text: str, status: int
    ) -> Response:
        tr = self._tr(request, app, signed)
        values = {"title": tr.gettext("Not possible"), "text": text}
        return self._render(request, app, signed, "message.html", values, status)

    def _kinds(self, app: App, lang: str) -> dict[str, str]:
        return {code: local(kind.name, lang) for code, kind in app.config.kinds.items()}

    async def _signed(self, request: Request) -> tuple[App, Signed | None]:
        app: App = request.app.state.poundbot
        return app, await session_of(request, self.desk.keys)

    # -- the pages ----------------------------------------------------------------------

    async def listing(self, request: Request) -> Response:
        """The tariffs the caller may change."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        tr = self._tr(request, app, signed)
        try:
            found = tariffs_of(app.config, signed[1])
        except AppError as exc:
            return self._message(request, app, signed, words.change_refused(exc, tr, {}), 403)
        lines = [self._about(app, t, tr.lang) for t in found]
        return self._render(request, app, signed, "config/tariffs.html", {"tariffs": lines})

    def _about(self, app: App, found: TariffOf, lang: str) -> dict[str, Any]:
        authority = app.config.authorities.get(found.authority or "")
        return {
            "name": found.name,
            "authority": local(authority.name, lang) if authority is not None else "",
            "pounds": [local(app.config.pounds[p].name, lang) for p in found.pounds],
        }

    async def page(self, request: Request) -> Response:
        """One tariff, its rows and its forms."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        name = str(request.path_params["name"])
        done = request.query_params.get("done", "")
        number = request.query_params.get("version", "")
        note = ""
        if done in ("added", "withdrawn") and number.isdecimal() and len(number) < 10:
            note = words.done_note(done, int(number), self._tr(request, app, signed))
        return self._tariff_page(request, app, signed, name, _Form(), note=note)

    def _tariff_page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        name: str,
        form: _Form,
        *,
        note: str = "",
        error: str = "",
        cases: list[str] | None = None,
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)
        if not _NAME.fullmatch(name):
            return self._message(request, app, signed, tr.gettext("There is no such tariff."), 404)
        try:
            found = tariff_of(app.config, signed[1], name)
        except AppError as exc:
            text = words.change_refused(exc, tr, {})
            return self._message(request, app, signed, text, _STATUS.get(exc.code, 400))
        today = app.deps.today()
        kinds = self._kinds(app, tr.lang)
        schedules = []
        for schedule in SCHEDULES:
            tables = found.tariff.fines if schedule == "fines" else found.tariff.feeding
            rows = []
            for code, kind_name in kinds.items():
                table = tables.get(code)
                in_force = table.row_on(today) if table is not None else None
                for row in table.rows if table is not None else ():
                    rows.append(
                        {
                            "kind": code,
                            "kind_name": kind_name,
                            "from": row.applies_from,
                            "from_iso": row.applies_from.isoformat(),
                            "amount": row.amount,
                            "source": row.source,
                            "in_force": row == in_force,
                            "future": row.applies_from > today,
                            "closed": words.closed_kept(len(row.closed), tr),
                        }
                    )
            schedules.append({"code": schedule, "rows": rows})
        values = {
            "tariff": self._about(app, found, tr.lang),
            "schedules": schedules,
            "kinds": list(kinds.items()),
            "form": form,
            "based_on": form.based_on or str(app.version or ""),
            "note": note,
            "error": error,
            "cases": cases or [],
            "today": today,
            "lang_query": _lang_query(request),
        }
        return self._render(request, app, signed, "config/tariff.html", values, status)

    # -- the changes --------------------------------------------------------------------

    async def change(self, request: Request) -> Response:
        """A row added or withdrawn; refused, the tariff's page again with why."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        name = str(request.path_params["name"])
        change = str(request.path_params["change"])
        tr = self._tr(request, app, signed)
        fields = await form_fields(request)
        if not self.desk.keys.csrf_ok(signed[0], fields.get("csrf", "")):
            text = tr.gettext("The form has expired. Open the page again and repeat the step.")
            return self._message(request, app, signed, text, 403)
        if not _NAME.fullmatch(name) or change not in ("add", "withdraw"):
            return self._message(request, app, signed, tr.gettext("There is no such tariff."), 404)
        posted = await request.form()
        confirmed = [v for v in posted.getlist("confirm") if isinstance(v, str)][:500]
        form = _Form(
            schedule=fields.get("schedule", ""),
            applies_from=fields.get("from", "").strip()[:20],
            amounts={
                key.removeprefix("amount-"): value.strip()[:20]
                for key, value in fields.items()
                if key.startswith("amount-") and value.strip()
            },
            source=fields.get("source", "")[:300],
            reason=fields.get("reason", "")[:500],
            confirmed=confirmed,
            based_on=fields.get("based_on", ""),
        )
        based = form.based_on
        based_on = int(based) if based.isdecimal() and len(based) < 10 else -1
        kinds = self._kinds(app, tr.lang)
        try:
            tariff_of(app.config, signed[1], name)  # another authority's: refused first
            if change == "withdraw":
                written = await withdraw_rate(
                    app.store,
                    app.deps,
                    signed[1],
                    based_on=based_on,
                    name=name,
                    schedule=form.schedule,
                    kind=fields.get("kind", ""),
                    applies_from=_iso_day(fields.get("row", "")),
                    reason=form.reason,
                )
            else:
                rates = self._rates(app, form, kinds, tr)
                if isinstance(rates, str):
                    return self._tariff_page(
                        request, app, signed, name, form, error=rates, status=400
                    )
                written = await add_rates(
                    app.store,
                    app.deps,
                    signed[1],
                    based_on=based_on,
                    name=name,
                    rates=rates,
                    reason=form.reason,
                    confirmed=form.confirmed,
                )
        except AppError as exc:
            status = _STATUS.get(exc.code, 400)
            text = words.change_refused(exc, tr, kinds)
            if status == 403:
                return self._message(request, app, signed, text, 403)
            if exc.code == "config_changed":
                form.based_on = ""  # shown again on the version in force
            cases = exc.facts.get("cases")
            listed = [str(c) for c in cases] if isinstance(cases, list) else None
            kept = form if change != "withdraw" else _Form(based_on=form.based_on)
            return self._tariff_page(
                request, app, signed, name, kept, error=text, cases=listed, status=status
            )
        await take_up(app, written)
        done = "withdrawn" if change == "withdraw" else "added"
        query = _lang_query(request)
        join = "&" if query else "?"
        to = f"/web/config/tariffs/{name}{query}{join}done={done}&version={written.version_id}"
        return RedirectResponse(to, status_code=303)

    def _rates(self, app: App, form: _Form, kinds: dict[str, str], tr: Translator) -> Any:
        """The rows the form adds, or why it cannot (a day or an amount not read)."""
        today = app.deps.today()
        try:
            day = parse_date(form.applies_from, today)
        except ParseError:
            return words.bad_date(tr)
        if len(form.applies_from.replace(".", "-").replace("/", "-").split("-")) != 3:
            return words.bad_date(tr)  # the year is part of a rate's day
        amounts: dict[str, Money] = {}
        for kind, text in form.amounts.items():
            if kind not in kinds:
                raise BadInputError("no such kind", what="kind", kind=kind[:40])
            try:
                amount = parse_amount(text)
            except ParseError:
                return words.bad_amount(kinds[kind], tr)
            if amount.paise <= 0:
                return words.bad_amount(kinds[kind], tr)
            amounts[kind] = amount
        return NewRates(form.schedule, day, amounts, form.source)


def _iso_day(text: str) -> date:
    """A row's day as the withdraw button carries it (``2026-04-01``)."""
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        raise BadInputError("no such row", what="row") from None


def tariff_routes(desk: Desk) -> list[BaseRoute]:
    """The pages of tariffs and their changes, with the desk's keys and templates."""
    tariffs = _Tariffs(desk)
    return [
        Route("/web/config/tariffs", tariffs.listing, methods=["GET"]),
        Route("/web/config/tariffs/{name}", tariffs.page, methods=["GET"]),
        Route("/web/config/tariffs/{name}/{change}", tariffs.change, methods=["POST"]),
    ]
