"""The configuration's places and kinds of cattle, edited on the web desk by its
administrators, and the audit of the changes:

``/web/config/authorities``          the authorities, pounds and kinds the caller may
                                     change, links to their forms, and the recent
                                     changes of the caller's scope
``/web/config/authorities/new``      a new local authority (a state administrator's)
``/web/config/authorities/<code>``   one authority's form (its administrators')
``/web/config/pounds/new``           a new pound (of an authority the caller administers)
``/web/config/pounds/import``        pounds added and changed from a CSV file: a dry
                                     run, then one version (a state administrator's)
``/web/config/pounds/<code>``        one pound's form
``/web/config/kinds/new``, ``/web/config/kinds/<code>``  the kinds of cattle (the
                                     state's: a state administrator's)
``/web/config/changes.csv``          the audit of the configuration's changes, of one
                                     authority (``?authority=``) or, for a state
                                     administrator, all

Each form carries the version it was opened on (``based_on``) and a reason; a change is
made by ``bot.services.config_edit.apply_edit``, which refuses it whole when it is not
the caller's, is stale, changes nothing or fails the checks: the form comes back filled
in with why (stale: on the new version). Saved, the browser goes to the form again
(post/redirect/get), which says which version it made. Every POST carries the desk's
CSRF token. A code is never changed (case numbers use it).

Why it is long: the handlers of eleven routes, and the putting of a form's page together.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route
from tomlkit.toml_document import TOMLDocument

from bot.adapters.export import CONFIG_AUDIT_HEADER, config_audit_record
from bot.config import ConfigError, parse_config
from bot.config.edit import Change, dump, load, table_of
from bot.config.names import local
from bot.conversation.commands import ParseError, parse_date
from bot.i18n import Translator, translator
from bot.i18n.chrome import config_places as words
from bot.i18n.common import day
from bot.services.config_edit import Edit, apply_edit, audit
from bot.services.config_versions import current
from bot.services.runtime import App
from bot.store.config_versions import ChangeRow
from bot.support.caller import Caller
from bot.support.clean import clean_text
from bot.support.csv_sheet import Table
from bot.support.errors import (
    BadInputError,
    ConfigChangedError,
    ConfigRefusedError,
    NotAllowedError,
    NothingChangedError,
)
from bot.web import config_import
from bot.web import config_place_forms as forms
from bot.web.forms import form_fields
from bot.web.pages import Desk
from bot.web.printing import csv_response
from bot.web.session import session_of
from bot.web.templating import LANGUAGE_NAMES, language_of
from domain.calendar import LOCAL_TZ

__all__ = ["PlaceDesk", "recent_changes"]

_SIGNIN = "/web/signin"
Signed = tuple[str, Caller]
#: The largest CSV file of pounds taken (bytes).
MAX_CSV = 512 * 1024
#: The changes a page shows (the CSV has them all).
_SHOWN = 50


class _Refused(Exception):
    """A form that cannot be sent as it is: ``code`` says why (``why_refused``)."""

    def __init__(self, why: str, status: int = 400, **facts: str) -> None:
        super().__init__(why)
        self.code = why
        self.status = status
        self.facts = facts


def recent_changes(rows: list[ChangeRow], tr: Translator) -> list[dict[str, Any]]:
    """The changes as the pages show them, in the language."""
    return [
        {
            "version": row.version_id,
            "when": _when(row, tr),
            "who": row.by_name or "—",
            "what": words.audit_entity(row.entity, row.key, tr),
            "field": words.audit_field(row.field, tr),
            "old": words.audit_value(row.old, tr),
            "new": words.audit_value(row.new, tr),
            "reason": row.reason,
        }
        for row in rows[:_SHOWN]
    ]


def _when(row: ChangeRow, tr: Translator) -> str:
    at = row.at if row.at.tzinfo else row.at.replace(tzinfo=UTC)
    local_at = at.astimezone(LOCAL_TZ)
    return f"{day(local_at.date(), tr)} {local_at:%H:%M}"


class PlaceDesk:
    """The handlers of the forms of places and kinds, with the desk's keys and pages."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/web/config/changes.csv", self._do(self.changes_csv), methods=["GET"]),
            Route("/web/config/authorities", self._do(self.index), methods=["GET"]),
            Route("/web/config/authorities/new", self._do(self.authority_new), methods=["GET"]),
            Route("/web/config/authorities/new", self._do(self.authority_add), methods=["POST"]),
            Route("/web/config/authorities/{code}", self._do(self.authority), methods=["GET"]),
            Route("/web/config/authorities/{code}", self._do(self.authority_set), methods=["POST"]),
            Route("/web/config/pounds/new", self._do(self.pound_new), methods=["GET"]),
            Route("/web/config/pounds/new", self._do(self.pound_add), methods=["POST"]),
            Route("/web/config/pounds/import", self._do(self.import_form), methods=["GET"]),
            Route("/web/config/pounds/import", self._do(self.import_post), methods=["POST"]),
            Route("/web/config/pounds/{code}", self._do(self.pound), methods=["GET"]),
            Route("/web/config/pounds/{code}", self._do(self.pound_set), methods=["POST"]),
            Route("/web/config/kinds/new", self._do(self.kind_new), methods=["GET"]),
            Route("/web/config/kinds/new", self._do(self.kind_add), methods=["POST"]),
            Route("/web/config/kinds/{code}", self._do(self.kind), methods=["GET"]),
            Route("/web/config/kinds/{code}", self._do(self.kind_set), methods=["POST"]),
        ]

    # -- plumbing ------------------------------------------------------------------------

    def _do(
        self, handler: Callable[[Request, App, Signed], Awaitable[Response]]
    ) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint for signed-in administrators; a POST with the session's CSRF token."""

        async def endpoint(request: Request) -> Response:
            if request.method != "POST":
                return await guarded(request)
            # The form read once (its file, if any, closed after the handler).
            async with request.form(max_files=1, max_fields=1000):
                return await guarded(request)

        async def guarded(request: Request) -> Response:
            app: App = request.app.state.poundbot
            signed = await session_of(request, self.desk.keys)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            tr = self._tr(request, app, signed)
            if request.method == "POST":
                fields = await form_fields(request)
                if not self.desk.keys.csrf_ok(signed[0], fields.get("csrf", "")):
                    text = tr.gettext(
                        "The form has expired. Open the page again and repeat the step."
                    )
                    return self._message(request, app, signed, text, 403)
            if not signed[1].is_admin:
                return self._message(request, app, signed, words.why_refused("", tr), 403)
            try:
                return await handler(request, app, signed)
            except _Refused as refused:
                text = words.why_refused(refused.code, tr, **refused.facts)
                return self._message(request, app, signed, text, refused.status)
            except NotAllowedError:
                return self._message(request, app, signed, words.why_refused("", tr), 403)

        return endpoint

    def _tr(self, request: Request, app: App, signed: Signed) -> Translator:
        return translator(language_of(request, signed[1], app.config))

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
        return self.desk.pages(app).page(request, name, lang, {**extra, **values}, status=status)

    def _message(
        self, request: Request, app: App, signed: Signed, text: str, status: int
    ) -> Response:
        tr = self._tr(request, app, signed)
        title = tr.gettext("Not found") if status == 404 else tr.gettext("Not possible")
        return self._render(
            request, app, signed, "message.html", {"title": title, "text": text}, status
        )

    async def _document(self, app: App) -> tuple[int, TOMLDocument]:
        row = await current(app.store)
        if row is None:
            raise _Refused("not_found", 404)
        return row.id, load(row.text)

    @staticmethod
    def _state(caller: Caller) -> None:
        if not caller.is_state_admin:
            raise _Refused("", 403)

    @staticmethod
    def _based_on(fields: dict[str, str]) -> int:
        raw = fields.get("based_on", "")
        return int(raw) if raw.isdecimal() and len(raw) < 10 else 0

    async def _save(
        self,
        request: Request,
        app: App,
        signed: Signed,
        *,
        edit: Edit,
        again: Callable[[str, list[str], int, int], Awaitable[Response]],
        done: str,
    ) -> Response:
        """``edit`` made by the caller on the version the form was opened on; refused,
        ``again(error, faults, based_on, status)`` (the form, filled in); saved, to
        ``done`` with the version made."""
        fields = await form_fields(request)
        tr = self._tr(request, app, signed)
        based_on = self._based_on(fields)
        try:
            written = await apply_edit(
                app.store, signed[1], based_on=based_on, edit=edit, reason=fields.get("reason", "")
            )
        except NotAllowedError:
            raise
        except BadInputError:
            return await again(words.why_refused("reason", tr), [], based_on, 400)
        except ConfigChangedError:
            row = await current(app.store)
            fresh = row.id if row is not None else 0
            return await again(words.why_refused("config_changed", tr), [], fresh, 409)
        except NothingChangedError:
            return await again(words.why_refused("nothing_changed", tr), [], based_on, 400)
        except ConfigRefusedError as exc:
            listed = exc.facts.get("faults")
            faults = [str(f) for f in listed] if isinstance(listed, list) else []
            return await again(words.why_refused("config_refused", tr), faults, based_on, 400)
        except _Refused as refused:
            text = words.why_refused(refused.code, tr, **refused.facts)
            return await again(text, [], based_on, refused.status)
        return RedirectResponse(f"{done}?saved={written.version_id}", status_code=303)

    def _saved(self, request: Request, tr: Translator) -> str:
        raw = request.query_params.get("saved", "")
        return words.saved(int(raw), tr) if raw.isdecimal() and len(raw) < 10 else ""

    def _common(self, tr: Translator, languages: tuple[str, ...]) -> dict[str, Any]:
        return {
            "langs": [(code, LANGUAGE_NAMES[code]) for code in languages],
            "all_langs": [(code, LANGUAGE_NAMES[code]) for code in LANGUAGE_NAMES],
        }

    # -- the list and the audit -----------------------------------------------------------

    async def index(self, request: Request, app: App, signed: Signed) -> Response:
        caller = signed[1]
        tr = self._tr(request, app, signed)
        lang = tr.lang
        authorities = [
            (code, local(a.name, lang))
            for code, a in app.config.authorities.items()
            if caller.administers(code)
        ]
        pounds = [
            (code, local(p.name, lang), p.authority)
            for code, p in app.config.pounds.items()
            if caller.administers(p.authority)
        ]
        kinds = app.config.kinds
        kinds_shown = [(code, kinds[code].name) for code in kinds] if caller.is_state_admin else []
        scope = None if caller.is_state_admin else caller.authority
        rows = await audit(app.store, caller, scope)
        values = {
            "authorities": authorities,
            "pounds": pounds,
            "kinds": kinds_shown,
            "state_admin": caller.is_state_admin,
            "changes": recent_changes(rows, tr),
            "cl": words.changes_labels(tr),
            "version_links": caller.is_state_admin,
            "csv_authorities": authorities,
        }
        return self._render(request, app, signed, "config/places.html", values)

    async def changes_csv(self, request: Request, app: App, signed: Signed) -> Response:
        """The audit of the configuration's changes as CSV: of one authority, or (a state
        administrator, without ``?authority=``) all, the newest first."""
        caller = signed[1]
        wanted = request.query_params.get("authority", "")[:40] or None
        if wanted is None and not caller.is_state_admin:
            wanted = caller.authority
        rows = await audit(app.store, caller, wanted)
        table = Table(CONFIG_AUDIT_HEADER, [config_audit_record(row) for row in rows])
        return csv_response(table, f"config-audit-{wanted or 'all'}.csv")

    # -- authorities -------------------------------------------------------------------

    async def authority(self, request: Request, app: App, signed: Signed) -> Response:
        code = str(request.path_params["code"])
        if not signed[1].administers(code):
            raise _Refused("", 403)
        version, document = await self._document(app)
        if table_of(document, "authorities", code) is None:
            raise _Refused("not_found", 404)
        form = forms.authority_form(document, code)
        tr = self._tr(request, app, signed)
        return self._authority_page(
            request, app, signed, document, code, form, version, saved=self._saved(request, tr)
        )

    def _authority_page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        document: TOMLDocument,
        code: str | None,
        form: dict[str, str],
        based_on: int,
        *,
        saved: str = "",
        error: str = "",
        faults: list[str] | None = None,
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)
        table = forms.plain(table_of(document, "authorities", code)) if code else {}
        acts = [
            (str(entry.get("act", "")), str(entry.get("from", "")))
            for entry in (table or {}).get("acts") or []
        ]
        values = {
            **self._common(tr, forms.authority_languages(document, code)),
            "code": code,
            "form": form,
            "based_on": based_on,
            "saved": saved,
            "error": error,
            "faults": faults or [],
            "acts": acts,
            "kinds_of_authority": forms.authority_kinds(),
            "rows": forms.market_rows(form),
            "action": f"/web/config/authorities/{code}" if code else "/web/config/authorities/new",
        }
        return self._render(request, app, signed, "config/place_authority.html", values, status)

    async def authority_new(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        version, document = await self._document(app)
        form = {"kind": "grama_panchayat", "default_language": "ml"}
        return self._authority_page(request, app, signed, document, None, form, version)

    async def authority_add(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        fields = await form_fields(request)
        code = fields.get("code", "").strip().upper()
        form = {**fields, "code": code}

        async def again(error: str, faults: list[str], based_on: int, status: int) -> Response:
            _, document = await self._document(app)
            return self._authority_page(
                request, app, signed, document, None, form, based_on,
                error=error, faults=faults, status=status,
            )  # fmt: skip

        def edit(document: TOMLDocument) -> list[Change]:
            if not forms.AUTHORITY_CODE.fullmatch(code):
                raise _Refused("authority_code")
            if table_of(document, "authorities", code) is not None:
                raise _Refused("code_taken", code=code)
            self._markets_ok(form, forms.authority_languages(document, None))
            return forms.edit_authority(document, form, code, new=True)

        return await self._save(
            request, app, signed, edit=edit, again=again, done=f"/web/config/authorities/{code}"
        )

    async def authority_set(self, request: Request, app: App, signed: Signed) -> Response:
        code = str(request.path_params["code"])
        if not signed[1].administers(code):
            raise _Refused("", 403)
        fields = await form_fields(request)
        form = {**fields, "code": code}

        async def again(error: str, faults: list[str], based_on: int, status: int) -> Response:
            _, document = await self._document(app)
            shown = form
            if status == 409:  # stale: the form on the new version, the reason kept
                shown = {**forms.authority_form(document, code), "reason": form.get("reason", "")}
            return self._authority_page(
                request, app, signed, document, code, shown, based_on,
                error=error, faults=faults, status=status,
            )  # fmt: skip

        def edit(document: TOMLDocument) -> list[Change]:
            if table_of(document, "authorities", code) is None:
                raise _Refused("not_found", 404)
            self._markets_ok(form, forms.authority_languages(document, code))
            return forms.edit_authority(document, form, code, new=False)

        return await self._save(
            request, app, signed, edit=edit, again=again, done=f"/web/config/authorities/{code}"
        )

    @staticmethod
    def _markets_ok(form: dict[str, str], languages: tuple[str, ...]) -> None:
        for village in forms.markets_faults(form, languages):
            raise _Refused("no_market", village=village)

    # -- pounds ------------------------------------------------------------------------

    def _pound_choices(
        self, app: App, caller: Caller, document: TOMLDocument, tr: Translator
    ) -> dict[str, Any]:
        authorities = [
            (code, local(a.name, tr.lang))
            for code, a in app.config.authorities.items()
            if caller.administers(code)
        ]
        mine = {code for code, _ in authorities}
        tariffs = [
            name
            for name in forms.tariff_names(document)
            if caller.is_state_admin or forms.tariff_authority(document, name) in mine
        ]
        return {"authorities": authorities, "tariffs": tariffs}

    def _pound_page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        document: TOMLDocument,
        code: str | None,
        form: dict[str, str],
        based_on: int,
        *,
        saved: str = "",
        error: str = "",
        faults: list[str] | None = None,
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)
        authority = app.config.authorities.get(form.get("authority", ""))
        values = {
            **self._common(tr, forms.pound_languages(document, code)),
            **self._pound_choices(app, signed[1], document, tr),
            "code": code,
            "form": form,
            "based_on": based_on,
            "saved": saved,
            "error": error,
            "faults": faults or [],
            "authority_name": local(authority.name, tr.lang)
            if authority
            else form.get("authority", ""),
            "rows": forms.market_rows(form),
            "positions": list(range(1, len(LANGUAGE_NAMES) + 1)),
            "action": f"/web/config/pounds/{code}" if code else "/web/config/pounds/new",
        }
        return self._render(request, app, signed, "config/place_pound.html", values, status)

    async def _pound_of(self, app: App, caller: Caller, code: str) -> tuple[int, TOMLDocument]:
        version, document = await self._document(app)
        table = table_of(document, "pounds", code)
        if table is None:
            raise _Refused("not_found", 404)
        if not caller.administers(str(table.get("authority"))):
            raise _Refused("", 403)
        return version, document

    async def pound(self, request: Request, app: App, signed: Signed) -> Response:
        code = str(request.path_params["code"])
        version, document = await self._pound_of(app, signed[1], code)
        tr = self._tr(request, app, signed)
        form = forms.pound_form(document, code)
        return self._pound_page(
            request, app, signed, document, code, form, version, saved=self._saved(request, tr)
        )

    async def pound_new(self, request: Request, app: App, signed: Signed) -> Response:
        version, document = await self._document(app)
        caller = signed[1]
        form = {"authority": caller.authority or "", "lang.1": "ml", "lang.2": "en"}
        return self._pound_page(request, app, signed, document, None, form, version)

    async def pound_add(self, request: Request, app: App, signed: Signed) -> Response:
        fields = await form_fields(request)
        code = fields.get("code", "").strip().upper()
        form = {**fields, "code": code}
        caller = signed[1]

        async def again(error: str, faults: list[str], based_on: int, status: int) -> Response:
            _, document = await self._document(app)
            return self._pound_page(
                request, app, signed, document, None, form, based_on,
                error=error, faults=faults, status=status,
            )  # fmt: skip

        def edit(document: TOMLDocument) -> list[Change]:
            if not forms.POUND_CODE.fullmatch(code):
                raise _Refused("pound_code")
            if table_of(document, "pounds", code) is not None:
                raise _Refused("code_taken", code=code)
            authority = form.get("authority", "")
            if table_of(document, "authorities", authority) is None:
                raise _Refused("authority")
            if not caller.administers(authority):
                raise NotAllowedError("not an administrator of it", authority=authority)
            self._markets_ok(form, forms.pound_languages(document, None))
            return forms.edit_pound(document, form, code, new=True)

        return await self._save(
            request, app, signed, edit=edit, again=again, done=f"/web/config/pounds/{code}"
        )

    async def pound_set(self, request: Request, app: App, signed: Signed) -> Response:
        code = str(request.path_params["code"])
        await self._pound_of(app, signed[1], code)
        fields = await form_fields(request)
        form = {**fields, "code": code}

        async def again(error: str, faults: list[str], based_on: int, status: int) -> Response:
            _, document = await self._document(app)
            shown = {**forms.pound_form(document, code), **({} if status == 409 else form)}
            shown["reason"] = form.get("reason", "")
            return self._pound_page(
                request, app, signed, document, code, shown, based_on,
                error=error, faults=faults, status=status,
            )  # fmt: skip

        def edit(document: TOMLDocument) -> list[Change]:
            if table_of(document, "pounds", code) is None:
                raise _Refused("not_found", 404)
            self._markets_ok(form, forms.pound_languages(document, code))
            return forms.edit_pound(document, form, code, new=False)

        return await self._save(
            request, app, signed, edit=edit, again=again, done=f"/web/config/pounds/{code}"
        )

    # -- kinds of cattle -------------------------------------------------------------------

    def _kind_page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        document: TOMLDocument,
        code: str | None,
        form: dict[str, str],
        based_on: int,
        *,
        saved: str = "",
        error: str = "",
        faults: list[str] | None = None,
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)
        values = {
            **self._common(tr, forms.FORM_LANGUAGES),
            "code": code,
            "form": form,
            "based_on": based_on,
            "saved": saved,
            "error": error,
            "faults": faults or [],
            "adults": forms.kinds_of_adults(document),
            "tariffs": forms.tariff_names(document),
            "action": f"/web/config/kinds/{code}" if code else "/web/config/kinds/new",
        }
        return self._render(request, app, signed, "config/place_kind.html", values, status)

    async def kind(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        code = str(request.path_params["code"])
        version, document = await self._document(app)
        if table_of(document, "kinds", code) is None:
            raise _Refused("not_found", 404)
        tr = self._tr(request, app, signed)
        form = forms.kind_form(document, code)
        return self._kind_page(
            request, app, signed, document, code, form, version, saved=self._saved(request, tr)
        )

    async def kind_new(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        version, document = await self._document(app)
        return self._kind_page(request, app, signed, document, None, {}, version)

    async def kind_add(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        fields = await form_fields(request)
        code = fields.get("code", "").strip().lower()
        form = {**fields, "code": code}
        today = app.deps.today()

        async def again(error: str, faults: list[str], based_on: int, status: int) -> Response:
            _, document = await self._document(app)
            return self._kind_page(
                request, app, signed, document, None, form, based_on,
                error=error, faults=faults, status=status,
            )  # fmt: skip

        def edit(document: TOMLDocument) -> list[Change]:
            if not forms.KIND_CODE.fullmatch(code):
                raise _Refused("kind_code")
            if table_of(document, "kinds", code) is not None:
                raise _Refused("code_taken", code=code)
            since = None
            rates = any(
                form.get(f"{entity}.{name}", "").strip()
                for name in forms.tariff_names(document)
                for entity in ("fine", "feeding")
            )
            if rates:
                try:
                    since = parse_date(form.get("from", ""), today)
                except ParseError:
                    raise _Refused("rates") from None
                if not form.get("source", "").strip():
                    raise _Refused("rates")
            return forms.edit_kind(document, form, code, new=True, rates_from=since)

        return await self._save(
            request, app, signed, edit=edit, again=again, done=f"/web/config/kinds/{code}"
        )

    async def kind_set(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        code = str(request.path_params["code"])
        fields = await form_fields(request)
        form = {**fields, "code": code}

        async def again(error: str, faults: list[str], based_on: int, status: int) -> Response:
            _, document = await self._document(app)
            shown = form
            if status == 409:
                shown = {**forms.kind_form(document, code), "reason": form.get("reason", "")}
            shown.setdefault("adult", forms.kind_form(document, code).get("adult", ""))
            return self._kind_page(
                request, app, signed, document, code, shown, based_on,
                error=error, faults=faults, status=status,
            )  # fmt: skip

        def edit(document: TOMLDocument) -> list[Change]:
            if table_of(document, "kinds", code) is None:
                raise _Refused("not_found", 404)
            return forms.edit_kind(document, form, code, new=False)

        return await self._save(
            request, app, signed, edit=edit, again=again, done=f"/web/config/kinds/{code}"
        )

    # -- pounds from a CSV file --------------------------------------------------------------

    def _import_page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        *,
        based_on: int,
        text: str = "",
        reason: str = "",
        lines: list[dict[str, Any]] | None = None,
        ready: bool = False,
        error: str = "",
        faults: list[str] | None = None,
        saved: str = "",
        status: int = 200,
    ) -> Response:
        values = {
            "based_on": based_on,
            "text": text,
            "reason": reason,
            "lines": lines,
            "ready": ready,
            "error": error,
            "faults": faults or [],
            "saved": saved,
            "columns": ", ".join(config_import.COLUMNS),
        }
        return self._render(request, app, signed, "config/place_import.html", values, status)

    async def import_form(self, request: Request, app: App, signed: Signed) -> Response:
        self._state(signed[1])
        version, _ = await self._document(app)
        tr = self._tr(request, app, signed)
        return self._import_page(
            request, app, signed, based_on=version, saved=self._saved(request, tr)
        )

    async def import_post(self, request: Request, app: App, signed: Signed) -> Response:
        """``step=check``: the file read and each line checked against the version in
        force (nothing saved); ``step=apply``: the same text done as one version."""
        self._state(signed[1])
        tr = self._tr(request, app, signed)
        fields = await form_fields(request)
        reason = fields.get("reason", "")[:500]
        based_on = self._based_on(fields)
        text = await self._csv_text(request, fields)
        if text is None:
            # TRANSLATORS: web desk, pounds from a CSV file — the file is not text in
            # UTF-8 (save it as "CSV UTF-8"), or larger than the desk takes.
            error = tr.gettext("The file is not a CSV file in UTF-8 of at most 512 KB.")
            return self._import_page(
                request, app, signed, based_on=based_on, reason=reason, error=error, status=400
            )
        version, document = await self._document(app)
        try:
            found = config_import.plan(document, text)
        except config_import.BadFile as bad:
            return self._import_page(
                request, app, signed, based_on=version, reason=reason,
                error=_bad_file(bad, tr), status=400,
            )  # fmt: skip
        lines, faults, ready = _checked(document, found, tr)
        if fields.get("step") != "apply" or not ready:
            error = words.why_refused("config_refused", tr) if faults else ""
            if not found.changing and not found.refused:
                error = words.why_refused("nothing_changed", tr)
            return self._import_page(
                request, app, signed, based_on=version, text=text, reason=reason,
                lines=lines, ready=ready, error=error, faults=faults,
                status=200 if fields.get("step") != "apply" else 400,
            )  # fmt: skip

        def edit(doc: TOMLDocument) -> list[Change]:
            return config_import.apply(doc, config_import.plan(doc, text))

        async def again(error: str, faults: list[str], stale_or_not: int, status: int) -> Response:
            fresh, doc = await self._document(app)
            lines, more, ready = _checked(doc, config_import.plan(doc, text), tr)
            return self._import_page(
                request, app, signed, based_on=fresh, text=text, reason=reason,
                lines=lines, ready=ready, error=error, faults=faults or more, status=status,
            )  # fmt: skip

        return await self._save(
            request, app, signed, edit=edit, again=again, done="/web/config/pounds/import"
        )

    @staticmethod
    async def _csv_text(request: Request, fields: dict[str, str]) -> str | None:
        """The CSV sent: the file chosen, else the text carried from the dry run."""
        posted = await request.form()
        upload = posted.get("file")
        if isinstance(upload, UploadFile) and upload.filename:
            data = await upload.read(MAX_CSV + 1)
            if len(data) > MAX_CSV:
                return None
            try:
                return clean_text(data.decode("utf-8-sig"))
            except UnicodeDecodeError:
                return None
        text = fields.get("text", "")
        return text if text.strip() and len(text) <= MAX_CSV else None


def _faults_of(document: TOMLDocument) -> list[str]:
    """The faults the checks find in ``document`` (none: it would be taken)."""
    try:
        parse_config(dump(document), "the pounds of the file")
    except ConfigError as exc:
        return [fault.message for fault in exc.faults]
    return []


def _checked(
    document: TOMLDocument, found: config_import.Plan, tr: Translator
) -> tuple[list[dict[str, Any]], list[str], bool]:
    """The lines of a plan in words, the faults of the configuration it would make, and
    whether it may be applied (it changes something, no line refused, no fault)."""
    lines = [_import_line(line, tr) for line in found.lines]
    faults = _faults_of(config_import.tried(document, found)) if found.changing else []
    return lines, faults, bool(found.changing) and not found.refused and not faults


def _import_line(line: config_import.Line, tr: Translator) -> dict[str, Any]:
    facts = dict(line.facts)
    if line.status == "changed":
        facts["fields"] = ", ".join(words.audit_field(field, tr) for field in line.fields)
    if line.status == "refused":
        facts["why"] = line.why
    return {
        "number": line.number,
        "code": line.code,
        "status": line.status,
        "text": words.import_line(line.status, tr, **facts),
    }


def _bad_file(bad: config_import.BadFile, tr: Translator) -> str:
    if bad.why == "long":
        # TRANSLATORS: web desk, pounds from a CSV file — too many lines at once.
        return tr.gettext("The file has more than %(count)d lines: split it.") % {
            "count": config_import.MAX_LINES
        }
    if bad.why == "empty":
        # TRANSLATORS: web desk, pounds from a CSV file — nothing in it.
        return tr.gettext("The file is empty.")
    # TRANSLATORS: web desk, pounds from a CSV file — the first line must name the
    # columns (the column names themselves are not translated: they are the file's).
    text = tr.gettext(
        "The first line must name the columns, among those listed below; code is required."
    )
    if bad.columns:
        text += " " + ", ".join(bad.columns)
    return text
