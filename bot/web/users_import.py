"""Users in bulk from a CSV file, on the web desk, for administrators (a state admin any
user, an authority admin their authority's: the use cases refuse the rest, line by line):

``/web/users/import``        the form (GET); the file checked (POST, multipart): the dry
                             run, line by line, changing nothing, and the button that
                             confirms it
``/web/users/import/apply``  the import of what the dry run showed (POST): every line in
                             one transaction, or none; the new users' invites, shown once

The confirmation carries the file (``bot.web.carried``: sealed for the session with the
plan's digest and the reason), and ``bot.services.user_import.apply_import`` runs the
plan again and keeps it only if it is the one shown: the users changed in between, the
dry run is shown again (409), nothing changed.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.i18n import Translator, translator
from bot.i18n.chrome import user_import as words
from bot.i18n.chrome.users import change_refused
from bot.i18n.chrome.web_names import role_name
from bot.i18n.common import day
from bot.services.runtime import App
from bot.services.user_import import KINDS, Imported, Plan, apply_import, plan_import
from bot.support.caller import Caller
from bot.support.errors import AppError, NotAllowedError, PlanChangedError, SheetRefusedError
from bot.support.user_sheet import MAX_BYTES, MAX_ROWS
from bot.web.carried import carried, carry
from bot.web.forms import form_fields
from bot.web.session import Keys, session_of
from bot.web.templating import Pages, language_of

__all__ = ["UserImportDesk"]

_PATH = "/web/users/import"
_PURPOSE = "web-users-import"
#: A request larger than this is refused before it is read (the file, its fields).
_LARGEST = 8 * MAX_BYTES
#: The confirmation's field that carries the file (base64: a third larger).
_CARRIED = 2 * MAX_BYTES

Signed = tuple[str, Caller]


class UserImportDesk:
    """The handlers of the import of users, sharing the keys and the templates."""

    def __init__(self, keys: Keys, telegram_username: str = "") -> None:
        self.keys = keys
        self.bot = telegram_username.strip().lstrip("@")
        self._pages: Pages | None = None

    def routes(self) -> list[BaseRoute]:
        return [
            Route(_PATH, self.form, methods=["GET"]),
            Route(_PATH, self.check, methods=["POST"]),
            Route(f"{_PATH}/apply", self.apply, methods=["POST"]),
        ]

    def _render(
        self, request: Request, app: App, signed: Signed, values: dict[str, Any], status: int = 200
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
            "max_mb": MAX_BYTES // 1_000_000,
            "max_rows": MAX_ROWS,
        }
        return self._pages.page(request, "users_import.html", lang, base | values, status=status)

    def _message(
        self, request: Request, app: App, signed: Signed, text: str, status: int
    ) -> Response:
        if self._pages is None:
            self._pages = Pages(app.config)
        lang = language_of(request, signed[1], app.config)
        tr = translator(lang)
        values = {
            "caller": signed[1],
            "csrf": self.keys.csrf(signed[0]),
            "title": tr.gettext("Not possible"),
            "text": text,
        }
        return self._pages.page(request, "message.html", lang, values, status=status)

    def _tr(self, request: Request, app: App, signed: Signed) -> Translator:
        return translator(language_of(request, signed[1], app.config))

    async def _signed(self, request: Request) -> tuple[App, Signed | None]:
        app: App = request.app.state.poundbot
        return app, await session_of(request, self.keys)

    def _not_admin(self, request: Request, app: App, signed: Signed) -> Response | None:
        if signed[1].is_admin:
            return None
        tr = self._tr(request, app, signed)
        text = change_refused(NotAllowedError("only an administrator manages users"), tr)
        return self._message(request, app, signed, text, 403)

    def _expired(self, request: Request, app: App, signed: Signed) -> Response:
        tr = self._tr(request, app, signed)
        text = tr.gettext("The form has expired. Open the page again and repeat the step.")
        return self._message(request, app, signed, text, 403)

    # -- the pages -----------------------------------------------------------------------

    async def form(self, request: Request) -> Response:
        """The form that takes the file (an administrator's)."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        return self._not_admin(request, app, signed) or self._render(request, app, signed, {})

    async def check(self, request: Request) -> Response:
        """The dry run of the file posted: what its import would do, nothing changed."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > _LARGEST:
            raise HTTPException(413, "too large")
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        async with request.form(max_files=2, max_fields=20) as posted:
            fields = await form_fields(request)
            if not self.keys.csrf_ok(signed[0], fields.get("csrf", "")):
                return self._expired(request, app, signed)
            refused = self._not_admin(request, app, signed)
            if refused is not None:
                return refused
            upload = posted.get("file")
            data = None
            if isinstance(upload, UploadFile) and upload.filename:
                data = await upload.read(MAX_BYTES + 1)
        reason = fields.get("reason", "")[:500]
        tr = self._tr(request, app, signed)
        if data is None:
            # TRANSLATORS: web desk, users from a CSV file — the form was sent without a file.
            text = tr.gettext("Choose the CSV file of users.")
            return self._render(request, app, signed, {"error": text, "reason": reason}, 400)
        return await self._dry_run(request, app, signed, data, reason)

    async def _dry_run(
        self,
        request: Request,
        app: App,
        signed: Signed,
        data: bytes,
        reason: str,
        *,
        note: str = "",
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)
        try:
            plan = await plan_import(
                app.store, app.deps, signed[1], data, reason=reason, words=words.vocabulary()
            )
        except SheetRefusedError as exc:
            values = {"error": words.sheet_refused(exc, tr), "reason": reason}
            return self._render(request, app, signed, values, 400)
        except NotAllowedError as exc:
            return self._message(request, app, signed, change_refused(exc, tr), 403)
        except AppError as exc:
            values = {"error": change_refused(exc, tr), "reason": reason}
            return self._render(request, app, signed, values, 400)
        shown = f"{plan.digest}|{' '.join(reason.split())}"
        found: dict[str, Any] = {
            "plan": self._plan(plan, tr),
            "note": note,
            "reason": reason,
            "digest": plan.digest,
            "carried": carry(self.keys.secret, _PURPOSE, signed[0], data, shown),
        }
        return self._render(request, app, signed, found, status)

    def _plan(self, plan: Plan, tr: Translator) -> dict[str, Any]:
        """A plan in words: its lines, how many of each kind, whether it may be applied."""
        lines = []
        for line in plan.lines:
            if line.refusal is not None:
                what = [words.line_refused(line.refusal, tr)]
            else:
                what = [words.change_line(change, tr) for change in line.changes]
            lines.append(
                {
                    "line": line.line,
                    "kind": line.kind,
                    "kind_name": words.kind_name(line.kind, tr),
                    "name": line.name,
                    "phone": line.phone,
                    "role": role_name(line.role, tr) if line.role else "",
                    "what": what,
                }
            )
        counts = [(kind, words.kind_name(kind, tr), plan.count(kind)) for kind in KINDS]
        return {
            "lines": lines,
            "counts": [c for c in counts if c[2]],
            "refused": plan.refused,
            "changes": plan.changes,
            "ignored": ", ".join(plan.ignored),
        }

    async def apply(self, request: Request) -> Response:
        """The import the dry run showed, or the dry run again (409) when the users
        changed since; nothing changed then."""
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > _LARGEST:
            raise HTTPException(413, "too large")
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        async with request.form(max_files=0, max_fields=20, max_part_size=_CARRIED):
            fields = await form_fields(request)
        if not self.keys.csrf_ok(signed[0], fields.get("csrf", "")):
            return self._expired(request, app, signed)
        refused = self._not_admin(request, app, signed)
        if refused is not None:
            return refused
        reason, digest = fields.get("reason", "")[:500], fields.get("digest", "")
        shown = f"{digest}|{' '.join(reason.split())}"
        data = carried(self.keys.secret, _PURPOSE, signed[0], fields, shown)
        if data is None:
            return self._expired(request, app, signed)
        tr = self._tr(request, app, signed)
        try:
            done = await apply_import(
                app.store,
                app.deps,
                signed[1],
                data,
                reason=reason,
                expected=digest,
                words=words.vocabulary(),
            )
        except PlanChangedError:
            # TRANSLATORS: web desk, users from a CSV file — between the check and the
            # confirmation someone changed the users: nothing was imported; the new check
            # follows.
            note = tr.gettext(
                "The users changed since the file was checked: nothing was imported. "
                "Here is what the import would do now."
            )
            return await self._dry_run(request, app, signed, data, reason, note=note, status=409)
        except AppError as exc:
            if exc.code == "not_allowed":
                return self._message(request, app, signed, change_refused(exc, tr), 403)
            return await self._dry_run(
                request, app, signed, data, reason, note=change_refused(exc, tr), status=409
            )
        zone = app.config.reminders.timezone
        return self._render(request, app, signed, {"done": self._done(done, tr, zone)})

    def _done(self, done: Imported, tr: Translator, zone: tzinfo) -> dict[str, Any]:
        """What the import did, and each new user's invite (shown once)."""
        invites = [
            {
                "line": invited.line,
                "user_id": invited.user_id,
                "name": invited.name,
                "code": invited.code,
                "link": f"https://t.me/{self.bot}?start={invited.code}" if self.bot else "",
                "until": _when(invited.expires_at, zone, tr),
            }
            for invited in done.invites
        ]
        counts = [(kind, words.kind_name(kind, tr), done.plan.count(kind)) for kind in KINDS]
        return {"counts": [c for c in counts if c[2]], "invites": invites}


def _when(at: datetime, zone: tzinfo, tr: Translator) -> str:
    local_at = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(zone)
    return f"{day(local_at.date(), tr)} {local_at:%H:%M}"
