"""The configuration on the web desk, for state administrators, read only:

``/web/config``       the version in force (when, by whom, from where, why), the recent
                      changes made on the web desk, and every version, newest first,
                      each a link to its page; an authority's administrator is sent to
                      the places of their authority and its changes
                      (``bot.web.config_places``);
``/web/config/<id>``  one version: its changes from the one before, as a unified diff.

A version is imported on the server (``poundbot config import``); every instance takes
it up within seconds (``bot.services.config_versions``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from bot.config.names import local
from bot.i18n import fmt, translator
from bot.i18n.catalogs import Translator
from bot.i18n.chrome.config_page import (
    changes_from,
    config_labels,
    imported_by,
    in_force,
    source_name,
    version_title,
)
from bot.i18n.chrome.config_places import changes_labels
from bot.i18n.documents.documents import document_labels
from bot.services.config_edit import audit
from bot.services.config_versions import desk_version, desk_versions, diff
from bot.services.runtime import App
from bot.store.config_versions import VersionRow
from bot.support.caller import Caller
from bot.web.config_places import recent_changes
from bot.web.printing import GetCaller, guarded, not_found, page
from bot.web.templating import language_of
from domain.calendar import LOCAL_TZ

__all__ = ["config_routes"]


def _row(row: VersionRow, tr: Translator) -> dict[str, str | int]:
    """A version as the page shows it."""
    return {
        "id": row.id,
        "when": fmt.datetime(row.created_at.astimezone(LOCAL_TZ), tr.lang),
        "who": imported_by(row.by_name, tr),
        "source": source_name(row.source, tr),
        "reason": row.reason,
    }


def _context(request: Request, app: App, caller: Caller, title: str) -> dict[str, object]:
    tr = translator(language_of(request, caller, app.config))
    labels = document_labels(tr)
    return {
        "lang": tr.lang,
        "title": title,
        "labels": labels,
        "printed": labels["printed"] % {"date": fmt.date(app.deps.today(), tr.lang)},
    }


async def _versions(request: Request, app: App, caller: Caller) -> Response:
    if caller.is_admin and not caller.is_state_admin:  # their authority's part of it
        return RedirectResponse("/web/config/authorities", status_code=303)
    rows = await desk_versions(app.store, caller)
    tr = translator(language_of(request, caller, app.config))
    shown = [_row(row, tr) for row in rows]
    context = _context(request, app, caller, config_labels(tr)["page"])
    context |= {
        "config": config_labels(tr),
        "in_force": in_force(rows[0].id, tr) if rows else "",
        "current": shown[0] if shown else None,
        "versions": shown,
        "changes": recent_changes(await audit(app.store, caller, None), tr),
        "cl": changes_labels(tr),
        "version_links": True,
        "csv_authorities": [
            (code, local(a.name, tr.lang)) for code, a in app.config.authorities.items()
        ],
    }
    return page(request, "config/index.html", context)


async def _version(request: Request, app: App, caller: Caller) -> Response:
    raw = str(request.path_params["version_id"])
    if not raw.isdecimal() or len(raw) > 9:
        return not_found()
    found = await desk_version(app.store, caller, int(raw))
    if found is None:
        return not_found()
    row, before = found
    tr = translator(language_of(request, caller, app.config))
    context = _context(request, app, caller, version_title(row.id, tr))
    context |= {
        "config": config_labels(tr),
        "version": _row(row, tr),
        "changes": changes_from(before.id, tr) if before is not None else "",
        "lines": diff(before, row)[2:] if before is not None else row.text.splitlines(),
        "first": before is None,
    }
    return page(request, "config/version.html", context)


def config_routes(get_caller: GetCaller) -> list[Route]:
    """The configuration's pages; ``get_caller`` says who is signed in."""
    return [
        Route("/web/config", guarded(get_caller, _versions), methods=["GET"]),
        Route("/web/config/{version_id}", guarded(get_caller, _version), methods=["GET"]),
    ]
