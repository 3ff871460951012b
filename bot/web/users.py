"""The page of users of the web desk, for administrators (a state admin every user, an
authority admin their authority's):

``/web/users``                 the users, filtered by authority, pound, role and words,
                               50 a page; a link to the audit of users as CSV
``/web/users/new``             the form that adds a user (GET) and adds them with an
                               invite to Telegram (POST)
``/web/users/audit.csv``       the audit of users (``poundbot-admin export audit``)
``/web/users/<id>``            one user, their history; POST ``.../edit``,
                               ``.../disable``, ``.../enable``, ``.../invite``

Every change goes through a use case of ``bot.services.admin`` (which refuses what the
caller may not do, and audits what it does), in one transaction: a refused change
stores nothing, and the form is shown again with what was typed and why. Every POST
carries the desk's CSRF token. After a change the browser is sent to the user's page
(post/redirect/get), which says what was done; a new invite's code rides there once in
a sealed cookie (``bot.web.sealed``), and is never written anywhere else in clear.

Why it is long: the handlers of the five pages and four changes, and the putting of a
user into words that the list and the user's page share."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.adapters.export import AUDIT_HEADER, audit_record
from bot.config.names import local
from bot.i18n import Translator, translator
from bot.i18n.chrome import users as words
from bot.i18n.chrome import web_names as names
from bot.i18n.common import day, office_title
from bot.services import user_desk
from bot.services.admin import (
    add_user,
    disable_user,
    edit_user,
    enable_user,
    reinvite_user,
    set_offices,
    user_history,
)
from bot.services.base import Deps
from bot.services.runtime import App
from bot.store.models import Invite, User, UserChange
from bot.store.port import UserStore
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.clean import clean_text
from bot.support.csv_sheet import Table
from bot.support.errors import AppError, BadInputError, NotAllowedError, UnknownUserError
from bot.support.offices import declared_offices, held_offices
from bot.web.forms import form_fields
from bot.web.printing import csv_response
from bot.web.sealed import open_note, seal_note
from bot.web.session import Keys, session_of
from bot.web.templating import LANGUAGE_NAMES, Pages, language_of
from domain.profiles import Office

__all__ = ["UserDesk"]

_SIGNIN = "/web/signin"
#: The cookie that carries what a change did (and a new invite) to the user's page.
_NOTE_COOKIE = "poundbot_users_note"
_NOTE_PATH = "/web/users"
_NOTE_PURPOSE = "web-users-note"
#: The offices an officer may be declared to hold (a keeper holds the pound-keeper's).
_OFFICER_OFFICES = tuple(o for o in Office if o is not Office.POUND_KEEPER)
#: The status of each kind of refusal (else 400: what was typed).
_STATUS = {"not_allowed": 403, "unknown_user": 404}

Signed = tuple[str, Caller]


@dataclass
class _Form:
    """What a form of users holds, as typed (kept when it is shown again)."""

    role: str = ""
    name: str = ""
    phone: str = ""
    lang: str = ""
    pound: str = ""
    authority: str = ""
    offices: list[str] = field(default_factory=list)
    reason: str = ""


class UserDesk:
    """The handlers of the page of users, sharing the keys and the templates."""

    def __init__(self, keys: Keys, telegram_username: str = "") -> None:
        self.keys = keys
        #: The bot's @username, for the t.me link of an invite ("": the code alone).
        self.bot = telegram_username.strip().lstrip("@")
        self._pages: Pages | None = None

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/web/users", self.listing, methods=["GET"]),
            Route("/web/users/new", self.new, methods=["GET"]),
            Route("/web/users/new", self.add, methods=["POST"]),
            Route("/web/users/audit.csv", self.audit, methods=["GET"]),
            Route("/web/users/{user_id:int}", self.detail, methods=["GET"]),
            Route("/web/users/{user_id:int}/{change}", self.change, methods=["POST"]),
        ]

    # -- plumbing --------------------------------------------------------------------

    def _render(
        self,
        request: Request,
        app: App,
        name: str,
        signed: Signed,
        values: dict[str, Any],
        status: int = 200,
    ) -> Response:
        if self._pages is None:
            self._pages = Pages(app.config)
        lang = language_of(request, signed[1], app.config)
        extra = {"caller": signed[1], "csrf": self.keys.csrf(signed[0])}
        return self._pages.page(request, name, lang, {**extra, **values}, status=status)

    def _refused(
        self, request: Request, app: App, signed: Signed, exc: AppError, tr: Translator
    ) -> Response:
        """A refusal as a page that shows nothing of what was asked for."""
        status = _STATUS.get(exc.code, 400)
        title = tr.gettext("Not found") if status == 404 else tr.gettext("Not possible")
        text = words.change_refused(exc, tr)
        values = {"title": title, "text": text}
        return self._render(request, app, "message.html", signed, values, status)

    def _expired(self, request: Request, app: App, signed: Signed, tr: Translator) -> Response:
        """A form without the session's CSRF token (or with an old one)."""
        values = {
            "title": tr.gettext("Not possible"),
            "text": tr.gettext("The form has expired. Open the page again and repeat the step."),
        }
        return self._render(request, app, "message.html", signed, values, 403)

    def _tr(self, request: Request, app: App, signed: Signed) -> Translator:
        return translator(language_of(request, signed[1], app.config))

    def _place(self, app: App, user: User, lang: str) -> str:
        """The name of a keeper's pound, or of an officer's or admin's authority."""
        pound = app.config.pounds.get(user.pound_code or "")
        if user.role == KEEPER and pound is not None:
            return local(pound.name, lang)
        authority = app.config.authorities.get(user.authority_code or "")
        if authority is not None:
            return local(authority.name, lang)
        return user.pound_code or user.authority_code or ""

    def _offices(self, user: User, tr: Translator) -> str:
        """The offices a user holds, in words (an officer with none declared holds the
        local authority's, and the page says so)."""
        declared = declared_offices(user.offices)
        held = held_offices(user.role, declared)
        text = ", ".join(office_title(o, tr) for o in Office if o in held)
        if user.role == OFFICER and not declared:
            # TRANSLATORS: web desk, the page of users — an officer declared to hold no
            # office stands for the local authority (the offices named before it).
            text += " " + tr.gettext("(none declared)")
        return text

    def _line(
        self, app: App, line: user_desk.UserLine, tr: Translator, zone: tzinfo
    ) -> dict[str, Any]:
        """A user in words, for the list and their page."""
        user = line.user
        state = tr.gettext("Enabled")
        if not user.active:
            # TRANSLATORS: web desk, the page of users — a user disabled, and since when
            # (a day and a time); without a day when the history does not say.
            since = _when(line.disabled_since, zone, tr)
            state = (
                tr.gettext("Disabled since %(since)s") % {"since": since}
                if since
                else tr.gettext("Disabled")
            )
        return {
            "id": user.id,
            "name": user.name,
            "post": words.post(user.role, self._place(app, user, tr.lang), tr),
            "phone": user.phone or "",
            "lang": LANGUAGE_NAMES.get(user.lang or "", ""),
            "offices": self._offices(user, tr),
            "active": user.active,
            "state": state,
            # TRANSLATORS: web desk, the page of users — a Telegram account is bound to
            # the user (they can use the bot in Telegram).
            "telegram": tr.gettext("bound") if user.telegram_id is not None else "—",
            "role": user.role,
        }

    def _choices(self, app: App, caller: Caller, tr: Translator) -> dict[str, Any]:
        """The authorities, pounds, languages and offices the forms offer the caller."""
        lang = tr.lang
        authorities = [
            (code, local(a.name, lang))
            for code, a in app.config.authorities.items()
            if caller.administers(code)
        ]
        pounds = [
            (code, local(p.name, lang))
            for code, p in app.config.pounds.items()
            if caller.administers(p.authority)
        ]
        return {
            "authorities": authorities,
            "pounds": pounds,
            "languages": [(code, name) for code, name in LANGUAGE_NAMES.items()],
            "offices": [(o.value, office_title(o, tr)) for o in _OFFICER_OFFICES],
            "state_admin": caller.is_state_admin,
            "roles": [
                (KEEPER, names.role_name(KEEPER, tr)),
                (OFFICER, names.role_name(OFFICER, tr)),
                (ADMIN, names.role_name(ADMIN, tr)),
            ],
        }

    async def _signed(self, request: Request) -> tuple[App, Signed | None]:
        app: App = request.app.state.poundbot
        return app, await session_of(request, self.keys)

    # -- the list ------------------------------------------------------------------------

    async def listing(self, request: Request) -> Response:
        """The users of the caller's scope, filtered, 50 a page."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        query = request.query_params
        page = query.get("page", "1")
        role = query.get("role", "")
        wanted = user_desk.UserFilter(
            authority=query.get("authority", "")[:40],
            pound=query.get("pound", "")[:40],
            role=role if role in user_desk.ROLE_CHOICES else "",
            text=clean_text(query.get("q", ""))[:100].strip(),
            page=int(page) if page.isascii() and page.isdigit() and len(page) < 7 else 1,
        )
        tr = self._tr(request, app, signed)
        try:
            async with app.store.reading() as tx:
                found = await user_desk.user_listing(tx, app.deps, signed[1], wanted)
        except AppError as exc:
            return self._refused(request, app, signed, exc, tr)
        zone = app.config.reminders.timezone

        def page_link(number: int) -> str:
            params = {k: v for k, v in query.items() if k not in ("page", "lang")}
            params["page"] = str(number)
            return "/web/users?" + urlencode(params)

        roles = [(user_desk.STATE_ADMIN, words.post(ADMIN, "", tr))]
        roles += [(r, names.role_name(r, tr)) for r in (ADMIN, OFFICER, KEEPER)]
        values = {
            "wanted": wanted,
            "found": found,
            "lines": [self._line(app, line, tr, zone) for line in found.items],
            "page_link": page_link,
            # TRANSLATORS: web desk, the page of users — how many users the filter found.
            "count": tr.ngettext("%(count)d user", "%(count)d users", found.total)
            % {"count": found.total},
            "filter_roles": roles,
            **self._choices(app, signed[1], tr),
        }
        return self._render(request, app, "users.html", signed, values)

    async def audit(self, request: Request) -> Response:
        """The audit of users as ``poundbot-admin export audit`` writes it: of one
        authority (``?authority=``), or every one (a state admin, without it)."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        authority = request.query_params.get("authority", "")[:40] or None
        try:
            async with app.store.reading() as tx:
                changes = await user_history(tx, app.deps, signed[1], authority=authority)
        except AppError as exc:
            return self._refused(request, app, signed, exc, self._tr(request, app, signed))
        table = Table(AUDIT_HEADER, [audit_record(change) for change in changes])
        return csv_response(table, f"audit-{authority or 'all'}.csv")

    # -- adding a user ---------------------------------------------------------------------

    async def new(self, request: Request) -> Response:
        """The form that adds a user (for an administrator; the use case refuses the
        rest when it is sent)."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        tr = self._tr(request, app, signed)
        if not signed[1].is_admin:
            return self._refused(request, app, signed, _not_admin(), tr)
        return self._new_page(request, app, signed, _Form(), "", 200)

    def _new_page(
        self, request: Request, app: App, signed: Signed, form: _Form, error: str, status: int
    ) -> Response:
        tr = self._tr(request, app, signed)
        values = {"form": form, "error": error, **self._choices(app, signed[1], tr)}
        return self._render(request, app, "user_new.html", signed, values, status)

    async def add(self, request: Request) -> Response:
        """Adds a user and makes their invite to Telegram, in one transaction: refused,
        the form again with what was typed and why, and nothing stored."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        tr = self._tr(request, app, signed)
        fields = await form_fields(request)
        if not self.keys.csrf_ok(signed[0], fields.get("csrf", "")):
            return self._expired(request, app, signed, tr)
        form = await _form_of(request, fields)
        try:
            async with app.store.transaction() as tx:
                user = await add_user(
                    tx,
                    app.deps,
                    signed[1],
                    role=form.role,
                    pound=form.pound or None,
                    authority=form.authority or None,
                    phone=form.phone or None,
                    name=form.name,
                    lang=form.lang or None,
                    offices=form.offices if form.role == OFFICER else (),
                    reason=form.reason,
                )
                invite = await reinvite_user(tx, app.deps, signed[1], user.id, reason=form.reason)
        except AppError as exc:
            status = _STATUS.get(exc.code, 400)
            return self._new_page(request, app, signed, form, words.change_refused(exc, tr), status)
        return self._to_user(request, signed, user.id, "added", invite)

    # -- one user ---------------------------------------------------------------------------

    def _to_user(
        self, request: Request, signed: Signed, user_id: int, done: str, invite: Invite | None
    ) -> Response:
        """Post/redirect/get: to the user's page, with what was done (and the invite's
        code, sealed) in a cookie the page reads once."""
        note = {"user": str(user_id), "done": done}
        if invite is not None:
            note |= {"code": invite.code, "until": invite.expires_at.isoformat()}
        response = RedirectResponse(f"/web/users/{user_id}{_lang_query(request)}", status_code=303)
        response.set_cookie(
            _NOTE_COOKIE,
            seal_note(self.keys.secret, _NOTE_PURPOSE, signed[0], note),
            max_age=60,
            path=_NOTE_PATH,
            secure=self.keys.secure,
            httponly=True,
            samesite="lax",
        )
        return response

    async def detail(self, request: Request) -> Response:
        """One user: who they are, the forms that change them, and their history; what
        the last change did, once."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        user_id: int = request.path_params["user_id"]
        cookie = request.cookies.get(_NOTE_COOKIE)
        note = open_note(self.keys.secret, _NOTE_PURPOSE, signed[0], cookie) or {}
        if note.get("user") != str(user_id):
            note = {}
        response = await self._user_page(request, app, signed, user_id, note=note)
        if cookie is not None:  # shown once
            secure = self.keys.secure
            response.delete_cookie(
                _NOTE_COOKIE, path=_NOTE_PATH, secure=secure, httponly=True, samesite="lax"
            )
        return response

    async def _user_page(
        self,
        request: Request,
        app: App,
        signed: Signed,
        user_id: int,
        *,
        note: dict[str, str] | None = None,
        form: _Form | None = None,
        error: str = "",
        failed: str = "",
        status: int = 200,
    ) -> Response:
        tr = self._tr(request, app, signed)
        try:
            async with app.store.reading() as tx:
                found = await user_desk.user_detail(tx, app.deps, signed[1], user_id)
                by = await _names_of(tx, found.history)
        except AppError as exc:
            return self._refused(request, app, signed, exc, tr)
        zone = app.config.reminders.timezone
        user = found.line.user
        if form is None:
            form = _Form(
                role=user.role,
                name=user.name,
                phone=user.phone or "",
                lang=user.lang or "",
                pound=user.pound_code or "",
                authority=user.authority_code or "",
                offices=[o.value for o in declared_offices(user.offices)],
            )
        # TRANSLATORS: web desk, the history of a user — the change was made on the
        # command line (poundbot-admin), by the operator.
        cli = tr.gettext("the command line")
        history = [
            {
                "when": _when(c.at, zone, tr),
                "by": cli if c.by_user_id is None else by.get(c.by_user_id, ""),
                "field": words.audit_field(c.field, tr),
                "old": words.audit_value(c.field, c.old, tr),
                "new": words.audit_value(c.field, c.new, tr),
                "reason": c.reason,
            }
            for c in found.history
        ]
        invite: list[str] = []
        if note.get("code") if note else False:
            assert note is not None
            until = datetime.fromisoformat(note.get("until", ""))
            link = f"https://t.me/{self.bot}?start={note['code']}" if self.bot else ""
            invite = words.invite_lines(note["code"], _when(until, zone, tr), link, tr)
        values = {
            "user": self._line(app, found.line, tr, zone),
            "form": form,
            "history": history,
            "done": words.done_note(note["done"], tr) if note and note.get("done") else "",
            "invite": invite,
            "error": error,
            "failed": failed,
            **self._choices(app, signed[1], tr),
        }
        return self._render(request, app, "user.html", signed, values, status)

    async def change(self, request: Request) -> Response:
        """A change to a user (``edit``, ``disable``, ``enable``, ``invite``), for a
        reason, through its use case; refused, the user's page again with why."""
        app, signed = await self._signed(request)
        if signed is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        user_id: int = request.path_params["user_id"]
        change = request.path_params["change"]
        tr = self._tr(request, app, signed)
        fields = await form_fields(request)
        if not self.keys.csrf_ok(signed[0], fields.get("csrf", "")):
            return self._expired(request, app, signed, tr)
        if change not in ("edit", "disable", "enable", "invite"):
            return self._refused(request, app, signed, _no_user(user_id), tr)
        form = await _form_of(request, fields)
        invite: Invite | None = None
        try:
            async with app.store.transaction() as tx:
                caller, deps, why = signed[1], app.deps, form.reason
                if change == "edit":
                    await _edit(tx, deps, caller, user_id, form)
                elif change == "disable":
                    await disable_user(tx, deps, caller, user_id, reason=why)
                elif change == "enable":
                    await enable_user(tx, deps, caller, user_id, reason=why)
                else:
                    invite = await reinvite_user(tx, deps, caller, user_id, reason=why)
        except AppError as exc:
            status = _STATUS.get(exc.code, 400)
            if status != 400:  # another authority's user, or none: nothing of them shown
                return self._refused(request, app, signed, exc, tr)
            kept = form if change == "edit" else None
            text = words.change_refused(exc, tr)
            return await self._user_page(
                request, app, signed, user_id, form=kept, error=text, failed=change, status=status
            )
        done = {"edit": "edited", "disable": "disabled", "enable": "enabled"}.get(change, "invited")
        return self._to_user(request, signed, user_id, done, invite)


