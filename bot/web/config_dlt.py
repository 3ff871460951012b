"""The DLT portal's export of approved templates, uploaded on the web desk by a state
administrator (``bot.services.dlt_ids``, as ``poundbot dlt import`` does it):

``/web/config/dlt``        the form (GET); the export checked (POST, multipart): which of
                           poundbot's templates it gives an id, new or changed, the rows
                           it cannot use, those still without one; nothing changed
``/web/config/dlt/apply``  the ids written into a new version of the configuration
                           (source ``dlt``, by the signed-in user, for the reason given),
                           taken up by every instance within seconds

The confirmation carries the export (``bot.web.carried``), sealed for the session with
the version it was checked against and the reason; another version in force by then:
the check again (409), nothing stored.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.config import ConfigError
from bot.config.dlt_ids import IdsRefused
from bot.i18n import Translator, translator
from bot.i18n.chrome import config_dlt as words
from bot.i18n.refusals.errors import app_error
from bot.services.dlt_ids import DltPlan, desk_import, desk_plan
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.dlt import registry
from bot.support.dlt_import import ExportError, parse_columns
from bot.support.errors import AppError, NotAllowedError, PlanChangedError
from bot.web.carried import carried, carry
from bot.web.forms import form_fields
from bot.web.session import Keys, session_of
from bot.web.templating import Pages, language_of

__all__ = ["DltDesk"]

_PATH = "/web/config/dlt"
_PURPOSE = "web-config-dlt"
#: The largest export read (bytes): a portal's sheet of a few thousand templates.
MAX_BYTES = 2_000_000

Signed = tuple[str, Caller]


class DltDesk:
    """The handlers of the DLT import's page, with the desk's keys and templates."""

    def __init__(self, keys: Keys) -> None:
        self.keys = keys
        self._pages: Pages | None = None

    def routes(self) -> list[BaseRoute]:
        return [
            Route(_PATH, self.form, methods=["GET"]),
            Route(_PATH, self.check, methods=["POST"]),
            Route(f"{_PATH}/apply", self.apply, methods=["POST"]),
        ]

    def _page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        name: str,
        values: dict[str, Any],
        status: int = 200,
    ) -> Response:
        if self._pages is None:
            self._pages = Pages(app.config)
        lang = language_of(request, signed[1], app.config)
        base = {
            "caller": signed[1],
            "csrf": self.keys.csrf(signed[0]),
            "error": "",
            "note": "",
            "plan": None,
            "done": None,
            "reason": "",
            "columns": "",
        }
        return self._pages.page(request, name, lang, base | values, status=status)

    def _tr(self, request: Request, app: App, signed: Signed) -> Translator:
        return translator(language_of(request, signed[1], app.config))

    def _message(
        self, request: Request, app: App, signed: Signed, text: str, status: int
    ) -> Response:
        tr = self._tr(request, app, signed)
        values = {"title": tr.gettext("Not possible"), "text": text}
        return self._page(request, app, signed, "message.html", values, status)

    def _refused(self, request: Request, app: App, signed: Signed) -> Response | None:
        """A state administrator's page: anyone else's request refused (403)."""
        if signed[1].is_state_admin:
            return None
        exc = NotAllowedError("only a state administrator changes the configuration")
        return self._message(
            request, app, signed, app_error(exc, self._tr(request, app, signed)), 403
        )

    def _expired(self, request: Request, app: App, signed: Signed) -> Response:
        tr = self._tr(request, app, signed)
        text = tr.gettext("The form has expired. Open the page again and repeat the step.")
        return self._message(request, app, signed, text, 403)

    async def _signed(self, request: Request) -> tuple[App, Signed | None]:
        app: App = request.app.state.poundbot
        return app, await session_of(request, self.keys)

    async def form(self, request: Request) -> Response:
        """The form that takes the export."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        refused = self._refused(request, app, signed)
        return refused or self._page(request, app, signed, "config/dlt.html", {})

    async def check(self, request: Request) -> Response:
        """The dry run of the export posted: nothing stored."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > 4 * MAX_BYTES:
            raise HTTPException(413, "too large")
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        async with request.form(max_files=2, max_fields=20) as posted:
            fields = await form_fields(request)
            if not self.keys.csrf_ok(signed[0], fields.get("csrf", "")):
                return self._expired(request, app, signed)
            refused = self._refused(request, app, signed)
            if refused is not None:
                return refused
            upload = posted.get("file")
            name, data = "", None
            if isinstance(upload, UploadFile) and upload.filename:
                name, data = upload.filename[-200:], await upload.read(MAX_BYTES + 1)
        tr = self._tr(request, app, signed)
        typed = {
            "reason": fields.get("reason", "")[:500],
            "columns": fields.get("columns", "")[:500],
        }
        if data is None:
            # TRANSLATORS: web desk, DLT import — the form was sent without a file.
            text = tr.gettext("Choose the export file from the DLT portal.")
            return self._page(
                request, app, signed, "config/dlt.html", {"error": text, **typed}, 400
            )
        if not typed["reason"].strip():
            text = tr.gettext("Give the reason for the change: it is kept in the history.")
            return self._page(
                request, app, signed, "config/dlt.html", {"error": text, **typed}, 400
            )
        if len(data) > MAX_BYTES:
            # TRANSLATORS: web desk, DLT import — the file is larger than the limit.
            text = tr.gettext("The file is too big: at most %(size)s.") % {"size": "2 MB"}
            return self._page(
                request, app, signed, "config/dlt.html", {"error": text, **typed}, 400
            )
        return await self._dry_run(request, app, signed, name, data, typed)

    async def _dry_run(
        self,
        request: Request,
        app: App,
        signed: Signed,
        name: str,
        data: bytes,
        typed: dict[str, str],
        *,
        note: str = "",
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)

        def again(text: str) -> Response:
            values = {"error": text, **typed}
            return self._page(request, app, signed, "config/dlt.html", values, 400)

        try:
            columns = parse_columns([typed["columns"]])
            plan = await desk_plan(app.store, signed[1], name, data, columns)
        except (ExportError, IdsRefused) as exc:
            return again(words.export_refused(str(exc), tr))
        except ConfigError as exc:
            return again(words.export_refused("; ".join(f.message for f in exc.faults), tr))
        except AppError as exc:
            return again(app_error(exc, tr))
        shown = f"{plan.version}|{name}|{typed['columns']}|{' '.join(typed['reason'].split())}"
        values = {
            **typed,
            "plan": self._plan(plan, tr),
            "note": note,
            "version": plan.version,
            "filename": name,
            "carried": carry(self.keys.secret, _PURPOSE, signed[0], data, shown),
        }
        return self._page(request, app, signed, "config/dlt.html", values, status)

    def _plan(self, plan: DltPlan, tr: Translator) -> dict[str, Any]:
        templates = registry()
        found = plan.found
        return {
            "version": plan.version,
            "rows": plan.rows,
            "added": plan.added,
            "changed": plan.changed,
            "same": len(plan.same),
            "unmatched": [
                (row.line, row.template_id, row.name, words.unmatched_reason(row, templates, tr))
                for row, _ in found.unmatched
            ],
            "not_approved": [
                (row.line, row.template_id, row.name, row.status)
                for row in (*found.rejected, *found.pending)
            ],
            "lacking": plan.lacking,
            "changes": plan.changes,
            "enforced": plan.enforced,
        }

    async def apply(self, request: Request) -> Response:
        """The ids stored as a new version, or the check again when another version is
        in force now (409)."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > 4 * MAX_BYTES:
            raise HTTPException(413, "too large")
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        async with request.form(max_files=0, max_fields=20, max_part_size=3 * MAX_BYTES):
            fields = await form_fields(request)
        if not self.keys.csrf_ok(signed[0], fields.get("csrf", "")):
            return self._expired(request, app, signed)
        refused = self._refused(request, app, signed)
        if refused is not None:
            return refused
        typed = {
            "reason": fields.get("reason", "")[:500],
            "columns": fields.get("columns", "")[:500],
        }
        version, name = fields.get("version", ""), fields.get("filename", "")[-200:]
        shown = f"{version}|{name}|{typed['columns']}|{' '.join(typed['reason'].split())}"
        data = carried(self.keys.secret, _PURPOSE, signed[0], fields, shown)
        if data is None or not version.isdecimal():
            return self._expired(request, app, signed)
        tr = self._tr(request, app, signed)
        try:
            columns = parse_columns([typed["columns"]])
            plan, done = await desk_import(
                app.store,
                signed[1],
                name,
                data,
                columns,
                reason=typed["reason"],
                version=int(version),
            )
        except PlanChangedError:
            # TRANSLATORS: web desk, DLT import — another version of the configuration was
            # stored between the check and the confirmation: nothing stored; checked again.
            note = tr.gettext(
                "The configuration changed since the file was checked: nothing was stored. "
                "Here is what the import would do now."
            )
            return await self._dry_run(
                request, app, signed, name, data, typed, note=note, status=409
            )
        except (ExportError, IdsRefused, ConfigError, AppError):
            return await self._dry_run(request, app, signed, name, data, typed, status=409)
        values = {"done": {"version": done.id, "ids": len(plan.found.ids)}}
        return self._page(request, app, signed, "config/dlt.html", values)
