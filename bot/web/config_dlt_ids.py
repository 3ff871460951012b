"""The DLT ids on the web desk, for state administrators: ``/web/config/dlt-ids`` lists every
SMS template the configuration's languages need (``bot.support.dlt.registry``), each
kind a line with its id in each language or "missing", 50 kinds a page (``?missing=1``:
those with an id missing); ``?edit=<kind>.<lang>`` opens the form of one id, and the
principal entity's id has its own. POST ``/web/config/dlt-ids`` saves one id
(``bot.services.dlt_edit``) with the desk's CSRF token, the version it was opened on and
a reason; refused, the page again with the form filled and why, nothing written."""

from __future__ import annotations

import re
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.i18n import translator
from bot.i18n.chrome import config_tariffs as words
from bot.services.dlt_edit import set_entity_id, set_template_id
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.dlt import Registry, registry
from bot.support.errors import AppError, NotAllowedError
from bot.web.config_tariffs import take_up
from bot.web.forms import form_fields
from bot.web.pages import Desk
from bot.web.session import session_of
from bot.web.templating import language_of

__all__ = ["dlt_id_routes"]

_PATH: Final = "/web/config/dlt-ids"
_PAGE: Final = 50
_NAME: Final = re.compile(r"[a-z0-9-]{1,60}\.[a-z]{2}")
Signed = tuple[str, Caller]


def _needed(app: App) -> Registry:
    return registry().only(app.config.sms_languages)


def _note(request: Request, app: App, signed: Signed) -> str:
    """What the last change did (``?saved=<version>``)."""
    saved = request.query_params.get("saved", "")
    if not saved.isdecimal() or len(saved) > 9:
        return ""
    tr = translator(language_of(request, signed[1], app.config))
    return words.done_note("dlt", int(saved), tr)


def dlt_id_routes(desk: Desk) -> list[BaseRoute]:
    """The page of DLT ids and its form, with the desk's keys and templates."""

    def render(
        request: Request, app: App, signed: Signed, values: dict[str, Any], status: int = 200
    ) -> Response:
        lang = language_of(request, signed[1], app.config)
        extra = {"caller": signed[1], "csrf": desk.keys.csrf(signed[0])}
        return desk.pages(app).page(
            request, "config/dlt_ids.html", lang, extra | values, status=status
        )

    def refused(request: Request, app: App, signed: Signed, exc: AppError) -> Response:
        tr = translator(language_of(request, signed[1], app.config))
        values = {"title": tr.gettext("Not possible"), "text": words.change_refused(exc, tr, {})}
        lang = tr.lang
        extra = {"caller": signed[1], "csrf": desk.keys.csrf(signed[0])}
        return desk.pages(app).page(request, "message.html", lang, extra | values, status=403)

    def listing(
        request: Request,
        app: App,
        signed: Signed,
        *,
        edit: str = "",
        typed: dict[str, str] | None = None,
        error: str = "",
        status: int = 200,
    ) -> Response:
        query = request.query_params
        needed = _needed(app)
        ids = app.config.dlt.template_ids
        langs = list(app.config.sms_languages)
        missing = query.get("missing") == "1"
        kinds = [
            kind
            for kind in needed.kinds
            if not missing or any(f"{kind}.{lang}" not in ids for lang in langs)
        ]
        raw = query.get("page", "1")
        page = int(raw) if raw.isdecimal() and len(raw) < 5 else 1
        page = max(1, min(page, (len(kinds) + _PAGE - 1) // _PAGE or 1))
        lines = [
            {
                "kind": kind,
                "about": needed.about(kind),
                "ids": [(lang, f"{kind}.{lang}", ids.get(f"{kind}.{lang}", "")) for lang in langs],
            }
            for kind in kinds[(page - 1) * _PAGE : page * _PAGE]
        ]
        edit = edit or query.get("edit", "")
        template = needed.get(edit) if _NAME.fullmatch(edit) else None
        values = {
            "lines": lines,
            "langs": langs,
            "page": page,
            "pages": (len(kinds) + _PAGE - 1) // _PAGE,
            "missing": missing,
            "count": len(needed),
            "without": len(app.config.dlt.missing(needed)),
            "entity_id": app.config.dlt.entity_id,
            "edit": template,
            "edit_id": ids.get(edit, "") if template is not None else "",
            "typed": typed or {},
            "error": error,
            "note": _note(request, app, signed),
            "based_on": (typed or {}).get("based_on") or str(app.version or ""),
        }
        return render(request, app, signed, values, status)

    async def show(request: Request) -> Response:
        app: App = request.app.state.poundbot
        signed = await session_of(request, desk.keys)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        if not signed[1].is_state_admin:
            return refused(request, app, signed, NotAllowedError("the state's"))
        return listing(request, app, signed)

    async def save(request: Request) -> Response:
        app: App = request.app.state.poundbot
        signed = await session_of(request, desk.keys)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        tr = translator(language_of(request, signed[1], app.config))
        fields = await form_fields(request)
        if not desk.keys.csrf_ok(signed[0], fields.get("csrf", "")):
            text = tr.gettext("The form has expired. Open the page again and repeat the step.")
            extra = {"caller": signed[1], "csrf": desk.keys.csrf(signed[0])}
            values = {"title": tr.gettext("Not possible"), "text": text}
            pages = desk.pages(app)
            return pages.page(request, "message.html", tr.lang, extra | values, status=403)
        if not signed[1].is_state_admin:
            return refused(request, app, signed, NotAllowedError("the state's"))
        based = fields.get("based_on", "")
        based_on = int(based) if based.isdecimal() and len(based) < 10 else -1
        name = fields.get("name", "")[:70]
        value = fields.get("id", "")[:40]
        reason = fields.get("reason", "")[:500]
        try:
            if name == "entity_id":
                written = await set_entity_id(
                    app.store, signed[1], based_on=based_on, entity_id=value, reason=reason
                )
            else:
                written = await set_template_id(
                    app.store,
                    signed[1],
                    _needed(app),
                    based_on=based_on,
                    name=name,
                    template_id=value,
                    reason=reason,
                )
        except AppError as exc:
            status = 409 if exc.code == "config_changed" else 400
            typed = {"name": name, "id": value, "reason": reason}
            if exc.code != "config_changed":
                typed["based_on"] = based
            text = words.change_refused(exc, tr, {})
            return listing(request, app, signed, edit=name, typed=typed, error=text, status=status)
        await take_up(app, written)
        shown = name if name == "entity_id" or _NAME.fullmatch(name) else ""
        return RedirectResponse(f"{_PATH}?edit={shown}&saved={written.version_id}", 303)

    return [Route(_PATH, show, methods=["GET"]), Route(_PATH, save, methods=["POST"])]