async def _edit(tx: UserStore, deps: Deps, caller: Caller, user_id: int, form: _Form) -> None:
    """The edit form through ``edit_user`` (name, phone, language, pound, authority) and,
    for an officer whose offices were changed, ``set_offices``: one of them at least
    changes something, or "nothing to change"."""
    user = await tx.user_by_id(user_id)
    role = user.role if user is not None else ""
    offices_changed = role == OFFICER and set(form.offices) != {
        o.value for o in declared_offices(user.offices if user else "")
    }
    try:
        await edit_user(
            tx,
            deps,
            caller,
            user_id,
            reason=form.reason,
            name=form.name,
            phone=form.phone or None,
            lang=form.lang or None,
            pound=(form.pound or None) if role == KEEPER else None,
            authority=(form.authority or None) if role in (OFFICER, ADMIN) else None,
            state=role == ADMIN and not form.authority,
        )
    except BadInputError as exc:
        if exc.reason != "nothing_to_change" or not offices_changed:
            raise
    if offices_changed:
        await set_offices(tx, deps, caller, user_id, form.offices, reason=form.reason)


async def _form_of(request: Request, fields: dict[str, str]) -> _Form:
    """A form of users as posted (its offices, ticked boxes, read from the form)."""
    posted = await request.form()
    offices = [clean_text(v) for v in posted.getlist("offices") if isinstance(v, str)]
    return _Form(
        role=fields.get("role", "").strip(),
        name=fields.get("name", "")[:200],
        phone=fields.get("phone", "").strip()[:40],
        lang=fields.get("lang", "").strip(),
        pound=fields.get("pound", "").strip(),
        authority=fields.get("authority", "").strip(),
        offices=offices,
        reason=fields.get("reason", "")[:500],
    )


async def _names_of(tx: UserStore, changes: list[UserChange]) -> dict[int, str]:
    """The names of the users who made ``changes`` (their number if they have none)."""
    found: dict[int, str] = {}
    for by in {c.by_user_id for c in changes if c.by_user_id is not None}:
        user = await tx.user_by_id(by)
        found[by] = (user.name if user is not None and user.name else "") or f"#{by}"
    return found


def _when(at: datetime | None, zone: tzinfo, tr: Translator) -> str:
    """A time of the audit in local time: its day and ``HH:MM`` (SQLite's, naive, is UTC)."""
    if at is None:
        return ""
    local_at = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(zone)
    return f"{day(local_at.date(), tr)} {local_at:%H:%M}"


def _lang_query(request: Request) -> str:
    lang = request.query_params.get("lang", "")
    return f"?lang={lang}" if lang in LANGUAGE_NAMES else ""


def _not_admin() -> AppError:
    return NotAllowedError("only an administrator manages users")


def _no_user(user_id: int) -> AppError:
    return UnknownUserError("no such change", user_id=user_id)
